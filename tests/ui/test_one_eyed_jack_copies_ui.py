"""One-Eyed Jack: a card both of whose copies are already played is never offered as a play
(docs/rules.md, "One-Eyed Jack": two decks, every card twice), e.g. an old discard the camera
sees again; the screen says why."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_the_camera_seeing_a_card_whose_copies_are_both_played_offers_nothing(driver, app):
    from companion.session import Session

    session = Session.start(app.store, {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
    session.play({"type": "play", "card": "JC", "at": [4, 4]})
    session.play({"type": "play", "card": "JC", "at": [4, 5]})
    screen = app.open_session(session)
    driver.pump(2)
    screen.camera_take("JC")
    assert screen.card == "" and screen.board.highlighted == []
    assert "both copies of JC" in app.root.notice
    screen.camera_take("JD")                      # a card still in someone's hand is chosen
    assert screen.card == "JD" and screen.board.highlighted
    session.abandon()
