"""Jacks refereed from the camera: whole rounds of 52 plays from a card feed, with a fake clock
(docs/rules.md, "Jacks"). What is checked is what the table sees: who is to play, who took each
trick and each Jack, what was said, and the round offered for Record round."""

from companion.session import Session
from companion.store import Store
from companion.games.jacks.table import SHOW_TAKEN_S, JacksTable
from tests.fake_clock import FakeClock
from tests.jacks_table_script import PLAYERS, play_round

HEADER = {"game": "jacks", "players": list(PLAYERS), "feed": "camera"}


def table(store, clock, game_id=None):
    session = Session.start(store, HEADER) if game_id is None else Session.resume(store, game_id)
    return JacksTable(session, now=clock.now, schedule=clock.schedule)


def feed(t, clock, cards):
    for card in cards:
        clock.run_until(clock.now() + 2.0)
        t.on_card(card, clock.now())


def test_a_whole_round_from_the_camera_offers_the_jacks_takers(tmp_path):
    """The round ends when all four Jacks have been played; the companion records who took each."""
    clock, store = FakeClock(), Store(tmp_path / "t.db")
    leader, cards, jacks = play_round(1)
    t = table(store, clock)
    assert t.needs_leader
    t.tap_leader(leader)
    feed(t, clock, cards)
    assert t.offer == jacks and t.notes == []
    assert t.record_round()
    assert t.needs_leader and t.session.summary()["round"] == 2


def test_the_taken_trick_shows_who_took_it_until_the_next_card():
    """After a trick the screen shows who took it; the next trick's first card replaces it."""
    clock = FakeClock()
    store = Store(":memory:")
    t = table(store, clock)
    t.tap_leader("Ann")
    feed(t, clock, ["3H", "KH", "2H", "4H"])
    assert t.showing_taken and t.play.last_trick.taker == "Ben" and t.play.to_play == "Ben"
    clock.run_until(clock.now() + SHOW_TAKEN_S)
    assert not t.showing_taken


def test_a_round_with_a_jack_on_the_first_trick_a_revoke_an_unsure_card_an_undo_and_a_kill(tmp_path):
    """The companion refuses nothing a real table did but says what breaks a rule: a Jack on
    the first trick, a revoke (with both tricks). An unsure card is asked; Undo takes a play
    back; a table started again mid-round carries on from the log."""
    clock, db = FakeClock(), tmp_path / "t.db"
    leader, cards, jacks = play_round(4, {1: "jack", 3: "revoke"})
    store = Store(db)
    t = table(store, clock)
    feed(t, clock, cards[:1])                    # a card before the leader is tapped waits
    assert "3\u2665" in t.message
    t.tap_leader(leader)
    feed(t, clock, cards[1:5])
    assert t.notes and "no Jack on the first trick" in t.notes[0]
    t.on_unsure([cards[5], "AS"], clock.now())   # the camera is unsure: the table is asked
    assert t.asking == [cards[5], "AS"]
    t.choose(cards[5])
    feed(t, clock, ["KD"])                        # the camera misread the next card...
    assert t.play.trick.cards[-1].card == "KD"
    t.undo()                                      # ...so Undo takes it back mid-trick
    feed(t, clock, cards[6:26])
    game_id = t.session.game_id
    store.close()                                 # the power goes mid-round
    store = Store(db)
    t = table(store, clock, game_id)
    assert t.play.plays == 26
    feed(t, clock, cards[26:])
    second = PLAYERS[(PLAYERS.index(leader) + 1) % 4]
    first = t.play.notes[0]
    assert (first.rule, first.player, first.tricks) == ("jack on first trick", second, (1,))
    revoke = next(n for n in t.play.notes if n.rule == "revoke")
    assert revoke.tricks[0] == 3 and revoke.tricks[1] > 3
    assert "trick 3" in revoke.text
    assert t.offer == jacks
    assert t.record_round()
    assert sum(t.session.summary()["scores"].values()) in (21, 28, 63)


def test_a_table_left_keeps_no_timer():
    clock = FakeClock()
    t = table(Store(":memory:"), clock)
    t.tap_leader("Ann")
    feed(t, clock, ["3H", "KH", "2H", "4H"])
    t.close()
    assert not t.showing_taken and all(handle.cancelled for *_, handle in clock._due)


def test_a_card_seen_again_where_it_lies_is_not_a_second_play():
    """docs/rules.md, "Jacks": a deck holds one of each card. The camera reporting a card again
    while it still lies in the middle is one card seen twice, not a play; the same card played
    again once the middle was gathered is a play, and the round says it was seen twice."""
    clock = FakeClock()
    t = table(Store(":memory:"), clock)
    t.tap_leader("Ann")
    feed(t, clock, ["3H", "KH"])
    feed(t, clock, ["3H"])                           # the lead, reported again where it lies
    assert t.play.plays == 2 and t.play.to_play == "Cat" and t.notes == []
    assert "still lies in the middle" in t.message
    feed(t, clock, ["2H", "4H", "KS"])               # Ben took trick 1 and led KS: trick 1 not gathered
    feed(t, clock, ["KH"])                           # so KH is still in the middle
    assert t.play.plays == 5 and t.notes == []
    t.on_cleared(clock.now())                        # the camera sees the middle gathered...
    assert t.middle == []
    feed(t, clock, ["KH"])                           # ...so KH now is a second play of it
    assert t.play.plays == 6 and (t.play.trick.cards[-1].player, t.play.trick.cards[-1].card) == ("Cat", "KH")
    assert [n.split(" was")[0] for n in t.notes] == ["K\u2665"] and "seen twice" in t.notes[0]


def test_a_card_before_the_middle_is_gathered_still_leads_the_next_trick():
    """The trick's cards being gathered clears the middle, but a table that leads before
    gathering has still led: the card is the next trick's lead."""
    clock = FakeClock()
    t = table(Store(":memory:"), clock)
    t.tap_leader("Ann")
    feed(t, clock, ["3H", "KH", "2H", "4H", "5C"])  # no gathering seen between the tricks
    assert t.play.trick.number == 2 and t.play.trick.leader == "Ben"
    assert t.middle == ["3H", "KH", "2H", "4H", "5C"]
    t.on_cleared(clock.now())
    feed(t, clock, ["6C"])
    assert t.middle == ["6C"] and t.play.to_play == "Dan"
    t.undo()                                         # 6C taken back: what was gathered stays gathered
    assert t.middle == [] and t.play.to_play == "Cat"
