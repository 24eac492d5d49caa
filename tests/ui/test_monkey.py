"""A monkey at the table: thousands of random taps on every screen, from games of every kind
part-way through. No exception may escape, and after every tap the game on screen must
still be exactly its log in the store, refolded from the start."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from companion.engine import Game
from companion.games import GAMES
from companion.session import Session

from tests.reliability.mutations import good_logs

pytestmark = pytest.mark.ui

TAPS_PER_START = 350
DRAWN_EVERY = 10


def check_invariants(app) -> None:
    screen = app.manager.current_screen
    session = getattr(screen, "session", None)
    if session is None:
        return
    header, actions = app.store.log(session.game_id)
    assert actions == session.game.actions, "the screen's game and the stored log differ"
    refolded = Game.from_actions(header, actions)
    assert refolded.summary() == session.summary(), "the state is not the refold of its log"


def recipe_log(game: str) -> bytes:
    """A game part-way through, from the game's bench recipe (ui/games/<game>/bench.py)."""
    from ui.games import ui_for

    recipe = importlib.import_module(ui_for(game).bench)
    header, actions = recipe.seed_log(recipe.SEED_ACTIONS, 1)
    return "".join(json.dumps(line) + "\n" for line in [header, *actions]).encode()


def starts():
    """Where the monkey starts: home, every registered game part-way through (its bench
    recipe's game), and each hand-written good log's game opened on its screen."""
    yield "home", None
    for game in GAMES:
        yield f"{game} part-way", recipe_log(game)
    for name, data in sorted(good_logs().items()):
        yield name, data


@pytest.mark.parametrize("start,data", list(starts()), ids=[name for name, _ in starts()])
def test_random_taps_never_break_a_game(driver, app, undrawn, start, data):
    from kivy.core.window import Window  # only once the display and Kivy's config are set

    rng = random.Random(start)
    if data is not None:
        game_id = app.store.import_bytes(data)
        session = Session.resume(app.store, game_id)
        app.open_session(session)
    driver.pump(2)
    for tap in range(TAPS_PER_START):
        # What is checked is the game, its log, and that nothing raises. A drawn frame changes
        # none of these (no canvas here runs Python) and costs 10 ms on a software renderer.
        # One tap in DRAWN_EVERY is drawn, so the frame and its save run under random taps too
        # (the undrawn fixture puts the drawing back as it was afterwards).
        driver.draws = "last" if tap % DRAWN_EVERY == DRAWN_EVERY - 1 else "none"
        driver.tap_at(rng.uniform(0, Window.width - 1), rng.uniform(0, Window.height - 1))
        check_invariants(app)
