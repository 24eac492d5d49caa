"""The ``tables/`` photos of ../shared/vision-data: other people's decks on other tables
(its SOURCES.md), split for training and a held-out check, and scored as a family would see it.

The labels give boxes round whole cards, not round indexes, so a card counts as **fully
visible** when no other card's box covers more than ``COVERED`` of its own box (a fanned hand's
cards all overlap: they count among the cards named, not among the fully visible ones). A photo
whose cards are all fully visible has a known top card: any of them.
"""

from __future__ import annotations

import json
import time
import zlib
from pathlib import Path

import cv2
import numpy as np

COVERED = 0.08   # share of a card's box under another card's box before it is partly covered
HELD_OUT = 4     # one photo in HELD_OUT of each source is kept out of training (by its name's CRC)


def source_of(name: str) -> str:
    return name.split("-", 1)[0]


def held_out(name: str) -> bool:
    """Whether ``name`` is in the held-out split: a fixed quarter of each source's photos."""
    return zlib.crc32(name.encode()) % HELD_OUT == 0


def _area(b) -> float:
    return max(0.0, b[2]) * max(0.0, b[3])


def _overlap(a, b) -> float:
    w = min(a[0] + a[2] / 2, b[0] + b[2] / 2) - max(a[0] - a[2] / 2, b[0] - b[2] / 2)
    h = min(a[1] + a[3] / 2, b[1] + b[3] / 2) - max(a[1] - a[3] / 2, b[1] - b[3] / 2)
    return max(0.0, w) * max(0.0, h)


def fully_visible(truth: dict) -> list[str]:
    """The cards of a labelled photo that no other card's box covers (none without boxes)."""
    boxes = [(card, b) for card, bs in truth.get("boxes", {}).items() for b in bs]
    out = []
    for i, (card, b) in enumerate(boxes):
        covered = sum(_overlap(b, o) for j, (_, o) in enumerate(boxes) if j != i)
        if covered <= COVERED * _area(b) and card not in out:
            out.append(card)
    return out


def names(folder: Path, split: str = "all", sources=None) -> list[str]:
    """The labelled photos of ``split`` ("all", "held-out", "training"), of ``sources`` if given."""
    labels = json.loads((folder / "labels.json").read_text())
    keep = []
    for n in sorted(labels):
        if sources and source_of(n) not in sources:
            continue
        if split == "held-out" and not held_out(n) or split == "training" and held_out(n):
            continue
        keep.append(n)
    return keep


class Tally:
    """The targets of docs/vision.md for the tables photos, counted photo by photo."""

    def __init__(self) -> None:
        self.photos = self.visible = self.visible_sure = self.cards = self.cards_named = 0
        self.sure = self.sure_wrong = self.top_photos = self.top_right = 0
        self.single = self.single_right = self.single_sure = self.single_sure_wrong = 0
        self.ms: list[float] = []
        self.missed: list[tuple[str, str]] = []   # (photo, card) fully visible and not named sure
        self.wrong: list[tuple[str, str]] = []    # (photo, card) named sure and not in the photo

    def add(self, name: str, truth: dict, seen, top, ms: float) -> None:
        self.photos += 1
        self.ms.append(ms)
        cards = truth["cards"]
        whole = fully_visible(truth)
        sure_names = {s.card for s in seen if s.sure}
        named = {s.card for s in seen}
        for c in whole:
            self.visible += 1
            if c in sure_names:
                self.visible_sure += 1
            else:
                self.missed.append((name, c))
        self.cards += len(set(cards))
        self.cards_named += len(set(cards) & named)
        for s in seen:
            if s.sure:
                self.sure += 1
                if s.card not in cards:
                    self.sure_wrong += 1
                    self.wrong.append((name, s.card))
        if whole and len(whole) == len(cards):
            self.top_photos += 1
            self.top_right += top in cards
        if len(cards) == 1:
            self.single += 1
            self.single_right += top == cards[0]
            if any(s.card == top and s.sure for s in seen):
                self.single_sure += 1
                self.single_sure_wrong += top != cards[0]

    def figures(self) -> dict:
        def share(a, b):
            return round(a / b, 4) if b else None

        return {"photos": self.photos,
                "visible_named_sure": share(self.visible_sure, self.visible), "visible": self.visible,
                "cards_named": share(self.cards_named, self.cards), "cards": self.cards,
                "sure_names": self.sure, "sure_not_in_photo": share(self.sure_wrong, self.sure),
                "top_right": share(self.top_right, self.top_photos), "top_photos": self.top_photos,
                "single_right": share(self.single_right, self.single), "singles": self.single,
                "single_sure_wrong": share(self.single_sure_wrong, self.single_sure),
                "ms_mean": round(float(np.mean(self.ms)), 1) if self.ms else None,
                "ms_p95": round(float(np.percentile(self.ms, 95)), 1) if self.ms else None}


def measure(folder: Path, read, split: str = "all", limit=None, sources=None) -> dict:
    """Each photo of ``split`` read by ``read(image) -> (seen, top)``: the figures as a whole and
    by source, and the cards missed and wrongly sure (to look at with ``vision --explain``)."""
    labels = json.loads((folder / "labels.json").read_text())
    tallies: dict[str, Tally] = {}
    whole = Tally()
    for name in names(folder, split, sources)[:limit]:
        image = cv2.imread(str(folder / name))
        t0 = time.process_time()
        seen, top = read(image)
        ms = (time.process_time() - t0) * 1000
        for t in (whole, tallies.setdefault(source_of(name), Tally())):
            t.add(name, labels[name], seen, top, ms)
    out = whole.figures()
    out["by_source"] = {s: t.figures() for s, t in sorted(tallies.items())}
    out["missed"] = [f"{n} {c}" for n, c in whole.missed]
    out["sure_and_wrong"] = [f"{n} {c}" for n, c in whole.wrong]
    return out


def label_boxes(truth: dict, w: int, h: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each labelled card box in pixels (x0, y0, x1, y1); cards in the photo more than once left out."""
    out = []
    for card, boxes in truth.get("boxes", {}).items():
        if len(boxes) != 1 or truth["cards"].count(card) != 1:
            continue
        cx, cy, bw, bh = boxes[0]
        out.append((card, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)))
    return out


def _iou(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, w) * max(0.0, h)
    return inter / max(1e-9, (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


MATCH = 0.75  # an outline's bounding box must overlap its labelled box this much to be that card


def outlined_cards(folder: Path, photos: list[str]) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """(photo, outline, card) for every card outline the edge search finds in ``photos`` that
    matches one labelled box: real cards of other decks on other tables, to train on."""
    from hardware.vision.detect import find_cards

    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in photos:
        image = cv2.imread(str(folder / name))
        h, w = image.shape[:2]
        boxes = label_boxes(labels[name], w, h)
        for quad in find_cards(image):
            (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
            best = max(boxes, key=lambda cb: _iou((x0, y0, x1, y1), cb[1]), default=None)
            if best is not None and _iou((x0, y0, x1, y1), best[1]) >= MATCH:
                out.append((image, quad, best[0]))
                boxes.remove(best)
    return out
