"""Jacks: the rules (rules.py), the log format (log.md) and the rules' tests (tests/), in one
folder found by ``companion.games`` (docs/adding-a-game.md)."""

from companion.games.registry import GameInfo, register_game

from .rules import JacksRules

GAME = register_game(GameInfo('jacks', 'Jacks', 'Tricks where only the Jacks score', JacksRules, order=2))
