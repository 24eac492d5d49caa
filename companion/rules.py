"""What every game\'s rules answer, apart from the log machinery that folds them.

Game modules import their base class from here and never import :mod:`companion.engine`,
so the engine can import the registry of games at its top without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


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
    """The rules of one game. Subclasses fill in the four methods below."""

    name = ""
    title = ""

    def start(self, header: dict) -> Any:
        """The state before any action; raises :class:`BadHeader` for a header it cannot start."""
        raise NotImplementedError

    def apply(self, state: Any, action: dict) -> Any:
        """The state after ``action``; raises :class:`IllegalAction` with the reason in words."""
        raise NotImplementedError

    def summary(self, state: Any) -> dict:
        """Where the game stands, as plain JSON (what ``replay --json`` prints)."""
        raise NotImplementedError

    def describe(self, state: Any) -> list[str]:
        """Where the game stands, in a few lines for a person."""
        raise NotImplementedError

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it is still being played."""
        raise NotImplementedError

    def finished(self, state: Any) -> bool:
        return bool(self.summary(state).get("finished"))
