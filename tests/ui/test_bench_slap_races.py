"""The bench's slap races score each race on its own presses, even when the app hears them late.

A loaded machine now and then holds the app's main thread (or the pads' device thread) for a
few hundred ms. The presses of a race then reach the app after the race's planned end: the
bench must wait for them, not score the race with no verdict and let its presses count in the
next race (the judge-only table joins presses to a race still waiting for its verdict, so the
next race named a winner from the race before). Here the main thread is held busy from just
before a race's first edge until after its planned end (``stalls``), and every race must still
show its verdict with the right winner, in the right order.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def slap_report(child) -> list[dict]:
    return child.expect("slap", timeout=120)["results"]


def assert_all_right(results: list[dict], races: int) -> None:
    assert len(results) == races
    for number, result in enumerate(results):
        assert "error" not in result, (number, result)
        assert result["winner_right"] and result["ranked_right"], (number, result)


def test_a_race_heard_late_is_scored_on_its_own_presses_on_the_slapjack_screen(display):
    from tools.bench.child import Child
    from tools.bench.run import PLAYERS, make_table

    work = Path(tempfile.mkdtemp(prefix="jack-companion-slap-"))
    try:
        table = work / "table"
        make_table(table, {}, history=0)
        child = Child(["-m", "tools.bench.probe", "app", "--data-dir", str(table)], cwd=work)
        try:
            child.expect("settled")
            header = {"game": "slapjack", "players": list(PLAYERS[:4]), "options": {}, "feed": "none"}
            # Race 1 (sound on) and race 2 (sound off) held up, as in the sound comparison.
            child.send(cmd="slap", header=header, races=5, busy_ms=4, redraw=True, alternate="sound", stalls=[1, 2])
            results = slap_report(child)
        finally:
            child.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert_all_right(results, 5)
    assert [r["condition"] for r in results] == ["sound off", "sound on"] * 2 + ["sound off"]
    # The held-up races were scored after the stall (50 ms past their planned end), on their presses.
    assert results[1]["end_late_ms"] >= 50 and results[2]["end_late_ms"] >= 50


def test_a_race_heard_late_is_scored_on_its_own_presses_on_the_pads_path(display):
    import subprocess
    import sys

    from tools.bench.child import same_code_env

    done = subprocess.run([sys.executable, "-m", "tools.bench.probe", "slap", "--races", "4", "--busy-ms", "4",
                           "--stall-race", "1"], capture_output=True, text=True, timeout=120, env=same_code_env())
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("@bench ")]
    report = json.loads(lines[-1][len("@bench "):])
    assert report["event"] == "slap"
    assert_all_right(report["results"], 4)
