"""A slap race's timer stores its verdict with the commit held to the next frame
(``CompanionApp.hold_writes``): the commit starts at once, the frame that shows it goes on
screen only once it is durable, and if the commit fails that frame is never shown and the game
is shown as it was saved."""

from __future__ import annotations

import time

from tests.ui.conftest import slow_commits, stored

ROUND = {"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Cat", "JD": "Dan"}}
HEADER = {"game": "jacks", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"target": 75}}


def test_the_frame_showing_a_held_action_is_swapped_only_once_it_is_durable(driver, app, monkeypatch):
    from kivy.core.window import Window

    from companion.session import Session

    screen = app.open_session(Session.start(app.store, HEADER))
    driver.pump(2)
    session = screen.session
    at_swap = []
    real = Window.flip.swap
    monkeypatch.setattr(Window.flip, "swap", lambda: (at_swap.append(stored(app, session.game_id)), real()))
    slow_commits(app, monkeypatch)

    def play():
        session.play(ROUND)
        screen.refresh()      # the screen shows the round: the next frame has it

    app.hold_writes(play)()
    assert app.store.committing, "the commit started as the round was stored, before any frame"
    assert stored(app, session.game_id) == 0, "and it is not durable yet (the card is slow)"
    Window.canvas.ask_update()
    driver.pump(1)
    assert at_swap and at_swap[0] == 1, "the first frame after the round went on screen with it stored"
    assert not app.store.held


def test_held_writes_are_committed_even_when_no_frame_is_drawn(driver, app, undrawn):
    from companion.session import Session

    session = Session.start(app.store, HEADER)
    app.hold_writes(lambda: session.play(ROUND))()     # nothing on screen changes: no frame comes
    ends = time.monotonic() + app.AFTER_FRAME_AT_MOST_S + 0.05
    while time.monotonic() < ends:
        driver.pump(1)
    assert not app.store.held and not app.store.committing and stored(app, session.game_id) == 1


def test_a_failed_held_commit_is_never_shown_and_the_game_is_shown_as_saved(driver, app, monkeypatch):
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.session import Session
    from companion.store import StoreError

    screen = app.open_session(Session.start(app.store, HEADER))
    driver.pump(2)
    game_id = screen.session.game_id
    drawn, shown = [], []   # at each swap: the actions of the game the frame drew, and those stored

    def draw(*_):
        drawn.append(len(app.manager.current_screen.session.game.actions))

    def swap():
        shown.append((drawn[-1], stored(app, game_id)))
        real()

    real = Window.flip.swap
    monkeypatch.setattr(Window.flip, "swap", swap)
    Window.bind(on_draw=draw)
    store = app.store

    def failing(self, *args):
        self._db.execute("ROLLBACK")
        raise StoreError("the last moves could not be saved (disk I/O error)")

    monkeypatch.setattr(type(store), "_commit", failing)

    def play():
        screen.session.play(ROUND)
        screen.refresh()

    schedule_before_frame(app.hold_writes(play))      # from a timer, as a race's window closes
    EventLoop.idle()      # one pass of the app's loop: the timer, then the frame that would show it
    assert drawn == [1], "the frame was drawn with the round"
    driver.pump(4)
    Window.unbind(on_draw=draw)
    assert shown and all(on_screen == kept for on_screen, kept in shown), shown
    current = app.manager.current_screen
    assert current.session.game_id == game_id and current.session.game.actions == [], "the game as it was saved"
    assert "could not be saved" in app.root.notice and app.root.notice_kind == "error"


def schedule_before_frame(fn):
    from kivy.clock import Clock

    Clock.schedule_once(lambda dt: fn(), -1)

