"""Naming a corner index with the trained model (``models/corner.npz``, made by
:mod:`tools.vision.train`): one small softmax network for the rank, one for the suit, on the
same glyph features the drawn-glyph classifier uses. A reading is *sure* only when both heads
are confident; "not a card" (a joker's letters, texture, noise) is a class of each head.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from companion.cards import RANKS, SUITS
from hardware.vision.classify import NOT_A_CARD, Reading
from hardware.vision.glyphs import Index, features

MODEL_PATH = Path(__file__).resolve().parent / "models" / "corner.npz"
RANK_CLASSES = list(RANKS) + [NOT_A_CARD]
SUIT_CLASSES = list(SUITS) + [NOT_A_CARD]
SURE_P = 0.97     # rank probability x suit probability for a sure name
SURE_ALONE = 0.999  # sure although the drawn glyphs name another card
REJECT_P = 0.5    # "not a card" at least this likely in either head: no name at all


def index_vectors(index: Index) -> tuple[np.ndarray, np.ndarray]:
    """(rank vector, suit vector); the suit's also carries the ink's redness."""
    red = np.float32(np.clip(index.red / 100.0, -1.5, 1.5))
    return features(index.rank), np.concatenate([features(index.suit), [red]]).astype(np.float32)


class _Net:
    def __init__(self, data, head: str) -> None:
        self.mean, self.std = data[f"{head}_mean"], data[f"{head}_std"]
        self.w1, self.b1 = data[f"{head}_w1"], data[f"{head}_b1"]
        self.w2, self.b2 = data[f"{head}_w2"], data[f"{head}_b2"]

    def probs(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(((x - self.mean) / self.std) @ self.w1 + self.b1, 0)
        z = h @ self.w2 + self.b2
        z = np.exp(z - z.max())
        return z / z.sum()


class LearnedClassifier:
    def __init__(self, rank: _Net, suit: _Net) -> None:
        self.rank, self.suit = rank, suit

    @classmethod
    def load(cls, path=MODEL_PATH) -> "LearnedClassifier":
        with np.load(str(path), allow_pickle=False) as data:
            return cls(_Net(data, "rank"), _Net(data, "suit"))

    def read(self, index: Index) -> Reading:
        rv, sv = index_vectors(index)
        pr, ps = self.rank.probs(rv), self.suit.probs(sv)
        if pr[-1] >= REJECT_P or ps[-1] >= REJECT_P:
            return Reading(None, False, 0.0, [])
        pr, ps = pr[:-1], ps[:-1]
        joint = np.outer(pr, ps)
        order = np.argsort(-joint, axis=None)[:4]
        cands = [RANKS[i // len(SUITS)] + SUITS[i % len(SUITS)] for i in order]
        best = float(joint.ravel()[order[0]])
        return Reading(cands[0], best >= SURE_P, round(best, 3), cands)


class CombinedClassifier:
    """The trained model beside the drawn glyphs. The model knows the deck it was trained on
    far better; the glyphs generalise further to other designs. The model's name is taken; it is
    sure at ``SURE_P`` when the glyphs agree (or find nothing), or when the glyphs agree and are
    sure themselves; against the glyphs only at ``SURE_ALONE``. Thresholds chosen on held-out
    scene corners and a third of the crops (docs/vision.md)."""

    lone_sure = 0.995  # a card read from one corner only (see recognise.read_card)

    def __init__(self, learned: LearnedClassifier, glyphs) -> None:
        self.learned, self.glyphs = learned, glyphs

    def read(self, index: Index) -> Reading:
        lr, gr = self.learned.read(index), self.glyphs.read(index)
        if lr.card is None:
            return Reading(gr.card, False, gr.score * 0.5, gr.candidates) if gr.card else lr
        if gr.card is None or gr.card == lr.card:
            sure = lr.score >= SURE_P or (gr.sure and gr.card == lr.card)
            return Reading(lr.card, sure, max(lr.score, gr.score), lr.candidates)
        cands = [lr.card, gr.card] + [c for c in lr.candidates + gr.candidates if c not in (lr.card, gr.card)]
        return Reading(lr.card, lr.score >= SURE_ALONE, lr.score, cands[:4])


def model_present(path=MODEL_PATH) -> bool:
    return Path(path).is_file()


_DEFAULT = None
# The app makes it ready on a thread from home on (ui/camera_link.py) while a camera game may
# ask for it on the feed's: one of them makes it, the other waits for it.
_MAKING = threading.Lock()


def default_classifier():
    """The trained model when it is shipped, else the drawn glyphs (cached for the process)."""
    with _MAKING:
        return _default_classifier()


def _default_classifier():
    global _DEFAULT
    if _DEFAULT is None:
        if model_present():
            try:
                from hardware.vision.classify import builtin_classifier

                _DEFAULT = CombinedClassifier(LearnedClassifier.load(), builtin_classifier())
            except (OSError, KeyError, ValueError):
                _DEFAULT = None  # a damaged model file: fall back rather than fail at the table
        if _DEFAULT is None:
            from hardware.vision.classify import builtin_classifier

            _DEFAULT = builtin_classifier()
    return _DEFAULT
