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
    assert screen.pass_text == "Cat to play \u00b7 trick 2"
    assert plain(screen.lead_text) == "3\u2660 K\u2660 \u00b7 Ben winning"

    driver.tap(screen.ids.undo_button)                  # Undo takes the last play back
    assert plain(screen.lead_text) == "3\u2660 \u00b7 Ann winning" and screen.pass_text.startswith("Ben to play")

    for card in cards[5:]:
        session.play({"type": "play", "card": card})
    screen.refresh()
    driver.pump(2)
    assert screen.pass_text == "All four Jacks are taken"
    assert dict(screen.assignment) == jacks             # the takers are filled in
    driver.tap(screen.ids.record_button)
    assert session.summary()["rounds"][0] == {"Ann": 7, "Ben": 0, "Cat": 7, "Dan": 7}
    assert screen.round_text == "Round 2" and "play" not in session.summary()
