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


def calibration(name: str) -> bool:
    """Whether ``name`` is in the calibration split: another fixed quarter of each source's
    photos, in the training split but kept out of the models' own training, so that the sure
    thresholds are chosen on photos the models never saw (tools/vision/thresholds.py)."""
    return zlib.crc32(name.encode()) % HELD_OUT == 1


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
    """The labelled photos of ``split``, of ``sources`` if given: "all", "held-out", "training"
    (all but the held-out ones), and within training "calibration" and "models" (the rest,
    what the models learn from)."""
    if split not in SPLITS:
        raise ValueError(f"no split {split!r}: one of {', '.join(SPLITS)}")
    labels = json.loads((folder / "labels.json").read_text())
    keep = []
    for n in sorted(labels):
        if sources and source_of(n) not in sources:
            continue
        if SPLITS[split](n):
            keep.append(n)
    return keep


SPLITS = {"all": lambda n: True, "held-out": held_out, "training": lambda n: not held_out(n),
          "calibration": calibration, "models": lambda n: not held_out(n) and not calibration(n)}


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


MINED_P = 0.25  # the labelled card's probability at a find for the find to be taken as its index
MINED_EDGE = 0.22  # the farthest an index's centre lies from its card box's edge, a share of the box's shorter side
MINED_SIZE = 0.4   # the largest an index is, a share of its card box's shorter side
MINED_PEAK = 0.1  # the detector's heat down to which finds are read when mining (PEAK is 0.3)


def mined_indexes(folder: Path, photos: list[str], det=None, closer: float = 2.5, log=print):
    """(photo as the detector sees it, index boxes [[x, y, w, h, rank, suit]], card boxes
    [[x0, y0, x1, y1]]) for each photo of ``photos``: the labels name the cards but box whole
    cards, so each index the shipped detector finds (down to a weak peak, at the usual look and
    ``closer``) within a labelled card's box, and the readers give that card at least
    ``MINED_P``, is taken as that card's index. Indexes found nowhere stay unlabelled: the card
    boxes are returned so training can leave what lies inside them out of its "no index" loss."""
    from companion.cards import RANKS, SUITS
    from hardware.vision import corners as corners_module
    from hardware.vision.recognise import CLOSER_MAX, brightened

    det = det or corners_module.default_detector()
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    kept = cards = 0
    peak = corners_module.PEAK
    corners_module.PEAK = MINED_PEAK
    try:
        for name in photos:
            image = brightened(cv2.imread(str(folder / name)))
            h, w = image.shape[:2]
            truth = labels[name]
            boxes = label_boxes(truth, w, h)
            usual = det.scale_for(image)
            finds = det.detect(image, usual) + det.detect(image, min(closer * usual, CLOSER_MAX / max(h, w)))
            taken: list[tuple[float, list[float]]] = []
            for c in finds:
                joint = np.outer(c.rank[:-1], c.suit[:-1])
                best = None
                for card, (x0, y0, x1, y1) in boxes:
                    side = min(x1 - x0, y1 - y0)
                    # An index lies near the card's edge (so near its box's edge, however the card
                    # is turned) and is small beside the card: a pip in the middle, or the
                    # picture of a court card, is not taken for one.
                    edge = min(c.x - x0, x1 - c.x, c.y - y0, y1 - c.y)
                    if 0 <= edge <= MINED_EDGE * side and max(c.w, c.h) <= MINED_SIZE * side:
                        r, s = RANKS.index(card[:-1]), SUITS.index(card[-1])
                        if joint[r, s] >= MINED_P and (best is None or joint[r, s] > best[0]):
                            best = (float(joint[r, s]), [c.x, c.y, c.w, c.h, r, s])
                if best is None:
                    continue
                same = next((k for k, (_, t) in enumerate(taken)
                             if np.hypot(t[0] - c.x, t[1] - c.y) <= 0.5 * max(t[2], t[3], c.w, c.h)), None)
                if same is None:
                    taken.append(best)
                elif best[0] > taken[same][0]:
                    taken[same] = best
            named = {(int(t[4]), int(t[5])) for _, t in taken}
            cards += len(boxes)
            kept += len(named)
            all_boxes = [[(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h]
                         for bs in truth.get("boxes", {}).values() for cx, cy, bw, bh in bs]
            out.append((image, np.array([t for _, t in taken], np.float32).reshape(-1, 6),
                        np.array(all_boxes, np.float32).reshape(-1, 4)))
    finally:
        corners_module.PEAK = peak
    log(f"{len(photos)} tables photos: {sum(len(o[1]) for o in out)} indexes taken, "
        f"on {kept} of their {cards} labelled cards")
    return out
