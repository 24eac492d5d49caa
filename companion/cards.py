"""Playing cards as the table writes them: rank then suit, e.g. ``10H``, ``JS``, ``AH``.

Reading is forgiving (``10h``, ``TH``, ``J♠``, `` qd ``); writing is always the
canonical form, so logs compare equal however the cards were typed.

>>> parse_card("10h")
Card(rank='10', suit='H')
>>> str(parse_card("J♠"))
'JS'
>>> parse_card("11H")
Traceback (most recent call last):
...
companion.cards.CardError: '11H' is not a card: the rank must be one of A 2 3 4 5 6 7 8 9 10 J Q K
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
# The outline symbols are what some keyboards and phones produce for the red suits.
_SYMBOL_TO_SUIT.update({"\u2661": "H", "\u2662": "D", "\u2664": "S", "\u2667": "C"})
# Ace high, as in every trick-taking game here.
HIGH_ORDER = {rank: i for i, rank in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}


class CardError(ValueError):
    """A card code that is not a card; the message says what is wrong with it."""


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    suit: str

    def __str__(self) -> str:
        return self.rank + self.suit

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for the screen: ``J♠``."""
        return self.rank + SUIT_SYMBOLS[self.suit]

    @property
    def is_red(self) -> bool:
        return self.suit in ("H", "D")


def parse_card(text: object) -> Card:
    """Read one card code, or raise :class:`CardError` naming the problem."""
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card: a card is written like 10H, JS or AH")
    code = text.strip()
    if len(code) < 2:
        raise CardError(f"{text!r} is not a card: a card is written like 10H, JS or AH")
    rank, suit = code[:-1].upper(), code[-1]
    suit = _SYMBOL_TO_SUIT.get(suit, suit.upper())
    if rank == "T":
        rank = "10"
    if suit not in SUITS:
        raise CardError(f"{text!r} is not a card: the suit must be one of S H D C (or \u2660\u2665\u2666\u2663)")
    if rank not in RANKS:
        raise CardError(f"{text!r} is not a card: the rank must be one of {' '.join(RANKS)}")
    return Card(rank, suit)


def card_code(text: object) -> str:
    """The canonical code of a card given in any accepted spelling."""
    return str(parse_card(text))


def full_deck() -> list[Card]:
    """One 52-card deck, in suit then rank order."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]


def double_deck() -> list[Card]:
    """Two decks shuffled together need each card twice: 104 cards."""
    return full_deck() * 2
