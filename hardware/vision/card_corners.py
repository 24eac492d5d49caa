"""Naming a straightened card from its two corners with a trained model
(``models/card_corners.onnx``, made by :mod:`tools.vision.train_card_corners`, run by
:mod:`hardware.vision.network`).

Where the corner-index detector finds no index (a deck design unlike any it learned, an index
printed small and tight in the corner), a card whose outline is known can still be read: its
index is somewhere in the top-left corner of the straightened card, and again in the
bottom-right. The model looks at each corner's whole region, rank and suit wherever they sit in
it, and names the rank (or a joker's letters, or "no index") and the suit; the two corners'
probabilities are multiplied, so the card named is the one both corners agree on.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.cards import RANKS, SUITS
from hardware.vision.classify import Reading
from hardware.vision.corners import softmax
from hardware.vision.network import Network
from hardware.vision.shipped import loaded_once

MODEL_PATH = Path(__file__).resolve().parent / "models" / "card_corners.onnx"
REGION = (0.30, 0.34)  # the corner looked at: its width and height as shares of the card's
INPUT_W, INPUT_H = 48, 76  # ... shrunk to this for the model
JOKER_P = 0.2  # a joker this likely at either corner: not a card
NONE_P = 0.5   # "no index" this likely at both corners: not a card
# The card's probability, both corners together, for a sure name on its own, and below which it
# names nothing; both chosen on the training crops kept out of its training (docs/vision.md).
SURE = 0.995
NAMES_FROM = 0.6
# A card straightened by its own edge found in a photo of a table (not a picture that is one
# card: its edge is the picture's) is read more surely: chosen on the training photos of
# tables/ (hardware/vision/tables.py), where no name from it was wrong, and checked on their
# calibration split too (python -m tools.vision.card_corner_thresholds --tables: no name made
# sure by the edge there, right or wrong, at any level from 0.9, so it stays; docs/vision.md).
SURE_EDGE = 0.98


def corner_region(card: np.ndarray) -> np.ndarray:
    """The top-left corner of a straightened card, as the model sees it."""
    h, w = card.shape[:2]
    corner = card[:max(1, int(round(REGION[1] * h))), :max(1, int(round(REGION[0] * w)))]
    return cv2.resize(corner, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)


class CardCornerReader:
    """Reads a straightened card (as ``detect.warp_card`` gives it) from both corners at once."""

    def __init__(self, path=MODEL_PATH, sure: float = SURE) -> None:
        self.net = Network(path)
        self.sure = sure

    def probabilities(self, card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ranks, suits) for the two corners: rows top-left and bottom-right; each row the
        ranks then joker then "no index", and the suits then joker then "no index"."""
        corners = [corner_region(card), corner_region(cv2.rotate(card, cv2.ROTATE_180))]
        out = self.net(cv2.dnn.blobFromImages(corners, 1.0 / 255.0))
        nr = len(RANKS) + 2
        return softmax(out[:, :nr], 1), softmax(out[:, nr:], 1)

    def card_probabilities(self, card: np.ndarray) -> tuple[np.ndarray | None, bool]:
        """(each card's probability, both corners together, ``RANKS`` x ``SUITS``, or None when
        neither corner shows an index; a joker's corner seen)."""
        ranks, suits = self.probabilities(card)
        if np.maximum(ranks[:, -2], suits[:, -2]).max() >= JOKER_P:
            return None, True
        # A corner showing no index (covered, or cut off by the outline) says nothing.
        shows = np.maximum(ranks[:, -1], suits[:, -1]) < NONE_P
        if not shows.any():
            return None, False
        joint = np.ones((len(RANKS), len(SUITS)))
        for rank, suit in zip(ranks[shows], suits[shows]):
            joint *= np.outer(rank[:len(RANKS)], suit[:len(SUITS)])
        return joint / joint.sum(), False

    def read(self, card: np.ndarray) -> tuple[Reading | None, bool]:
        """(the card both corners name, or None; a joker's corner seen). The reading is sure at
        ``sure``; under ``NAMES_FROM`` it is no reading, and a joker seen names no card."""
        joint, joker = self.card_probabilities(card)
        if joint is None:
            return None, joker
        order = np.argsort(-joint, axis=None)[:4]
        names = [RANKS[i // len(SUITS)] + SUITS[i % len(SUITS)] for i in order]
        score = float(joint.ravel()[order[0]])
        if score < NAMES_FROM:
            return None, False
        return Reading(names[0], score >= self.sure, score, names), False


def model_present(path=MODEL_PATH) -> bool:
    return Path(path).is_file()


# The shipped model (cached for the process), or None without a usable model file (the glyph
# classifier then reads alone).
default_card_reader = loaded_once(model_present, CardCornerReader)
