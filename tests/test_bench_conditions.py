"""``bench --pi``'s conditions: the SD card's slow commits (a seam only the bench's probe uses)
and the CPU cap through the kernel's cgroup CPU controller, or a plain word on why there is none."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from companion.session import Session
from companion.store import Store
from tools.bench import pi

REPO = Path(__file__).resolve().parent.parent
ROUND = {"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Cat", "JD": "Dan"}}


def timed_plays(store: Store, plays: int = 4) -> float:
    session = Session.start(store, {"game": "jacks", "players": ["Ann", "Ben", "Cat", "Dan"],
                                    "options": {"target": 75}})
    start = time.monotonic()
    for _ in range(plays):
        session.play(ROUND)
    return (time.monotonic() - start) / plays


def test_every_durable_commit_takes_at_least_the_delay_and_is_still_durable(tmp_path):
    store = Store(tmp_path / "slow.sqlite3", min_commit_s=0.03)
    try:
        assert timed_plays(store) >= 0.03
        game_id = store.unfinished().id
    finally:
        store.close()
    reopened = Store(tmp_path / "slow.sqlite3")
    try:
        assert reopened.log(game_id)[1] == [ROUND] * 4   # nothing the slow store wrote was lost
    finally:
        reopened.close()


def test_the_bench_can_change_the_delay_between_races_and_every_commit_stays_durable(tmp_path):
    # bench --pi compares a slow card with a fast one race by race: the delay is the class's.
    store = Store(tmp_path / "slow.sqlite3", min_commit_s=0.05)
    try:
        slow = timed_plays(store, 2)
        type(store.db).seconds = 0.0
        fast = timed_plays(store, 2)
        type(store.db).seconds = 0.05
        again = timed_plays(store, 2)
        ids = [record.id for record in store.games()]
    finally:
        store.close()
    assert slow >= 0.05 and again >= 0.05 and fast < 0.05
    reopened = Store(tmp_path / "slow.sqlite3")
    try:
        assert all(reopened.log(game_id)[1] == [ROUND] * 2 for game_id in ids)
    finally:
        reopened.close()


def test_the_app_store_has_no_delay_and_only_the_bench_asks_for_one(tmp_path):
    store = Store(tmp_path / "app.sqlite3")
    try:
        assert type(store.db) is sqlite3.Connection and store.min_commit_s == 0
    finally:
        store.close()
    askers = [path.relative_to(REPO).as_posix() for folder in ("companion", "hardware", "ui", "tools")
              for path in (REPO / folder).rglob("*.py") if "min_commit_s" in path.read_text(encoding="utf-8")]
    assert sorted(askers) == ["companion/store.py", "tools/bench/engines.py", "tools/bench/probe.py"]


def test_pi_conditions_cap_one_core_or_say_why_not():
    found = pi.conditions(True, None, None)
    try:
        assert found.cpu_share == pi.PI_CPU_SHARE and found.commit_delay_ms == pi.PI_COMMIT_MS
        if found.cgroup is None:
            assert found.how.startswith("not capped (") and len(found.how) > len("not capped ()")
        else:
            quota = round(pi.PI_CPU_SHARE * pi.PERIOD_US)
            if (found.cgroup / "cpu.max").exists():
                assert (found.cgroup / "cpu.max").read_text().split() == [str(quota), str(pi.PERIOD_US)]
            else:
                assert int((found.cgroup / "cpu.cfs_quota_us").read_text()) == quota
                assert int((found.cgroup / "cpu.cfs_period_us").read_text()) == pi.PERIOD_US
        assert found.describe()["cap"] == found.how
    finally:
        group = found.cgroup
        found.close()
    assert group is None or not group.exists()


def test_no_conditions_unless_asked():
    plain = pi.conditions(False, None, None)
    assert not plain.active and plain.preexec() is None and plain.cgroup is None
    only_card = pi.conditions(False, None, 5)
    assert only_card.active and only_card.cgroup is None and only_card.commit_delay_ms == 5


def test_a_bench_child_runs_the_code_of_the_tree_the_bench_came_from(tmp_path):
    """A child starts in a folder of its own; it must import the app of the tree the bench runs
    from, not whichever copy is installed, or two checkouts measured in turn would both measure
    the installed one. Here the bench runs from a copy of this tree, beside the installed app."""
    import shutil
    import subprocess
    import sys

    copy = tmp_path / "checkout"
    for package in ("companion", "hardware", "ui", "tools"):
        shutil.copytree(REPO / package, copy / package, ignore=shutil.ignore_patterns("__pycache__", "*.onnx", "*.npz"))
    (tmp_path / "elsewhere").mkdir()
    asks = ("import json, ui; print('@bench ' + json.dumps({'event': 'where', 'file': ui.__file__}))")
    bench = ("import sys; from pathlib import Path; from tools.bench.child import Child\n"
             f"child = Child(['-c', {asks!r}], cwd=Path({str(tmp_path / 'elsewhere')!r}))\n"
             "print(child.expect('where', timeout=60)['file']); child.close()")
    done = subprocess.run([sys.executable, "-c", bench], cwd=copy, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert Path(done.stdout.strip()).resolve().parent.parent == copy.resolve()


def test_under_pi_the_engines_targets_are_shown_as_this_machine_s_and_not_judged():
    """One-Eyed Jack's engine targets are for this machine, uncapped: under --pi the
    report gives the figure and the target it stands beside, and judges neither."""
    from tools.bench.report import targets

    engines = {"games": {"one-eyed-jack": {"actions": 147, "push_per_s": {"median": 19_000.0},
                                           "refold_ms": {"median": 5.6, "p99": 11.8}}}}
    plain = {t["target"]: t for t in targets({"settings": {}, "engines": engines})}
    capped = {t["target"]: t for t in targets({"settings": {"pi": {}}, "engines": engines})}
    for name in ("one-eyed-jack Game.push", "refold 147 actions, one-eyed-jack"):
        assert plain[name]["met"] is False
        assert capped[name]["met"] is None and capped[name]["wanted"].startswith("none under --pi (this machine: ")
