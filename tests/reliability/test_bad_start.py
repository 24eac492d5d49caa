"""A broken config file or a damaged store never stops the app: it starts, on the home
screen, and says what was wrong (the config's line; the store's kept copy). And a start with an
unfinished game is ready to resume it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .killing import REPO, _env

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def start(folder) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.reliability.scripted_app", "start", str(folder)],
                          capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_broken_config_is_reported_with_its_line_and_the_app_starts(tmp_path, display):
    (tmp_path / "config.toml").write_text('[display]\nfour_colour = true\n\n[jacks]\ntarget = "seventy"\n')
    shown = start(tmp_path)
    assert shown["screen"] == "home" and shown["tiles"] == 4
    assert "config.toml line 5" in shown["notice"] and "target" in shown["notice"]
    assert shown["notice_kind"] == "error"


def test_unreadable_config_uses_defaults_and_says_where(tmp_path, display):
    (tmp_path / "config.toml").write_text("[display\nsize = 800x480\n")
    shown = start(tmp_path)
    assert shown["screen"] == "home"
    assert "line 1" in shown["notice"] and "defaults" in shown["notice"]


def test_damaged_store_is_kept_aside_and_the_app_starts_empty(tmp_path, display):
    (tmp_path / "companion.sqlite3").write_bytes(b"this is not a database" * 100)
    shown = start(tmp_path)
    assert shown["screen"] == "home"
    assert "could not be read" in shown["notice"] and "companion.damaged-" in shown["notice"]
    kept = list(tmp_path.glob("companion.damaged-*.sqlite3"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not a database")


def test_the_unfinished_game_home_offers_has_its_screen_read_at_start(tmp_path, display):
    """Resume is the likeliest first tap: the app reads that game's screen code while it starts,
    so the tap only builds the screen; with nothing to resume, no game screen is read."""
    from companion import paths
    from companion.session import Session
    from companion.store import Store

    assert "ui.games.slapjack.screen" not in start(tmp_path / "empty")["screen_modules"]

    store = Store(paths.store_path(tmp_path / "left"))
    try:
        Session.start(store, {"game": "slapjack", "players": ["Ann", "Ben"], "options": {}, "feed": "none"}) \
            .play({"type": "race", "slaps": [{"player": "Ann", "t": 1.0}]})
    finally:
        store.close()
    shown = start(tmp_path / "left")
    assert shown["screen"] == "home"
    assert "ui.games.slapjack.screen" in shown["screen_modules"]
    assert not any("jack_change_it" in m or "one_eyed" in m for m in shown["screen_modules"])
