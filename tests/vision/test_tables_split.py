"""The tables/ photos' split and figures (hardware/vision/tables.py), on a folder drawn here:
the suite needs no photo from outside the repository."""

import json

import cv2
import numpy as np
import pytest

from hardware.vision import tables
from hardware.vision.recognise import read_image
from hardware.vision.render import random_scene


def test_the_split_is_fixed_by_name_and_keeps_a_quarter_of_each_source_apart():
    photos = [f"{src}-{i:03d}.jpg" for src in ("oak", "felt") for i in range(200)]
    held = [n for n in photos if tables.held_out(n)]
    assert held == [n for n in photos if tables.held_out(n)]  # the same every time
    for src in ("oak", "felt"):
        share = sum(tables.source_of(n) == src for n in held) / 200
        assert 0.18 <= share <= 0.32, share


def test_the_calibration_photos_are_training_photos_no_model_learns_from(tmp_path):
    photos = [f"{src}-{i:03d}.jpg" for src in ("oak", "felt") for i in range(200)]
    (tmp_path / "labels.json").write_text(json.dumps({n: {"cards": []} for n in photos}))
    split = {s: set(tables.names(tmp_path, s)) for s in ("held-out", "training", "calibration", "models")}
    assert split["calibration"] | split["models"] == split["training"]
    assert not split["calibration"] & split["models"] and not split["training"] & split["held-out"]
    assert 0.18 <= len(split["calibration"]) / len(photos) <= 0.32
    with pytest.raises(ValueError, match="no split 'train': one of .*calibration"):
        tables.names(tmp_path, "train")


def test_a_card_under_another_is_not_fully_visible():
    truth = {"cards": ["7H", "KS", "2C"],
             "boxes": {"7H": [[0.3, 0.5, 0.2, 0.3]], "KS": [[0.38, 0.5, 0.2, 0.3]], "2C": [[0.8, 0.5, 0.2, 0.3]]}}
    assert tables.fully_visible(truth) == ["2C"]


def _box(quad, w, h):
    (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
    return [float((x0 + x1) / 2 / w), float((y0 + y1) / 2 / h), float((x1 - x0) / w), float((y1 - y0) / h)]


def test_measure_counts_what_a_family_would_see(tmp_path):
    labels = {}
    for i, codes in enumerate([["9C"], ["4D"], ["KH"], ["6S"]]):
        image, quads = random_scene(np.random.default_rng(i), codes)
        name = f"drawn-{i:03d}.jpg"
        cv2.imwrite(str(tmp_path / name), image)
        labels[name] = {"cards": codes, "boxes": {c: [_box(q, 720, 720)] for c, q in zip(codes, quads)}}
    # A photo labelled with a card that is not in it: the reader's sure name counts as wrong.
    labels["drawn-003.jpg"]["cards"] = ["6H"]
    labels["drawn-003.jpg"]["boxes"] = {"6H": labels["drawn-003.jpg"]["boxes"]["6S"]}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    out = tables.measure(tmp_path, read_image)
    assert out["photos"] == 4 and out["singles"] == 4 and out["visible"] == 4
    assert out["visible_named_sure"] == 0.75 and out["single_right"] == 0.75
    assert out["sure_not_in_photo"] == 0.25 and out["sure_and_wrong"] == ["drawn-003.jpg 6S"]
    assert out["missed"] == ["drawn-003.jpg 6H"]
    assert set(out["by_source"]) == {"drawn"}
    held = tables.measure(tmp_path, read_image, split="held-out")
    assert held["photos"] == sum(tables.held_out(n) for n in labels)
