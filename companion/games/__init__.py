"""The four games, by the name their logs use.

Each game lives in its own module with one :class:`companion.rules.Rules` subclass.
A game whose module is not written yet is still listed, so the home screen can say so.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..rules import Rules


@dataclass(frozen=True)
class GameInfo:
    name: str  # as in a log's header
    title: str  # as on screen
    module: str
    rules_class: str
    blurb: str

    @property
    def available(self) -> bool:
        try:
            load_rules(self)
        except (ImportError, AttributeError):
            return False
        return True


GAMES = {
    info.name: info
    for info in (
        GameInfo("slapjack", "Slapjack", "companion.games.slapjack", "SlapjackRules",
                 "Race to slap the Jacks"),
        GameInfo("jacks", "Jacks", "companion.games.jacks", "JacksRules",
                 "Tricks where only the Jacks score"),
        GameInfo("jack-change-it", "Jack Change It", "companion.games.jack_change_it", "JackChangeItRules",
                 "Shed your cards; twos, eights and Jacks"),
        GameInfo("one-eyed-jack", "One-Eyed Jack", "companion.games.one_eyed_jack", "OneEyedJackRules",
                 "Rows of five on the board"),
    )
}


def load_rules(info: GameInfo) -> Rules:
    module = importlib.import_module(info.module)
    return getattr(module, info.rules_class)()


def rules_for(name: str) -> Rules:
    """The rules of the game a log names; KeyError for a game the companion does not know."""
    info = GAMES.get(name)
    if info is None:
        raise KeyError(name)
    try:
        return load_rules(info)
    except (ImportError, AttributeError):
        raise KeyError(name) from None
