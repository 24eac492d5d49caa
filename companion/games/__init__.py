"""The games, by the name their logs use. Each game is a folder here (``jacks/``,
``slapjack/``, ...) whose ``__init__.py`` registers it (companion/games/registry.py); this
package imports every folder it finds, so adding a game touches no list (docs/adding-a-game.md).
"""

from __future__ import annotations

import importlib
import pkgutil

from .registry import GAMES, GameInfo, register_game, rules_for


def _discover() -> None:
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda module: module.name):
        if found.ispkg:
            importlib.import_module(f"{__name__}.{found.name}")   # a broken game fails here, loudly


_discover()

__all__ = ["GAMES", "GameInfo", "register_game", "rules_for"]
