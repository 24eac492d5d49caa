"""Jack Change It rules (docs/rules.md, "Jack Change It"), as the table would see them.

Long on purpose: one test per rule of the section, each quoting it, and the random games checked
against a second reading of the rules.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import random_tables
from companion.engine import Game
from companion.errors import BadHeader, IllegalAction, LogError
from companion.games.jack_change_it.rules import legal_plays_hint, play_problem

LOGS = Path(__file__).resolve().parents[4] / "tests" / "logs"   # the saved games every test shares
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


def header(players=3, start="7H", **options):
    opts = {"queens_reverse": True, "jacks_wild": False}
    opts.update(options)
    return {"game": "jack-change-it", "players": list(NAMES[:players]), "options": opts, "start": start}


def new(players=3, start="7H", **options) -> Game:
    return Game(header(players, start, **options))


def play(game: Game, *cards: str, suit: str | None = None) -> dict:
    action = {"type": "play", "cards": list(cards)}
    if suit is not None:
        action["suit"] = suit
    game.push(action)
    return game.summary()


def lift(game: Game) -> dict:
    game.push({"type": "lift"})
    return game.summary()


def pickup(game: Game) -> dict:
    game.push({"type": "pickup"})
    return game.summary()


def refused(game: Game, action: dict) -> str:
    """The refusal's reason; the game must be exactly as it was."""
    before, count = game.state, len(game.actions)
    with pytest.raises(IllegalAction) as info:
        game.push(action)
    assert game.state is before and len(game.actions) == count
    return str(info.value)


def refused_play(game: Game, *cards: str, suit: str | None = None) -> str:
    action = {"type": "play", "cards": list(cards)}
    if suit is not None:
        action["suit"] = suit
    return refused(game, action)


def shed_to_one(game: Game, name: str, cards: list[str], then: str | None = None) -> None:
    """``name`` plays ``cards`` on their turns while everybody else lifts, down to one card;
    the others go on lifting until it is ``then``'s turn (``name``'s by default)."""
    cards = list(cards)
    while cards:
        if game.summary()["turn"] == name:
            play(game, cards.pop(0))
        else:
            lift(game)
    while game.summary()["turn"] != (then or name):
        assert game.summary()["turn"] != name
        lift(game)
    assert game.summary()["hand_sizes"][name] == 1


# --- the deal and the header -------------------------------------------------------------

def test_deal_counts_seven_each_and_the_rest_is_stock():
    """docs/rules.md Jack Change It: two decks, 104 cards, 7 cards each; the stock's top card starts the pile."""
    for players in (2, 4, 10):
        s = new(players).summary()
        assert s["hand_sizes"] == {n: 7 for n in NAMES[:players]}
        assert s["stock"] == 104 - 7 * players - 1
        assert s["pile"] == 1 and s["top"] == "7H" and s["suit"] == "H"
        assert s["turn"] == "Ann" and s["direction"] == "clockwise"
        assert s["owed"] is None and not s["finished"] and s["winner"] is None


@pytest.mark.parametrize("start", ["2H", "AH", "8S", "QD", "JC"])
def test_start_card_has_no_effect_even_a_trick_card(start):
    """docs/rules.md Jack Change It: the top card of the stock starts the pile; no effect even if a trick card."""
    s = new(4, start).summary()
    assert s["turn"] == "Ann" and s["direction"] == "clockwise"
    assert s["owed"] is None and s["named_suit"] is None
    assert s["suit"] == start[-1]
    assert s["prompt"].startswith("Ann: play ")


@pytest.mark.parametrize("bad, words", [
    ({"players": ["Ann"]}, "2 to 10 players"),
    ({"players": list(NAMES) + ["Kit"]}, "2 to 10 players"),
    ({"options": {"queens_reverse": True, "jokers": True}}, "unknown option 'jokers'"),
    ({"options": {"jacks_wild": "yes"}}, "must be true or false"),
    ({"options": {"queens_reverse": 1}}, "must be true or false"),
    ({"start": "1H"}, "the start card"),
    ({"start": 7}, "the start card"),
])
def test_bad_headers_are_refused(bad, words):
    """docs/rules.md Jack Change It: 2 to 10 players; the options are queens reverse and jacks wild."""
    h = header()
    h.update(bad)
    with pytest.raises(BadHeader, match=words):
        Game(h)


def test_header_needs_a_start_card_and_options_default():
    """docs/rules.md Jack Change It: options "queens reverse" on and "jacks wild" off unless chosen."""
    h = header()
    del h["start"]
    with pytest.raises(BadHeader, match='needs "start"'):
        Game(h)
    game = Game({"game": "jack-change-it", "players": ["Ann", "Ben", "Cat"], "start": "5d"})
    assert game.summary()["options"] == {"queens_reverse": True, "jacks_wild": False}
    assert game.summary()["top"] == "5D"


# --- matching, lifting, whose turn --------------------------------------------------------

def test_a_card_must_match_suit_or_rank():
    """docs/rules.md Jack Change It: play one card that matches the top card's suit or rank."""
    game = new(3)
    reason = refused_play(game, "8C")
    assert reason == "The 8 of Clubs doesn't go on the 7 of Hearts - play Hearts or a 7, or lift a card"
    assert play(game, "7C")["suit"] == "C"
    assert play(game, "KC")["turn"] == "Cat"
    s = play(game, "KD")
    assert s["top"] == "KD" and s["suit"] == "D" and s["turn"] == "Ann"
    assert s["hand_sizes"] == {"Ann": 6, "Ben": 6, "Cat": 6}


def test_lift_takes_one_card_and_ends_the_turn():
    """docs/rules.md Jack Change It: cannot or will not play: lift one card from the stock; the turn ends."""
    game = new(3)
    s = lift(game)
    assert s["hand_sizes"]["Ann"] == 8 and s["stock"] == 104 - 21 - 2 and s["turn"] == "Ben"
    assert refused(game, {"type": "pickup"}) == "Ben has nothing to pick up: play Hearts or a 7, or lift a card"


def test_unknown_action_and_bad_cards_are_refused():
    """docs/rules.md Jack Change It: the actions are play, lift and pick-up."""
    game = new(2)
    assert "unknown action type 'pass'" in refused(game, {"type": "pass"})
    assert "is not a card" in refused(game, {"type": "play", "cards": ["11H"]})
    assert "say which card" in refused(game, {"type": "play", "cards": []})
    assert "is not a suit" in refused(game, {"type": "play", "cards": ["JH"], "suit": "X"})


# --- 2s -----------------------------------------------------------------------------------

def test_chain_of_twos_with_three_players():
    """docs/rules.md Jack Change It: 2: the next player picks up 2 unless they play another 2 (2 per two)."""
    game = new(3)
    s = play(game, "2H")
    assert s["owed"] == {"player": "Ben", "count": 2} and s["prompt"] == "Ben: pick up 2, or play a 2"
    s = play(game, "2S")
    assert s["owed"] == {"player": "Cat", "count": 4}
    assert refused_play(game, "7S") == "Cat must pick up 4 or play a 2"
    assert refused(game, {"type": "lift"}) == "Cat can't lift a card now: pick up 4 first, or play a 2"
    stock = s["stock"]
    s = pickup(game)
    assert s["hand_sizes"] == {"Ann": 6, "Ben": 6, "Cat": 11}
    assert s["stock"] == stock - 4 and s["owed"] is None and s["turn"] == "Ann"
    # The 2 left on top is an ordinary card now: a spade or a 2 goes on it.
    assert play(game, "9S")["owed"] is None


def test_chain_of_twos_with_four_players_comes_round_again():
    """docs/rules.md Jack Change It: whoever cannot add a 2 picks up the whole count; that ends their turn."""
    game = new(4)
    for card, owed_by, count in [("2H", "Ben", 2), ("2S", "Cat", 4), ("2C", "Dan", 6), ("2D", "Ann", 8)]:
        assert play(game, card)["owed"] == {"player": owed_by, "count": count}
    s = play(game, "2H")  # the second 2 of Hearts: two decks
    assert s["owed"] == {"player": "Ben", "count": 10}
    s = pickup(game)
    assert s["hand_sizes"] == {"Ann": 5, "Ben": 16, "Cat": 6, "Dan": 6}
    assert s["turn"] == "Cat" and s["owed"] is None
    assert s["hint"] == "Hearts or a 2"


# --- Ace of Hearts, 5 of Hearts -------------------------------------------------------------

def test_ace_of_hearts_cancelled_by_five_of_hearts():
    """docs/rules.md Jack Change It: AH: next picks up 5, not passed on, only cancelled by 5H."""
    game = new(3)
    s = play(game, "AH")
    assert s["owed"] == {"player": "Ben", "count": 5} and s["owed_kind"] == "ace"
    assert s["prompt"] == "Ben: pick up 5, or play the 5 of Hearts"
    assert refused_play(game, "2H") == (
        "The Ace of Hearts can't be passed on: Ben must pick up 5 or play the 5 of Hearts")
    assert refused_play(game, "AS").startswith("The Ace of Hearts can't be passed on")
    s = play(game, "5H")
    assert s["owed"] is None and s["turn"] == "Cat" and s["top"] == "5H"
    assert s["hand_sizes"] == {"Ann": 6, "Ben": 6, "Cat": 7}
    assert "stopped the pick-up" in s["last"]


def test_ace_of_hearts_picked_up_by_a_player_without_the_five():
    """docs/rules.md Jack Change It: AH: the next player picks up 5."""
    game = new(3)
    play(game, "AH")
    stock = game.summary()["stock"]
    s = pickup(game)
    assert s["hand_sizes"]["Ben"] == 12 and s["stock"] == stock - 5
    assert s["turn"] == "Cat" and s["owed"] is None
    assert play(game, "AS")["top"] == "AS"  # an Ace goes on the Ace, nothing owed now


def test_five_of_hearts_is_ordinary_when_nothing_is_owed():
    """docs/rules.md Jack Change It: 5H cancels a pending AH pick-up; otherwise an ordinary card."""
    game = new(3)
    s = play(game, "5H")
    assert s["owed"] is None and s["turn"] == "Ben" and s["direction"] == "clockwise"
    assert play(game, "5C")["suit"] == "C"  # matched by rank, like any 5


def test_five_of_hearts_does_not_stop_a_chain_of_twos():
    """docs/rules.md Jack Change It: 2s are passed on only with another 2; 5H only cancels the AH."""
    game = new(3)
    play(game, "2H")
    assert refused_play(game, "5H") == "Ben must pick up 2 or play a 2"


def test_ace_and_two_of_hearts_together_make_seven():
    """docs/rules.md Jack Change It: AH together with 2H in one play makes 7, still cancelled only by 5H."""
    game = new(3)
    s = play(game, "AH", "2H")
    assert s["top"] == "2H" and s["pile"] == 3 and s["hand_sizes"]["Ann"] == 5
    assert s["owed"] == {"player": "Ben", "count": 7} and s["owed_kind"] == "ace"
    assert refused_play(game, "2S").startswith("The Ace of Hearts can't be passed on")
    s = pickup(game)
    assert s["hand_sizes"]["Ben"] == 14 and s["turn"] == "Cat"
    again = new(3)
    play(again, "AH", "2H")
    assert play(again, "5H")["owed"] is None


def test_ace_and_two_need_the_ace_to_be_playable():
    """docs/rules.md Jack Change It: AH+2H: the AH must be playable, and the 2H ends on top."""
    game = new(3, start="7S")
    reason = refused_play(game, "AH", "2H")
    assert reason.startswith("The Ace of Hearts doesn't go on the 7 of Spades, so the 2 of Hearts can't go with it")
    game = new(3, start="AC")  # the Ace matches by rank
    assert play(game, "AH", "2H")["owed"]["count"] == 7
    game = new(3)
    play(game, "2H")  # 2s owed: the Ace is not a 2
    assert refused_play(game, "AH", "2H") == "Ben must pick up 2 or play a 2"


@pytest.mark.parametrize("cards", [["2H", "AH"], ["2S", "2C"], ["AH", "5H"], ["7H", "7C"], ["AH", "2H", "2H"], ["AH", "2S"]])
def test_no_other_two_card_plays(cards):
    """docs/rules.md Jack Change It: no other two-card plays than AH then 2H."""
    game = new(3)
    reason = refused_play(game, *cards)
    assert "Ace of Hearts" in reason and ("first" in reason or "one card at a time" in reason)


# --- 8s -------------------------------------------------------------------------------------

def test_eight_with_two_players_the_player_goes_again():
    """docs/rules.md Jack Change It: 8: next misses their turn (with 2 players, the player of the 8 goes again)."""
    game = new(2)
    s = play(game, "8H")
    assert s["turn"] == "Ann" and s["last"] == "Ann played 8H: Ben misses a turn"
    assert play(game, "8S")["turn"] == "Ann"
    assert play(game, "3S")["turn"] == "Ben"


def test_eight_with_four_players_skips_one():
    """docs/rules.md Jack Change It: 8: the next player misses their turn."""
    game = new(4)
    assert play(game, "8H")["turn"] == "Cat"
    assert play(game, "8D")["turn"] == "Ann"  # Dan is skipped
    assert game.summary()["hand_sizes"] == {"Ann": 6, "Ben": 7, "Cat": 6, "Dan": 7}


def test_eight_after_a_queen_skips_the_other_way():
    """docs/rules.md Jack Change It: Q reverses (3+ players), then 8 skips the next player that way."""
    game = new(3)
    assert play(game, "QH")["turn"] == "Cat"
    assert play(game, "8H")["turn"] == "Ann"  # Ben is skipped, going anticlockwise


# --- Queens ---------------------------------------------------------------------------------

def test_queen_reverses_with_three_players():
    """docs/rules.md Jack Change It: Q (only with 3 or more players; option "queens reverse", on): direction reverses."""
    game = new(3)
    s = play(game, "QH")
    assert s["direction"] == "anticlockwise" and s["turn"] == "Cat"
    s = play(game, "QS")
    assert s["direction"] == "clockwise" and s["turn"] == "Ann"


def test_queen_does_not_reverse_with_two_players():
    """docs/rules.md Jack Change It: Q reverses only with 3 or more players."""
    game = new(2)
    s = play(game, "QH")
    assert s["direction"] == "clockwise" and s["turn"] == "Ben"


def test_queen_is_ordinary_with_the_option_off():
    """docs/rules.md Jack Change It: option "queens reverse" off: a Queen is an ordinary card."""
    game = new(3, queens_reverse=False)
    s = play(game, "QH")
    assert s["direction"] == "clockwise" and s["turn"] == "Ben"


# --- Jacks ----------------------------------------------------------------------------------

def test_jack_changes_the_suit():
    """docs/rules.md Jack Change It: J: the player names a suit; play continues in that suit (or a Jack)."""
    game = new(3)
    s = play(game, "JH", suit="S")
    assert s["suit"] == "S" and s["named_suit"] == "S" and s["top"] == "JH"
    assert s["hint"] == "Spades or a Jack" and s["prompt"] == "Ben: play Spades or a Jack, or lift a card"
    assert refused_play(game, "7H") == (
        "The 7 of Hearts doesn't go: the Jack changed the suit to Spades - play Spades or a Jack, or lift a card")
    s = play(game, "JD", suit="H")  # a Jack on a Jack, changing it again
    assert s["suit"] == "H" and s["turn"] == "Cat"
    s = play(game, "4H")
    assert s["suit"] == "H" and s["named_suit"] is None


def test_jack_naming_the_suit_in_play_is_refused():
    """docs/rules.md Jack Change It: J: the player names a suit other than the suit now in play."""
    game = new(3)
    assert refused_play(game, "JH", suit="H") == (
        "A Jack must change the suit: pick Spades, Diamonds or Clubs, not Hearts")
    play(game, "JH", suit="C")
    assert refused_play(game, "JC", suit="C") == (
        "A Jack must change the suit: pick Spades, Hearts or Diamonds, not Clubs")
    assert play(game, "JC", suit="H")["suit"] == "H"  # the Jack's own suit is not the suit in play


def test_jack_needs_a_suit_and_only_a_jack_names_one():
    """docs/rules.md Jack Change It: J: the player names a suit."""
    game = new(3)
    assert refused_play(game, "JH") == "Say which suit the Jack changes it to: Spades, Diamonds or Clubs"
    assert refused_play(game, "7S", suit="C") == "Only a Jack changes the suit"
    assert play(game, "JH", suit="\u2663")["suit"] == "C"  # the suit symbol is read too


def test_jack_must_match_unless_jacks_are_wild():
    """docs/rules.md Jack Change It: option "jacks wild" (off): a Jack may go on anything."""
    game = new(3)
    assert refused_play(game, "JS", suit="D").startswith("The Jack of Spades doesn't go on the 7 of Hearts")
    wild = new(3, jacks_wild=True)
    assert wild.summary()["hint"] == "Hearts, a 7 or any Jack"
    s = play(wild, "JS", suit="D")
    assert s["suit"] == "D" and s["turn"] == "Ben"
    assert refused_play(wild, "JC", suit="D").startswith("A Jack must change the suit")


def test_wild_jack_does_not_answer_a_pickup():
    """docs/rules.md Jack Change It: 2s are passed on only by a 2, even with jacks wild."""
    wild = new(3, jacks_wild=True)
    play(wild, "2H")
    assert refused_play(wild, "JS", suit="D") == "Ben must pick up 2 or play a 2"


# --- finishing --------------------------------------------------------------------------------

HEARTS = ["3H", "4H", "6H", "9H", "10H", "KH"]


@pytest.mark.parametrize("last, suit", [("2H", None), ("8H", None), ("JH", "S"), ("AH", None)])
def test_cannot_finish_on_a_trick_card(last, suit):
    """docs/rules.md Jack Change It: you cannot finish on a trick card (2, 8, J, AH); lift instead."""
    game = new(2)
    shed_to_one(game, "Ann", HEARTS)
    assert game.summary()["last_card"] == ["Ann"]
    assert refused_play(game, last, suit=suit) == "You can't finish on a trick card: lift a card instead"
    s = lift(game)
    assert s["hand_sizes"]["Ann"] == 2 and s["last_card"] == []


def test_finish_on_a_queen_with_two_players():
    """docs/rules.md Jack Change It: Queens may finish a 2-player game."""
    game = new(2)
    shed_to_one(game, "Ann", HEARTS)
    s = play(game, "QH")
    assert s["finished"] and s["winner"] == "Ann" and s["turn"] is None
    assert s["hand_sizes"]["Ann"] == 0 and s["prompt"] == "Ann wins!" and s["actions"] == []
    assert refused(game, {"type": "lift"}) == "The game is over: Ann won"
    assert refused_play(game, "QS") == "The game is over: Ann won"


def test_cannot_finish_on_a_queen_where_queens_reverse():
    """docs/rules.md Jack Change It: you cannot finish on a Q where Queens reverse (3+ players, option on)."""
    game = new(3)
    shed_to_one(game, "Ann", HEARTS)
    assert refused_play(game, "QH") == "You can't finish on a trick card: lift a card instead"
    off = new(3, queens_reverse=False)
    shed_to_one(off, "Ann", HEARTS)
    assert play(off, "QH")["winner"] == "Ann"


def test_finish_on_five_of_hearts():
    """docs/rules.md Jack Change It: 5H may always finish."""
    game = new(4)
    shed_to_one(game, "Ann", HEARTS)
    s = play(game, "5H")
    assert s["finished"] and s["winner"] == "Ann"


def test_finish_on_five_of_hearts_while_stopping_an_ace():
    """docs/rules.md Jack Change It: 5H cancels a pending AH pick-up, and may always finish."""
    game = new(3)
    shed_to_one(game, "Ben", HEARTS, then="Ann")
    play(game, "AH")
    assert game.summary()["owed"] == {"player": "Ben", "count": 5}
    s = play(game, "5H")
    assert s["winner"] == "Ben" and s["owed"] is None


def test_last_card_two_on_a_chain_must_pick_up():
    """docs/rules.md Jack Change It: a player whose last card is a trick card must take from the stock."""
    game = new(3)
    shed_to_one(game, "Ben", HEARTS, then="Ann")
    play(game, "2H")
    assert refused_play(game, "2S") == "You can't finish on a trick card: pick up 2 instead"
    assert pickup(game)["hand_sizes"]["Ben"] == 3


def test_ace_and_two_cannot_be_the_last_two_cards():
    """docs/rules.md Jack Change It: AH+2H leaves 2H on top, a trick card: no finishing on it."""
    game = new(2)
    shed_to_one(game, "Ann", HEARTS)
    assert refused_play(game, "AH", "2H") == "Ann has only 1 card, so can't play 2 at once"
    lift(game)
    lift(game)
    assert game.summary()["hand_sizes"]["Ann"] == 2
    assert refused_play(game, "AH", "2H") == "You can't finish on a trick card: lift a card instead"


# --- the stock running out --------------------------------------------------------------------

def total(s: dict) -> int:
    return sum(s["hand_sizes"].values()) + s["stock"] + s["pile"]


def test_stock_runs_out_and_the_pile_is_turned_over():
    """docs/rules.md Jack Change It: as soon as the stock is empty, keep the top pile card and turn the
    rest over as the new stock; a lift or pick-up finding no card at all is forgiven."""
    game = new(10)
    for card in ["3H", "4H", "6H", "9H", "10H", "KH", "3H", "4H", "6H", "9H"]:
        play(game, card)
    s = game.summary()
    assert s["stock"] == 33 and s["pile"] == 11 and total(s) == 104
    for _ in range(32):
        s = lift(game)
        assert not s["turn_over_pile"] and total(s) == 104
    assert s["stock"] == 1
    s = lift(game)  # the last card of the stock: turn the pile over at once
    assert s["turn_over_pile"] and s["stock"] == 10 and s["pile"] == 1 and s["top"] == "9H"
    assert total(s) == 104
    # The 3 of Hearts is in the new stock now: nothing is known about it any more.
    assert play_problem(game.state, ["3H"]) is None
    for _ in range(10):
        s = lift(game)
        assert not s["turn_over_pile"]
    assert s["stock"] == 0 and s["pile"] == 1
    who = s["turn"]
    before = s["hand_sizes"][who]
    s = lift(game)  # nothing to lift, nothing under the top card: forgiven
    assert s["hand_sizes"][who] == before and s["forgiven"] == 1 and total(s) == 104
    assert "forgiven" in s["last"]
    s = play(game, "2H")  # now there is one card under the top one
    owing = s["owed"]["player"]
    before = s["hand_sizes"][owing]
    s = pickup(game)
    assert s["turn_over_pile"] and s["hand_sizes"][owing] == before + 1 and s["forgiven"] == 1
    assert s["stock"] == 0 and s["pile"] == 1 and total(s) == 104


def test_pickup_turns_the_pile_over_in_the_middle():
    """docs/rules.md Jack Change It: a pick-up that empties the stock goes on from the turned-over pile."""
    game = new(10)
    for card in ["3H", "4H", "6H", "9H", "10H", "KH", "3H", "4H", "6H"]:
        play(game, card)
    while game.summary()["stock"] > 2:
        lift(game)
    s = play(game, "AH")
    assert s["stock"] == 2 and s["pile"] == 11
    who = s["owed"]["player"]
    before = s["hand_sizes"][who]
    s = pickup(game)
    assert s["hand_sizes"][who] == before + 5 and s["turn_over_pile"]
    assert s["stock"] == 10 - 3 and s["pile"] == 1 and s["top"] == "AH" and total(s) == 104


def test_a_third_copy_of_a_card_is_refused():
    """docs/rules.md Jack Change It: two decks, so each card exists twice; the pile holds what was played."""
    game = new(3)
    play(game, "7S")
    s = play(game, "7H")  # the second 7 of Hearts (the first started the pile)
    assert s["pile"] == 3
    assert play_problem(game.state, ["7H"]) == (
        "Both 7 of Hearts are already in the pile, and there are only two: "
        "check the card, or undo the play that was entered wrong")
    assert refused_play(game, "7H") == play_problem(game.state, ["7H"])
    assert play_problem(game.state, ["AH", "2H"]) is None  # one of each still unseen


# --- helpers for the screen -------------------------------------------------------------------

def test_hint_and_prompt_words():
    """docs/rules.md Jack Change It: what may be played, as the screen says it."""
    game = new(3, start="8D")
    assert legal_plays_hint(game.state) == "Diamonds or an 8"
    assert game.rules.legal_plays_hint(game.state) == "Diamonds or an 8"
    assert game.summary()["prompt"] == "Ann: play Diamonds or an 8, or lift a card"
    play(game, "AD")
    assert game.summary()["hint"] == "Diamonds or an Ace"
    assert game.rules.play_problem(game.state, ["AS"]) is None
    assert game.rules.play_problem(game.state, ["KS"]).startswith("The King of Spades doesn't go on the Ace of Diamonds")


def test_summary_has_every_field_the_screen_needs():
    """The issue: replay --json prints at least these fields."""
    s = new(3).summary()
    for key in ("game", "turn", "direction", "suit", "top", "owed", "hand_sizes", "stock", "finished",
                "winner", "named_suit", "pile", "last_card", "prompt", "turn_over_pile", "hint"):
        assert key in s
    json.dumps(s)


# --- logs --------------------------------------------------------------------------------------

def test_hand_written_game_replays_to_a_winner():
    """docs/rules.md Jack Change It: the first player with no cards wins (2s, 8, J, AH, 5H, Q on the way)."""
    game = Game.from_text((LOGS / "jack-change-it-game.jsonl").read_text())
    s = game.summary()
    assert s["finished"] and s["winner"] == "Ann" and s["turn"] is None
    assert s["hand_sizes"] == {"Ann": 0, "Ben": 9} and s["stock"] == 84 and s["pile"] == 11


@pytest.mark.parametrize("text, line, reason", [
    ('{"type": "play", "cards": ["2H"]}\n{"type": "play", "cards": ["7H"]}',
     3, "Ben must pick up 2 or play a 2"),
    ('{"type": "play", "cards": ["AH"]}\n{"type": "play", "cards": ["2H"]}',
     3, "The Ace of Hearts can't be passed on: Ben must pick up 5 or play the 5 of Hearts"),
    ('{"type": "lift"}\n{"type": "play", "cards": ["QS"]}',
     3, "The Queen of Spades doesn't go on the 7 of Hearts - play Hearts or a 7, or lift a card"),
    ('{"type": "play", "cards": ["JS"], "suit": "H"}',
     2, "The Jack of Spades doesn't go on the 7 of Hearts - play Hearts or a 7, or lift a card"),
    ('{"type": "play", "cards": ["JH"], "suit": "H"}',
     2, "A Jack must change the suit: pick Spades, Diamonds or Clubs, not Hearts"),
    ('{"type": "pickup"}', 2, "Ann has nothing to pick up: play Hearts or a 7, or lift a card"),
])
def test_bad_logs_name_the_line_and_the_rule(text, line, reason):
    """docs/rules.md Jack Change It: illegal plays in a log are errors naming the line and the rule."""
    with pytest.raises(LogError) as info:
        Game.from_text(json.dumps(header(3)) + "\n" + text + "\n")
    assert str(info.value) == f"line {line}: {reason}"


def test_bad_header_in_a_log_is_line_one():
    """docs/rules.md Jack Change It: 2 to 10 players."""
    with pytest.raises(LogError, match=r"^line 1: Jack Change It is played by 2 to 10 players"):
        Game.from_text(json.dumps(header(1)) + "\n")


def companion_command() -> str:
    beside = Path(sys.executable).parent / "jack-companion"
    found = str(beside) if beside.exists() else shutil.which("jack-companion")
    if not found:
        pytest.skip("the jack-companion command is not installed")
    return found


def replay(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([companion_command(), "replay", *args], capture_output=True, text=True, timeout=60)


def test_replay_json_prints_where_the_game_stands():
    """The issue: replay --json prints turn, direction, suit, top, owed, hand_sizes, stock, finished, winner."""
    done = replay("--json", str(LOGS / "jack-change-it-tricks.jsonl"))
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert s["game"] == "jack-change-it"
    assert s["turn"] == "Dan" and s["direction"] == "anticlockwise"
    assert s["suit"] == "S" and s["top"] == "3S" and s["named_suit"] is None and s["owed"] is None
    assert s["hand_sizes"] == {"Ann": 6, "Ben": 5, "Cat": 6, "Dan": 10}
    assert s["stock"] == 70 and s["pile"] == 7 and total(s) == 104
    assert s["finished"] is False and s["winner"] is None
    assert s["prompt"] == "Dan: play Spades or a 3, or lift a card"
    won = json.loads(replay("--json", str(LOGS / "jack-change-it-game.jsonl")).stdout)
    assert won["finished"] is True and won["winner"] == "Ann" and won["turn"] is None and won["owed"] is None


def test_replay_of_a_bad_log_names_the_line():
    """docs/rules.md Jack Change It: J names a suit other than the suit now in play; blank lines still count."""
    done = replay(str(LOGS / "jack-change-it-bad-jack.jsonl"))
    assert done.returncode == 2
    assert done.stderr.strip() == "line 4: A Jack must change the suit: pick Hearts, Diamonds or Clubs, not Spades"
    done = replay("--json", str(LOGS / "jack-change-it-bad-lift.jsonl"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "line 3: Ben can't lift a card now: pick up 2 first, or play a 2"


# --- random games with real (simulated) hands ----------------------------------------------------

def by_the_book(s: dict, cards: list[str], hand: int, players: int, queens_reverse: bool, jacks_wild: bool) -> bool:
    """docs/rules.md Jack Change It written out again, apart from the engine, for a player holding ``cards``."""
    top_rank, kind, suit = s["top"][:-1], s["owed_kind"], s["suit"]
    if len(cards) == 2:
        return cards == ["AH", "2H"] and kind is None and (suit == "H" or top_rank == "A") and hand > 2
    (card,) = cards
    rank = card[:-1]
    if kind == "twos":
        ok = rank == "2"
    elif kind == "ace":
        ok = card == "5H"
    else:
        ok = card[-1] == suit or rank == top_rank or (rank == "J" and jacks_wild)
    trick = card != "5H" and (rank in ("2", "8", "J") or card == "AH" or (rank == "Q" and queens_reverse and players >= 3))
    return ok and not (hand == 1 and trick)


def random_game(seed: int, check=None, limit: int = 3000, players: int | None = None,
                play_chance: float = 0.85) -> Game:
    """A random table with real cards (companion/random_tables.py), each play the engine allows
    or refuses checked against the rules written out again here, and the cards counted every step."""
    def judge(game, s, cards, hand, allowed):
        h = game.header
        assert allowed == by_the_book(s, cards, hand, len(h["players"]),
                                      h["options"]["queens_reverse"], h["options"]["jacks_wild"]), (cards, s)

    game = None
    for game, table in random_tables.jack_change_it(seed, players, play_chance, limit, names=NAMES, judge=judge):
        state = game.state
        assert list(state.hands) == [len(h) for h in table.hands]
        assert state.stock == len(table.stock) and state.pile == tuple(table.pile)
        assert sum(state.hands) + state.stock + len(state.pile) == 104
        if check:
            check(game)
    return game


@pytest.mark.parametrize("seed", range(12))
def test_long_random_game_keeps_all_104_cards(seed):
    """docs/rules.md Jack Change It: two decks, 104 cards; every card is in a hand, the stock or the pile."""
    def check(game):
        s = game.summary()
        assert total(s) == 104
        assert s["last_card"] == [p for p, n in s["hand_sizes"].items() if n == 1]
        if s["owed"]:
            assert s["owed"]["player"] == s["turn"]

    game = random_game(seed, check)
    s = game.summary()
    assert s["finished"], "a random game should end within the move limit"
    assert s["hand_sizes"][s["winner"]] == 0
    assert sorted(n for n in s["hand_sizes"].values() if n == 0) == [0]


@pytest.mark.parametrize("seed", range(200, 204))
def test_hoarding_games_run_the_stock_dry_and_keep_all_104_cards(seed):
    """docs/rules.md Jack Change It: the pile is turned over when the stock is empty, and a lift or
    pick-up that finds no card at all is forgiven; the cards still add up to 104."""
    seen = {"turned": 0, "forgiven": 0}

    def check(game):
        s = game.summary()
        assert total(s) == 104
        seen["turned"] += s["turn_over_pile"]
        seen["forgiven"] += s["forgiven"]

    random_game(seed, check, limit=600, players=10, play_chance=0.2)
    assert seen["turned"] and seen["forgiven"]


def test_engine_imports_only_the_standard_library_and_companion():
    """ARCHITECTURE.md: companion/ is pure Python and never imports kivy, gpiozero, serial, ui or hardware."""
    import ast

    import companion.games.jack_change_it.rules as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots.add(node.module.split(".")[0])
    assert roots <= set(sys.stdlib_module_names) | {"companion"}, roots


def test_a_chain_of_twos_can_hold_all_eight():
    """docs/rules.md, "Jack Change It", 2: with two decks a chain can hold all eight 2s
    (16 cards), and whoever cannot add a ninth picks up all 16."""
    game = new(3)
    twos = ["2H", "2S", "2D", "2C"] * 2
    for count, two in enumerate(twos, start=1):
        s = play(game, two)
        assert s["owed"]["count"] == 2 * count
    owing = s["owed"]["player"]
    hand = s["hand_sizes"][owing]
    s = pickup(game)
    assert s["hand_sizes"][owing] == hand + 16 and s["owed"] is None


def test_the_plays_of_a_card_are_its_part_of_the_legal_actions():
    """What a screen offers once a card is tapped (``plays_of``: a Jack's suits, the A♥ alone or
    with the 2♥) is exactly that card's part of ``legal_actions``, and the one other action
    listed is the pick-up owed or the lift ("Cannot or will not play: lift one card")."""
    from companion import random_player
    from companion.cards import full_deck

    rules = Game(header()).rules
    for seed in range(3):
        for game in random_player.steps(Game(header(players=3 + seed)), random_player.random_choice(random.Random(seed)), 60):
            state = game.state
            listed = rules.legal_actions(state)
            plays = [play for card in full_deck() for play in rules.plays_of(state, str(card))]
            assert sorted(map(json.dumps, plays)) == sorted(json.dumps(a) for a in listed if a["type"] == "play")
            assert [a for a in listed if a["type"] != "play"] == ([rules.draw_action(state)] if listed else [])
            if listed:
                assert rules.draw_action(state)["type"] == ("pickup" if game.view().owed else "lift")
