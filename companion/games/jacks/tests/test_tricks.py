"""Jacks played trick by trick, as docs/rules.md ("Jacks") states it, through the engine.

The companion refuses nothing a real table did: a broken rule is said in the round's notes.
"""

import pytest

from companion.engine import Game
from companion.errors import IllegalAction
from tests.jacks_table_script import PLAYERS, play_round


def game(*actions):
    g = Game({"game": "jacks", "players": list(PLAYERS)})
    for action in actions:
        g.push(action)
    return g


def lead(player):
    return {"type": "lead", "player": player}


def play(*cards):
    return [{"type": "play", "card": c} for c in cards]


def trick_view(g):
    return g.summary()["play"]


def test_the_holder_of_3h_leads_and_play_goes_in_seating_order():
    """"The holder of 3H leads the first trick." Ben leads; Cat, Dan, Ann follow."""
    g = game(lead("Ben"), *play("3H", "5H"))
    view = trick_view(g)
    assert view["trick"]["cards"] == [{"player": "Ben", "card": "3H"}, {"player": "Cat", "card": "5H"}]
    assert view["to_play"] == "Dan"
    assert view["trick"]["winning"] == "Cat"


def test_highest_card_of_the_led_suit_takes_the_trick_and_its_taker_leads():
    """"Highest card of the led suit takes the trick (A high); the taker leads next." An ace of
    another suit does not take a Hearts trick."""
    g = game(lead("Ann"), *play("3H", "AS", "QH", "10H"))
    view = trick_view(g)
    assert view["last_trick"]["taker"] == "Cat"
    assert view["to_play"] == "Cat" and view["trick"]["number"] == 2 and view["trick"]["cards"] == []


def test_a_jack_on_the_first_trick_is_said_not_refused():
    """"No Jack on the first trick." A real table did it, so the play stands and it is said."""
    g = game(lead("Ann"), *play("3H", "JH"))
    notes = trick_view(g)["notes"]
    assert [(n["rule"], n["player"], n["tricks"]) for n in notes] == [("jack on first trick", "Ben", [1])]
    assert "no Jack on the first trick" in notes[0]["text"]
    assert trick_view(g)["trick"]["cards"][-1] == {"player": "Ben", "card": "JH"}


def test_a_revoke_is_said_with_both_tricks():
    """"Follow suit if you can." Ben played no Heart to trick 1, then played a Heart in trick 2:
    he could have followed, and the note names both tricks."""
    g = game(lead("Ann"), *play("3H", "2S", "4H", "5H"),      # Dan takes trick 1 with 5H
             *play("6C", "7C", "8H", "9C"))                  # Ben, void in Hearts, plays 8H
    (note,) = trick_view(g)["notes"]
    assert (note["rule"], note["player"], note["tricks"]) == ("revoke", "Ben", [1, 2])
    assert "trick 1" in note["text"] and "trick 2" in note["text"]


def test_a_card_seen_twice_is_said():
    """A deck holds one of each card: the second 3H is said, and still played."""
    g = game(lead("Ann"), *play("3H", "3H"))
    assert [n["rule"] for n in trick_view(g)["notes"]] == ["seen twice"]
    assert len(trick_view(g)["trick"]["cards"]) == 2


def test_a_play_before_anyone_leads_is_refused_with_a_reason():
    with pytest.raises(IllegalAction, match="who holds 3"):
        game(*play("3H"))


def test_a_play_that_is_not_a_card_is_refused_with_a_reason():
    with pytest.raises(IllegalAction, match="not a card"):
        game(lead("Ann"), *play("ZZ"))


def test_undo_takes_a_play_back():
    g = game(lead("Ann"), *play("3H", "4H"))
    g.pop()
    assert trick_view(g)["to_play"] == "Ben" and len(trick_view(g)["trick"]["cards"]) == 1


def test_a_whole_round_of_plays_finds_who_took_each_jack_and_replays_to_the_same_totals():
    """"The round ends when all four Jacks have been played; the companion records who took
    each." 52 plays make the round; recording it scores as a round told by its Jacks does."""
    leader, cards, jacks = play_round(1)
    g = game(lead(leader), *play(*cards))
    view = trick_view(g)
    assert view["round_over"] and view["jacks_taken"] == jacks and view["plays"] == 52
    assert view["notes"] == []
    g.push({"type": "round", "jacks": view["jacks_taken"]})
    told = game({"type": "round", "jacks": jacks})
    assert g.summary()["scores"] == told.summary()["scores"]
    assert "play" not in g.summary()   # the next round has not begun


def test_older_logs_of_rounds_still_replay():
    g = game({"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Ann", "JD": "Cat"}})
    assert g.summary()["scores"] == {"Ann": 11, "Ben": 7, "Cat": 3, "Dan": 0}


def test_replay_shows_the_trick_in_progress(tmp_path):
    """`replay --json` shows the trick being played; `replay` says it in words."""
    import json
    import subprocess

    from companion.games.jacks.tests.test_rules import jack_companion

    log = tmp_path / "round.jsonl"
    log.write_text("\n".join(json.dumps(line) for line in [
        {"game": "jacks", "players": PLAYERS}, lead("Ben"), *play("3H", "JH")]) + "\n", encoding="utf-8")
    run = [jack_companion(), "replay"]
    out = json.loads(subprocess.run(run + ["--json", str(log)], capture_output=True, text=True, check=True).stdout)
    assert out["play"]["trick"]["cards"] == [{"player": "Ben", "card": "3H"}, {"player": "Cat", "card": "JH"}]
    assert out["play"]["to_play"] == "Dan" and out["play"]["trick"]["winning"] == "Cat"
    words = subprocess.run(run + [str(log)], capture_output=True, text=True, check=True).stdout
    assert "Trick 1: Ben 3H, Cat JH; Dan to play" in words and "no Jack on the first trick" in words
