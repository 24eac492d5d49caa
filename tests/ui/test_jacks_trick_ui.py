"""The Jacks screen while a round is played trick by trick (docs/rules.md, "Jacks"): who is to
play, the cards so far and who is winning; after a trick who took it and any Jack; once all
four Jacks are taken, Record round offers their takers, and Undo takes a play back."""

from __future__ import annotations

import re

import pytest

from tests.jacks_table_script import PLAYERS, play_round

pytestmark = pytest.mark.ui

HEADER = {"game": "jacks", "players": list(PLAYERS), "options": {"target": 75}}


def plain(markup: str) -> str:
    return re.sub(r"\[/?color[^\]]*\]", "", markup)


def test_the_trick_in_progress_and_the_round_offered_for_record_round(driver, app):
    from companion.session import Session

    leader, cards, jacks = play_round(1)
    session = Session.start(app.store, HEADER)
    session.play({"type": "lead", "player": leader})
    for card in cards[:6]:
        session.play({"type": "play", "card": card})
    screen = app.open_session(session)
    driver.pump(2)
    # Ben led 3H 2H 4H 7H: Ann's 7H took trick 1; Ann led 3S, Ben played KS.
    assert screen.round_text == "Cat to play" and screen.pass_text == "Round 1 \u00b7 trick 2"
    assert plain(screen.lead_text) == "3\u2660 K\u2660 \u00b7 Ben winning"

    driver.tap(screen.ids.undo_button)                  # Undo takes the last play back
    assert plain(screen.lead_text) == "3\u2660 \u00b7 Ann winning" and screen.round_text == "Ben to play"

    for card in cards[5:]:
        session.play({"type": "play", "card": card})
    screen.refresh()
    driver.pump(2)
    assert screen.pass_text == "All four Jacks are taken"
    assert dict(screen.assignment) == jacks             # the takers are filled in
    driver.tap(screen.ids.record_button)
    assert session.summary()["rounds"][0] == {"Ann": 7, "Ben": 0, "Cat": 7, "Dan": 7}
    assert screen.round_text == "Round 2" and "play" not in session.summary()
    session.abandon()   # other tests find no game of ours left open


def test_cards_from_the_camera_with_one_tap_for_who_led_and_an_unsure_card_asked(driver, app):
    """One tap says who holds 3H; from then on every card in the middle is a play. A card the
    camera is unsure of is asked with its guesses."""
    from companion.session import Session

    screen = app.open_session(Session.start(app.store, HEADER))
    driver.pump(2)
    screen.on_card("3H")                                   # the camera saw the lead
    assert screen.seen_bar is not None and screen.seen_bar.question.text == "Who has 3\u2665?"
    driver.tap(screen.seen_bar.buttons["Cat"])
    assert screen.seen_bar is None
    assert plain(screen.lead_text) == "3\u2665 \u00b7 Cat winning" and screen.round_text == "Dan to play"
    screen.on_unsure(["9H", "9D"])
    driver.pump(2)
    driver.tap(screen.seen_bar.buttons["9H"])
    assert plain(screen.lead_text) == "3\u2665 9\u2665 \u00b7 Dan winning"
    for card in ("2H", "JH"):                              # Ann 2H, Ben JH: a Jack on the first trick
        screen.on_card(card)
    driver.pump(2)
    assert plain(screen.lead_text) == "Ben took trick 1 with J\u2665"
    assert "no Jack on the first trick" in app.root.notice   # said, and the play stands
    assert screen.round_text == "Ben to play" and screen.pass_text == "Round 1 \u00b7 trick 2"
    driver.tap(screen.ids.undo_button)                     # Undo takes the Jack back
    assert plain(screen.lead_text) == "3\u2665 9\u2665 2\u2665 \u00b7 Dan winning"
    screen.session.abandon()


def test_the_card_pad_gives_a_card_the_camera_missed_as_the_next_play(driver, app):
    """The card pad is there for a card the camera missed: rank then suit, and it is the next
    play; the camera reporting a card again where it lies is not a second play."""
    from companion.session import Session

    screen = app.open_session(Session.start(app.store, HEADER))
    driver.pump(2)
    driver.tap(screen.ids.card_pad_button)               # the camera missed the lead
    pad = screen.card_pad
    assert pad is not None and pad.question == "The card played: the rank, then the suit"
    driver.tap(pad.ids.picker.rank_buttons["3"])
    driver.tap(pad.ids.picker.suit_buttons["H"])
    assert screen.card_pad is None and screen.seen_bar.question.text == "Who has 3\u2665?"
    driver.tap(screen.seen_bar.buttons["Ann"])
    assert plain(screen.lead_text) == "3\u2665 \u00b7 Ann winning" and screen.round_text == "Ben to play"
    screen.on_card("KH")                                  # Ben's card, seen by the camera
    driver.tap(screen.ids.card_pad_button)               # Cat's card, missed by it
    assert screen.card_pad.question == "Cat played: the rank, then the suit"
    driver.tap(screen.card_pad.ids.picker.rank_buttons["2"])
    driver.tap(screen.card_pad.ids.picker.suit_buttons["H"])
    driver.pump(2)
    assert plain(screen.lead_text) == "3\u2665 K\u2665 2\u2665 \u00b7 Ben winning" and screen.round_text == "Dan to play"
    screen.on_card("KH")                                  # the camera sees KH again where it lies
    driver.pump(2)
    assert "still lies in the middle" in app.root.notice
    assert screen.round_text == "Dan to play" and screen.session.view().play.plays == 3
    driver.tap(screen.ids.card_pad_button)
    driver.tap(screen.card_pad.ids.cancel)                # Cancel plays nothing
    assert screen.card_pad is None
    assert screen.session.view().play.plays == 3
    screen.session.abandon()
