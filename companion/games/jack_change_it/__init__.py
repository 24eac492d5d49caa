"""Jack Change It: the rules (rules.py), the log format (log.md) and the rules' tests (tests/), in one
folder found by ``companion.games`` (docs/adding-a-game.md)."""

from companion.games.registry import GameInfo, register_game

from .rules import JackChangeItRules

GAME = register_game(GameInfo('jack-change-it', 'Jack Change It', 'Shed your cards; twos, eights and Jacks', JackChangeItRules, order=3))
