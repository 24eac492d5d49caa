"""Teach your deck: one picture of each card's corner, kept in a folder, used from then on.

The folder (``<data dir>/deck``, say) holds ``<CARD>.png`` files, the corner as the camera
saw it (``Index.crop``). :func:`load_taught` adds them to a classifier beside the drawn decks,
so an unusual deck is read by its own glyphs.

    store = DeckTemplates(folder)
    store.save("7H", straightened_card)     # the guided screen: "show the 7♥"
    clf = store.classifier()                # drawn decks + this deck
"""

from __future__ import annotations

import copy
from pathlib import Path

import cv2
import numpy as np

from companion.cards import card_code, full_deck
from hardware.vision.classify import GlyphClassifier, builtin_classifier
from hardware.vision.glyphs import cut_index
from hardware.vision.geometry import CARD_H, CARD_W


class TemplateError(ValueError):
    pass


class DeckTemplates:
    def __init__(self, folder) -> None:
        self.folder = Path(folder)

    def save(self, card: str, straightened: np.ndarray) -> Path:
        """Keep a straightened card (``CARD_W`` x ``CARD_H``, as ``warp_card`` gives) for ``card``."""
        code = card_code(card)
        if cut_index(straightened) is None:
            raise TemplateError(f"no corner index found on the card shown for {code}: show it face up, corner in view")
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{code}.png"
        cv2.imwrite(str(path), cv2.resize(straightened, (CARD_W, CARD_H)))
        return path

    def taught(self) -> list[str]:
        return [str(c) for c in full_deck() if (self.folder / f"{c}.png").exists()]

    def missing(self) -> list[str]:
        have = set(self.taught())
        return [str(c) for c in full_deck() if str(c) not in have]

    def classifier(self, base: GlyphClassifier | None = None) -> GlyphClassifier:
        clf = copy.copy(base or builtin_classifier())
        clf.rank_x, clf.rank_y = list(clf.rank_x), list(clf.rank_y)
        clf.suit_x, clf.suit_y = list(clf.suit_x), list(clf.suit_y)
        for code in self.taught():
            image = cv2.imread(str(self.folder / f"{code}.png"))
            idx = cut_index(image) if image is not None else None
            if idx is not None:
                clf.add(idx, code[:-1], code[-1])
        return clf
