"""Choosing ``SURE_EDGE`` (tools/vision/card_corner_thresholds.py ``--tables``): the names a
card's own edge made sure are counted at each level, and the lowest level at which they keep to
the share wrong on every split is chosen. On photos drawn here and a stand-in card-corner model:
the suite needs no photo from outside the repository."""

import json

import cv2
import numpy as np

from hardware.vision import recognise
from hardware.vision.classify import Reading
from hardware.vision.indexes import SeenCard
from tools.vision.card_corner_thresholds import EDGE_FROM, EDGE_TRIED, edge_figures, lowest_edge


def test_the_lowest_level_at_which_every_split_keeps_to_the_share_is_chosen():
    def f(sure, wrong):
        return {"edge_sure": sure, "edge_wrong": wrong}

    figures = {0.9: [f(40, 1), f(90, 0)], 0.95: [f(30, 0), f(80, 1)], 0.98: [f(20, 0), f(70, 0)],
               0.99: [f(10, 0), f(60, 0)]}
    assert lowest_edge(figures, 0.005) == 0.98
    assert lowest_edge(figures, 0.02) == 0.95  # 1 of 80 is within 2%, 1 of 40 is not
    assert lowest_edge({0.9: [f(0, 0)]}, 0.005) == 0.9  # nothing made sure: nothing wrong
    assert lowest_edge({0.99: [f(5, 1)]}, 0.005) is None
    # Never under the level the training photos chose, however little the photos make sure.
    assert lowest_edge(figures, 0.02, start=0.98) == 0.98
    assert lowest_edge(figures, 0.005, start=0.985) == 0.99
    assert list(EDGE_TRIED) == sorted(EDGE_TRIED) and EDGE_TRIED[-1] == 0.995  # at SURE the edge adds nothing
    assert EDGE_FROM in EDGE_TRIED


class StandIn:
    """A card-corner model that names every card 7H at 0.97, never sure on its own."""

    def read(self, card):
        return Reading("7H", False, 0.97, ["7H", "7D"]), False


def test_names_the_edge_made_sure_are_counted_and_right_or_wrong_by_the_labels(tmp_path, monkeypatch):
    for name in ("oak-001.jpg", "oak-002.jpg"):
        cv2.imwrite(str(tmp_path / name), np.full((60, 80, 3), 128, np.uint8))
    (tmp_path / "labels.json").write_text(json.dumps({
        "oak-001.jpg": {"cards": ["7H"], "boxes": {"7H": [[0.5, 0.5, 0.5, 0.5]]}},
        "oak-002.jpg": {"cards": ["KH"], "boxes": {"KH": [[0.5, 0.5, 0.5, 0.5]]}}}))
    quad = np.array([[10, 10], [50, 10], [50, 50], [10, 50]], np.float32)

    def read_image(image, clf=None, *args, **kwargs):
        # As merge_outlines reads an outline no sure card lies in: weighed with its edge found,
        # and a card the indexes named unsure, without one.
        edge = recognise.weigh(image, None, None, StandIn(), edge=True)
        plain = recognise.weigh(image, None, Reading("2C", False, 0.5, ["2C"]), StandIn())
        seen = [SeenCard(r.card, r.sure, r.score, quad, r.candidates, True, outlined=True) for r in (edge, plain)]
        return seen, edge.card

    weigh, level = recognise.weigh, recognise.SURE_EDGE
    monkeypatch.setattr(recognise, "read_image", read_image)
    photos = ["oak-001.jpg", "oak-002.jpg"]
    low = edge_figures(tmp_path, photos, 0.95, clf=object())
    assert (low["edge_sure"], low["edge_wrong"]) == (2, 1)
    assert low["edge_names"] == ["oak-001.jpg 7H", "oak-002.jpg 7H (wrong)"]
    assert low["sure_names"] == 2 and low["visible_named_sure"] == 0.5 and low["single_right"] == 0.5
    high = edge_figures(tmp_path, photos, 0.99, clf=object())
    assert (high["edge_sure"], high["edge_wrong"], high["sure_names"]) == (0, 0, 0)
    assert lowest_edge({0.95: [low], 0.99: [high]}, 0.005) == 0.99
    # The reading path is left as it was.
    assert recognise.weigh is weigh and recognise.SURE_EDGE == level
