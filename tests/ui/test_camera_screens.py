"""The camera in the real window: Slapjack's real deck fed by the camera (the mock camera
playing the synthetic game video, hardware/vision/synthetic.py), the camera unplugged and back
mid-game, the camera screen and teaching a deck. Taps go through the driver's finger.

Slapjack as docs/rules.md has it: the first slap on a Jack wins the pile; the camera's turn is
an ordinary ``turn`` with the time the card landed (docs/games/slapjack.md).
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("cv2")

from tests.ui.conftest import find, visible  # noqa: E402

pytestmark = pytest.mark.ui

CARDS = ("7H", "KS", "JD")


def pump_until(driver, condition, what: str, timeout: float = 20.0):
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        driver.pump(1)
        time.sleep(0.01)


@pytest.fixture(scope="module")
def video():
    from hardware.vision.synthetic import game_video

    return game_video(1, cards=CARDS)


@pytest.fixture
def camera(app, video):
    """The app's camera is the mock camera playing the synthetic game, in real time; each test
    gets it from the start and the link is closed afterwards."""
    from hardware.camera.device import Camera, MockCamera
    from ui.camera_link import camera_for

    frames, fps, _ = video
    link = camera_for(app)
    made = []

    def factory():
        mock = MockCamera(frames, fps=fps, realtime=True)
        made.append(mock)
        return Camera(source=mock)

    link.camera_factory = factory
    link.made = made
    yield link
    link.close()
    link.camera_factory = None
    app.settings["camera"]["region"] = [0.0, 0.0, 1.0, 1.0]


def start_camera_game(driver, app):
    for name in ("Ann", "Ben"):
        if name not in {p.name for p in app.store.players()}:
            app.store.add_player(name)
    setup = app.show("slapjack-setup")
    setup.chosen = []
    driver.pump(2)
    assert setup.camera_offered and visible(setup.ids.mode_camera)
    driver.tap(setup.roster_buttons["Ann"])
    driver.tap(setup.roster_buttons["Ben"])
    driver.tap(setup.ids.mode_real)
    assert not setup.use_camera and "card pad" in setup.guide
    driver.tap(setup.ids.mode_camera)
    assert setup.mode == "real" and setup.use_camera
    assert "the camera sees each card land" in setup.guide
    driver.tap(setup.ids.start_button)
    screen = app.manager.current_screen
    assert screen.name == "slapjack" and screen.session.game.header["feed"] == "camera"
    return screen


def turns(screen):
    return [a for a in screen.session.game.actions if a["type"] == "turn"]


def test_slapjack_takes_each_card_the_camera_sees_and_times_the_slap(driver, app, camera):
    screen = start_camera_game(driver, app)
    assert screen.turn_text == "Ann turns a card"
    pump_until(driver, lambda: len(turns(screen)) == 3, "the camera to see three cards")
    assert [a["card"] for a in turns(screen)] == list(CARDS)
    assert screen.top == "JD"
    landed = turns(screen)[-1]["t"]
    assert "Camera watching the pile" in screen.ids.status_label.text
    # Ben's pad pressed 300 ms after the Jack landed (the pads' clock is the camera's).
    screen.on_pad_press(1, landed + 0.300, landed + 0.300)
    pump_until(driver, lambda: screen.session.summary()["tallies"]["Ben"]["slaps_won"] == 1, "Ben's slap")
    assert screen.session.summary()["tallies"]["Ben"]["reactions_ms"] == [pytest.approx(300.0)]
    assert screen.verdict_text.startswith("Ben!")


def test_the_camera_unplugged_mid_game_says_so_and_the_card_pad_goes_on(driver, app, camera):
    screen = start_camera_game(driver, app)
    pump_until(driver, lambda: len(turns(screen)) == 1, "the first card")
    camera.made[-1].unplugged = True
    pump_until(driver, lambda: not camera.seeing, "the camera to be missed")
    assert "Camera unplugged" in screen.ids.status_label.text
    assert app.root.notice.startswith("Camera unplugged")
    assert screen.turn_text == "Ben turns a card: tap it in"
    pad = screen.ids.card_pad
    driver.tap(pad.rank_buttons["K"])
    driver.tap(pad.suit_buttons["S"])
    assert turns(screen)[-1] == {"type": "turn", "card": "KS"}
    camera.made[-1].unplugged = False
    pump_until(driver, lambda: camera.seeing, "the camera back")
    assert app.root.notice == "" and "Camera unplugged" not in screen.ids.status_label.text
    assert screen.turn_text == "Ann turns a card"
    pump_until(driver, lambda: len(turns(screen)) == 3, "the J♦ from the camera")
    assert [a["card"] for a in turns(screen)] == ["7H", "KS", "JD"]
