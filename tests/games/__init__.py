"""Games the tests play besides the registered ones: High Card (tests/games/high_card/), a whole
small game in the shape docs/adding-a-game.md describes.

High Card's companion folder registers itself when imported, as every game's does, so only the
tests that ask for it import it, and they take it out again after (``high_card_registered``):
no other test sees a fifth game. Where it was already put in place as a folder of its own
(tests/test_a_new_game.py's copy of the repository), it is left as it is.
"""

from __future__ import annotations

from contextlib import contextmanager

from companion.games import GAMES
from companion.games.registry import GameInfo, register_game, unregister_game
from companion.rules import Rules

HIGH_CARD = "high-card"


@contextmanager
def high_card_registered():
    """High Card registered while the block runs (again, if a test in it took it out)."""
    info = GAMES.get(HIGH_CARD)
    found = info is not None   # a folder of companion/games: never taken out
    if info is None:
        from tests.games.high_card.companion import GAME as info   # registers it
    register_game(info)
    try:
        yield info
    finally:
        if found:
            register_game(info)
        else:
            unregister_game(HIGH_CARD)


def rules_ids() -> list[str]:
    """Every registered game's name, then its variants as ``name/ClassName`` (a header may
    choose another rules class: Slapjack's race judge), and High Card's."""
    ids = []
    for name, info in GAMES.items():
        ids.append(name)
        ids += [f"{name}/{variant.__name__}" for variant in info.variants]
    return ids + ([HIGH_CARD] if HIGH_CARD not in ids else [])


def rules_class(rules_id: str) -> type[Rules]:
    """The rules class a :func:`rules_ids` entry names (High Card registered by then)."""
    name, _, variant = rules_id.partition("/")
    info: GameInfo = GAMES[name]
    return next(cls for cls in info.every_rules if not variant or cls.__name__ == variant)
