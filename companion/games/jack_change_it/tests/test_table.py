"""Jack Change It at the table, with a fake clock and no window (docs/rules.md, "Jack Change It"):
what the table reads (the camera's offer counting down, the questions a card raises, the main
button, the refusals in words) and what goes into the log."""

from __future__ import annotations

from companion.session import Session
from companion.store import Store
from companion.games.jack_change_it.table import CAMERA_GRACE_S, JackChangeItTable
from tests.fake_clock import FakeClock

HEADER = {"game": "jack-change-it", "players": ["Ann", "Ben"], "start": "7H"}


def table(header=HEADER, clock=None, **kwargs):
    clock = clock or FakeClock()
    session = Session.start(Store(":memory:"), header)
    return JackChangeItTable(session, now=clock.now, schedule=clock.schedule, **kwargs), clock


def actions(t):
    return t.session.game.actions


def test_a_sure_card_from_the_camera_is_the_players_play_once_the_grace_is_over():
    """"Play one card that matches the top card's suit or rank": 7♣ on 7♥. The table sees the
    offer count down in whole seconds, and nothing goes in before the grace is over."""
    t, clock = table()
    assert CAMERA_GRACE_S == 1.5
    t.on_card("7C", clock.now())
    assert t.offer_words() == "Ann plays 7\u2663 in 2s"
    clock.advance(0.5)
    assert t.offer_words() == "Ann plays 7\u2663 in 1s"
    clock.advance(0.9)
    assert actions(t) == [] and t.offer is not None, "the grace is not over: Not it can still stop it"
    clock.advance(0.1)
    assert actions(t) == [{"type": "play", "cards": ["7C"]}] and t.offer is None
    assert t.game_view().turn == "Ben" and t.last_words == "Ann played 7C"


def test_the_countdown_ticks_when_its_words_change():
    """The screen redraws on the table's timers: one fires as the countdown goes from 2 s to 1 s."""
    t, clock = table()
    t.on_card("7C", clock.now())
    assert clock.pending() == 2   # the tick at 1 s left, and the grace's end
    clock.run_next()
    assert clock.now() == 100.5 and t.offer_words().endswith("in 1s")


def test_not_it_stops_the_card():
    t, clock = table()
    t.on_card("7C", clock.now())
    t.not_it()
    clock.advance(5)
    assert actions(t) == [] and t.offer is None and clock.pending() == 0


def test_the_card_pad_puts_right_what_the_camera_offered():
    t, clock = table()
    t.on_card("3D", clock.now())
    t.choose("4H")
    clock.advance(5)
    assert actions(t) == [{"type": "play", "cards": ["4H"]}] and t.offer is None


def test_an_unsure_card_waits_for_the_tables_tap():
    t, clock = table()
    t.on_unsure(["9H", "9D", "8D", "8H"], clock.now())
    assert t.offer_words() == "Which card landed?" and t.offer.cards == ("9H", "9D", "8D")
    clock.advance(5)
    assert actions(t) == []
    t.choose("9H")
    assert actions(t) == [{"type": "play", "cards": ["9H"]}] and t.offer is None


def test_without_a_grace_the_sure_card_is_asked():
    t, clock = table(grace_s=None)
    t.on_card("7C", clock.now())
    assert t.offer_words() == "Ann played 7\u2663?" and clock.pending() == 0


def test_a_jack_asks_the_suits_it_may_name():
    """"J: the player names a suit other than the suit now in play." J♥ on 7♥ goes by suit; after
    the grace it asks, and only the three other suits are offered."""
    t, clock = table()
    t.on_card("JH", clock.now())
    clock.advance(CAMERA_GRACE_S)
    assert t.question.kind == "suit" and [c.key for c in t.question.choices] == ["S", "D", "C"]
    assert actions(t) == []
    assert t.answer("D")
    assert actions(t) == [{"type": "play", "cards": ["JH"], "suit": "D"}] and t.question is None
    assert t.game_view().suit == "D" and t.game_view().named_suit == "D"


def test_a_jack_that_does_not_go_asks_nothing_and_says_why():
    """A Jack matches like any card (jacks not wild): J♠ does not go on 7♥."""
    t, _ = table()
    t.choose("JS")
    assert t.question is None and actions(t) == []
    assert t.message == "The Jack of Spades doesn't go on the 7 of Hearts - play Hearts or a 7, or lift a card"


def test_the_ace_of_hearts_asks_whether_the_two_went_on_top():
    """"AH: the next player picks up 5 ... AH together with 2H in one play makes it 7." The 2♥
    the camera sees laid on it, while asked or just after, is part of that play."""
    t, clock = table()
    t.on_card("AH", clock.now())
    clock.advance(CAMERA_GRACE_S)
    assert t.question.kind == "ace"
    assert [(c.key, c.owed.player, c.owed.count) for c in t.question.choices] == [("AH", "Ben", 5), ("AH 2H", "Ben", 7)]
    t.on_card("2H", clock.now())
    assert t.offer is None, "the 2\u2665 on the A\u2665 is no play of its own"
    assert t.answer("AH 2H")
    t.on_card("2H", clock.now())
    assert t.offer is None and actions(t) == [{"type": "play", "cards": ["AH", "2H"]}]
    assert t.action_words == "Pick up 7"


def test_the_main_button_is_the_lift_or_the_pick_up_owed():
    """"2: the next player picks up 2, unless they play another 2"; "Cannot or will not play:
    lift one card from the stock"."""
    t, _ = table({"game": "jack-change-it", "players": ["Ann", "Ben", "Cat"], "start": "7H"})
    assert t.action_words == "Lift a card"
    t.choose("2H")
    assert t.action_words == "Pick up 2"
    t.choose("9H")
    assert t.message == "Ben must pick up 2 or play a 2" and len(actions(t)) == 1
    assert t.main_action()
    assert actions(t)[-1] == {"type": "pickup"} and t.game_view().hand_sizes["Ben"] == 9
    assert t.message == "" and t.action_words == "Lift a card"


def test_a_card_the_camera_saw_that_does_not_go_is_refused_in_words():
    t, clock = table()
    t.on_card("9S", clock.now())
    clock.advance(CAMERA_GRACE_S)
    assert actions(t) == [] and t.offer is None
    assert t.message.startswith("The 9 of Spades doesn't go on the 7 of Hearts")


def test_undo_says_what_it_took_back():
    t, _ = table()
    t.choose("7C")
    said = t.said
    t.undo()
    assert actions(t) == [] and t.last_words == "Undone: Ann played 7C"
    t.undo()
    assert t.message == "There is nothing to undo" and t.said == said + 1


def test_the_winner_is_told_and_the_button_starts_a_new_game():
    """"The first player with no cards wins"; nothing is offered after."""
    t, clock = table()
    for card in ("3H", "4H", "6H", "9H", "10H", "KH"):
        t.choose(card)     # Ann
        t.main_action()    # Ben lifts
    t.choose("9H")
    assert t.finished and t.game_view().winner == "Ann" and t.action_words == "New game" and t.draw_action() is None
    t.on_card("4H", clock.now())
    assert t.offer is None


def test_a_table_left_keeps_no_timer():
    t, clock = table()
    t.on_card("7C", clock.now())
    t.close()
    clock.advance(5)
    assert actions(t) == [] and clock.pending() == 0
