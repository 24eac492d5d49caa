"""Naming a corner index: nearest neighbours among glyphs of known cards.

The known glyphs are drawn by :mod:`hardware.vision.render` in every Hershey font and weight
(made on first use, a second or so, nothing downloaded), plus any deck the table taught
(:mod:`hardware.vision.templates`). A joker's corner letters are kept as a class of their own,
so a joker is recognised as "not a card" rather than as a J. A reading is *sure* only when the
best match is close and clearly better than the best match of any other class.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import RANKS, SUITS
from hardware.vision.glyphs import Index, cut_index, features
from hardware.vision.render import FONTS, render_card

NOT_A_CARD = "X"
SURE_MARGIN = 0.2     # relative distance gap to the runner-up class
SURE_DISTANCE = 0.45   # absolute feature distance above which nothing is sure
REJECT_DISTANCE = 0.8  # above this the glyph is not a card index at all


@dataclass
class Reading:
    card: str | None
    sure: bool
    score: float
    candidates: list[str]


class GlyphClassifier:
    def __init__(self) -> None:
        self.rank_x: list[np.ndarray] = []
        self.rank_y: list[str] = []
        self.suit_x: list[np.ndarray] = []
        self.suit_y: list[str] = []

    def add(self, index: Index, rank: str, suit: str) -> None:
        self.rank_x.append(features(index.rank))
        self.rank_y.append(rank)
        self.suit_x.append(features(index.suit))
        self.suit_y.append(suit)

    def _stacked(self, xs) -> np.ndarray:
        """The known glyphs as one array, stacked again only when some were added (stacking
        them was half of each reading's time)."""
        stacks = self.__dict__.setdefault("_stacks", {})
        kept = stacks.get(id(xs))
        if kept is None or kept[0] is not xs or kept[1] != len(xs):
            kept = stacks[id(xs)] = (xs, len(xs), np.asarray(xs))
        return kept[2]

    def _nearest(self, xs, ys, v):
        d = np.linalg.norm(self._stacked(xs) - v[None, :], axis=1)
        best: dict[str, float] = {}
        for label, dist in zip(ys, d):
            if dist < best.get(label, 9e9):
                best[label] = float(dist)
        return sorted(best.items(), key=lambda kv: kv[1])

    def read(self, index: Index) -> Reading:
        ranks = self._nearest(self.rank_x, self.rank_y, features(index.rank))
        suits = self._nearest(self.suit_x, self.suit_y, features(index.suit))
        # The ink colour settles red against black when it is clear.
        if abs(index.red) > 20:
            allowed = ("H", "D") if index.red > 0 else ("S", "C")
            suits = [s for s in suits if s[0] in allowed or s[0] == NOT_A_CARD]
        (r1, dr1), (r2, dr2) = ranks[0], ranks[1]
        (s1, ds1), (s2, ds2) = suits[0], suits[1] if len(suits) > 1 else (NOT_A_CARD, 9.0)
        if NOT_A_CARD in (r1, s1) or dr1 > REJECT_DISTANCE or ds1 > REJECT_DISTANCE:
            return Reading(None, False, 0.0, [])
        margin = min((dr2 - dr1) / max(dr2, 1e-6), (ds2 - ds1) / max(ds2, 1e-6))
        score = float(np.clip(1.0 - max(dr1, ds1), 0, 1) * np.clip(0.5 + margin, 0, 1))
        sure = margin > SURE_MARGIN and max(dr1, ds1) < SURE_DISTANCE
        cands = []
        for rk, _ in ranks[:3]:
            for st, _ in suits[:2]:
                if NOT_A_CARD not in (rk, st):
                    cands.append(rk + st)
        cands.sort(key=lambda c: 0 if c == r1 + s1 else 1)
        return Reading(r1 + s1, sure, round(score, 3), cands[:4])


def _augment(card: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = card.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-3, 3), rng.uniform(0.97, 1.03))
    m[:, 2] += rng.uniform(-3, 3, 2)
    out = cv2.warpAffine(card, m, (w, h), borderValue=(245, 245, 245))
    return cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))


_BUILT: GlyphClassifier | None = None


def builtin_classifier(samples_per_style: int = 1, seed: int = 7) -> GlyphClassifier:
    """Glyphs of every rank and suit in every drawn style (cached for the process)."""
    global _BUILT
    if _BUILT is None:
        from hardware.vision.kept import kept

        _BUILT = kept("glyphs", (samples_per_style, seed),
                      ("classify.py", "glyphs.py", "render.py", "geometry.py", "../../companion/cards.py"),
                      lambda: _build(samples_per_style, seed), _save_glyphs, _load_glyphs)
    return _BUILT


def _build(samples_per_style: int, seed: int) -> GlyphClassifier:
    rng = np.random.default_rng(seed)
    clf = GlyphClassifier()
    for font in FONTS:
        for thickness in (1, 2, 3):
            style = {"font": font, "thickness": thickness}
            for suit in SUITS:
                for rank in RANKS:
                    for _ in range(samples_per_style):
                        idx = cut_index(_augment(render_card(rank + suit, style), rng))
                        if idx is not None:
                            clf.add(idx, rank, suit)
            joker = cut_index(render_card("joker", style))
            if joker is not None:
                clf.add(joker, NOT_A_CARD, NOT_A_CARD)
    return clf


def _save_glyphs(f, clf: GlyphClassifier) -> None:
    np.save(f, np.asarray(clf.rank_x))
    np.save(f, np.asarray(clf.suit_x))
    f.write(json.dumps([clf.rank_y, clf.suit_y]).encode())


def _load_glyphs(f) -> GlyphClassifier:
    clf = GlyphClassifier()
    clf.rank_x, clf.suit_x = list(np.load(f)), list(np.load(f))
    clf.rank_y, clf.suit_y = json.loads(f.read())
    return clf
