"""The corner index of a straightened card: its rank glyph, its suit glyph, and their colour.

Decks differ in font and index size but agree on the plan: near the top-left corner, the rank,
and under it the suit, in red or black ink on white. The index is cut out by ink, not by fixed
boxes, so a jumbo index and a small one both come out as two glyphs, each scaled to a square.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from hardware.vision.geometry import CARD_H, CARD_W

CORNER = (0.0, 0.0, 0.24, 0.36)   # where an index can be, as fractions of the card
GLYPH = 28                        # glyphs are compared at GLYPH x GLYPH


@dataclass
class Index:
    rank: np.ndarray   # GLYPH x GLYPH, ink = 255
    suit: np.ndarray
    red: float         # > 0: red ink, < 0: black
    crop: np.ndarray   # the corner as cut (BGR), for teaching


def _ink(corner: np.ndarray) -> np.ndarray:
    """Ink strength: dark, or strongly coloured, against the paper."""
    f = corner.astype(np.float32)
    gray = f.mean(axis=2)
    paper = np.percentile(gray, 90)
    dark = np.clip(paper - gray, 0, 255)
    colour = np.clip(f[..., 2] - np.maximum(f[..., 0], f[..., 1]), 0, 255)
    return np.clip(dark + colour * 0.8, 0, 255).astype(np.uint8)


def _square(mask: np.ndarray) -> np.ndarray:
    h, w = mask.shape
    s = max(h, w)
    pad = np.zeros((s, s), np.uint8)
    y0, x0 = (s - h) // 2, (s - w) // 2
    pad[y0:y0 + h, x0:x0 + w] = mask
    return cv2.resize(pad, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)


def cut_index(card: np.ndarray) -> Index | None:
    """Rank and suit glyphs from the top-left corner of a straightened card, or None."""
    h, w = card.shape[:2]
    x0, y0, x1, y1 = (int(CORNER[0] * w), int(CORNER[1] * h), int(CORNER[2] * w), int(CORNER[3] * h))
    corner = card[y0:y1, x0:x1]
    if corner.size == 0:
        return None
    corner = cv2.resize(corner, (int(0.24 * CARD_W), int(0.36 * CARD_H)))
    ink = _ink(corner)
    if ink.max() < 40:
        return None
    thr, mask = cv2.threshold(ink, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if thr < 25:
        return None
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    ch, cw = mask.shape
    blobs = []
    for i in range(1, n):
        x, y, bw, bh, a = stats[i]
        if a < 12 or bh < 0.04 * ch:
            continue
        if x == 0 or y == 0 or x + bw >= cw or bh > 0.6 * ch or bw > 0.8 * cw:
            continue  # the card's edge, a border, or a picture running into the corner
        blobs.append([x, y, x + bw, y + bh, [i]])
    if len(blobs) < 2:
        return None
    blobs.sort(key=lambda b: b[1])
    # Glyphs side by side on one line (the 1 and 0 of a 10) are one rank.
    groups = []
    for b in blobs:
        for g in groups:
            overlap = min(g[3], b[3]) - max(g[1], b[1])
            if overlap > 0.5 * min(g[3] - g[1], b[3] - b[1]) and b[0] - g[2] < 0.25 * cw:
                g[0], g[1], g[2], g[3] = min(g[0], b[0]), min(g[1], b[1]), max(g[2], b[2]), max(g[3], b[3])
                g[4] += b[4]
                break
        else:
            groups.append(list(b))
    # The rank is the top group near the card's left edge; the suit is the next one under it.
    groups = [g for g in groups if g[0] < 0.6 * cw]
    if len(groups) < 2:
        return None
    rank_g = groups[0]
    below = [g for g in groups[1:] if g[1] >= rank_g[3] - 2 and min(g[2], rank_g[2]) - max(g[0], rank_g[0]) > 0]
    if not below:
        return None
    suit_g = below[0]

    def glyph(g):
        sub = labels[g[1]:g[3], g[0]:g[2]]
        m = np.isin(sub, g[4]).astype(np.uint8) * 255
        return _square(m)

    rank, suit = glyph(rank_g), glyph(suit_g)
    inked = mask > 0
    f = corner.astype(np.float32)[inked]
    red = float(np.median(f[:, 2] - np.maximum(f[:, 0], f[:, 1]))) - 25.0 if len(f) else 0.0
    return Index(rank=rank, suit=suit, red=red, crop=corner)


_HOG = cv2.HOGDescriptor((GLYPH, GLYPH), (14, 14), (7, 7), (7, 7), 9)


def features(glyph: np.ndarray) -> np.ndarray:
    """A glyph's shape as a vector: gradient histograms plus a coarse picture of it."""
    blurred = cv2.GaussianBlur(glyph, (3, 3), 0)
    hog = _HOG.compute(blurred).ravel()
    small = cv2.resize(glyph, (8, 8), interpolation=cv2.INTER_AREA).astype(np.float32).ravel() / 255.0
    v = np.concatenate([hog, 0.5 * small]).astype(np.float32)
    return v / max(1e-6, float(np.linalg.norm(v)))
