"""From the corner indexes found in a photo to the cards in it, and the one on top.

A deck holds each card once, so indexes that name the same card are that card's two corners.
A card whose two indexes both show lies uncovered: the card on top is one of those. A card
seen at one index only is partly covered. Sure names need much: two agreeing indexes, or one
index read with near certainty (a wrong "sure" costs the table far more than a question).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.cards import RANKS, SUITS
from hardware.vision.detect import find_cards
from hardware.vision.geometry import CARD_H, CARD_W

JOKER_P = 0.2      # a corner at least this likely a joker's is not a card's
NAME_P = 0.25      # below this the likeliest card is no name at all
NAME_ONE = 0.5     # ... for a card seen at one index only
# Sure: chosen by python -m tools.vision.thresholds --crops-wrong 0.02 so that at most 0.5% of
# sure names are wrong on the training scenes and on the tables/ calibration photos (other decks
# on other tables, which no model learned from), none on drawn piles, and at most 2% on the
# train-* crops; never on held-out photos (docs/vision.md).
SURE_PAIR = 0.956  # two agreeing indexes: the card's probability given both
SURE_PAIR_EACH = 0.5  # ... and each index on its own at least this sure of it
SURE_ONE = 0.9407  # one index alone
# ... or one index at least SURE_ONE_LOW on average whose every reader alone gives the card at
# least SURE_ONE_EACH (the choosing sets' wrong single indexes between the two levels each had
# one reader in doubt). 1.0: the pair the grid chooses (0.86, 0.75) names a card sure that is
# not there in a deck drawn in a design no model saw (docs/vision.md), so the rule never applies.
SURE_ONE_LOW = 1.0
SURE_ONE_EACH = 1.0
# ... or two agreeing indexes whose joint probability is at least this, however unsure the
# weaker of them is alone. 1.0: with the readers trained on the tables photos, no level keeps
# such pairs within those shares, so the rule is kept but never applies.
SURE_PAIR_ANY = 1.0
# Where a corner index's middle lies on a card (fractions of its width and height).
INDEX_AT = (0.115, 0.16)
CODES = [r + s for r in RANKS for s in SUITS]


@dataclass
class SeenCard:
    card: str
    sure: bool
    score: float
    outline: np.ndarray
    candidates: list[str] = field(default_factory=list)
    both_corners: bool = False
    outlined: bool = False  # the outline is the card's own edge, not placed from its indexes
    least: float = 0.0      # the card's probability at its less certain index (its only one, if one)
    weakest: float = 0.0    # the least any one reader gives the card at that index

    def as_json(self) -> dict:
        return {"card": self.card, "sure": bool(self.sure), "score": round(float(self.score), 3),
                "outline": [[int(round(x)), int(round(y))] for x, y in self.outline]}


def _joint(corner) -> np.ndarray:
    """The corner's probability of each card of CODES (rank-major, as CODES is)."""
    return np.outer(corner.rank[:-1], corner.suit[:-1]).ravel()


def _outline_from_pair(a, b) -> np.ndarray:
    """A card's outline from the middles of its two indexes (top-left and bottom-right)."""
    v_card = np.array([(1 - 2 * INDEX_AT[0]) * CARD_W, (1 - 2 * INDEX_AT[1]) * CARD_H])
    v = np.array([b.x - a.x, b.y - a.y])
    s = np.linalg.norm(v) / np.linalg.norm(v_card)
    ang = np.arctan2(v[1], v[0]) - np.arctan2(v_card[1], v_card[0])
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]) * s
    half = np.array([[-CARD_W, -CARD_H], [CARD_W, -CARD_H], [CARD_W, CARD_H], [-CARD_W, CARD_H]]) / 2
    centre = np.array([(a.x + b.x) / 2, (a.y + b.y) / 2])
    return (half @ rot.T + centre).astype(np.float32)


def _box(c) -> np.ndarray:
    return np.array([[c.x - c.w / 2, c.y - c.h / 2], [c.x + c.w / 2, c.y - c.h / 2],
                     [c.x + c.w / 2, c.y + c.h / 2], [c.x - c.w / 2, c.y + c.h / 2]], np.float32)


class Outlines:
    """Card outlines found by their shape, looked for only when a card needs one (a
    half-size photo is enough to place them within a few pixels)."""

    def __init__(self, image: np.ndarray) -> None:
        self.image, self._quads = image, None
        self.shrink = 2 if min(image.shape[:2]) >= 400 else 1

    def _find(self, part: np.ndarray) -> list[np.ndarray]:
        h, w = part.shape[:2]
        f = self.shrink
        small = cv2.resize(part, (w // f, h // f), interpolation=cv2.INTER_AREA) if f > 1 else part
        return [q * f for q in find_cards(small)]

    def all(self) -> list[np.ndarray]:
        """Every card outline in the whole photo (found once, then kept)."""
        if self._quads is None:
            self._quads = self._find(self.image)
        return self._quads

    def holding(self, corners) -> np.ndarray | None:
        """The smallest outline of the card's size holding all its ``corners``, in the whole photo."""
        return _smallest_holding(self.all(), corners)

    def near(self, placed: np.ndarray, corners) -> np.ndarray | None:
        """As :meth:`holding`, looking only round ``placed`` (where the card's indexes put it):
        a fifth of the time of the whole photo for a card of the usual size."""
        if self._quads is not None:
            return self.holding(corners)
        h, w = self.image.shape[:2]
        (x0, y0), (x1, y1) = placed.min(0), placed.max(0)
        margin = 0.25 * max(x1 - x0, y1 - y0)
        x0, y0 = max(0, int(x0 - margin)), max(0, int(y0 - margin))
        x1, y1 = min(w, int(x1 + margin)), min(h, int(y1 + margin))
        if x1 - x0 < 32 or y1 - y0 < 32 or (x1 - x0) * (y1 - y0) > 0.5 * w * h:
            return self.holding(corners)  # as big as the photo: look at all of it
        quads = [q + np.array([x0, y0], np.float32) for q in self._find(self.image[y0:y1, x0:x1])]
        return _smallest_holding(quads, corners)


def _smallest_holding(quads, corners) -> np.ndarray | None:
    size = float(np.mean([max(c.w, c.h) for c in corners]))
    best = None
    for q in quads:
        short = float(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])))
        if not 1.3 * size <= short <= 6 * size:
            continue  # not this card's size: a merged pile, or a smaller shape
        if all(cv2.pointPolygonTest(q.reshape(-1, 1, 2), (c.x, c.y), False) >= 0 for c in corners):
            if best is None or cv2.contourArea(q) < cv2.contourArea(best):
                best = q
    return best


def cards_from_corners(image: np.ndarray, corners, outlines: Outlines | None = None) -> tuple[list[SeenCard], str | None]:
    """(every card named, the card on top or None) from :func:`hardware.vision.corners.detect`;
    ``outlines``: the photo's :class:`Outlines`, to share the edge search with the caller."""
    groups: dict[str, list] = {}
    for c in corners:
        if c.joker >= JOKER_P:
            continue  # a joker: found, and never named
        p = _joint(c)
        i = int(np.argmax(p))
        if p[i] < NAME_P:
            continue
        groups.setdefault(CODES[i], []).append(c)
    outlines = outlines or Outlines(image)
    ranked: list[tuple[tuple, SeenCard, list]] = []
    for name, group in groups.items():
        group.sort(key=lambda c: -float(_joint(c)[CODES.index(name)]))
        a = group[0]
        # The card's other index: the likeliest one that is not the same index found twice.
        b = next((c for c in group[1:] if np.hypot(c.x - a.x, c.y - a.y) > 1.2 * max(a.w, a.h, c.w, c.h)), None)
        k = CODES.index(name)
        if b is not None:
            post = _joint(a) * _joint(b)
            post = post / max(post.sum(), 1e-12)
            score = float(post[k])
            sure = bool(score >= SURE_PAIR and min(_joint(a)[k], _joint(b)[k]) >= SURE_PAIR_EACH
                        or score >= SURE_PAIR_ANY)
            order = np.argsort(-post)[:4]
            outline = _outline_from_pair(a, b)
            pair = [a, b]
        else:
            post = _joint(a)
            score = float(post[k])
            if score < NAME_ONE:
                continue  # one faint index: more likely something else (a joker's letters, a picture)
            sure = bool(score >= SURE_ONE or score >= SURE_ONE_LOW and a.weakest(k) >= SURE_ONE_EACH)
            order = np.argsort(-post)[:4]
            outline = _box(a)  # where its index shows: the rest of the card is covered
            pair = [a]
        card = SeenCard(name, sure, score, outline, [CODES[i] for i in order], b is not None,
                        least=float(min(_joint(c)[k] for c in pair)),
                        weakest=min(c.weakest(k) for c in pair))
        # On top: a card with both indexes showing, the clearest first.
        ranked.append(((b is None, -score * min(c.heat for c in pair)), card, pair))
    ranked.sort(key=lambda kcp: kcp[0])
    # The cards' own edges (a third of the photo's reading time) are looked for in the whole
    # photo only when a card is left unsure: to read it again by its glyphs, or to tell a pip
    # read as an index. When the indexes name every card sure, each uncovered card's edge is
    # looked for only round where its indexes place it, for the outline drawn round it.
    unsure = any(not card.sure for _, card, _ in ranked)
    for _, card, pair in ranked:
        if unsure:
            edge = outlines.holding(pair)
        elif card.both_corners:
            edge = outlines.near(card.outline, pair)
        else:
            continue
        if edge is not None:
            card.outline, card.outlined = edge, True
    seen = [card for _, card, _ in ranked]
    seen = [card for card in seen if not _a_mark_on_another(card, seen)]
    top = seen[0].card if seen else None
    return seen, top


def _a_mark_on_another(card: SeenCard, seen: list[SeenCard]) -> bool:
    """An unsure card placed from one index that lies inside another card's own edge: a pip or a
    picture of that card read as an index, not a card (a real index there would be on top)."""
    if card.sure or card.outlined or card.both_corners:
        return False
    x, y = (float(v) for v in np.asarray(card.outline, dtype=np.float32).mean(axis=0))
    return any(other is not card and other.outlined
               and cv2.pointPolygonTest(np.asarray(other.outline, dtype=np.float32).reshape(-1, 1, 2), (x, y), False) > 0
               for other in seen)
