"""What every game\'s rules answer, apart from the log machinery that folds them.

Game modules import their base class from here and never import :mod:`companion.engine`,
so the engine can import the registry of games at its top without a cycle.
"""

from __future__ import annotations

from typing import Any


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

    def finished(self, state: Any) -> bool:
        return bool(self.summary(state).get("finished"))
