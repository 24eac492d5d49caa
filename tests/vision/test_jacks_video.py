"""The synthetic game video also films a Jacks round over the middle: tricks of four cards,
each gathered before the next is led. The pile watcher reports every card once, in order, and
the bench's watcher figures say so; fed to the Jacks table, the cards make the tricks."""

import pytest

from hardware.camera.device import Camera, Frame, MockCamera
from hardware.vision.bench import watcher_figures
from hardware.vision.synthetic import JACKS_TRICKS, jacks_video
from hardware.vision.watcher import PileWatcher

from companion.session import Session
from companion.store import Store
from companion.games.jacks.table import JacksTable
from tests.fake_clock import FakeClock


@pytest.fixture(scope="module")
def video():
    """Drawn once for the module (drawing is most of the time); the tests only read it."""
    return jacks_video()


def test_the_jacks_round_is_watched_card_by_card_into_tricks(classifier, video):
    frames, fps, truth = video
    assert [card for card, _ in truth] == list(JACKS_TRICKS)
    clock = FakeClock()
    table = JacksTable(Session.start(Store(":memory:"), {"game": "jacks", "players": ["Ann", "Ben", "Cat", "Dan"]}),
                       now=clock.now, schedule=clock.schedule)
    table.tap_leader("Ann")
    camera = Camera(source=MockCamera(frames, fps=fps, realtime=False, start=100.0))
    watcher = PileWatcher(camera, table, classifier=classifier)
    while (frame := camera.read()) is not None:
        watcher.feed(frame)
    play = table.play
    assert play.plays == 12 and table.asking == []
    # The watcher saw the middle gathered after the third trick: nothing lies there now.
    assert table.middle == []
    # docs/rules.md, "Jacks": the highest card of the led suit takes the trick; its taker leads.
    # Trick 1 (Ann leads 3H): Dan's QH takes it. Trick 2 (Dan leads 4C): Ann's KC takes it and JC
    # with it. Trick 3 (Ann leads AS): Ann's ace takes it.
    assert play.last_trick.number == 3 and play.last_trick.taker == "Ann"
    assert play.jacks_taken == {"JC": "Ann"} and play.to_play == "Ann"


def test_the_bench_reports_the_jacks_round(classifier, video):
    figures = watcher_figures(classifier, video=lambda: video)
    assert figures["reported"] == list(JACKS_TRICKS) and figures["exactly_once"]
    assert figures["each_card_once"] and figures["phantom_reports"] == 0 and figures["unsure_reports"] == 0


def test_the_middle_seen_gathered_between_tricks_is_told(classifier, video):
    """docs/rules.md, "Jacks": the trick's cards being gathered clears the middle. The watcher
    tells each gathering, after the trick's fourth card and before the next trick's lead."""
    frames, fps, truth = video
    heard = []

    class Middle:
        def on_card(self, card, landed_at):
            heard.append(card)

        def on_unsure(self, candidates, landed_at):
            heard.append(tuple(candidates))

        def on_cleared(self, at):
            heard.append("gathered")

    watcher = PileWatcher(None, Middle(), classifier=classifier)
    for i, image in enumerate(frames):
        watcher.feed(Frame(image, i / fps, i))
    tricks = [list(JACKS_TRICKS[k:k + 4]) + ["gathered"] for k in range(0, len(JACKS_TRICKS), 4)]
    assert heard == [x for trick in tricks for x in trick]
