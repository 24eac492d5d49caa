"""Jack Change It as its screen reads it: a frozen, typed view of the state (companion/rules.py's
``View``); ``summary()`` is this view as JSON, for ``replay --json`` (log.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from companion.rules import View


@dataclass(frozen=True)
class Options(View):
    queens_reverse: bool
    jacks_wild: bool


@dataclass(frozen=True)
class Owed(View):
    player: str       # who must pick up, or play a card that passes it on
    count: int


@dataclass(frozen=True)
class JackChangeItView(View):
    game: str
    players: tuple[str, ...]
    options: Options
    turn: Optional[str]             # None once somebody has won
    direction: str                  # "clockwise" or "anticlockwise"
    suit: str                       # the suit in play: S, H, D or C
    named_suit: Optional[str]       # the suit a Jack named, while it holds
    top: str                        # the top card of the pile
    owed: Optional[Owed]
    owed_kind: Optional[str]        # "twos" or "ace"
    hand_sizes: Mapping[str, int]
    last_card: tuple[str, ...]      # the players with one card left
    stock: int
    pile: int
    turn_over_pile: bool            # the pile was just turned over as the new stock
    forgiven: Optional[str]
    actions: tuple[str, ...]        # "play", and "pickup" or "lift"
    hint: str
    prompt: str
    last: str                       # the last play, in words
    finished: bool
    winner: Optional[str]
