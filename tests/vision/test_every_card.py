"""Every card in a photo (docs/vision.md, "Other decks on other tables"): outlines merged with
the indexes' names, the closer look where indexes are small, and ``vision --explain``."""

import cv2
import numpy as np
import pytest

from hardware.vision.indexes import Outlines, SeenCard, cards_from_corners
from hardware.vision.recognise import merge_outlines, read_image
from hardware.vision.render import card_quad, paste_card, render_card, texture
from ui.launcher import main


def _table(size, cards, width, seed=0, angle=30):
    """A table of ``size`` (w, h) with ``cards`` laid apart in a row, each ``width`` px wide."""
    rng = np.random.default_rng(seed)
    w, h = size
    image = texture(h, w, rng)
    quads = []
    for i, code in enumerate(cards):
        q = card_quad(w * (i + 1) / (len(cards) + 1), h / 2, width, rng.uniform(-angle, angle))
        paste_card(image, render_card(code), q)
        quads.append(q)
    return image, quads


def _names(seen):
    return sorted((s.card, s.sure) for s in seen)


def test_a_card_the_indexes_missed_is_listed_from_its_outline(classifier):
    image, quads = _table((720, 720), ["7H", "KS"], 220)
    # As if the indexes had named only the 7H: the KS's outline is read all the same.
    only = [SeenCard("7H", True, 0.99, quads[0], ["7H"], True, outlined=True)]
    seen, top = merge_outlines(image, only, "7H", Outlines(image), classifier)
    assert _names(seen) == [("7H", True), ("KS", True)]
    assert top == "7H"


def test_a_sure_name_of_the_indexes_is_never_changed_by_an_outline(classifier):
    image, quads = _table((720, 720), ["7H"], 240)
    said = [SeenCard("7D", True, 0.97, quads[0], ["7D", "7H"], True)]
    seen, _ = merge_outlines(image, said, "7D", Outlines(image), classifier)
    assert _names(seen) == [("7D", True)]


def test_an_unsure_name_is_taken_over_by_a_sure_reading_of_its_outline(classifier):
    image, quads = _table((720, 720), ["QC"], 240)
    said = [SeenCard("QS", False, 0.5, quads[0], ["QS", "QC"], False)]
    seen, top = merge_outlines(image, said, "QS", Outlines(image), classifier)
    assert _names(seen) == [("QC", True)] and top == "QC"


def test_an_outline_holding_a_joker_is_never_named(classifier):
    image, quads = _table((720, 720), ["joker", "5D"], 220)
    middle = tuple(quads[0].mean(axis=0))
    seen, _ = merge_outlines(image, [], None, Outlines(image), classifier, jokers=[middle])
    assert [s.card for s in seen] == ["5D"]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("width", [80, 100])
def test_small_cards_of_a_720p_webcam_are_named_sure_by_the_closer_look(seed, width):
    # Cards 80 to 100 px wide at 1280x720: indexes about 15 px tall, under what the usual look finds.
    from hardware.vision.corners import default_detector

    det = default_detector()
    image, _ = _table((1280, 720), ["7H", "KS", "4C"], width, seed)
    usual, _ = cards_from_corners(image, det.detect(image), Outlines(image))
    assert not any(s.sure for s in usual)  # what was missed before the closer look
    seen, top = read_image(image)
    assert _names(seen) == [("4C", True), ("7H", True), ("KS", True)]
    assert top in ("4C", "7H", "KS")


def test_a_640x480_camera_frame_is_read_as_well():
    image, _ = _table((640, 480), ["9S", "JD"], 120, seed=4)
    seen, _ = read_image(image)
    assert _names(seen) == [("9S", True), ("JD", True)]


def test_vision_explain_draws_what_was_seen_and_says_it(tmp_path, capsys):
    image, _ = _table((720, 720), ["JH", "3C"], 220, seed=3)
    photo, out = tmp_path / "table.jpg", tmp_path / "why.png"
    cv2.imwrite(str(photo), image)
    assert main(["vision", "--explain", str(photo), str(out)]) == 0
    said = capsys.readouterr().out.strip()
    assert said.startswith(f"{photo}: top ") and "3C" in said and "JH" in said and str(out) in said
    picture = cv2.imread(str(out))
    # The photo with a strip under it that lists the cards; the outlines are drawn on it.
    assert picture.shape[1] == 720 and picture.shape[0] > 720
    assert not np.array_equal(picture[:720], cv2.imread(str(photo)))


def test_vision_explain_names_what_is_wrong_with_its_arguments(tmp_path, capsys):
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.zeros((100, 100, 3), np.uint8))
    assert main(["vision", "--explain", str(photo), str(tmp_path / "why.txt")]) == 2
    assert capsys.readouterr().err.strip() == f"{tmp_path / 'why.txt'}: the picture to write must end in .png or .jpg"
    assert main(["vision", "--explain", str(tmp_path / "none.jpg"), str(tmp_path / "why.png")]) == 2
    assert capsys.readouterr().err.strip() == f"{tmp_path / 'none.jpg'}: no such file"
    assert not (tmp_path / "why.png").exists()
    with pytest.raises(SystemExit) as exit_:
        main(["vision", str(photo), "--explain", str(photo), str(tmp_path / "why.png")])
    assert exit_.value.code == 2
    assert "--explain reads one IMAGE" in capsys.readouterr().err


@pytest.mark.parametrize("size, width", [((640, 480), 70), ((1280, 720), 90)])
def test_the_pile_watcher_reports_a_small_card_once_at_either_camera_size(size, width):
    # A webcam at a normal height over the table: the card is 70 px wide at 640x480, 90 at 1280x720.
    # The watcher reads only its pile region, at the frame's own resolution (docs/vision.md).
    from hardware.camera.device import Camera, MockCamera
    from hardware.vision.render import light_and_blur
    from hardware.vision.watcher import PileWatcher

    w, h = size
    rng = np.random.default_rng(5)
    table = texture(h, w, rng)
    laid = table.copy()
    paste_card(laid, render_card("QD"), card_quad(w * 0.5, h * 0.5, width, 25))
    frames = [light_and_blur(f.copy(), np.random.default_rng(i), blur=0.6, unevenness=0.0, noise=2)
              for i, f in enumerate([table] * 10 + [laid] * 30)]
    camera = Camera(source=MockCamera(frames, fps=30, realtime=False, start=100.0))

    class Sink:
        events = []

        def on_card(self, card, landed_at):
            self.events.append((card, landed_at))

        def on_unsure(self, candidates, landed_at):
            self.events.append((tuple(candidates), landed_at))

    sink = Sink()
    watcher = PileWatcher(camera, sink, region=(0.3, 0.2, 0.4, 0.6))
    while (frame := camera.read()) is not None:
        watcher.feed(frame)
    assert [card for card, _ in sink.events] == ["QD"]
    assert abs(sink.events[0][1] - (100.0 + 10 / 30)) <= 1 / 30 + 1e-9


@pytest.mark.parametrize("seed", [0, 2])
def test_a_dim_photo_is_brightened_before_it_is_read(seed, monkeypatch):
    # A room lit low: the cards' white is a third of what it should be, and the detector, which
    # learned cards lit well, finds little in it as it is.
    from hardware.vision import recognise

    image, _ = _table((640, 480), ["9S", "JD"], 150, seed=seed)
    dim = cv2.convertScaleAbs(image, alpha=0.35)
    assert _names(read_image(dim)[0]) == [("9S", True), ("JD", True)]
    monkeypatch.setattr(recognise, "DIM", 1e9)  # never brightened: as before
    assert _names(read_image(dim)[0]) != [("9S", True), ("JD", True)]


def test_a_photo_lit_well_is_read_as_it_is():
    from hardware.vision.recognise import brightened

    image, _ = _table((640, 480), ["9S"], 150)
    assert brightened(image) is image
    dim = cv2.convertScaleAbs(image, alpha=0.5)
    lifted = brightened(dim)
    assert lifted is not dim and 220 <= np.percentile(cv2.cvtColor(lifted, cv2.COLOR_BGR2GRAY), 99) <= 250


def test_a_card_left_unsure_is_looked_at_closer_even_with_no_outline_found():
    # A pale table shows no card's edge: the closer look is asked for by the unsure card itself.
    from hardware.vision.corners import Corner
    from hardware.vision.recognise import closer_look

    rank = np.zeros(14)
    rank[0] = 1.0
    suit = np.zeros(5)
    suit[1] = 1.0
    small = Corner(300.0, 200.0, 14.0, 20.0, 0.9, rank, suit)

    class Looks:
        scales = []

        def scale_for(self, image):
            return 384 / 720

        def detect(self, image, scale=None):
            self.scales.append(scale)
            return [small]

    pale = np.full((720, 1280, 3), 120, np.uint8)
    det = Looks()
    unsure = [SeenCard("AH", False, 0.7, np.zeros((4, 2), np.float32), ["AH"])]
    assert Outlines(pale).all() == []
    closer_look(pale, det, [small], unsure, Outlines(pale))
    assert det.scales and det.scales[0] > det.scale_for(pale)
    det.scales.clear()
    sure = [SeenCard("AH", True, 0.99, np.zeros((4, 2), np.float32), ["AH"])]
    assert closer_look(pale, det, [small], sure, Outlines(pale)) == [small] and not det.scales


def test_an_empty_dark_table_is_not_brightened_into_a_card():
    from hardware.vision.recognise import brightened

    frame = np.full((480, 640, 3), 60, np.uint8)
    assert brightened(frame) is frame
    assert read_image(frame) == ([], None)
