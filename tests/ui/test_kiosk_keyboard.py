"""Names typed by touch alone on the kiosk (issue: "nothing needs a keyboard"): with the
kiosk's input settings, tapping the name field shows Kivy's on-screen keyboard, its keys type
the name, Add adds the player, and the field keeps its focus for the next name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui
ROOT = Path(__file__).resolve().parents[2]


def test_names_are_typed_on_the_on_screen_keyboard_and_added(display, tmp_path):
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.ui.kiosk_names", str(tmp_path), "Ann", "Ben"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines, done.stdout + done.stderr
    report = json.loads(lines[-1])
    assert report["keyboard_mode"] == "systemanddock"
    assert report["keyboards"] == [1, 1], "the docked keyboard shows for each name"
    assert report["typed"] == ["Ann", "Ben"]
    assert report["rosters"] == [["Ann"], ["Ann", "Ben"]]
    assert report["focus"] == [True, True], "after Add the field keeps its focus"
