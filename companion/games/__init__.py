"""The games, by the name their logs use: one import line per game, each module registering
itself at its bottom (companion/games/registry.py, docs/adding-a-game.md)."""

from __future__ import annotations

from .registry import GAMES, GameInfo, register_game, rules_for

from . import slapjack  # noqa: E402,F401
from . import jacks  # noqa: E402,F401
from . import jack_change_it  # noqa: E402,F401
from . import one_eyed_jack  # noqa: E402,F401

__all__ = ["GAMES", "GameInfo", "register_game", "rules_for"]
