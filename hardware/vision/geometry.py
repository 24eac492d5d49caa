"""A card's shape, as the readers straighten it and the drawn decks draw it: the 2.5 x 3.5 inch
card as ``CARD_W`` x ``CARD_H`` pixels, and where on a table a card of a given width and turn
lies (its four corners)."""

from __future__ import annotations

import math

import numpy as np

CARD_W, CARD_H = 250, 350


def card_quad(cx: float, cy: float, width: float, angle_deg: float) -> np.ndarray:
    """The four corners (top-left, top-right, bottom-right, bottom-left of the face) of a card."""
    h = width * CARD_H / CARD_W
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    pts = []
    for dx, dy in ((-width / 2, -h / 2), (width / 2, -h / 2), (width / 2, h / 2), (-width / 2, h / 2)):
        pts.append((cx + dx * ca - dy * sa, cy + dx * sa + dy * ca))
    return np.array(pts, np.float32)
