"""Undo is a pop (companion/engine.py): for every registered game, a fifth included, taking an
action back gives exactly the state before it, and the log refolds to the state it has.

Written once for all games: hypothesis picks the seeds of each game's random legal player
(the same generators its rules tests use), and each log is walked once, linearly: push an
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

from tests import test_jack_change_it_rules, test_jacks_rules, test_one_eyed_jack_rules
from tests import test_slapjack_judge, test_slapjack_rules


def tiny_log(seed: int) -> Game:
    from tests.games import tiny_game

    return random_player.play(tiny_game.TinyRules(), seed)


# Each game's random legal player, by the name its logs use, as a function of a seed.
GENERATORS = {
    "slapjack": lambda seed: test_slapjack_rules.random_game(seed, 70)[0],
    "slapjack, race judge": lambda seed: test_slapjack_judge.random_judging(seed, 120),
    "jacks": lambda seed: test_jacks_rules.random_game(seed),
    "jack-change-it": lambda seed: test_jack_change_it_rules.random_game(seed, limit=120),
    "one-eyed-jack": lambda seed: test_one_eyed_jack_rules.play_random_game(2 + seed % 3, seed)[0],
    "tiny": tiny_log,
}


@pytest.fixture(autouse=True, scope="module")
def tiny_registered():
    """The tiny game is registered only for these tests, so no other test sees a fifth game."""
    from tests.games import tiny_game

    register_game(tiny_game.TINY)   # again, if an earlier test took it out
    yield
    unregister_game("tiny")


def test_every_registered_game_has_a_random_player_here():
    """A game added to the registry without a random player would escape the undo check."""
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
