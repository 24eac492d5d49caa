"""The pile watcher on the synthetic game: every card once, at its landing frame, no phantoms."""

import numpy as np
import pytest

from hardware.camera.device import Camera, Frame, MockCamera
from hardware.vision import watcher as watching
from hardware.vision.synthetic import game_video
from hardware.vision.watch_timing import still_from
from hardware.vision.watcher import PileWatcher

# The camera bench's Slapjack games (tools/bench/camera.py): a Jack on every second card.
SLAP_CARDS = ("7H", "JS", "KS", "JD", "4C", "JH", "QD", "JC")


class Sink:
    def __init__(self):
        self.events = []

    def on_card(self, card, landed_at):
        self.events.append((card, landed_at, True))

    def on_unsure(self, candidates, landed_at):
        self.events.append((candidates, landed_at, False))


def watched(seed, classifier, **game):
    frames, fps, truth = game_video(seed, **game)
    camera = Camera(source=MockCamera(frames, fps=fps, realtime=False, start=100.0))
    sink = Sink()
    watcher = PileWatcher(camera, sink, classifier=classifier)
    while (frame := camera.read()) is not None:
        watcher.feed(frame)
    return sink.events, fps, truth


# Seed 2 lays the Jack of diamonds nearly square over the King of spades: the pile changes in
# about 1% of its pixels, once taken for a nudge and the card reported late.
@pytest.mark.parametrize("seed", [1, 2])
def test_each_card_reported_once_with_its_landing_time(classifier, seed):
    events, fps, truth = watched(seed, classifier)
    assert [e[0] for e in events] == [card for card, _ in truth]
    for (card, t, sure), (_, frame_index) in zip(events, truth):
        assert abs(t - (100.0 + frame_index / fps)) <= 1.0 / fps + 1e-9, card
        assert sure


def test_a_card_the_outlines_cannot_tell_from_the_one_under_it_is_asked_not_missed(classifier):
    # Seed 11: the Queen of diamonds lands square over the 10 of hearts; the outlines see the 10,
    # the corner indexes the Queen without being sure: a question, not a missed card
    # (docs/vision.md, "The pile watcher").
    events, fps, truth = watched(11, classifier)
    firsts = [card if isinstance(card, str) else card[0] for card, _, _ in events]
    assert firsts == [card for card, _ in truth], events
    assert [sure for _, _, sure in events].count(False) <= 1
    for (_, t, _), (_, frame_index) in zip(events, truth):
        assert abs(t - (100.0 + frame_index / fps)) <= 1.0 / fps + 1e-9


def test_a_card_with_small_indexes_is_named_sure_by_the_closer_look(classifier):
    # Seed 9: the 4 of clubs lies at an angle with its indexes small. The outlines score the 7 of
    # clubs at about a tenth; at the usual scale the corner indexes scored the 4 at nine tenths, and
    # the table was asked. Looked at closer (docs/vision.md, "Small cards"), both its indexes name
    # it: reported sure, at its landing frame, with no question.
    events, fps, truth = watched(9, classifier)
    assert [card for card, _, _ in events] == [card for card, _ in truth], events
    assert all(sure for _, _, sure in events), events
    for (_, t, _), (_, frame_index) in zip(events, truth):
        assert abs(t - (100.0 + frame_index / fps)) <= 1.0 / fps + 1e-9


def test_a_card_over_another_whose_index_still_shows_is_not_taken_for_it(classifier):
    # Seed 101 of the camera bench's Slapjack games: the J♦ lands over the K♠, whose corner index
    # still shows beside the J♦'s. The outlines name the J♦ unsure; the indexes are sure of both
    # and put the K♠ on top. The J♦ was taken for the K♠ squared, and never reported.
    events, fps, truth = watched(101, classifier, cards=SLAP_CARDS, trick=2)
    assert [card for card, _, _ in events] == [card for card, _ in truth], events
    assert all(sure for _, _, sure in events), events
    for (_, t, _), (_, frame_index) in zip(events, truth):
        assert abs(t - (100.0 + frame_index / fps)) <= 1.0 / fps + 1e-9


def reported_at(frames, fps, watcher):
    """(card, sure, landed frame, the frame it was reported on) for each report."""
    out, at = [], [0]
    watcher.sink = Sink()
    for i, image in enumerate(frames):
        at[0] = i
        before = len(watcher.sink.events)
        watcher.feed(Frame(image, i / fps, i))
        for card, landed, sure in watcher.sink.events[before:]:
            out.append((card, sure, round(landed * fps), i))
    return out


def test_a_card_is_told_once_its_own_area_is_still_while_the_hand_that_laid_it_leaves(classifier):
    """docs/vision.md, "The pile watcher": each card rests a frame before the hand that laid it
    has left the picture, and the whole pile lies still 3 frames after that. The card is named
    from a read of its own still part of the frame on the next frame (its area unchanged from
    one frame to the next), not 7 frames on; when the pile then lies still as it was told, the
    frame is not read again."""
    frames, fps, truth = game_video(100, cards=SLAP_CARDS, trick=2)
    watcher = PileWatcher(None, None, classifier=classifier)
    reads = []
    real_read = watching.read_image

    def read_image(image, *args, **kwargs):
        reads.append(at["frame"])
        return real_read(image, *args, **kwargs)

    at = {"frame": 0}
    watching.read_image = read_image
    try:
        events, watcher.sink = [], Sink()
        for i, image in enumerate(frames):
            at["frame"] = i
            before = len(watcher.sink.events)
            watcher.feed(Frame(image, i / fps, i))
            events += [(card, sure, round(t * fps), i) for card, t, sure in watcher.sink.events[before:]]
    finally:
        watching.read_image = real_read
    assert [e[0] for e in events] == [card for card, _ in truth], events
    still = still_from(frames, truth, watcher.settle)
    for (card, sure, landed, told), (_, rest), lies_still in zip(events, truth, still):
        assert sure and abs(landed - rest) <= 1, (card, landed, rest)
        assert told <= rest + 2, f"{card}: told {told - rest} frames after it came to rest"
        assert told < lies_still, f"{card}: told only once the whole pile lay still"
        # Its decision frame (the pile still settle frames) reads nothing: the card is known.
        assert lies_still + watcher.settle not in reads, card


def test_a_card_the_outlines_leave_unsure_is_told_early_by_its_indexes():
    """docs/vision.md, "The pile watcher": seed 101 lays the J♠ over the 7♥ and the J♦ nearly
    square over the K♠, where a read of their still part by outlines leaves them unsure. The
    corner indexes, asked about that part of the frame alone, name them before the pile lies
    still (a slap on a Jack waits for its name), and every card is still told once."""
    frames, fps, truth = game_video(101, cards=SLAP_CARDS, trick=2)
    watcher = PileWatcher(None, Sink())   # the app's own classifier and corner models
    told = {}
    for i, image in enumerate(frames):
        before = len(watcher.sink.events)
        watcher.feed(Frame(image, i / fps, i))
        for card, _, sure in watcher.sink.events[before:]:
            assert sure, card
            told[card] = i
    assert [e[0] for e in watcher.sink.events] == [card for card, _ in truth]
    lies_still = dict(zip([card for card, _ in truth], still_from(frames, truth, watcher.settle)))
    for jack in ("JS", "JD"):
        assert told[jack] < lies_still[jack], f"{jack}: told {told[jack] - lies_still[jack]} frames after the pile lay still"


def test_a_card_read_sure_while_its_index_still_moved_is_told_when_it_holds_still_without_a_read_again(monkeypatch):
    """Game 101's J♦ is read sure by its index one frame after it comes to rest, while that
    index still changes from the frame before (the hand leaving over it): it is told on the
    next frame its area holds still, from that read, not read again (on a Pi's budget each read
    of a part costs frames skipped, and a slap on the Jack waits for its name)."""
    frames, fps, truth = game_video(101, cards=SLAP_CARDS, trick=2)
    reads = []
    read = watching.read_by_outlines
    monkeypatch.setattr(watching, "read_by_outlines", lambda *a, **k: reads.append(1) or read(*a, **k))
    watcher = PileWatcher(None, Sink())
    landed = dict(truth)["JD"]
    read_on = {}
    for i, image in enumerate(frames[:landed + 8]):
        before, reads[:] = len(watcher.sink.events), []
        watcher.feed(Frame(image, i / fps, i))
        read_on[i] = len(reads)
        if [e[0] for e in watcher.sink.events[before:]] == ["JD"]:
            break
    else:
        pytest.fail("the J♦ was not told within 8 frames of coming to rest")
    assert i == landed + 2, f"told {i - landed} frames after coming to rest"
    assert read_on[i - 1] >= 1 and read_on[i] == 0, "read once, on the frame before it was told"


def test_a_reader_that_skipped_frames_dates_a_landing_from_the_frame_after_the_last_it_read(classifier):
    """A reader behind its camera (a Pi's, sharing its core with the app) skips frames: it knows
    the J♠ came to rest only somewhere after the last frame it read with the card still moving.
    Its landing is the earliest it could have been, the frame after that one, so a slap made as
    the card landed is never taken for one before it (docs/vision.md, "The pile watcher")."""
    frames, fps, truth = game_video(1, cards=SLAP_CARDS[:4])
    landed = dict(truth)["JS"]
    never_read = set(range(landed - 2, landed + 2))   # read: landed - 3 (sliding in), then landed + 2
    sink = Sink()
    watcher = PileWatcher(None, sink, classifier=classifier)
    for i, image in enumerate(frames):
        if i not in never_read:
            watcher.feed(Frame(image, 100.0 + i / fps, i))
    at = {card: t for card, t, sure in sink.events}
    assert list(at) == list(SLAP_CARDS[:4])
    assert at["JS"] == pytest.approx(100.0 + (landed - 2) / fps), "not the first frame read at rest"
    # The cards whose landings it read are dated as a reader of every frame dates them.
    for card, rest in truth:
        if card != "JS":
            assert abs(at[card] - (100.0 + rest / fps)) <= 1.0 / fps + 1e-9, card

    # A camera away for two seconds (lost, plugged back) is no frames skipped: a card it finds
    # lying there when it is back is dated from then, not from before it went.
    sink = Sink()
    watcher = PileWatcher(None, sink, classifier=classifier)
    for i, image in enumerate(frames):
        if i not in never_read:
            watcher.feed(Frame(image, 100.0 + i / fps + (2.0 if i > landed else 0.0), i))
    at = {card: t for card, t, sure in sink.events}
    assert at["JS"] == pytest.approx(102.0 + (landed + 2) / fps)


def hand_comes_back_video(card="9C", seed=3):
    """A card slid in and let go; the hand leaves, comes back over the card's lower half and
    rests there, and leaves again. Frames and the card's landing frame."""
    from hardware.vision.render import card_quad, light_and_blur, paste_card, render_card, texture
    from hardware.vision.synthetic import _hand

    rng = np.random.default_rng(seed)
    table = texture(480, 640, rng, "cloth")
    face = render_card(card, {"font": 2, "thickness": 2})
    end, angle = np.array([320.0, 230.0]), 8.0
    start = end + np.array([330.0, 260.0])
    frames = []

    def draw(quad=None, hand=None):
        image = table.copy()
        if quad is not None:
            paste_card(image, face, quad)
        if hand is not None:
            _hand(image, *hand)
        frames.append(light_and_blur(image, rng, blur=0.6, noise=2.0))

    for _ in range(10):
        draw()
    for k in range(1, 9):   # slid in, held
        p = start + (end - start) * k / 8
        draw(card_quad(p[0], p[1], 150, angle + (8 - k) * 3), (p[0], p[1] + 230))
    landed = len(frames) - 1
    rest = card_quad(end[0], end[1], 150, angle)
    for k in (1, 2, 3, 2, 1, 0):          # let go, the hand leaving, then coming back
        draw(rest, (end[0] + k * 70, end[1] + 230 + k * 40))
    for _ in range(6):                     # resting over the card's lower half
        draw(rest, (end[0], end[1] + 150))
    for k in range(1, 7):                  # and gone
        draw(rest, (end[0] + k * 70, end[1] + 150 + k * 50))
    for _ in range(15):
        draw(rest)
    return frames, 30, landed


def test_a_hand_that_leaves_a_card_and_comes_back_over_it_is_no_second_card(classifier):
    frames, fps, landed = hand_comes_back_video()
    watcher = PileWatcher(None, None, classifier=classifier)
    events = reported_at(frames, fps, watcher)
    assert [(card, sure) for card, sure, _, _ in events] == [("9C", True)], events
    assert abs(events[0][2] - landed) <= 1 and events[0][3] <= landed + 2
    assert watcher.top == ["9C"] and watcher.changing_since() is None


def test_the_watcher_thread_reads_the_camera_until_it_ends(classifier):
    frames, fps, truth = game_video(1, cards=("7H", "KS"))
    camera = Camera(source=MockCamera(frames, fps=fps, realtime=False))
    sink = Sink()
    watcher = PileWatcher(camera, sink, classifier=classifier)
    watcher.start()
    watcher._thread.join(timeout=30)
    watcher.stop()
    assert [e[0] for e in sink.events] == ["7H", "KS"]


def test_another_noise_draw_films_the_same_game():
    """The seam of the vision bench's --noise-draws: every card and hand where it was, only the
    sensor noise drawn again."""
    import numpy as np

    frames, fps, truth = game_video(3, cards=("7H",))
    other, other_fps, other_truth = game_video(3, cards=("7H",), noise_seed=1)
    assert (other_fps, other_truth) == (fps, truth) and len(other) == len(frames)
    differences = [np.abs(a.astype(np.int16) - b).mean() for a, b in zip(frames, other)]
    assert all(0.5 < d < 4 for d in differences), "two draws of noise of 2 grey levels differ by about 2.3"


def test_a_hand_resting_on_the_pile_after_a_slap_is_no_card_of_the_pile_laid_again(classifier):
    """A 1280x720 camera read by a reader too slow for every frame: it missed one frame of the
    slap in seed 2 (a hand resting on the J♦ over the K♠ and the 7♥), so the resting hand held
    still for the 3 frames the watcher waits, and the 7♥'s index showing past it was reported
    as a new card. A deck holds each card once: a card from deep in the pile is not laid again."""
    from hardware.vision.watch_timing import widen

    frames, fps, truth = game_video(2)
    # synthetic.py's game: the third card slides 8 frames (its last is its truth frame), the
    # hand leaves in 5, the pile lies still 12, and a hand then rests on it for 5.
    slap = truth[2][1] + 5 + 12 + 1
    wide = widen((1280, 720))
    sink = Sink()
    watcher = PileWatcher(None, sink, classifier=classifier)
    for i, image in enumerate(frames):
        if i != slap + 2:   # the one frame the slow reader missed
            watcher.feed(Frame(wide(image), i / fps, i))
    assert [e[0] for e in sink.events] == [card for card, _ in truth], sink.events
    # Gathered after the fourth card: the pile holds the three laid since.
    assert watcher.top == [card for card, _ in truth[4:]]


def test_a_slow_readers_replay_reads_the_newest_frame_and_counts_what_it_skipped(classifier):
    """hardware/vision/watch_timing.py's slow reader (the vision bench's --slow-reader): as fast
    as the camera it reads every frame and sees every card; a reader far slower than a frame
    reads only the first one, and the cards laid after it are missed, not made up."""
    from hardware.vision.watch_timing import watch_slow_reader

    video = game_video(1, cards=("7H", "KS"))
    fast = watch_slow_reader(video, classifier, slower=0.0, seed=1, size=(640, 480), detector=None)
    assert fast["skipped"] == 0 and fast["read"] == len(video[0])
    assert fast["exactly_once"] and fast["reported"] == ["7H", "KS"] and fast["phantoms"] == 0
    stuck = watch_slow_reader(video, classifier, slower=1e9, seed=1, size=(640, 480), detector=None)
    assert stuck["read"] == 1 and stuck["skipped"] == len(video[0]) - 1
    assert stuck["missed"] == ["7H", "KS"] and stuck["phantoms"] == 0 and not stuck["exactly_once"]


def test_at_1280x720_each_card_of_a_jacks_round_is_told_before_the_pile_lies_still(classifier):
    """A 16:9 sensor over the same table sees more table at its sides, so a card is 3/4 the
    share of the picture it is at 640x480. The still part of a spade laid over the trick's
    spades was then under the early look's share, and the 5♠ and 8♠ were told only 3 still
    frames after the hand had gone (docs/benchmarks.md, "The camera under `--pi`")."""
    from hardware.vision.synthetic import jacks_video
    from hardware.vision.watch_timing import widen

    frames, fps, truth = jacks_video()
    wide = widen((1280, 720))
    watcher = PileWatcher(None, None, classifier=classifier)
    events = reported_at([wide(f) for f in frames], fps, watcher)
    assert [e[0] for e in events] == [card for card, _ in truth], events
    for (card, sure, landed, told), (_, rest), lies_still in zip(events, truth, still_from(frames, truth, watcher.settle)):
        assert sure and told < lies_still, f"{card}: told {told - rest} frames after it came to rest"


def test_a_missed_card_is_one_card_missed_and_a_made_up_one_one_phantom():
    """The camera benches' tally (hardware/vision/watch_timing.py): reports matched to the
    cards in order. A card not reported is missed alone (it once made every card after it
    missed too), and a report of a card already matched is a phantom."""
    from hardware.vision.watch_timing import matched_reports

    cards = ["7H", "KS", "JD", "4C"]
    events = [{"card": c} for c in ("7H", "JD", "7H", "4C")]
    matched = matched_reports(cards, events)
    assert [e and e["card"] for e in matched] == ["7H", None, "JD", "4C"]
    assert len(events) - sum(e is not None for e in matched) == 1   # the second 7H
