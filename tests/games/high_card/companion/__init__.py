"""High Card: each player turns one card, the highest rank wins (aces high)."""

from companion.games.registry import GameInfo, register_game

from .rules import HighCardRules

GAME = register_game(GameInfo("high-card", "High Card", "Turn one card each; highest wins", HighCardRules,
                              order=50))
