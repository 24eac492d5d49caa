"""A real Kivy window for the UI tests (on the display that tests/conftest.py provides)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def driver(display):
    """The app, built once for the session (Kivy has one window per process)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-ui-"))
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")   # the sounds play to no speaker
    from ui.launcher import prepare_kivy

    prepare_kivy(folder, "800x480", max_fps=0)
    from companion import config as settings
    from ui.app import CompanionApp
    from ui.tools.driver import AppDriver

    app = CompanionApp(data_dir=folder, config=settings.defaults())
    drv = AppDriver(app)
    drv.draws = "last"   # each step's last frame drawn, the others run undrawn (see AppDriver)
    drv.data_dir = folder
    yield drv
    drv.close()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def undrawn(driver):
    """No frame drawn, for tests that check the layout or where touches land and read no pixel
    (a label's text is measured when it is laid out; drawing it adds nothing they look at)."""
    before, driver.draws = driver.draws, "none"
    yield
    driver.draws = before


@pytest.fixture
def players_leave(app, driver):
    """The players a test adds leave the roster afterwards: other tests count on a small one,
    and a set-up offers the last table played only while its players are still on the roster."""
    before = {player.id for player in app.store.players()}
    yield
    app.show("home")
    driver.pump(3)  # the way home finished before the next test (or the app's close) begins
    for player in app.store.players():
        if player.id not in before:
            app.store.remove_player(player.id)


@pytest.fixture
def app(driver):
    """Each test starts on the home screen at 800x480 with no modal open."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss(animation=False)
    driver.resize(800, 480)
    driver.app.clear_notice()
    driver.app.show("home")
    driver.pump(3)
    return driver.app


def find(root, cls=None, text=None):
    """Every widget under ``root`` (a widget, or the window) of class ``cls`` whose text is ``text``."""
    found = []
    tops = [root] if hasattr(root, "walk") else list(root.children)
    for widget in (w for top in tops for w in top.walk(restrict=True)):
        if cls is not None and not isinstance(widget, cls):
            continue
        if text is not None and getattr(widget, "text", None) != text:
            continue
        found.append(widget)
    return found


def visible(widget) -> bool:
    """On screen as a player sees it: inside the window, not hidden, not greyed out."""
    from kivy.core.window import Window

    x, y = widget.to_window(*widget.center)
    w = widget
    while w is not None and w is not w.parent:
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent
    return 0 <= x <= Window.width and 0 <= y <= Window.height and not widget.disabled


def tap_text(driver, text, root=None):
    """Tap the first widget on screen that says ``text`` (failing if none does)."""
    from kivy.core.window import Window

    matches = [w for w in find(root or Window, text=text) if visible(w)]
    assert matches, f"nothing on screen says {text!r}"
    driver.tap(matches[0])
    return matches[0]


def ensure_players(driver, app, names):
    """Put ``names`` on the roster through the Players screen (other tests may have already)."""
    present = {p.name for p in app.store.players()}
    players = app.show("players")
    driver.pump(2)
    for name in names:
        if name not in present:
            players.ids.new_name.text = name
            driver.tap(players.ids.add_button)
    assert {p.name for p in app.store.players()} >= set(names)


def stacked_deck(stacks: list[list[str]]) -> list[str]:
    """The deal that gives each player the stack listed (top card first; the rest of the deck
    fills in below). Cards go round one at a time, so a player's last card dealt is their top."""
    from companion.cards import full_deck

    players = len(stacks)
    order = [None] * 52
    for seat, stack in enumerate(stacks):
        dealt = len(range(seat, 52, players))
        for depth, card in enumerate(stack):
            order[seat + players * (dealt - 1 - depth)] = card
    listed = {card for stack in stacks for card in stack}
    rest = iter(c for c in (str(c) for c in full_deck()) if c not in listed)
    return [c if c is not None else next(rest) for c in order]


def stored(app, game_id) -> int:
    """How many actions of the game another process would find (a fresh connection: what
    survives a kill)."""
    import sqlite3

    other = sqlite3.connect(app.store.path)
    try:
        return other.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
    finally:
        other.close()


def slow_commits(app, monkeypatch, seconds: float = 0.2) -> list[str]:
    """Every commit of the app's store waits ``seconds`` before it is made, as a slow card
    would; returns the names of the threads the commits ran on, as they run."""
    import threading
    import time

    store_class = type(app.store)
    commit = store_class._commit
    threads: list[str] = []

    def slow(self, *args):
        threads.append(threading.current_thread().name)
        time.sleep(seconds)
        commit(self, *args)

    monkeypatch.setattr(store_class, "_commit", slow)
    return threads
