"""Teaching a deck from the camera, one card at a time ("show the 7♥"): the card in view is
found, straightened and kept in the deck's folder (hardware/vision/templates.py).

    lesson = Lesson(folder)
    lesson.next_card()            # "7H": the first card not taught yet (a lesson left and resumed)
    lesson.keep(frame_image)      # the card in view, kept as the 7♥; TeachError says why not
    lesson.start_again()          # every taught card forgotten: teach the deck afresh
"""

from __future__ import annotations

import cv2

from companion.cards import full_deck
from hardware.vision.detect import find_cards, warp_card
from hardware.vision.recognise import read_card
from hardware.vision.templates import DeckTemplates, TemplateError


class TeachError(ValueError):
    """Why the card in view cannot be kept, in words for the table."""


def words(code: str) -> str:
    from companion.cards import SUIT_SYMBOLS

    return code[:-1] + SUIT_SYMBOLS[code[-1]]


class Lesson:
    def __init__(self, folder, classifier=None) -> None:
        self.deck = DeckTemplates(folder)
        self.classifier = classifier      # to catch the wrong card shown (None: no check)
        self.skipped: list[str] = []

    @property
    def taught(self) -> list[str]:
        return self.deck.taught()

    def next_card(self) -> str | None:
        """The next card to show: the first not taught and not skipped this time (None: done)."""
        missing = self.deck.missing()
        rest = [c for c in missing if c not in self.skipped]
        if not rest and missing:
            self.skipped = []   # round again to the skipped ones
            rest = missing
        return rest[0] if rest else None

    def skip(self) -> None:
        card = self.next_card()
        if card is not None:
            self.skipped.append(card)

    def keep(self, image, trust: bool = False) -> str:
        """Keep the biggest card in ``image`` (BGR) as the card asked for; returns its code.
        A card the classifier is sure is another is refused unless ``trust`` (an unusual deck
        may be read wrongly: that is why it is being taught)."""
        code = self.next_card()
        if code is None:
            raise TeachError("every card is taught already")
        if image is None:
            raise TeachError("no picture from the camera")
        quads = find_cards(image)
        if not quads:
            raise TeachError(f"no card in view: lay the {words(code)} face up under the camera")
        card = warp_card(image, max(quads, key=lambda q: abs(cv2.contourArea(q))))
        if self.classifier is not None:
            reading, _ = read_card(card, self.classifier)
            if not trust and reading is not None and reading.sure and reading.card != code:
                raise TeachError(f"that looks like the {words(reading.card)}, not the {words(code)}: "
                                 f"show the {words(code)}, or keep it again if it is")
        try:
            self.deck.save(code, card)
        except TemplateError as exc:
            raise TeachError(str(exc)) from None
        if code in self.skipped:
            self.skipped.remove(code)
        return code

    def start_again(self) -> None:
        for code in self.deck.taught():
            (self.deck.folder / f"{code}.png").unlink(missing_ok=True)
        self.skipped = []

    @property
    def progress(self) -> tuple[int, int]:
        return len(self.taught), len(full_deck())
