"""The camera in the real window: Slapjack's real deck fed by the camera (the mock camera
playing the synthetic game video, hardware/vision/synthetic.py), the camera unplugged and back
mid-game, the camera screen and teaching a deck. Taps go through the driver's finger.

Slapjack as docs/rules.md has it: the first slap on a Jack wins the pile; the camera's turn is
an ordinary ``turn`` with the time the card landed (companion/games/slapjack/log.md).

Long on purpose: each game the camera feeds, its loss and return, and both camera screens.
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


@pytest.fixture(autouse=True)
def games_left_as_found(driver, app):
    """The games these tests start are deleted afterwards: other tests' set-ups start from the
    last table played, and must not find these."""
    before = {record.id for record in app.store.games(limit=1_000_000)}
    yield
    app.show("home")   # a game screen left stops its table first (when the change completes)
    driver.pump(2)
    for record in app.store.games(limit=1_000_000):
        if record.id not in before:
            app.store.delete_game(record.id)


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

    from hardware.vision.feed import classifier_for

    frames, fps, _ = video
    classifier_for()   # built before the video starts, so the feed keeps up with it from the first frame
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



def test_a_camera_game_resumed_from_home_takes_cards_from_the_camera_again(driver, app, camera):
    screen = start_camera_game(driver, app)
    pump_until(driver, lambda: len(turns(screen)) == 1, "the first card")
    camera.made[-1].unplugged = True                            # the video holds still while the table is away
    game_id = screen.session.game_id
    home = app.show("home")
    driver.pump(3)
    row = next(r for r in home.ids.unfinished.children if r.game_id == game_id)
    driver.tap(row.ids.resume_button)
    resumed = app.manager.current_screen
    assert resumed.name == "slapjack" and resumed.session.game_id == game_id
    assert [a["card"] for a in turns(resumed)] == ["7H"]
    assert camera._listener is resumed
    camera.made[-1].unplugged = False
    pump_until(driver, lambda: len(turns(resumed)) == 3, "the camera's next cards")
    assert [a["card"] for a in turns(resumed)] == list(CARDS)
    assert all("t" in a for a in turns(resumed)), "each camera turn keeps its landing time"

def test_a_slap_while_the_card_seen_is_on_its_way_to_the_screen_goes_with_that_card(driver, app, still_camera):
    """The camera has named a card; the screen hears of it a frame later. A press in that moment
    waits for it rather than being ruled on the pile as the screen knew it (docs/vision.md)."""
    import threading

    screen = start_camera_game(driver, app)
    pump_until(driver, lambda: still_camera.changing_since() is None and still_camera.seeing, "a still pile")
    landed = time.monotonic() - 0.3
    told = threading.Thread(target=still_camera.on_card, args=("JC", landed))   # as the feed's thread does
    told.start()
    told.join()
    assert still_camera.changing_since() == landed
    screen.on_pad_press(1, landed + 0.25, time.monotonic())    # Ben, before the screen has the J♣
    pump_until(driver, lambda: screen.session.summary()["tallies"]["Ben"]["slaps_won"] == 1, "Ben's slap")
    assert still_camera.changing_since() is None
    assert [a["type"] for a in screen.session.game.actions[-2:]] == ["turn", "slap"]
    assert screen.session.summary()["tallies"]["Ben"]["reactions_ms"] == [pytest.approx(250.0)]


def test_while_the_camera_names_the_card_the_screen_already_says_who_slapped_first(driver, app, still_camera):
    """docs/rules.md, "Slapjack": the first slap on a Jack wins the pile. Who was first is the
    pads' to say at once; whether it was on a Jack waits for the camera to name the card."""
    import threading

    screen = start_camera_game(driver, app)
    pump_until(driver, lambda: still_camera.changing_since() is None and still_camera.seeing, "a still pile")
    screen.table.landing_since = lambda: landed            # a hand is laying the next card
    landed = time.monotonic() - 0.2
    screen.on_pad_press(1, landed + 0.100, time.monotonic())   # Ben
    screen.on_pad_press(0, landed + 0.120, time.monotonic())   # Ann, 20 ms later
    driver.pump(2)
    assert screen.ids.verdict_label.text == "Slap! Ben first, Ann +20.0 ms"
    assert not [a for a in screen.session.game.actions if a["type"] == "slap"], "nothing ruled before the card is named"
    assert screen.ids.on_card_button.disabled, "the camera decides which card: no question to the table"
    screen.table.landing_since = still_camera.changing_since
    told = threading.Thread(target=still_camera.on_card, args=("JC", landed))   # as the feed's thread does
    told.start()
    told.join()
    pump_until(driver, lambda: screen.session.summary()["tallies"]["Ben"]["slaps_won"] == 1, "Ben's slap")
    driver.pump(2)
    assert screen.ids.verdict_label.text.startswith("Ben!") and screen.landing_text == ""


# -- the camera screen --------------------------------------------------------------------------

@pytest.fixture
def still_camera(app):
    """A camera that sees two cards beside each other (the screenshots' frame), and nothing else."""
    from ui.camera_link import camera_for
    from ui.tools.scenes.camera import still_camera, table_frame

    link = camera_for(app)
    link.close()
    link.camera_factory = still_camera(table_frame())
    yield link
    link.close()
    link.camera_factory = None
    app.settings["camera"]["region"] = [0.0, 0.0, 1.0, 1.0]


def open_camera_screen(driver, app):
    settings = app.show("settings")
    driver.pump(2)
    driver.tap(settings.ids.camera_button)
    screen = app.manager.current_screen
    assert screen.name == "camera"
    return screen


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_camera_screen_shows_each_card_it_sees_and_a_dragged_box_is_the_region(driver, app, still_camera, size):
    import tomllib

    from companion import paths

    driver.resize(*size)
    screen = open_camera_screen(driver, app)
    pump_until(driver, lambda: screen.seen_text.startswith("Sees ") and screen.seen_text != "Sees no card",
               "the cards to be named")
    assert screen.working and visible(screen.ids.view)
    # two cards side by side, neither on the other: either may be named first
    assert screen.seen_text in ("Sees 7\u2665, J\u2666", "Sees J\u2666, 7\u2665"), screen.seen_text
    names = sorted(label.text for label in screen.ids.view.children)
    assert names == ["7\u2665", "J\u2666"]                      # each card's name over its outline
    view = screen.ids.view
    x, y, w, h = view.picture_rect()
    # A finger drags from a quarter in from the top left to a quarter in from the bottom right.
    start = view.to_window(x + 0.25 * w, y + 0.75 * h)
    end = view.to_window(x + 0.75 * w, y + 0.25 * h)
    driver.drag(start, end)
    assert view.region == pytest.approx([0.25, 0.25, 0.5, 0.5], abs=0.01)
    assert still_camera.feed.region == pytest.approx((0.25, 0.25, 0.5, 0.5), abs=0.01)
    saved = tomllib.loads(paths.config_path(app.data_dir).read_text())["camera"]["region"]
    assert saved == pytest.approx([0.25, 0.25, 0.5, 0.5], abs=0.01)
    assert "saved" in app.root.notice
    driver.tap_at(*view.to_window(x + 0.5 * w, y + 0.5 * h))   # a tap is no box: nothing changes
    assert view.region == pytest.approx([0.25, 0.25, 0.5, 0.5], abs=0.01)
    driver.tap(screen.ids.whole_button)
    assert app.settings["camera"]["region"] == [0.0, 0.0, 1.0, 1.0]


def test_with_no_camera_the_screen_says_how_to_mount_and_aim_one(driver, app):
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()
    link.camera_factory = None
    screen = open_camera_screen(driver, app)
    assert not screen.working
    assert screen.status_text == "No camera is set: [camera] source in config.toml"
    help_label = screen.ids.help_label
    assert help_label.text.startswith("Mounting and aiming the camera: look straight down")
    assert help_label.opacity == 1 and screen.ids.view.opacity == 0


# -- Jack Change It and One-Eyed Jack: the card seen on the pile ----------------------------------

def seen_by_camera(driver, link, method: str, *args):
    """What the feed's thread hands over (``link.on_card`` / ``link.on_unsure``), then the frames."""
    getattr(link, method)(*args)
    driver.pump(3)


def tap_seen(driver, screen, code: str):
    bar = screen.seen_bar
    assert bar is not None and visible(bar.buttons[code]), f"no offer of {code!r} on screen"
    driver.tap(bar.buttons[code])


def test_jack_change_it_takes_the_card_seen_on_the_pile_as_the_players_play(driver, app, still_camera):
    """docs/rules.md, "Jack Change It": a card goes on the pile when it matches the top card's
    suit or rank; a Jack names the suit to follow."""
    from companion.session import Session

    session = Session.start(app.store, {"game": "jack-change-it", "players": ["Ann", "Ben"], "start": "7H"})
    screen = app.open_session(session)
    driver.pump(2)
    assert still_camera._listener is screen
    seen_by_camera(driver, still_camera, "on_card", "7C", 10.0)
    assert screen.seen_bar.question.text.startswith("Ann plays 7\u2663 in ")   # counting down its grace
    assert session.game.actions == [], "nothing is entered before the table's tap"
    tap_seen(driver, screen, "7C")
    assert session.game.actions == [{"type": "play", "cards": ["7C"]}] and screen.seen_bar is None
    # Ben's Jack of clubs: seen, confirmed, and the suit it names is still asked.
    seen_by_camera(driver, still_camera, "on_card", "JC", 20.0)
    tap_seen(driver, screen, "JC")
    assert sorted(screen.chooser_buttons) == ["D", "H", "S"]
    driver.tap(screen.chooser_buttons["D"])
    assert session.game.actions[-1] == {"type": "play", "cards": ["JC"], "suit": "D"}
    # Unsure: Ann's card is offered as the camera's two guesses; one tap takes the right one.
    seen_by_camera(driver, still_camera, "on_unsure", ["9D", "8D"], 30.0)
    assert screen.seen_bar.question.text == "Which card landed?"
    tap_seen(driver, screen, "9D")
    assert session.game.actions[-1] == {"type": "play", "cards": ["9D"]}
    # A wrong reading is put right on the card pad: the offer goes, the tapped card is played.
    seen_by_camera(driver, still_camera, "on_card", "3D", 40.0)
    picker = screen.ids.picker
    driver.tap(picker.rank_buttons["4"])
    driver.tap(picker.suit_buttons["D"])
    assert screen.seen_bar is None
    assert session.game.actions[-1] == {"type": "play", "cards": ["4D"]}
    session.abandon()


def window_rect(widget) -> tuple[float, float, float, float]:
    x, y = widget.to_window(*widget.pos)
    return (round(x), round(y), round(widget.width), round(widget.height))


def overlaps(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
def test_the_card_seen_is_asked_in_place_of_the_turn_and_leaves_the_rest_in_sight(driver, app, size):
    """The offer stands where the turn is shown (the question names the player): nothing shows
    cut in half under it, and what the player must do and the seats stay in sight."""
    from kivy.metrics import dp, sp

    from companion.session import Session

    driver.resize(*size)
    session = Session.start(app.store, {"game": "jack-change-it", "players": ["Ann", "Ben"], "start": "7H"})
    screen = app.open_session(session)
    driver.pump(2)
    for cards, sure in ((["7C"], True), (["9D", "8D", "9H"], False)):
        screen.offer_seen(cards, sure=sure)
        driver.pump(3)
        bar = window_rect(screen.seen_bar)
        covered = window_rect(screen.ids.head if size[0] > size[1] else screen.ids.turn_label)
        assert all(abs(a - b) <= 2 * dp(3) for a, b in zip(bar, covered)), (cards, bar, covered)
        for name in ("prompt_label", "seats", "picker"):
            assert not overlaps(bar, window_rect(screen.ids[name])), f"the offer covers {name} at {size}"
        if size[1] > size[0]:
            assert not overlaps(bar, window_rect(screen.ids.suit_tile)), "the suit in play stays in sight"
        assert visible(screen.seen_bar.buttons[cards[0]])
        # The question stands in for the player's name, read from across the table: in the
        # turn's own band it is far larger than the 21sp of a narrow place, and still fits.
        question = screen.seen_bar.question
        if sure:
            assert question.font_size >= sp(36), (size, question.font_size)
        assert question.texture_size[0] <= question.width and question.texture_size[1] <= question.height
    session.abandon()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
def test_one_eyed_jack_asks_which_card_beside_the_board_and_leaves_it_whole(driver, app, size):
    """The guesses cover whose turn it is, never a space of the board or the card pad, and one
    tap takes a guess."""
    from companion.session import Session
    from tests.ui.text_fit import assert_text_fits

    driver.resize(*size)
    session = Session.start(app.store, {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
    screen = app.open_session(session)
    driver.pump(2)
    screen.offer_seen(["KH", "KD", "KS"], sure=False)
    driver.pump(3)
    bar = window_rect(screen.seen_bar)
    assert overlaps(bar, window_rect(screen.ids.turn_banner))
    for name in ("board", "picker", "undo_button"):
        assert not overlaps(bar, window_rect(screen.ids[name])), f"the offer covers {name} at {size}"
    assert_text_fits(screen.seen_bar, where=f"One-Eyed Jack's guesses at {size}")
    tap_seen(driver, screen, "KD")
    assert screen.card == "KD" and screen.seen_bar is None
    session.abandon()


def test_one_eyed_jack_the_card_seen_on_the_discard_pile_lights_its_spaces(driver, app, still_camera):
    """docs/rules.md, "One-Eyed Jack": a card played puts a chip on one of the two spaces that
    show it; the 7♠ shows at (1, 2) and (6, 6) on the board."""
    from companion.session import Session

    session = Session.start(app.store, {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
    screen = app.open_session(session)
    driver.pump(2)
    seen_by_camera(driver, still_camera, "on_card", "7S", 10.0)
    assert screen.card == "7S" and {tuple(s) for s in screen.ids.board.highlighted} == {(1, 2), (6, 6)}
    assert screen.seen_bar is None, "a card only chosen needs no question: the table taps its space"
    seen_by_camera(driver, still_camera, "on_unsure", ["KH", "KD"], 20.0)
    tap_seen(driver, screen, "KH")
    assert screen.card == "KH" and len(screen.ids.board.highlighted) == 2
    driver.tap_at(*screen.ids.board.cell_window_centre(*screen.ids.board.highlighted[0]))
    assert len(session.game.actions) == 1 and session.game.actions[0]["card"] == "KH"
    session.abandon()


# -- teach your deck ------------------------------------------------------------------------------

class ShownCard:
    """A camera source showing whichever frame the test holds up, 30 times a second."""

    def __init__(self, image):
        self.image = image

    def grab(self):
        time.sleep(1 / 30)
        return self.image, time.monotonic()

    def close(self):
        pass


def card_frame(code: str):
    import numpy as np

    from hardware.vision.render import card_quad, light_and_blur, paste_card, render_card, texture

    rng = np.random.default_rng(5)
    image = texture(480, 640, rng, "cloth")
    paste_card(image, render_card(code, {"font": 2, "thickness": 2}), card_quad(320, 240, 170, 8))
    return light_and_blur(image, rng, blur=0.5, noise=2.0)


@pytest.fixture
def held_up(app):
    from hardware.camera.device import Camera
    from ui.camera_link import camera_for

    link = camera_for(app)
    link.close()
    source = ShownCard(card_frame("2S"))
    link.camera_factory = lambda: Camera(source=source)
    yield source
    link.close()
    link.camera_factory = None
    import shutil

    shutil.rmtree(link.deck_folder, ignore_errors=True)


def test_teach_your_deck_asks_each_card_keeps_it_and_carries_on_after_leaving(driver, app, held_up):
    from companion.cards import full_deck

    assert [str(c) for c in list(full_deck())[:3]] == ["AS", "2S", "3S"]   # the order it asks in
    held_up.image = card_frame("AS")
    screen = open_camera_screen(driver, app)
    driver.tap(screen.ids.teach_button)
    teach = app.manager.current_screen
    assert teach.name == "teach-deck"
    pump_until(driver, lambda: teach.working, "the picture")
    assert teach.prompt_text == "Show the A\u2660" and teach.progress_text == "0 of 52 taught"
    driver.tap(teach.ids.keep_button)
    assert teach.message == "A\u2660 kept." and teach.progress_text == "1 of 52 taught"
    assert teach.prompt_text == "Show the 2\u2660"
    assert (app.data_dir / "deck" / "AS.png").is_file()
    held_up.image = card_frame("2S") * 0                         # the card taken away: a black table
    pump_until(driver, lambda: teach.link.feed.picture().image is held_up.image, "the empty table in the picture")
    driver.tap(teach.ids.keep_button)
    assert teach.message.startswith("No card in view: lay the 2\u2660 face up")
    driver.tap(teach.ids.skip_button)
    assert teach.prompt_text == "Show the 3\u2660"
    # Left and opened again: it carries on at the first card not taught.
    driver.tap(teach.ids.back_button)
    assert app.manager.current == "camera"
    driver.tap(app.manager.current_screen.ids.teach_button)
    assert teach.prompt_text == "Show the 2\u2660" and teach.progress_text == "1 of 52 taught"
    driver.tap(teach.ids.again_button)
    assert teach.progress_text == "0 of 52 taught" and teach.prompt_text == "Show the A\u2660"
    assert not (app.data_dir / "deck" / "AS.png").exists()


# -- every word fits, at both sizes ---------------------------------------------------------------

@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_word_on_the_camera_screens_fits(driver, app, still_camera, size):
    from companion.session import Session
    from tests.ui.text_fit import assert_text_fits

    driver.resize(*size)
    screen = open_camera_screen(driver, app)
    pump_until(driver, lambda: screen.seen_text not in ("", "Sees no card"), "the cards to be named")
    assert_text_fits(where="the camera screen")
    teach = app.show("teach-deck")
    pump_until(driver, lambda: teach.working, "the picture")
    teach.message = "That looks like the 10\u2665, not the 10\u2666: show the 10\u2666, or keep it again if it is"
    driver.pump(3)
    assert_text_fits(where="teaching a deck")
    for name in ("Ann", "Ben"):
        if name not in {p.name for p in app.store.players()}:
            app.store.add_player(name)
    setup = app.show("slapjack-setup")
    driver.pump(3)
    assert visible(setup.ids.mode_camera)
    assert_text_fits(where="the Slapjack set-up with a camera")
    session = Session.start(app.store, {"game": "jack-change-it", "players": ["Christabelle", "Ben"], "start": "7H"})
    game = app.open_session(session)
    driver.pump(2)
    game.offer_seen(["10C", "10S", "QC"], sure=False)
    driver.pump(3)
    assert_text_fits(game.seen_bar, where="the camera's guesses")
    game.offer_seen(["10H"], sure=True)
    driver.pump(3)
    assert_text_fits(game.seen_bar, where="the camera's card")
    session.abandon()


@pytest.mark.parametrize("with_camera", [True, False], ids=["camera", "no-camera"])
def test_random_taps_and_drags_on_the_camera_screens_never_break(driver, app, with_camera, request):
    import random

    from kivy.core.window import Window

    from ui.camera_link import camera_for

    link = camera_for(app)
    if with_camera:
        request.getfixturevalue("still_camera")
    else:
        link.close()
        link.camera_factory = None
    rng = random.Random(13)
    for name in ("camera", "teach-deck"):
        app.show(name)
        driver.pump(2)
        for _ in range(60):
            x, y = rng.uniform(0, Window.width - 1), rng.uniform(0, Window.height - 1)
            if rng.random() < 0.3:
                driver.drag((x, y), (rng.uniform(0, Window.width - 1), rng.uniform(0, Window.height - 1)))
            else:
                driver.tap_at(x, y)
            if app.manager.current not in ("camera", "teach-deck"):
                app.show(name)
                driver.pump(1)
    region = app.settings["camera"]["region"]
    from hardware.camera.settings import camera_settings

    camera_settings({"region": region})   # whatever was dragged is a region config.toml accepts
    import shutil

    shutil.rmtree(link.deck_folder, ignore_errors=True)
    app.settings["camera"]["region"] = [0.0, 0.0, 1.0, 1.0]


def test_jack_change_it_the_two_of_hearts_seen_on_the_ace_is_part_of_its_play(driver, app, still_camera):
    """docs/rules.md, "Jack Change It": the A♥ may go with the 2♥ on top of it as one play."""
    from companion.session import Session

    session = Session.start(app.store, {"game": "jack-change-it", "players": ["Ann", "Ben"], "start": "7H"})
    screen = app.open_session(session)
    driver.pump(2)
    seen_by_camera(driver, still_camera, "on_card", "AH", 10.0)
    tap_seen(driver, screen, "AH")
    assert screen.chooser is not None                            # alone, or with the 2♥?
    seen_by_camera(driver, still_camera, "on_card", "2H", 10.3)  # the 2♥ laid on it meanwhile
    assert screen.seen_bar is None and screen.chooser is not None
    driver.tap(screen.chooser_buttons["AH 2H"])
    assert session.game.actions == [{"type": "play", "cards": ["AH", "2H"]}]
    seen_by_camera(driver, still_camera, "on_card", "2H", 10.6)  # seen settling after the question
    assert screen.seen_bar is None and len(session.game.actions) == 1
    session.abandon()


def test_jack_change_it_says_when_the_camera_is_lost_and_found(driver, app, camera):
    from companion.session import Session

    session = Session.start(app.store, {"game": "jack-change-it", "players": ["Ann", "Ben"], "start": "7H"})
    screen = app.open_session(session)
    pump_until(driver, lambda: camera.made and camera.seeing, "the camera")
    camera.made[-1].unplugged = True
    pump_until(driver, lambda: app.root.notice.startswith("Camera unplugged"), "the camera missed")
    tap_card = screen.ids.picker
    driver.tap(tap_card.rank_buttons["7"])
    driver.tap(tap_card.suit_buttons["C"])
    assert session.game.actions == [{"type": "play", "cards": ["7C"]}], "the card pad goes on"
    camera.made[-1].unplugged = False
    pump_until(driver, lambda: camera.seeing, "the camera back")
    assert app.root.notice == ""
