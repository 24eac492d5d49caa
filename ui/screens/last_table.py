"""The table that played last: a set-up starts from it, so playing again is one tap.

The last game of a kind in the store gives the players in their seats (clockwise) and who
dealt or went first; the next game's dealer is the next seat on, clockwise, as at a real table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LastTable:
    game_id: int
    players: list[str]   # the seats, clockwise, as the last game's header has them


def last_table(store, game: str) -> LastTable | None:
    """The newest game of ``game`` that was played (at least one action), or None."""
    for record in store.games(game=game, limit=20):
        if store.log(record.id)[1]:
            return LastTable(record.id, list(record.players))
    return None


def next_seat(players: list[str], seat: str) -> str:
    """The player on ``seat``'s left (clockwise), who deals or goes first next.

    >>> next_seat(["Ann", "Ben", "Cat"], "Cat")
    'Ann'
    """
    return players[(players.index(seat) + 1) % len(players)]


def on_roster(names: list[str], roster: list[str]) -> list[str]:
    """The names still on the roster, in their order (a player who left is dropped)."""
    return [name for name in names if name in roster]
