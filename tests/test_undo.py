"""Undo is a pop (companion/engine.py): for every registered game, a fifth included, taking an
action back gives exactly the state before it, and the log refolds to the state it has.

Written once for all games: hypothesis picks the seeds of the one random player
(companion/random_player.py, which takes the rules' legal actions), and each log is walked once, linearly: push an
action, pop it, compare with the state before, push it again; then undo back to the start
comparing with the states on the way; one refold of the whole log at the end.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion import random_player
from companion.engine import Game
from companion.errors import IllegalAction
from companion.games import GAMES
from tests.games import HIGH_CARD, high_card_registered, rules_class, rules_ids

# Every registered game's rules, looked up (never listed here), each rules class a header may
# choose included (Slapjack's race judge), and High Card, registered for these tests.
NAMES = rules_ids()


@pytest.fixture(autouse=True, scope="module")
def high_card():
    """High Card is registered only for these tests, so no other test sees a fifth game."""
    with high_card_registered() as info:
        yield info


def test_every_registered_game_is_checked_here():
    assert set(GAMES) <= {name.split("/")[0] for name in NAMES}
    assert HIGH_CARD in GAMES and "slapjack/SlapjackJudgeRules" in NAMES


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


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=12, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(min_value=0, max_value=100_000))
def test_undo_gives_back_the_state_before_each_action(name, seed):
    played = random_player.play(rules_class(name)(), seed, limit=150)
    assert played.actions, "the random player made at least one move"
    check_undo(played)
