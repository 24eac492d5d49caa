"""Slapjack: the rules (rules.py), the log format (log.md) and the rules' tests (tests/), in one
folder found by ``companion.games`` (docs/adding-a-game.md)."""

from companion.games.registry import GameInfo, register_game

from .judge import SlapjackJudgeRules
from .rules import SlapjackRules, rules_for_header

GAME = register_game(GameInfo("slapjack", "Slapjack", "Race to slap the Jacks", SlapjackRules, choose=rules_for_header,
                              variants=(SlapjackJudgeRules,), order=1))
