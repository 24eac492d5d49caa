"""``python -m tools.bench.redraw``: what a full frame costs to draw on each screen of the real
app, and on a bare window for scale. This checks that it draws every screen and reports each; how
fast they are comes from running it (docs/benchmarks.md)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.games import GAMES
from tools.bench.child import same_code_env

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def test_every_screen_is_drawn_and_reported(display):
    done = subprocess.run([sys.executable, "-m", "tools.bench.redraw", "--frames", "3", "--json"],
                          capture_output=True, text=True, timeout=300, env=same_code_env())
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["renderer"]
    assert set(report["screens"]) == {"home", *GAMES, "bare window, one label"}
    for entry in report["screens"].values():
        assert entry["frames"] == 3 and entry["median_ms"] > 0 and entry["cpu_ms"] >= 0


def test_too_few_frames_is_named_and_nothing_runs(display):
    done = subprocess.run([sys.executable, "-m", "tools.bench.redraw", "--frames", "0"], capture_output=True,
                          text=True, timeout=120, env=same_code_env())
    assert done.returncode == 2 and "redraw --frames: 0 frames is too few" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
