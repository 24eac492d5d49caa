"""What every game\'s rules answer, apart from the log machinery that folds them.

Game modules import their base class from here and never import :mod:`companion.engine`,
so the engine can import the registry of games at its top without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Mapping


def plain(value: Any) -> Any:
    """``value`` as plain JSON: a view as its ``as_json``, other dataclasses and mappings as dicts,
    tuples as lists."""
    if isinstance(value, View):
        return value.as_json()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    return value


class View:
    """Where a game stands as its screens read it: each game's view is a frozen dataclass of
    typed fields (``view.turn``, not ``summary["turn"]``). ``as_json`` is what ``replay --json``
    prints: the game's ``summary``, derived from the view and from nothing else."""

    def as_json(self) -> dict:
        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, the same for every game: who won (a team's players all
    listed), why, and whether it was a draw. History, the stats and the store read this,
    never a game's own summary fields."""

    winners: tuple[str, ...]
    reason: str
    draw: bool = False

    def as_json(self) -> dict:
        return {"winners": list(self.winners), "reason": self.reason, "draw": self.draw}

    @classmethod
    def from_json(cls, data: Mapping) -> "Outcome":
        return cls(tuple(str(w) for w in data.get("winners") or ()), str(data.get("reason") or ""),
                   bool(data.get("draw")))


class Rules:
    """The rules of one game. Subclasses fill in the methods below.

    ``legal_actions`` is what may be played next, as python-chess's ``legal_moves`` is for a
    board: every action the rules would accept as a move of play, each a complete action as it
    is logged. Where the table chooses a real card the companion cannot see (the card a player
    lays, the card that lands), each card the rules would take is its own action, as chance
    outcomes are in OpenSpiel; cards known to be elsewhere (both copies played, already in the
    pile) are not offered. Corrections a log may carry (Jacks' "edit" of a scored round) are not
    moves and are not listed. Times inside actions ("t") are the table's: listed actions carry
    a time a little after the last one the state knows.
    """

    name = ""
    title = ""
    # How many copies of each card the game is played with (0: no cards at all).
    copies = 1
    # Kinds of action the rules take even when they are not listed, because a real table's
    # mis-step is said rather than refused (Jacks notes a card seen twice); every other kind
    # is refused unless listed.
    unlisted_taken: frozenset[str] = frozenset()

    def start(self, header: dict) -> Any:
        """The state before any action; raises :class:`BadHeader` for a header it cannot start."""
        raise NotImplementedError

    def apply(self, state: Any, action: dict) -> Any:
        """The state after ``action``; raises :class:`IllegalAction` with the reason in words."""
        raise NotImplementedError

    def view(self, state: Any) -> View:
        """Where the game stands, typed, for the screens and controllers (a :class:`View`)."""
        raise NotImplementedError

    def summary(self, state: Any) -> dict:
        """Where the game stands, as plain JSON (what ``replay --json`` prints)."""
        return self.view(state).as_json()

    def describe(self, state: Any) -> list[str]:
        """Where the game stands, in a few lines for a person."""
        raise NotImplementedError

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it is still being played."""
        raise NotImplementedError

    def finished(self, state: Any) -> bool:
        # Finished exactly when there is an outcome (tests/test_legal_actions.py holds every game to it).
        return self.outcome(state) is not None

    def current_player(self, state: Any) -> str | None:
        """Who acts next, or None once the game is over, or while several players may act at
        once (a race to slap: then ``legal_actions`` holds each of their actions)."""
        raise NotImplementedError

    def legal_actions(self, state: Any) -> list[dict]:
        """Every move of play the rules would accept now (see the class's words); empty exactly
        when the game is over. A finite list, cheap enough to be asked after every action."""
        raise NotImplementedError

    def cards_out(self, state: Any) -> dict[str, int]:
        """The cards the rules know to be in no hand (on the board, the pile, the discards since
        the stock was last made), with how many of each: never more than :attr:`copies`."""
        return {}

    def example_header(self, players: int | None, rng: Any) -> dict:
        """A header these rules start (``players`` of them, or a number ``rng`` picks), for the
        generic random player and the tests that play every game."""
        raise NotImplementedError
