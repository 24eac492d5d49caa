"""The camera screen (a frame made by the project: two cards on the cloth, each outlined and
named, the watched region drawn), the camera screen with no camera, teaching a deck (a few
cards already taught), Jack Change It offering the card the camera saw on the pile, One-Eyed
Jack offering its guesses when it is unsure, a Slapjack game going on with the card pad
while the camera is unplugged, and one saying who slapped first while the camera names the card."""

from __future__ import annotations

import time
from types import SimpleNamespace


def table_frame(seed: int = 4):
    """A 640x480 frame from above: the pile's top card, and a card laid beside it."""
    import numpy as np

    from hardware.vision.render import card_quad, light_and_blur, paste_card, random_style, render_card, texture

    rng = np.random.default_rng(seed)
    image = texture(480, 640, rng, "cloth")
    style = random_style(rng)
    for code, (cx, cy, angle) in (("JD", (250, 250, 12)), ("7H", (470, 260, -20))):
        paste_card(image, render_card(code, style), card_quad(cx, cy, 150, angle))
    return light_and_blur(image, rng, blur=0.6, noise=2.0)


def still_camera(frame):
    """A camera that sees ``frame`` and nothing else, at 30 frames a second."""
    from hardware.camera.device import Camera, MockCamera

    return lambda: Camera(source=MockCamera([frame], fps=30, realtime=True, loop=True))


def wait_for(driver, condition, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        driver.pump(1)
        time.sleep(0.02)


def _camera_screen(app, driver):
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()
    link.camera_factory = still_camera(table_frame())
    app.settings["camera"]["region"] = [0.2, 0.15, 0.7, 0.75]
    screen = app.show("camera")
    wait_for(driver, lambda: screen.working and len(link.feed.picture().seen) >= 2)
    screen.update()


def _no_camera(app, driver):
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()
    link.camera_factory = None
    app.settings["camera"]["region"] = [0.0, 0.0, 1.0, 1.0]
    app.show("camera")


def one_card_frame(code: str, seed: int = 5):
    """A 640x480 frame with one card held under the camera, as a deck is taught."""
    from hardware.vision.synthetic import one_card_frame

    return one_card_frame(code, seed)


def _teach(app, driver):
    import shutil

    from hardware.vision.teach import Lesson
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()
    shutil.rmtree(link.deck_folder, ignore_errors=True)
    lesson = Lesson(link.deck_folder)
    for code in ("AS", "2S", "3S"):
        lesson.keep(one_card_frame(code))
    link.camera_factory = still_camera(one_card_frame("4S"))
    screen = app.show("teach-deck")
    screen.message = "3\u2660 kept."
    wait_for(driver, lambda: screen.link.feed.seeing and len(screen.link.feed.picture().seen) >= 1)
    screen.update()


def _jack_change_it_seen(app, driver):
    from companion.session import Session
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()
    link.camera_factory = still_camera(table_frame())
    session = Session.start(app.store, {"game": "jack-change-it", "players": ["Ann", "Ben", "Cat"], "start": "7H"})
    screen = app.open_session(session)
    # The picture shows the offer during its grace, counting down. Rendering both sizes can take
    # longer than the grace, so the table's clock stands still for the picture.
    screen.use_clock(lambda: 0.0, lambda delay, fn: SimpleNamespace(cancel=lambda: None))
    screen.offer_seen(["7C"], sure=True)


def _one_eyed_jack_unsure(app, driver):
    """One-Eyed Jack: the camera unsure of the card on the discard pile offers its guesses."""
    from companion.session import Session
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()
    link.camera_factory = still_camera(table_frame())
    session = Session.start(app.store, {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
    screen = app.open_session(session)
    screen.offer_seen(["KH", "KD", "KS"], sure=False)


def _slapjack_camera_lost(app, driver):
    """A camera Slapjack game whose camera was pulled out: the card pad carries on."""
    from hardware.camera.device import Camera, MockCamera
    from companion.session import Session
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()

    def unplugged():
        mock = MockCamera([table_frame()], fps=30, realtime=True, loop=True)
        mock.unplugged = True
        return Camera(source=mock)

    link.camera_factory = unplugged
    session = Session.start(app.store, {"game": "slapjack", "players": ["Ann", "Ben", "Cat"], "options": {},
                                        "feed": "camera"})
    session.play({"type": "turn", "card": "7H", "t": 12.5})
    screen = app.open_session(session)
    wait_for(driver, lambda: link.feed is not None and link.feed.seeing is False and "tap it in" in screen.turn_text)


def _slapjack_camera_first(app, driver):
    """A camera Slapjack game: a card is landing on the 7♥ and Ann and Cat slap it; while the
    camera names the card, the screen already says who was first."""
    from companion.session import Session
    from ui.camera_link import camera_for
    from ui.pads_link import link_for

    link = camera_for(app)
    link.close()
    link.camera_factory = still_camera(one_card_frame("7H"))
    session = Session.start(app.store, {"game": "slapjack", "players": ["Ann", "Ben", "Cat"], "options": {},
                                        "feed": "camera"})
    session.play({"type": "turn", "card": "7H", "t": 12.5})
    screen = app.open_session(session)
    driver.pump(2)
    wait_for(driver, lambda: link.feed is not None and link.feed.seeing)
    board = link_for(app).board
    t = board.mock.back_from_now(0.2)   # after the last scene's edges, or they would be bounce
    # The picture's moment: the pile has been changing since just before the presses (a hand
    # laying the next card), as the camera says while it decides.
    screen.table.landing_since = lambda: t - 0.1
    board.mock.deliver([(0, True, t), (2, True, t + 0.031), (0, False, t + 0.1), (2, False, t + 0.12)])
    wait_for(driver, lambda: bool(screen.landing_text), seconds=5)


def scenes(app, driver):
    return [
        ("camera", lambda: _camera_screen(app, driver)),
        ("camera-none", lambda: _no_camera(app, driver)),
        ("camera-teach", lambda: _teach(app, driver)),
        ("camera-jack-change-it", lambda: _jack_change_it_seen(app, driver)),
        ("camera-one-eyed-jack", lambda: _one_eyed_jack_unsure(app, driver)),
        ("camera-slapjack-lost", lambda: _slapjack_camera_lost(app, driver)),
        ("camera-slapjack-first", lambda: _slapjack_camera_first(app, driver)),
    ]
