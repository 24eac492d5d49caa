"""``jack-companion bench --quick --json`` runs end to end and reports every documented figure.

This checks the command's shape and that each figure is a sane number, not how fast anything
is: the figures themselves live in docs/benchmarks.md, taken by a full run.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.games import GAMES

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def sane(stats: dict, low: float, high: float) -> bool:
    return stats["n"] >= 1 and low <= stats["min"] <= stats["median"] <= stats["max"] <= high


def test_quick_bench_prints_every_figure(display):
    done = subprocess.run([sys.executable, "-m", "ui.launcher", "bench", "--quick", "--json", "--runs", "1",
                           "--idle-seconds", "1"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(done.stdout)

    machine = r["machine"]
    for key in ("date", "arch", "cpu", "cores", "python", "kivy", "gl_renderer"):
        assert machine[key], key
    assert r["settings"] == {"runs": 1, "idle_seconds": 1.0, "quick": True, "max_fps": 30}

    measured = r["games_measured"]
    assert set(measured) <= set(GAMES) and "jacks" in measured
    skipped = [g for g in GAMES if g not in measured]
    assert all(any(GAMES[g].title in note for note in r["notes"]) for g in skipped), "a skipped game says why"

    start = r["startup"]
    assert sane(start["bare_ms"], 10, 30_000) and sane(start["home_ms"], 10, 30_000)
    assert start["ratio"] == pytest.approx(start["home_ms"]["median"] / start["bare_ms"]["median"])
    assert set(start["resume"]) == set(measured)
    for entry in start["resume"].values():
        assert sane(entry["adds_ms"], 0, 30_000)
        assert entry["resumed_ms"]["median"] > entry["home_ms"]["median"]

    memory = r["memory"]
    assert sane(memory["bare_mib"], 5, 8192) and sane(memory["all_games_mib"], 5, 8192)
    assert memory["all_games_mib"]["median"] >= memory["home_mib"]["median"] * 0.9
    assert set(memory["after_each_mib"]) == set(measured)

    idle = r["idle"]
    assert set(idle) == {"bare", "home", *measured}
    for entry in idle.values():
        assert 0 <= entry["percent"] <= 100 * (machine["cores"] or 1)
        assert entry["seconds"] >= 0.9

    for game in measured:
        for name in ("action", "undo"):
            figures = r["taps"][game][name]
            assert not figures["errors"], figures["errors"]
            assert sane(figures["ms"], 0.1, 5_000) and figures["frames"]["min"] >= 1

    slap = r["slap"]
    assert "pads_path" in slap and ("app" in slap) == ("slapjack" in measured)
    for entry in slap.values():
        assert entry["no_verdict"] == 0 and entry["races"] >= 1
        assert sane(entry["shown_ms"], entry["window_ms"], 5_000)      # the window is part of it
        assert entry["verdict_ms"]["median"] <= entry["shown_ms"]["median"] <= entry["complete_ms"]["median"]
        assert entry["winner_right"] == entry["races"]

    for delivery in ("independent", "ordered"):
        judge = r["race_judge"][delivery]
        assert judge["races"] >= 100 and 0 <= judge["ranked_right_percent"] <= 100
        assert judge["edge_to_verdict_ms"]["p99"] >= judge["edge_to_verdict_ms"]["median"] > 0

    engines = r["engines"]
    assert set(engines["games"]) == set(GAMES)
    for entry in engines["games"].values():
        assert entry["actions"] >= 50 and entry["push_per_s"]["median"] > 0
        assert sane(entry["refold_ms"], 0.001, 60_000) and sane(entry["load_ms"], 0.001, 60_000)
    if "slapjack" in GAMES:
        assert engines["slapjack_sim"]["median"] > 0

    assert r["targets"] and all(t["met"] in (True, False, None) for t in r["targets"])
    assert {t["target"] for t in r["targets"]} >= {"start to home", "peak memory, every game's screen opened"}
