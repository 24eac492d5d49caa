"""The camera as a card feed (hardware/vision/feed.py) into the Slapjack table controller, with
the mock camera playing the synthetic game video (hardware/vision/synthetic.py) and a fake
clock: no window, no real time.

What the table must see follows docs/rules.md ("Slapjack": the first slap on a Jack wins the
pile, a slap on any other card is a wrong slap) and companion/games/slapjack/log.md (a camera turn is an
ordinary ``turn`` with its landing time ``t``; the race opens when the card landed).
"""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.games.slapjack.table import SlapjackTable  # noqa: E402
from companion.games.slapjack.ways import feed_for, mode_of, timed_feed  # noqa: E402
from companion.games.slapjack.ways import header_for  # noqa: E402
from hardware.camera.device import Camera, MockCamera  # noqa: E402
from hardware.vision.classify import Reading  # noqa: E402
from hardware.vision.feed import CameraFeed  # noqa: E402
from hardware.vision.synthetic import game_video  # noqa: E402
from tests.fake_clock import FakeClock  # noqa: E402
from companion.games.slapjack.tests.test_table import Lights  # noqa: E402

START = 100.0
CARDS = ("7H", "KS", "JD", "4C")


@pytest.fixture(scope="module")
def video():
    return game_video(1, cards=CARDS)


@pytest.fixture(scope="module")
def classifier():
    from hardware.vision.feed import classifier_for

    return classifier_for()


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


class Reads:
    """The real classifier, except that some cards are read otherwise: ``{"KS": ("KS", "KC")}``
    makes the K♠ unsure between those two; ``{"4C": "4S"}`` misreads the 4♣ as a sure 4♠."""

    def __init__(self, real, changes):
        self.real, self.changes = real, changes
        self.lone_sure = getattr(real, "lone_sure", None)

    def read(self, index):
        reading = self.real.read(index)
        change = self.changes.get(reading.card)
        if isinstance(change, tuple):
            return Reading(change[0], False, 0.6, list(change))
        if isinstance(change, str):
            return Reading(change, True, 0.99, [change])
        return reading


class CameraTable:
    """A camera game: the synthetic video played frame by frame into a table on a fake clock."""

    def __init__(self, store, video, classifier, players=("Ben", "Cat"), session=None):
        frames, fps, self.truth = video
        self.fps = fps
        self.clock = FakeClock(start=START)
        self.mock = MockCamera(frames, fps=fps, realtime=False, start=START)
        self.camera = Camera(source=self.mock, clock=self.clock.now)
        self.session = session or Session.start(store, header_for("real", list(players), {}, camera=True))
        self.errors: list[str] = []
        self.lights = Lights()
        self.table = SlapjackTable(self.session, now=self.clock.now, schedule=self.clock.schedule,
                                   window_s=0.015, pads={name: i for i, name in enumerate(self.session.game.players)},
                                   lights=self.lights, notify=self.errors.append, live_reader=True,
                                   landing_since=lambda: self.feed.changing_since())
        self.statuses: list[tuple[bool, str]] = []
        self.feed = CameraFeed(self.camera, self.table, classifier=classifier,
                               on_status=lambda seeing, text: self.statuses.append((seeing, text)))
        self.table.start()

    def landing(self, card: str) -> float:
        """When ``card`` truly landed in the video (the capture time of its first still frame)."""
        return START + dict(self.truth)[card] / self.fps

    def play_until(self, condition, limit: int = 2000) -> None:
        """Frames in, one by one, the clock moving with them, until ``condition()``."""
        for _ in range(limit):
            if condition():
                return
            frame_t = START + self.mock._i / self.fps
            self.clock.run_until(frame_t)
            if not self.feed.step() and self.camera.ended:
                break
        assert condition(), "the video ran out first"

    def turned(self) -> int:
        return self.session.summary()["cards_turned"]

    def turns(self) -> list[dict]:
        return [a for a in self.session.game.actions if a["type"] == "turn"]


def test_the_camera_is_a_timed_feed_of_a_real_deck():
    header = header_for("real", ["Ann", "Ben"], {}, camera=True, reader=True)
    assert header["feed"] == "camera" == feed_for("real", camera=True)
    assert mode_of(header) == "real" and timed_feed(header) == "camera"
    assert timed_feed({"feed": "pad"}) is None


def test_each_card_seen_is_a_turn_logged_with_its_landing_time(store, video, classifier):
    game = CameraTable(store, video, classifier)
    assert game.table.view().turn_text == "Ben turns a card"     # no "tap it in": the camera sees it
    game.play_until(lambda: game.turned() == len(CARDS))
    turns = game.turns()
    assert [a["card"] for a in turns] == list(CARDS)
    for action in turns:
        assert abs(action["t"] - game.landing(action["card"])) <= 1 / game.fps + 1e-9, action
    assert game.statuses[0][0] is True


def test_the_race_opens_when_the_jack_landed_so_the_reaction_time_is_real(store, video, classifier):
    game = CameraTable(store, video, classifier)
    game.play_until(lambda: game.turned() == 3)                 # the J♦ seen, about 100 ms after it landed
    landed = game.turns()[-1]["t"]
    assert game.session.summary()["top"] == "JD"
    game.clock.run_until(landed + 0.280)
    game.table.press(1, landed + 0.280, game.clock.now())       # Cat
    game.clock.run_until(landed + 0.300)
    game.table.press(0, landed + 0.300, game.clock.now())       # Ben, 20 ms later
    game.clock.advance(0.05)
    s = game.session.summary()
    assert s["tallies"]["Cat"]["slaps_won"] == 1
    assert s["tallies"]["Cat"]["reactions_ms"] == [pytest.approx(280.0)]
    assert game.table.view().verdict_text == "Cat! Ben +20 ms"


def test_a_slap_on_an_unsure_card_waits_for_the_tables_tap(store, video, classifier):
    game = CameraTable(store, video, Reads(classifier, {"JD": ("JD", "QD")}))
    game.play_until(lambda: bool(game.table.view().unsure))
    view = game.table.view()
    # Offered first the card most likely, and the one its glyphs left it unsure of (the corner
    # indexes, unsure of it too, may add their own guesses).
    assert view.unsure[0] == "JD" and "QD" in view.unsure and view.turn_text == "Which card landed? Tap it"
    landed = game.landing("JD")
    game.table.press(0, game.clock.now(), game.clock.now())     # Ben slaps while the table decides
    assert game.turned() == 2, "no card is taken until the table taps it"
    assert game.table.view().held_text == "Slap! Ben first"
    game.table.choose("JD")
    game.clock.advance(0.05)
    assert game.turns()[-1]["card"] == "JD"
    assert abs(game.turns()[-1]["t"] - landed) <= 1 / game.fps + 1e-9
    assert game.session.summary()["tallies"]["Ben"]["slaps_won"] == 1


def test_a_wrong_reading_is_put_right_with_undo_and_keeps_its_landing_time(store, video, classifier):
    game = CameraTable(store, video, Reads(classifier, {"JD": "QD"}))
    game.play_until(lambda: game.turned() == 3)
    seen = game.turns()[-1]
    assert seen["card"] == "QD"
    game.clock.advance(0.2)
    game.table.press(1, seen["t"] + 0.25, seen["t"] + 0.25)     # Cat slaps what is truly a Jack
    game.clock.advance(0.05)
    assert game.session.summary()["tallies"]["Cat"]["wrong_slaps"] == 1
    game.table.undo()
    assert game.table.view().aside_text == "The Q\u2666 was taken back: its slaps wait for the right card"
    game.table.on_card("JD", None)                              # the card pad: the right card
    game.clock.advance(0.05)
    fixed = game.turns()[-1]
    assert fixed == {"type": "turn", "card": "JD", "t": seen["t"]}
    tally = game.session.summary()["tallies"]["Cat"]
    assert tally["slaps_won"] == 1 and tally["wrong_slaps"] == 0
    assert tally["reactions_ms"] == [pytest.approx(250.0)]


def test_the_camera_unplugged_mid_game_is_said_and_the_card_pad_goes_on(store, video, classifier):
    game = CameraTable(store, video, classifier)
    game.play_until(lambda: game.turned() == 1)
    game.mock.unplugged = True
    assert game.feed.step() is False
    assert game.statuses[-1][0] is False and "camera lost" in game.statuses[-1][1]
    game.table.on_card("KS", None)                              # the card pad, meanwhile
    assert game.turns()[-1] == {"type": "turn", "card": "KS"}
    game.mock.unplugged = False
    assert game.feed.step() is True
    assert game.statuses[-1] == (True, "camera working")
    game.play_until(lambda: game.turned() == 3)
    assert [a["card"] for a in game.turns()] == ["7H", "KS", "JD"], "the K♠ seen later is not a second card"
    assert game.errors == []


def test_a_camera_lost_while_the_pile_changes_holds_no_press_back(store, video, classifier):
    game = CameraTable(store, video, classifier)
    game.play_until(lambda: game.turned() == 1)
    game.play_until(lambda: game.feed.changing_since() is not None)   # the K♠ coming in
    game.mock.unplugged = True
    assert game.feed.step() is False
    assert game.feed.changing_since() is None, "no decision is coming from a lost camera"
    now = game.clock.now()
    game.table.press(1, now, now)                               # Cat, on the 7♥ showing
    game.clock.advance(0.05)
    assert game.session.game.actions[-1] == {"type": "slap", "player": "Cat", "t": now}


def test_a_resumed_camera_game_takes_the_pile_as_it_lies(store, video, classifier):
    first = CameraTable(store, video, classifier)
    first.play_until(lambda: first.turned() == 2)
    first.table.stop()
    again = CameraTable(store, video, classifier, session=Session.resume(store, first.session.game_id))
    assert [a["card"] for a in again.turns()] == ["7H", "KS"]
    again.mock._i = first.mock._i                               # the camera sees the pile as it lies now
    again.play_until(lambda: again.turned() == 3)
    assert [a["card"] for a in again.turns()] == ["7H", "KS", "JD"]


# -- teach your deck ------------------------------------------------------------------------------

def card_frame(code: str, seed: int = 5):
    """A 640x480 frame from above with one card of a drawn deck lying on the cloth."""
    from hardware.vision.synthetic import one_card_frame

    return one_card_frame(code, seed)


def test_teaching_asks_each_card_in_turn_keeps_it_and_resumes_where_it_stopped(tmp_path, classifier):
    from companion.cards import full_deck
    from hardware.vision.teach import Lesson, TeachError

    folder = tmp_path / "deck"
    lesson = Lesson(folder, classifier=classifier)
    first, second = (str(c) for c in list(full_deck())[:2])
    assert lesson.next_card() == first and lesson.progress == (0, 52)
    with pytest.raises(TeachError, match="no card in view"):
        lesson.keep(card_frame(first)[:, :, :] * 0)              # a black frame: nothing to keep
    assert lesson.keep(card_frame(first)) == first
    assert (folder / f"{first}.png").is_file() and lesson.next_card() == second
    again = Lesson(folder, classifier=classifier)              # the screen left and opened again
    assert again.next_card() == second and again.progress == (1, 52)
    again.skip()
    assert again.next_card() not in (first, second)
    again.start_again()
    assert again.progress == (0, 52) and again.next_card() == first


def test_the_wrong_card_shown_is_refused_unless_kept_twice(tmp_path, classifier):
    from hardware.vision.recognise import read_image
    from hardware.vision.teach import Lesson, TeachError

    lesson = Lesson(tmp_path / "deck", classifier=classifier)
    asked = lesson.next_card()
    shown = "KD" if asked != "KD" else "QS"
    frame = card_frame(shown)
    seen, _ = read_image(frame, classifier)
    if not (seen and seen[0].sure and seen[0].card == shown):
        pytest.skip("the drawn card is not read sure here: nothing to contradict")
    with pytest.raises(TeachError, match="looks like the K\u2666"):
        lesson.keep(frame)
    assert lesson.keep(frame, trust=True) == asked               # an unusual deck: the table knows best


def test_a_taught_deck_is_read_from_then_on(tmp_path):
    from hardware.vision.feed import classifier_for
    from hardware.vision.learned import default_classifier
    from hardware.vision.teach import Lesson

    folder = tmp_path / "deck"
    assert classifier_for(folder) is default_classifier()        # nothing taught: the shipped reader
    lesson = Lesson(folder)
    code = lesson.next_card()
    lesson.keep(card_frame(code))
    taught = classifier_for(folder)
    glyphs = getattr(taught, "glyphs", taught)
    base = getattr(default_classifier(), "glyphs", default_classifier())
    assert len(glyphs.rank_y) == len(base.rank_y) + 1 and glyphs.rank_y[-1] == code[:-1]
    assert len(base.rank_y) != len(glyphs.rank_y), "the shipped reader itself is left as it was"
    feed = CameraFeed(Camera(source=MockCamera([card_frame(code)], realtime=False)), None, deck_folder=folder)
    assert feed.classifier is not default_classifier()


def test_a_slap_before_the_camera_has_named_the_card_counts_from_its_landing(store, video, classifier):
    game = CameraTable(store, video, classifier)
    game.play_until(lambda: game.turned() == 2)
    landed = game.landing("JD")
    # The J♦'s frame seen, not yet named (its own area is still only from the next frame on).
    game.play_until(lambda: game.clock.now() >= landed)
    assert game.turned() == 2
    assert game.feed.changing_since() is not None, "the pile is still settling"
    game.table.press(1, landed + 0.01, game.clock.now())         # Cat is that quick: on the K♠, it seems
    game.clock.advance(0.05)                                     # the K♠'s race window is long over
    assert game.turned() == 2
    # Nothing is ruled on the K♠ meanwhile: no wrong slap logged, shown or blinked on Cat's pad.
    assert game.session.game.actions[-1]["type"] == "turn" and game.table.view().verdict_text == ""
    assert ("wrong", 1) not in game.lights.calls
    game.play_until(lambda: game.turned() == 3)
    game.clock.advance(0.05)
    tally = game.session.summary()["tallies"]["Cat"]
    assert tally["slaps_won"] == 1 and tally["wrong_slaps"] == 0
    assert tally["reactions_ms"] == [pytest.approx(10.0)]
    assert [a["type"] for a in game.session.game.actions[-2:]] == ["turn", "slap"], "the slap goes after its card"
    assert ("wrong", 1) not in game.lights.calls and ("winner", 1) in game.lights.calls


def test_a_slap_as_the_jack_lands_counts_though_the_reader_skipped_that_moment(store, video, classifier):
    # docs/rules.md ("Slapjack"): the first slap on a Jack wins the pile. A reader behind its
    # camera (a Pi's) skipped the frames round the J♦'s landing: it knows the Jack came to rest
    # only after the last frame it read, so a slap 5 ms after it truly landed is on the Jack,
    # not "pressed before the J♦ landed".
    game = CameraTable(store, video, classifier)
    rest = dict(game.truth)["JD"]
    game.play_until(lambda: game.mock._i >= rest - 2)   # read up to the frame 3 before its rest
    game.mock._i += 4                                    # the next 4 replaced before they were read
    landed = game.landing("JD")
    game.clock.run_until(landed + 0.005)
    game.table.press(1, landed + 0.005, game.clock.now())       # Cat
    game.play_until(lambda: game.turned() == 3)
    game.clock.advance(0.05)
    assert game.turns()[-1]["t"] == pytest.approx(landed - 2 / game.fps)   # the frame after the last read
    tally = game.session.summary()["tallies"]["Cat"]
    assert tally["slaps_won"] == 1 and tally["wrong_slaps"] == 0
    assert "before" not in game.table.view().verdict_text


def test_a_new_region_starts_the_watcher_afresh_without_a_phantom_card(store, video, classifier):
    game = CameraTable(store, video, classifier)
    game.play_until(lambda: game.turned() == 1)
    game.feed.set_region((0.1, 0.1, 0.8, 0.8))                  # dragged on the camera screen
    assert game.feed.region == (0.1, 0.1, 0.8, 0.8)
    game.play_until(lambda: game.turned() == 2)
    assert [a["card"] for a in game.turns()] == ["7H", "KS"], "the 7♥ under the new box is not a new card"
    assert game.feed.pile[-1] == "KS"
