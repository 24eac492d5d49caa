"""Cards named in words on screen: "2♥", "Q♦", the suit symbol in its suit's colour.

One helper for every label that names a card, so a card reads the same everywhere. The
colours are the printed suit colours lifted for text on the table's dark felt (a black ♠ on
dark green cannot be read); ``theme.text_suit_hex`` holds them. A label showing the result
needs ``markup: True``. The bundled font (DejaVu Sans) has the four suit symbols.
"""

from __future__ import annotations

import re

from kivy.utils import escape_markup

from companion.cards import SUIT_SYMBOLS

from .. import theme

# A code ("5D") or a card already written with its symbol ("5\u2666", as a Card prints itself).
_CODE = re.compile(r"\b(10|[2-9AJQK])([SHDC]\b|[\u2660\u2665\u2666\u2663])")
_SUIT_OF = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


def card_markup(code: str, four_colour: bool = False) -> str:
    """``"2H"`` -> ``"2[color=#ff6b6b]♥[/color]"`` (markup for a label on the felt)."""
    if not code:
        return ""
    rank, suit = code[:-1], _SUIT_OF.get(code[-1], code[-1])
    return f"{rank}[color={theme.text_suit_hex(suit, four_colour)}]{SUIT_SYMBOLS[suit]}[/color]"


def words_markup(text: str, four_colour: bool = False) -> str:
    """Plain words with cards in them ("Mum played 2H", or "5\u2666") as markup naming each card
    with its coloured symbol; everything else is escaped so a name with "[" stays a name."""
    out, last = [], 0
    for match in _CODE.finditer(text):
        out.append(escape_markup(text[last:match.start()]))
        out.append(card_markup(match.group(0), four_colour))
        last = match.end()
    out.append(escape_markup(text[last:]))
    return "".join(out)
