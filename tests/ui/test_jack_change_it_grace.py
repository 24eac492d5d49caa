"""Jack Change It from the camera without a tap: a card the camera is sure of is the current
player's play once a short grace is over (about 1.5 s), unless the table taps "Not it". A Jack
still asks its suit and A♥ whether 2♥ went with it (docs/rules.md, "Jack Change It").
The grace runs on a fake clock, in the table controller (its own tests are in
companion/games/jack_change_it/tests/test_table.py): here, what the screen draws of it."""

from __future__ import annotations

import pytest

from tests.fake_clock import FakeClock

pytestmark = pytest.mark.ui

HEADER = {"game": "jack-change-it", "players": ["Ann", "Ben"], "start": "7H"}


@pytest.fixture
def screen(driver, app):
    from companion.session import Session

    session = Session.start(app.store, HEADER)
    screen = app.open_session(session)
    driver.pump(2)
    clock = FakeClock()
    screen.use_clock(clock.now, clock.schedule)
    screen.clock_for_test = clock
    yield screen
    screen.table.close()
    screen.put_seen_away()
    session.abandon()


def later(screen, seconds):
    clock = screen.clock_for_test
    clock.run_until(clock.now() + seconds)


def test_a_sure_card_is_the_players_play_after_the_grace(driver, screen):
    """7♣ on 7♥ matches by rank: after the grace it is Ann's play, with no tap. The offer counts
    the grace down in whole seconds."""
    screen.on_card("7C")
    assert screen.seen_bar.question.text == "Ann plays 7\u2663 in 2s"
    later(screen, 0.5)
    assert screen.seen_bar.question.text == "Ann plays 7\u2663 in 1s"
    later(screen, 0.9)
    assert screen.session.game.actions == [], "the grace is not over: Not it can still stop it"
    later(screen, 0.1)
    assert screen.session.game.actions == [{"type": "play", "cards": ["7C"]}] and screen.seen_bar is None


def test_not_it_stops_the_card(driver, screen):
    screen.on_card("7C")
    driver.tap(screen.seen_bar.buttons[""])
    later(screen, 5)
    assert screen.session.game.actions == [] and screen.seen_bar is None


def test_a_jack_after_the_grace_still_asks_its_suit(driver, screen):
    """"J: the player names a suit other than the suit now in play." J♥ matches 7♥ by suit."""
    screen.on_card("JH")
    later(screen, 1.5)
    assert sorted(screen.chooser_buttons) == ["C", "D", "S"]
    assert screen.session.game.actions == []


def test_the_ace_of_hearts_after_the_grace_asks_whether_the_two_went_with_it(driver, screen):
    """"AH together with 2H in one play makes it 7.\""""
    screen.on_card("AH")
    later(screen, 1.5)
    assert "AH 2H" in screen.chooser_buttons and screen.session.game.actions == []


def test_an_unsure_card_waits_for_the_tap(driver, screen):
    screen.on_unsure(["9H", "9D"])
    later(screen, 5)
    assert screen.session.game.actions == [] and screen.seen_bar is not None
