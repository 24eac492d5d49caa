"""What every game's rules promise, checked once for all of them (companion/rules.py).

For each registered game (each rules class its header may choose, Slapjack's race judge
included, and High Card, a fifth game registered for these tests), hypothesis draws a header
seed and then,
step by step, an index into ``legal_actions``: a failure shrinks to the shortest log that shows
it. At every step:

- the game is finished exactly when it has an outcome, and then nothing is listed;
- every listed action is one the rules accept, and none plays a card of which every copy is
  already known to be out of the hands (docs/rules.md: one deck holds each card once, two decks
  twice);
- an action listed a step ago and no longer listed is refused with words, the state untouched;
  so is an action of a kind the game does not have;
- after the end, nothing listed before it is taken, or (a Slapjack slap on the last card, which
  docs/rules.md lets count) it leaves the outcome as it was;
- the log refolds to the same state (undo is checked with the same player in tests/test_undo.py);
- a game with a typed view (companion/rules.py) has it frozen, and its summary is the view's JSON.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import random_player
from companion.engine import Game
from companion.errors import IllegalAction
from companion.rules import Rules
from tests.games import high_card_registered, rules_class, rules_ids

STEPS = 70

# Every registered game's rules classes, and High Card's (registered only while these tests run).
NAMES = sorted(rules_ids())


@pytest.fixture(autouse=True, scope="module")
def high_card():
    with high_card_registered() as info:
        yield info


def cards_named(action: dict) -> Counter:
    cards = action.get("cards") or ([action["card"]] if "card" in action else [])
    return Counter(cards)


def without_time(action: dict) -> dict:
    """The action less its press times ("t"), its own and its slaps' (a race judge's race)."""
    return {key: [without_time(slap) for slap in value] if key == "slaps" else value
            for key, value in action.items() if key != "t"}


def check_state(game: Game) -> list[dict]:
    rules, state = game.rules, game.state
    if type(rules).view is not Rules.view:   # a typed view: the summary is its JSON and nothing else
        view = rules.view(state)
        assert dataclasses.is_dataclass(view) and type(view).__dataclass_params__.frozen
        assert rules.summary(state) == view.as_json()
    listed = rules.legal_actions(state)
    outcome = rules.outcome(state)
    assert rules.finished(state) == (outcome is not None)
    if outcome is not None:
        assert listed == [] and rules.current_player(state) is None
        return listed
    assert listed, "a game still being played always has something to do"
    player = rules.current_player(state)
    assert player is None or player in game.players
    out = rules.cards_out(state)
    assert all(count <= rules.copies for count in out.values()), out
    for action in listed:
        for card, count in cards_named(action).items():
            assert out.get(card, 0) + count <= rules.copies, (
                f"{action} offers {card}, but every copy of it is already out: {out}")
    return listed


def refused_without_change(game: Game, action: dict) -> bool:
    """True if the rules refuse ``action`` with words and leave the game as it was."""
    state, summary, count = game.state, game.summary(), len(game.actions)
    try:
        game.push(action)
    except IllegalAction as exc:
        assert str(exc).strip(), f"{action} was refused without a reason"
        assert game.state is state and game.summary() == summary and len(game.actions) == count
        return True
    return False


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_legal_actions_are_what_the_rules_accept(name, data):
    header = rules_class(name)().example_header(None, random.Random(data.draw(st.integers(0, 2**16), label="seed")))
    game = Game(header)
    rules = game.rules
    assert type(rules) is rules_class(name), "the header chooses the rules class it was made by"
    before: list[dict] = []
    for _ in range(STEPS):
        listed = check_state(game)
        if not listed:
            break
        assert refused_without_change(game, {"type": "no-such-action"})
        now = [without_time(a) for a in listed]
        gone = [a for a in before if without_time(a) not in now]
        for action in gone[:3]:   # a few: cheap enough to run at every step
            if action["type"] not in rules.unlisted_taken:
                assert refused_without_change(game, action), f"{action} is no longer listed, yet accepted"
        index = data.draw(st.integers(0, len(listed) - 1), label="action")
        game.push(listed[index])
        before = listed
    if game.finished:
        outcome = game.outcome
        for action in before[:10]:
            if not refused_without_change(game, action):
                assert game.finished and game.outcome == outcome, f"{action} changed a finished game"
                game.pop()
    refolded = Game.from_actions(header, game.actions)
    assert refolded.state == game.state and refolded.summary() == game.summary()


@pytest.mark.parametrize("name", NAMES)
def test_the_random_player_finishes_every_game(name):
    """One player for every game: from a seed, legal actions to the end (a long game may stop)."""
    rules = rules_class(name)()
    finished = 0
    for seed in range(6):
        game = random_player.play(rules, seed, limit=3000)
        assert game.actions
        finished += game.finished
        assert Game.from_actions(game.header, game.actions).summary() == game.summary()
    assert finished >= 4, f"only {finished} of 6 random games of {name} reached an end"


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_plays_the_same_game(name):
    rules = rules_class(name)()
    assert random_player.play(rules, 7, limit=200).actions == random_player.play(rules, 7, limit=200).actions
