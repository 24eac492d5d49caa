"""One-Eyed Jack at the table, with no window (docs/rules.md, "One-Eyed Jack"): the spaces that
light for the card chosen, what a tap on the board does, the camera's card, Pass, Swap and
Undo, as the table reads them, and what goes into the log."""

from __future__ import annotations

from companion.session import Session
from companion.store import Store
from companion.games.one_eyed_jack.board import card_at, spaces_of
from companion.games.one_eyed_jack.table import OneEyedJackTable
from tests.fake_clock import FakeClock

HEADER = {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}}


def table(header=HEADER, actions=()):
    clock = FakeClock()
    session = Session.start(Store(":memory:"), header)
    for action in actions:
        session.play(action)
    return OneEyedJackTable(session, now=clock.now, schedule=clock.schedule)


def said(t):
    return (t.notice.text, t.notice.kind) if t.notice else None


def test_a_card_chosen_lights_its_open_spaces_and_a_tap_puts_the_chip_down():
    """"Play a card and put your chip on an open space showing it": 7♠ shows twice."""
    t = table()
    assert t.turn_words() == "Ann's turn" and t.lit == []
    t.pick("7", "")
    assert t.card == "" and t.lit == []          # the rank alone chooses nothing yet
    t.pick("7", "S")
    assert sorted(t.lit) == sorted(spaces_of("7S")) == [(1, 2), (6, 6)]
    assert t.tap_space(1, 2)
    assert t.session.game.actions == [{"type": "play", "card": "7S", "at": [1, 2]}]
    assert t.card == "" and t.lit == [] and t.turn_words() == "Ben's turn"


def test_a_tap_on_a_space_with_no_card_chosen_picks_the_card_it_shows():
    t = table()
    assert not t.tap_space(4, 4)
    assert t.card == card_at(4, 4) == "KH" and sorted(t.lit) == [(4, 4), (9, 8)]
    t.clear_card()
    assert not t.tap_space(0, 0)
    assert said(t) == ("Corners are free spaces: they count for every side, and nobody plays on them.", "info")


def test_a_one_eyed_jack_lights_only_the_opposing_chips_it_may_take():
    """"JS, JH (one-eyed): remove one opposing chip not in a row; no chip placed"."""
    t = table(actions=[{"type": "play", "card": "7S", "at": [1, 2]}])
    t.pick("J", "S")
    assert t.lit == [(1, 2)]
    assert t.tap_space(1, 2)
    assert t.session.game.actions[-1] == {"type": "play", "card": "JS", "remove": [1, 2]}
    # A space with a chip and no card chosen: only a one-eyed Jack could go there.
    t2 = table(actions=[{"type": "play", "card": "7S", "at": [1, 2]}])
    t2.tap_space(1, 2)
    assert (t2.rank, t2.suit) == ("J", "") and said(t2)[0].startswith("Taking a chip off needs a one-eyed Jack")


def test_a_refused_play_says_why_and_keeps_the_card_chosen():
    """"JC, JD (two-eyed): wild, any open space that is not a corner": not a space with a chip."""
    t = table(actions=[{"type": "play", "card": "7S", "at": [1, 2]}])
    t.pick("J", "D")
    assert (1, 2) not in t.lit and len(t.lit) == 95
    assert not t.tap_space(1, 2)
    assert said(t)[1] == "error" and t.card == "JD" and len(t.session.game.actions) == 1


def test_a_card_the_camera_sees_is_chosen_unless_both_copies_are_played():
    """"Once both copies of a card are played or discarded, nobody holds it"."""
    t = table(actions=[{"type": "play", "card": "JC", "at": [4, 4]}, {"type": "play", "card": "JC", "at": [4, 5]}])
    t.on_card("JC")
    assert t.card == "" and said(t) == ("JC can't be played: both copies of JC are already played or discarded "
                                         "(two decks hold every card twice)", "error")
    t.on_card("JD")
    assert t.card == "JD" and t.lit


def test_an_unsure_card_is_offered_as_its_guesses():
    t = table()
    t.on_unsure(["KH", "KD", "KS", "KC"])
    assert t.offer.cards == ("KH", "KD", "KS") and t.offer_words() == "Which card landed?" and t.card == ""
    t.choose("KD")
    assert t.offer is None and t.card == "KD"
    t.on_unsure(["5H", "5D"])
    t.not_it()
    assert t.offer is None and t.card == "KD"
    t.on_unsure(["5H", "5D"])
    t.pick("6", "C")                              # the card pad puts the guesses away
    assert t.offer is None and t.card == "6C"


def test_a_dead_card_is_swapped_once_a_turn():
    """"Optionally swap one dead card (both its spaces hold chips: discard, draw)"."""
    first, second = spaces_of("KH")
    t = table(actions=[{"type": "play", "card": "JC", "at": list(first)},     # two-eyed Jacks, wild
                       {"type": "play", "card": "JD", "at": list(second)}])
    t.pick("K", "H")
    assert t.dead and t.lit == [] and t.card_note("KH") == "dead"
    t.swap()
    assert t.session.game.actions[-1] == {"type": "swap", "card": "KH"}
    assert said(t)[0].startswith("K\u2665 swapped") and t.turn_words() == "Ann's turn"
    t.pick("K", "H")
    t.swap()
    assert said(t)[1] == "error" and "Only one swap a turn" in said(t)[0]


def test_a_pass_and_the_words_for_a_draw():
    """"Every player passing in a row is a draw"."""
    t = table()
    t.pass_turn()
    assert said(t) == ("Ann passed (1 in a row): if every player passes, the game is a draw.", "info")
    t.pass_turn()
    assert t.finished and t.turn_words() == "A draw"
    assert t.result_words() == "Every player passed in a row: nobody could play."
    assert said(t)[0] == "The game is a draw. Every player passed in a row: nobody could play."


def test_undo_brings_the_card_back_chosen():
    t = table()
    t.pick("7", "S")
    t.tap_space(1, 2)
    t.undo()
    assert t.session.game.actions == [] and t.card == "7S" and sorted(t.lit) == [(1, 2), (6, 6)]
    assert said(t)[0] == "Took back 7\u2660: tap the right space, or choose another card."
    t.undo()
    assert said(t) == ("There is nothing to undo", "error")


def test_a_game_over_takes_no_more_taps():
    t = table()
    t.pass_turn()
    t.pass_turn()
    t.pick("7", "S")
    assert t.card == ""
    assert not t.tap_space(1, 2)
    assert said(t)[1] == "error" and said(t)[0].startswith("The game is over")
