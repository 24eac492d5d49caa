"""Undo is a pop (companion/engine.py): for every registered game, a fifth included, taking an
action back gives exactly the state before it, and the log refolds to the state it has.

Written once for all games: hypothesis picks the seeds of the one random player
(companion/random_player.py, which takes the rules' legal actions), and each log is walked once, linearly: push an
action, pop it, compare with the state before, push it again; then undo back to the start
comparing with the states on the way; one refold of the whole log at the end.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from companion import random_player
from companion.engine import Game
from companion.errors import IllegalAction
from companion.games import GAMES
from companion.games.registry import register_game, unregister_game

from companion.games.slapjack.tests.test_judge import random_judging


def played_by_the_random_player(rules_class, limit: int = 150):
    """A function from a seed to a game of ``rules_class`` played by the one random player."""
    return lambda seed: random_player.play(rules_class(), seed, limit=limit)


def tiny_rules():
    from tests.games import tiny_game

    return tiny_game.TinyRules()


# Every registered game, looked up (never listed here), plus Slapjack's second rules class (the
# race judge, which its header chooses) and the tiny fifth game registered for these tests.
GENERATORS = {name: played_by_the_random_player(info.rules) for name, info in GAMES.items()}
GENERATORS["slapjack, race judge"] = lambda seed: random_judging(seed, 120)   # lists no legal actions yet
GENERATORS["tiny"] = played_by_the_random_player(tiny_rules)


@pytest.fixture(autouse=True, scope="module")
def tiny_registered():
    """The tiny game is registered only for these tests, so no other test sees a fifth game."""
    from tests.games import tiny_game

    register_game(tiny_game.TINY)   # again, if an earlier test took it out
    yield
    unregister_game("tiny")


def test_every_registered_game_is_checked_here():
    assert set(GAMES) <= {name.split(",")[0] for name in GENERATORS}
    assert "tiny" in GAMES


def check_undo(played: Game) -> None:
    header, actions = played.header, played.actions
    game = Game(header)
    states, summaries = [game.state], [game.summary()]
    for action in actions:
        game.push(action)
        after = game.state
        assert game.pop() == action
        assert game.state == states[-1]
        assert game.summary() == summaries[-1]
        game.push(action)
        assert game.state == after
        states.append(game.state)
        summaries.append(game.summary())
    assert Game.from_actions(header, actions).state == game.state   # one refold of the whole log
    for count in range(len(actions), 0, -1):
        assert game.state == states[count] and game.summary() == summaries[count]
        game.pop()
    assert game.state == Game(header).state and game.summary() == summaries[0]
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.pop()


@pytest.mark.parametrize("name", list(GENERATORS))
@settings(max_examples=12, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(min_value=0, max_value=100_000))
def test_undo_gives_back_the_state_before_each_action(name, seed):
    played = GENERATORS[name](seed)
    assert played.actions, "the random player made at least one move"
    check_undo(played)
