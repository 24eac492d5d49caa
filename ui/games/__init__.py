"""Every game's UI, declared once per game in a module of its own (see ``registry``).

A new game adds its module here, one line; the import is plain, so a broken declaration fails
loudly at start-up rather than hiding the game.
"""

# Each registers itself; this order is the order screenshots seed their demo games in.
from . import jacks, slapjack, jack_change_it, one_eyed_jack  # noqa: F401, I001
from .registry import GAME_UIS, GameUI, GameUIError, check, register, ui_for

__all__ = ["GAME_UIS", "GameUI", "GameUIError", "check", "register", "ui_for"]
