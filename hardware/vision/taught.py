"""A deck the table taught, read by its own glyphs alone (docs/vision.md, "Teach your deck").

Teaching keeps a straightened picture of each card as this camera saw it
(hardware/vision/templates.py). The glyphs cut from those pictures, and no others, make a
classifier of the family's own deck: a straightened card's two corners are matched against
the deck itself, which no reader trained on other decks can do. Its sure names are the last
word on a card whose whole outline was found (:func:`hardware.vision.recognise.taught_look`);
a card whose corners are covered or blurred is left to the other readers.

    deck = TaughtDeck.load(folder)       # None when fewer than two cards were taught
    deck.read(warp_card(image, quad))    # a Reading, or None
"""

from __future__ import annotations

from hardware.vision.classify import GlyphClassifier, Reading

# A sure reading of the taught glyphs is taken from this score (docs/vision.md, "Teach your
# deck": on drawn decks taught and read in scenes, nothing sure was wrong from 0.5).
TAUGHT_SURE = 0.5


class TaughtDeck:
    def __init__(self, glyphs: GlyphClassifier) -> None:
        self.glyphs = glyphs

    @classmethod
    def load(cls, folder) -> "TaughtDeck | None":
        from hardware.vision.templates import DeckTemplates

        own = DeckTemplates(folder).classifier(GlyphClassifier())
        return cls(own) if len(set(own.rank_y)) >= 2 and len(set(own.suit_y)) >= 2 else None

    def read(self, card) -> Reading | None:
        """The taught deck's reading of a straightened card (``CARD_W`` x ``CARD_H``)."""
        from hardware.vision.recognise import read_card

        reading, _ = read_card(card, self.glyphs)
        if reading is None:
            return None
        return Reading(reading.card, reading.sure and reading.score >= TAUGHT_SURE, reading.score,
                       reading.candidates)
