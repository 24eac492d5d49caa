"""Every game answers ``outcome(state)`` the same way (companion/rules.py): who won, why, and
whether it was a draw; None while the game goes on. History, stats and the store read it."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from companion.engine import Game
from companion.games.one_eyed_jack.rules import OneEyedJackRules
from companion.rules import Outcome
from companion.store import Store, outcome_of

from companion.games.one_eyed_jack.tests.test_rules import put, state_with
from companion.games.slapjack.tests.test_rules import Table, ben_runs_dry

LOGS = Path(__file__).parent / "logs"


def outcome_of_log(name: str) -> Outcome | None:
    return Game.from_text((LOGS / name).read_text()).outcome


def test_an_outcome_is_a_small_frozen_value():
    outcome = Outcome(("Ann",), "first out of cards", False)
    with pytest.raises(FrozenInstanceError):
        outcome.winners = ("Ben",)
    assert Outcome.from_json(outcome.as_json()) == outcome


def test_unfinished_games_have_no_outcome():
    for log in ("jacks-basic.jsonl", "jack-change-it-tricks.jsonl", "slapjack-covered-jack.jsonl"):
        assert outcome_of_log(log) is None


def test_jacks_lowest_score_wins_and_equal_lowest_share():
    """docs/rules.md, "Jacks": at the target the lowest score wins; ties share the win."""
    assert outcome_of_log("jacks-custom-target.jsonl") == \
        Outcome(("Ann",), "lowest score when a player reached the target")
    assert outcome_of_log("jacks-shared-win.jsonl").winners == ("Cat", "Dan")


def test_jack_change_it_first_out_of_cards_wins():
    """docs/rules.md, "Jack Change It": first player out of cards wins."""
    assert outcome_of_log("jack-change-it-game.jsonl") == Outcome(("Ann",), "first out of cards")


def test_one_eyed_jack_a_team_wins_together_and_passes_draw():
    """docs/rules.md, "One-Eyed Jack": first side to 2 rows wins; every player passing in a
    row is a draw."""
    rules = OneEyedJackRules()
    chips = {(2, c): 0 for c in range(1, 6)}
    chips.update({(r, 8): 0 for r in range(4, 8)})
    won = rules.apply(state_with(4, chips, turn=2), put(8, 8))
    assert rules.outcome(won) == Outcome(("Ann", "Cat"), "first to 2 rows")
    passed = Game.from_actions({"game": "one-eyed-jack", "players": ["Ann", "Ben", "Cat"], "options": {}},
                               [{"type": "pass"}] * 3)
    assert passed.outcome == Outcome((), "every player passed in a row", draw=True)


def test_slapjack_last_player_in_wins():
    """docs/rules.md, "Slapjack": the game ends when only one player is still in."""
    table = Table(["Ann", "Ben"])
    ben_runs_dry(table)
    table.turn("JS")
    assert table.game.outcome is None
    table.slap("Ann")
    assert table.game.outcome == Outcome(("Ann",), "last player in")


def test_slapjack_by_count_shares_equal_counts_and_the_judge_takes_the_tables_word():
    """docs/rules.md, "Slapjack": "end after N cards": most cards wins, equal counts share;
    companion/games/slapjack/log.md, "Race judge only": the table names the winners."""
    game = Game({"game": "slapjack", "players": ["Ann", "Ben"], "options": {"end_after": 2}})
    game.push({"type": "turn", "card": "3H"})
    game.push({"type": "turn", "card": "8C"})
    game.push({"type": "end"})
    assert game.outcome == Outcome(("Ann", "Ben"), "most cards when the count ran out")
    judge = Game({"game": "slapjack", "players": ["Ann", "Ben"], "feed": "none"})
    judge.push({"type": "end", "winners": ["Ben"]})
    assert judge.outcome == Outcome(("Ben",), "named by the table")


def test_the_store_keeps_the_outcome_and_reads_old_results(tmp_path):
    store = Store(tmp_path / "table.db")
    gid = store.import_bytes((LOGS / "jack-change-it-game.jsonl").read_bytes())
    record = next(r for r in store.games() if r.id == gid)
    assert record.outcome == Outcome(("Ann",), "first out of cards")
    # A result kept before outcomes existed: its summary's own fields, read once.
    assert outcome_of({"finished": True, "winner": "Ann"}).winners == ("Ann",)
    assert outcome_of({"finished": True, "winners": [], "draw": True, "draw_reason": "passes"}).draw
    assert outcome_of(None) is None
