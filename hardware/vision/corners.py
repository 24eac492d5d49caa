"""Finding and naming every corner index in a photo with the trained detector
(``models/corners.onnx``, made by :mod:`tools.vision.train_corners`, run by
:mod:`hardware.vision.network`).

A corner index is found wherever it shows, whether its card lies alone or half under another,
so cards that overlap are told apart by their indexes rather than by their outlines.
:func:`detect` gives each index's place, size and rank and suit probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.cards import RANKS, SUITS
from hardware.vision.network import Network
from hardware.vision.shipped import loaded_once

MODEL_PATH = Path(__file__).resolve().parent / "models" / "corners.onnx"
READER_PATH = Path(__file__).resolve().parent / "models" / "reader.onnx"
# A second reader, trained the same way on the boxes of the detector as shipped: it names more
# indexes right but is sure of its mistakes on other designs, so the readers are read together.
SECOND_READER_PATH = READER_PATH.with_name("reader2.onnx")
# A third, trained (as the first now is) on more drawn designs and on the crops' indexes where
# the detector finds them (docs/vision.md, "The trained models").
THIRD_READER_PATH = READER_PATH.with_name("reader3.onnx")
PATCH = 48     # the side of the patch the reader names an index from
INPUT = 384    # a 720-pixel photo's side as the network sees it (larger photos are shrunk to fit)
REFERENCE = 720  # smaller photos are not enlarged: cards keep the size they have in pixels
STRIDE = 8     # one output cell per 8 input pixels
PEAK = 0.3     # heat at an index's centre for it to count as found


@dataclass
class Corner:
    x: float
    y: float
    w: float
    h: float
    heat: float
    rank: np.ndarray   # probabilities of RANKS and then "joker"
    suit: np.ndarray   # probabilities of SUITS and then "joker"
    # Each reader's own (rank, suit) probabilities, as ``rank`` and ``suit`` are their average;
    # empty when the detector named the index itself.
    each: list = field(default_factory=list)

    @property
    def joker(self) -> float:
        return float(max(self.rank[-1], self.suit[-1]))

    def best(self, n: int = 4) -> list[tuple[str, float]]:
        """The n likeliest cards with their probabilities (rank probability x suit probability)."""
        joint = np.outer(self.rank[:-1], self.suit[:-1])
        order = np.argsort(-joint, axis=None)[:n]
        return [(RANKS[i // len(SUITS)] + SUITS[i % len(SUITS)], float(joint.ravel()[i])) for i in order]

    def weakest(self, k: int) -> float:
        """The least probability any one reader gives the card ``k`` (rank-major, as ``best``
        orders them): three readers agreeing on average can still hide one that doubts it."""
        r, s = divmod(k, len(SUITS))
        return float(min((rank[r] * suit[s] for rank, suit in self.each), default=self.rank[r] * self.suit[s]))


def softmax(z: np.ndarray, axis: int) -> np.ndarray:
    z = np.exp(z - z.max(axis=axis, keepdims=True))
    return z / z.sum(axis=axis, keepdims=True)


class CornerDetector:
    """Finds the indexes; with a reader (``reader_path``), names them from full-resolution patches."""

    def __init__(self, path=MODEL_PATH, reader_path=READER_PATH) -> None:
        self.net = Network(path)
        self.reader = IndexReader(reader_path) if reader_path and Path(reader_path).is_file() else None

    @staticmethod
    def scale_for(image: np.ndarray) -> float:
        """The usual scale: a 720-pixel photo shrunk to the network's input, smaller ones as large."""
        return INPUT / max(REFERENCE, *image.shape[:2])

    def detect(self, image: np.ndarray, scale: float | None = None, read: bool = True) -> list[Corner]:
        """Every corner index found in a BGR photo, in the photo's own pixels; ``read=False``
        keeps every peak with the detector's own names (the readers neither name nor drop any)."""
        h, w = image.shape[:2]
        scale = scale or self.scale_for(image)
        # The network takes sides that are multiples of 32: pad the shrunk photo.
        sw, sh = max(32, int(round(w * scale))), max(32, int(round(h * scale)))
        small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        pw, ph = -(-sw // 32) * 32, -(-sh // 32) * 32
        if (pw, ph) != (sw, sh):
            small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
        out = self.net(cv2.dnn.blobFromImage(small, 1.0 / 255.0))[0]
        heat = 1.0 / (1.0 + np.exp(-out[0]))
        peaks = (heat >= PEAK) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        nr = len(RANKS) + 1
        found = []
        for gy, gx in zip(*np.nonzero(peaks)):
            # Names are read over the cell and its neighbours, weighted by their heat.
            y0, y1, x0, x1 = max(0, gy - 1), gy + 2, max(0, gx - 1), gx + 2
            wgt = heat[y0:y1, x0:x1][None]
            rank = (softmax(out[3:3 + nr, y0:y1, x0:x1], 0) * wgt).sum((1, 2)) / wgt.sum()
            suit = (softmax(out[3 + nr:, y0:y1, x0:x1], 0) * wgt).sum((1, 2)) / wgt.sum()
            # The centre between cells: the heat's centroid round the peak.
            wy, wx = np.mgrid[y0:y0 + wgt.shape[1], x0:x0 + wgt.shape[2]]
            fx, fy = float((wx * wgt[0]).sum() / wgt.sum()), float((wy * wgt[0]).sum() / wgt.sum())
            cx, cy = (fx + 0.5) * STRIDE / scale, (fy + 0.5) * STRIDE / scale
            bw, bh = np.exp(out[1:3, gy, gx]) * STRIDE / scale
            found.append(Corner(float(cx), float(cy), float(bw), float(bh), float(heat[gy, gx]), rank, suit))
        found.sort(key=lambda c: -c.heat)
        return self.reader.read(image, found) if self.reader and read else found


def index_patch(image: np.ndarray, x: float, y: float, size: float, angle: float = 0.0) -> np.ndarray:
    """The square round an index (centre x, y; ``size`` its box's longer side), PATCH pixels."""
    side = 1.25 * size
    m = cv2.getRotationMatrix2D((float(x), float(y)), angle, PATCH / side)
    m[:, 2] += PATCH / 2 - np.array([x, y])
    return cv2.warpAffine(image, m, (PATCH, PATCH), flags=cv2.INTER_AREA if side > 2 * PATCH else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


class IndexReader:
    """Names each found index again from its patch at full resolution (``models/reader.onnx``,
    made by :mod:`tools.vision.train_reader`), and drops what is no index at all.

    An index often peaks at two or three neighbouring cells, and a copy cut a little off the
    strongest peak sometimes reads better. The strongest peak of each index is read first (all
    in one call of the network); the copies are read (in a second call) only for the indexes
    whose first reading is not clear, so a clear photo costs one patch an index."""

    NONE_P = 0.5
    SAME_INDEX = 0.5  # a weaker peak this near a stronger one (a share of their size): the same index
    CLEAR = 0.95      # a first reading whose likeliest card is at least this needs no copies read

    def __init__(self, path=READER_PATH, second=SECOND_READER_PATH, third=THIRD_READER_PATH) -> None:
        self.nets = [Network(p) for p in (path, second, third) if p and Path(p).is_file()]

    def read(self, image: np.ndarray, corners: list[Corner]) -> list[Corner]:
        """The indexes among ``corners`` (strongest first), named; what is no index dropped."""
        heads: list[Corner] = []
        copies: dict[int, list[Corner]] = {}
        for c in corners:
            head = next((k for k, h in enumerate(heads)
                         if np.hypot(c.x - h.x, c.y - h.y) <= self.SAME_INDEX * max(h.w, h.h, c.w, c.h)), None)
            if head is None:
                heads.append(c)
            else:
                copies.setdefault(head, []).append(c)
        first = self._name(image, heads)
        again = [c for k, (h, named) in enumerate(zip(heads, first))
                 if not named or float(np.outer(h.rank[:-1], h.suit[:-1]).max()) < self.CLEAR
                 for c in copies.get(k, [])]
        second = self._name(image, again)
        named = {id(c) for c, ok in zip(heads + again, first + second) if ok}
        return [c for c in corners if id(c) in named]

    def _name(self, image: np.ndarray, corners: list[Corner]) -> list[bool]:
        """Names each corner in place from its patch; False for what is no index."""
        if not corners:
            return []
        patches = [index_patch(image, c.x, c.y, max(c.w, c.h)) for c in corners]
        blob = cv2.dnn.blobFromImages(patches, 1.0 / 255.0)
        nr = len(RANKS) + 2
        each = []
        for net in self.nets:
            out = net(blob)
            each.append((softmax(out[:, :nr], 1), softmax(out[:, nr:], 1)))
        # The readers' probabilities, averaged.
        ranks = sum(rank for rank, _ in each) / len(each)
        suits = sum(suit for _, suit in each) / len(each)
        ok = []
        for i, (c, rank, suit) in enumerate(zip(corners, ranks, suits)):
            if rank[-1] >= self.NONE_P or suit[-1] >= self.NONE_P:
                ok.append(False)
                continue
            # Without "no index": the ranks and the joker, the suits and the joker.
            c.rank, c.suit = rank[:-1] / rank[:-1].sum(), suit[:-1] / suit[:-1].sum()
            # Each reader's own, its "no index" left out and not shared out among the cards: a
            # reader that doubts this is an index at all doubts the card as much.
            c.each = [(r[i][:-1], s[i][:-1]) for r, s in each]
            ok.append(True)
        return ok


def model_present(path=MODEL_PATH) -> bool:
    return Path(path).is_file()


# The shipped detector (cached for the process), or None without a usable model file.
default_detector = loaded_once(model_present, CornerDetector)
