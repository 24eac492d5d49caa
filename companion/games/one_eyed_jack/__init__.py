"""One-Eyed Jack: the rules (rules.py), the log format (log.md) and the rules' tests (tests/), in one
folder found by ``companion.games`` (docs/adding-a-game.md)."""

from companion.games.registry import GameInfo, register_game

from .rules import OneEyedJackRules

GAME = register_game(GameInfo('one-eyed-jack', 'One-Eyed Jack', 'Rows of five on the board', OneEyedJackRules, order=4))
