"""One-Eyed Jack as its screen reads it: a frozen, typed view of the state (companion/rules.py's
``View``); ``summary()`` is this view as JSON, for ``replay --json`` (log.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from companion.games.one_eyed_jack.board import Space
from companion.rules import View


@dataclass(frozen=True)
class OneEyedJackView(View):
    game: str
    players: tuple[str, ...]
    sides: tuple[tuple[str, ...], ...]   # each side's players (four players: two teams)
    player_sides: Mapping[str, int]
    turn: Optional[str]                  # None once the game is over
    turn_side: Optional[int]
    board: tuple[str, ...]               # a row a string: "*" a corner, "." empty, else the side's chip
    locked: tuple[Space, ...]            # chips in a completed row: no one-eyed Jack takes them
    rows: Mapping[int, int]              # rows made, by side
    rows_to_win: int
    row_lines: tuple                     # RowLine: each line counting as a row (or two)
    winning_rows: tuple                  # RowLine: the winner's
    hand_size: int
    stock: int
    discards: int
    stock_rebuilt: bool
    reshuffle: bool                      # the stock ran out: shuffle the discards in
    swapped_this_turn: bool
    passes_in_row: int
    finished: bool
    winner: Optional[int]                # the winning side
    winners: tuple[str, ...]
    draw: bool
    draw_reason: Optional[str]

    @property
    def chips(self) -> list[Optional[int]]:
        """Each space's chip (its side), row by row; None for an empty space or a corner."""
        return [None if ch in ".*" else int(ch) for line in self.board for ch in line]

    def as_json(self) -> dict:
        summary = super().as_json()
        summary["rows"] = {str(side): n for side, n in self.rows.items()}   # JSON keys are strings
        return summary
