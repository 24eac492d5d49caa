"""Every game's UI: a folder per game here (``jacks/``: its declaration in ``__init__.py``, its
set-up and game screens with their .kv, its screenshot scenes and its bench recipe), found by
looking, not by a list (see ``registry``, docs/adding-a-game.md).

The folders are imported in the engine's order of games (companion.games.GAMES), the order the
screenshots seed their demo games in; a folder with no game in the engine is imported last, so
``check`` can name it. A broken declaration fails loudly at start-up rather than hiding the game.
"""

import importlib
import pkgutil

from companion.games import GAMES

from .registry import GAME_UIS, GameUI, GameUIError, check, register, ui_for


def _discover() -> None:
    folders = [found.name for found in pkgutil.iter_modules(__path__) if found.ispkg]
    place = {name.replace("-", "_"): n for n, name in enumerate(GAMES)}
    for folder in sorted(folders, key=lambda name: (place.get(name, len(place)), name)):
        importlib.import_module(f"{__name__}.{folder}")


_discover()

__all__ = ["GAME_UIS", "GameUI", "GameUIError", "check", "register", "ui_for"]
