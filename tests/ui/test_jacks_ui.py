"""A whole Jacks game tapped through the real window, scores read off the widgets.

The expected totals are worked out by hand from docs/rules.md (Jacks: JS 7, JH 7, JC 4, JD 3;
all four to one player: 0 for them, 21 for each other; one each: 7 each).
"""

from __future__ import annotations

import time
import weakref

import pytest

from tests.ui.conftest import find, visible, tap_text

pytestmark = pytest.mark.ui

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
# A scroll view shows its bar for 0.5 s after it last moved, then fades it over 0.5 s (Kivy 2.3).
SCROLL_BAR_FADE_S = 1.0


def totals(screen) -> dict:
    return {name: tile.total for name, tile in screen.tiles.items()}


def record_round(driver, screen, jacks: dict):
    for jack, name in jacks.items():
        driver.tap(screen.choice_buttons[(jack, name)])
    driver.tap(screen.ids.record_button)


def add_players(driver, app, names):
    players = app.show("players")
    driver.pump(2)
    for name in names:
        players.ids.new_name.text = name
        driver.tap(players.ids.add_button)
    return players


def test_one_tap_is_one_press(driver, app):
    """A tap reaches the app once: the target goes up by one step, not two."""
    from kivy.config import Config

    assert len(Config.options("input")) == 1, "exactly one input provider per touch"
    settings = app.show("settings")
    driver.pump(2)
    before = settings.target
    presses = []
    settings.ids.target_up.bind(on_release=lambda *_: presses.append(1))
    driver.tap(settings.ids.target_up)
    assert presses == [1]
    assert settings.target == before + 5
    driver.tap(settings.ids.target_down)
    assert settings.target == before


def test_whole_jacks_game_by_touch(driver, app):
    add_players(driver, app, PLAYERS)
    names_on_roster = [p.name for p in app.store.players()]
    assert names_on_roster[:4] == PLAYERS

    app.show("home")
    driver.pump(2)
    tap_text(driver, "[size=30sp]Jacks[/size]\nTricks where only the Jacks score")
    setup = app.manager.current_screen
    assert setup.name == "jacks-setup"
    for seat, name in reversed(list(enumerate(setup.chosen, start=1))):   # the last table is offered: seat afresh
        tap_text(driver, f"{seat}. {name}", setup)
    for name in PLAYERS:
        tap_text(driver, name, setup)
    # Play to 40 so the game ends within a few rounds: "-5" (or "+5") from the target offered,
    # which is the one Settings keeps (another test may have changed it).
    for _ in range(100):
        if setup.target == 40:
            break
        driver.tap(setup.ids.target_down if setup.target > 40 else setup.ids.target_up)
    assert setup.ids.target_label.text == "40"
    assert setup.ids.start_button.text == "Start"
    driver.tap(setup.ids.start_button)

    screen = app.manager.current_screen
    assert screen.name == "jacks"
    assert screen.ids.round_label.text == "Round 1"
    assert screen.ids.pass_label.text.startswith("Pass 3 cards left")

    # Refused: only two Jacks given. The reason is on screen and nothing is recorded.
    driver.tap(screen.choice_buttons[("JS", "Ann")])
    driver.tap(screen.choice_buttons[("JH", "Ben")])
    assert screen.ids.preview.text == "Tap who took each Jack (2 of 4 given)."
    driver.tap(screen.ids.record_button)
    assert "first" in app.root.notice and app.root.notice_kind == "error"
    assert totals(screen) == {"Ann": 0, "Ben": 0, "Cat": 0, "Dan": 0}

    # Round 1: one Jack each -> 7 each. The points show before they count.
    driver.tap(screen.choice_buttons[("JC", "Cat")])
    driver.tap(screen.choice_buttons[("JD", "Dan")])
    assert screen.ids.preview.text == "One Jack each: 7 points for everybody."
    driver.tap(screen.ids.record_button)
    assert totals(screen) == {"Ann": 7, "Ben": 7, "Cat": 7, "Dan": 7}
    assert screen.ids.round_label.text == "Round 2"
    assert screen.ids.pass_label.text.startswith("Pass 3 cards right")

    # Round 2: Ann JS+JC (11), Ben JH (7), Dan JD (3).
    record_round(driver, screen, {"JS": "Ann", "JC": "Ann", "JH": "Ben", "JD": "Dan"})
    assert totals(screen) == {"Ann": 18, "Ben": 14, "Cat": 7, "Dan": 10}

    # A wrong round, undone in one tap: totals go back and the taps come back to fix.
    record_round(driver, screen, {"JS": "Cat", "JH": "Cat", "JC": "Cat", "JD": "Dan"})
    assert totals(screen) == {"Ann": 18, "Ben": 14, "Cat": 25, "Dan": 13}
    driver.tap(screen.ids.undo_button)
    assert totals(screen) == {"Ann": 18, "Ben": 14, "Cat": 7, "Dan": 10}
    assert len(app.store.log(screen.session.game_id)[1]) == 2, "undo removes the round from the store too"

    # Round 3 (pass across): the moon -- Cat takes all four: 0 for Cat, 21 for the others.
    assert screen.ids.pass_label.text.startswith("Pass 3 cards across")
    driver.tap(screen.choice_buttons[("JD", "Dan")])  # take back the restored tap on JD
    driver.tap(screen.choice_buttons[("JD", "Cat")])
    assert "Cat took all four Jacks" in screen.ids.preview.text
    driver.tap(screen.ids.record_button)
    assert totals(screen) == {"Ann": 39, "Ben": 35, "Cat": 7, "Dan": 31}
    assert screen.ids.pass_label.text == "No passing this round"

    # Edit round 1 through the Rounds list: Ann took JS too (Ann 14, Ben 7, Cat 0... JS 7 + JH 7).
    driver.tap(screen.ids.history_button)
    from kivy.core.window import Window
    edit_buttons = [w for w in find(Window, text="Edit") if visible(w)]
    assert len(edit_buttons) == 3
    driver.tap(edit_buttons[0])
    assert screen.ids.round_label.text == "Correcting round 1"
    driver.tap(screen.choice_buttons[("JH", "Ann")])  # round 1 now: Ann JS+JH, Cat JC, Dan JD
    driver.tap(screen.ids.record_button)
    # Round 1 is 14/0/4/3 now; rounds 2 and 3 unchanged.
    assert totals(screen) == {"Ann": 46, "Ben": 28, "Cat": 4, "Dan": 27}
    # 46 >= 40 would have ended the game after round 3 anyway: it is the last round, so it ends now.
    assert screen.finished
    assert screen.ids.round_label.text == "Cat wins with 4!"
    assert screen.ids.record_button.text == "New game"

    record = app.store.record(screen.session.game_id)
    assert record.status == "finished" and record.result["winners"] == ["Cat"]

    app.show("history")
    driver.pump(2)
    rows = [w.text for w in app.manager.current_screen.ids.rows.children]
    assert any("Jacks: Ann, Ben, Cat, Dan" in text and "won by Cat" in text for text in rows)


def test_resume_offers_the_unfinished_game(driver, app):
    from companion.session import Session

    if len(app.store.players()) < 4:
        add_players(driver, app, PLAYERS)
    session = Session.start(app.store, {"game": "jacks", "players": PLAYERS, "options": {"target": 75}})
    session.play({"type": "round", "jacks": {"JS": "Ben", "JH": "Ben", "JC": "Ben", "JD": "Ben"}})
    home = app.show("home")
    driver.pump(2)
    assert "Unfinished Jacks with Ann, Ben, Cat, Dan" in home.resume_text
    driver.tap(home.ids.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "jacks" and screen.session.game_id == session.game_id
    assert totals(screen) == {"Ann": 21, "Ben": 0, "Cat": 21, "Dan": 21}
    assert screen.ids.round_label.text == "Round 2"


def test_both_screen_sizes_show_the_round_and_all_totals(driver, app):
    from companion.session import Session

    session = Session.start(app.store, {"game": "jacks", "players": PLAYERS, "options": {"target": 75}})
    for width, height in ((800, 480), (720, 1280)):
        driver.resize(width, height)
        screen = app.open_session(session)
        driver.pump(3)
        for widget in [screen.ids.round_label, screen.ids.record_button, screen.ids.undo_button,
                       *screen.tiles.values(), *screen.choice_buttons.values()]:
            x, y = widget.to_window(*widget.pos)
            assert x >= 0 and y >= 0 and x + widget.width <= width + 1 and y + widget.height <= height + 1, widget
        assert min(b.height for b in screen.choice_buttons.values()) >= 48
        assert screen.ids.record_button.height >= 64


def test_the_screen_stays_lit_while_a_game_is_open(driver, app):
    from kivy.core.window import Window

    from companion.session import Session

    session = Session.start(app.store, {"game": "jacks", "players": PLAYERS, "options": {"target": 75}})
    app.open_session(session)
    assert Window.allow_screensaver is False
    app.show("home")
    assert Window.allow_screensaver is True


def test_a_game_left_for_another_is_dropped_and_comes_back_as_it_was(driver, app):
    """Screens are built on first use; once the table moves to another game the one it left
    is dropped (its memory freed), and resuming it builds it again from the store."""
    from kivy.config import Config

    from companion.session import Session

    if len(app.store.players()) < 4:
        add_players(driver, app, PLAYERS)
    session = Session.start(app.store, {"game": "jacks", "players": PLAYERS, "options": {"target": 75}})
    session.play({"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Cat", "JD": "Dan"}})
    jacks = app.open_session(session)
    driver.pump(2)
    driver.tap(jacks.ids.chart_button)   # a screen that was touched is freed too
    driver.tap(jacks.ids.chart_button)
    left = weakref.ref(jacks)
    del jacks
    app.show("home")
    driver.pump(2)
    assert app.manager.has_screen("jacks"), "home and back to the same game keeps its screen"

    # Kivy's double- and triple-tap detectors keep the last taps, and the widgets they touched,
    # for 375 ms of real time; the chart's scroll bar shows for 0.5 s after its last move, then
    # fades for 0.5 s, its animation holding the view and so the screen (kivy/uix/scrollview.py):
    # a player's hand takes longer than both to reach the next game.
    ends = time.monotonic() + max(Config.getint("postproc", "triple_tap_time") / 1000, SCROLL_BAR_FADE_S) + 0.1
    while time.monotonic() < ends:     # the loop left alone at the table's 30 frames a second
        time.sleep(1 / 30)
        driver.pump(1)
    app.new_game("jack-change-it")
    driver.pump(2)
    assert not app.manager.has_screen("jacks") and not app.manager.has_screen("jacks-setup")
    assert left() is None, "the dropped screen is still held, its memory not freed"

    home = app.show("home")
    driver.pump(2)
    assert "Unfinished Jacks with Ann, Ben, Cat, Dan" in home.resume_text
    driver.tap(home.ids.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "jacks"
    assert totals(screen) == {"Ann": 7, "Ben": 7, "Cat": 7, "Dan": 7}   # docs/rules.md, Jacks: one Jack each, 7 each
    assert screen.ids.round_label.text == "Round 2"
