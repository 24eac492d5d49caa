"""Jacks refereed from the camera: whole rounds of 52 plays from a card feed, with a fake clock
(docs/rules.md, "Jacks"). What is checked is what the table sees: who is to play, who took each
trick and each Jack, what was said, and the round offered for Record round."""

from companion.session import Session
from companion.store import Store
from companion.table.jacks import SHOW_TAKEN_S, JacksTable
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
    assert t.showing_taken and t.play["last_trick"]["taker"] == "Ben" and t.play["to_play"] == "Ben"
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
    assert t.play["trick"]["cards"][-1]["card"] == "KD"
    t.undo()                                      # ...so Undo takes it back mid-trick
    feed(t, clock, cards[6:26])
    game_id = t.session.game_id
    store.close()                                 # the power goes mid-round
    store = Store(db)
    t = table(store, clock, game_id)
    assert t.play["plays"] == 26
    feed(t, clock, cards[26:])
    second = PLAYERS[(PLAYERS.index(leader) + 1) % 4]
    first = t.play["notes"][0]
    assert (first["rule"], first["player"], first["tricks"]) == ("jack on first trick", second, [1])
    revoke = next(n for n in t.play["notes"] if n["rule"] == "revoke")
    assert revoke["tricks"][0] == 3 and revoke["tricks"][1] > 3
    assert "trick 3" in revoke["text"]
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
