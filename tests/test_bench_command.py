"""``python -m tools.bench --quick --json`` runs end to end and reports every documented figure.

This checks the command's shape, that each figure is consistent with how it is taken (a verdict
is never shown before its window closes, a resumed game's frame comes after home's), and that
each target's verdict is the one its figure gives; not how fast anything is: the figures
themselves live in docs/benchmarks.md, taken by a full run.

The quick bench runs in three groups of parts (``--only``), each a test of its own, so that
they run side by side: the app's parts, the rules' parts, the camera. Together they are every
part the bench has.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import GAMES
from tools.bench.child import same_code_env
from tools.bench.report import table, targets
from tools.bench.run import PARTS

pytestmark = [pytest.mark.ui, pytest.mark.slow]

REPO = Path(__file__).resolve().parent.parent


def ordered(stats: dict, n: int | None = None, low: float = 0) -> bool:
    """A sample's figures in order (min <= median <= p99 <= max), above ``low``, of ``n`` values."""
    return ((n is None and stats["n"] >= 1) or stats["n"] == n) and \
        low <= stats["min"] <= stats["median"] <= stats["p99"] <= stats["max"]


FRAME_MS = 1000 / 30   # the synthetic videos' frame

# Races a path (--quick has ten): this checks the figures' shape and consistency, race by race;
# how fast the verdict is comes from full runs (docs/benchmarks.md).
RACES = 4

# The groups the tests below run; each part's figures are checked in its group's test.
APP_PARTS = ("startup", "memory", "idle", "slap")
RULES_PARTS = ("judge", "engines")
CAMERA_PARTS = ("camera",)
# The step each part's time is reported under (results["seconds"]).
STEPS = {"startup": "startup", "memory": "memory", "idle": "idle_and_taps", "slap": "slap", "judge": "race_judge",
         "engines": "engines", "camera": "camera"}


def test_the_groups_are_every_part_of_the_bench():
    assert sorted(APP_PARTS + RULES_PARTS + CAMERA_PARTS) == sorted(PARTS) == sorted(STEPS)


def quick_bench(parts: tuple[str, ...]) -> dict:
    """``python -m tools.bench --quick --json`` on these parts; its figures, the run's own checked."""
    done = subprocess.run([sys.executable, "-m", "tools.bench", "--quick", "--json", "--runs", "1",
                           "--idle-seconds", "1", "--races", str(RACES), "--only", ",".join(parts)],
                          capture_output=True, text=True, timeout=600, env=same_code_env())
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(done.stdout)

    machine = r["machine"]
    for key in ("date", "arch", "cpu", "cores", "python", "kivy", "gl_renderer"):
        assert machine[key], key
    assert r["settings"] == {"runs": 1, "idle_seconds": 1.0, "quick": True, "races": RACES, "max_fps": 30,
                             "only": list(parts)}

    measured = r["games_measured"]
    assert set(measured) <= set(GAMES) and "jacks" in measured
    skipped = [g for g in GAMES if g not in measured]
    assert all(any(GAMES[g].title in note for note in r["notes"]) for g in skipped), "a skipped game says why"
    assert not [note for note in r["notes"] if ": failed: " in note], r["notes"]
    assert set(r["seconds"]) == {"prepare", *(STEPS[part] for part in parts), "whole run"}
    return r


def test_quick_bench_prints_every_figure_of_the_app(display):
    r = quick_bench(APP_PARTS)
    machine, measured = r["machine"], r["games_measured"]

    start = r["startup"]
    assert ordered(start["bare_ms"], 1, low=1) and ordered(start["home_ms"], 1, low=1)
    assert start["ratio"] == pytest.approx(start["home_ms"]["median"] / start["bare_ms"]["median"])
    assert set(start["resume"]) == set(measured)
    for entry in start["resume"].values():
        assert ordered(entry["adds_ms"], 1, low=0)
        assert entry["resumed_ms"]["median"] > entry["home_ms"]["median"]
        assert entry["adds_ms"]["median"] == pytest.approx(entry["resumed_ms"]["median"] - entry["home_ms"]["median"],
                                                           abs=1)

    memory = r["memory"]
    assert ordered(memory["bare_mib"], 1, low=1) and ordered(memory["all_games_mib"], 1, low=1)
    assert memory["ratio"] == pytest.approx(memory["all_games_mib"]["median"] / memory["bare_mib"]["median"])
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
            assert ordered(figures["ms"], 1, low=0.1) and figures["frames"]["min"] >= 1

    slap = r["slap"]
    assert "pads_path" in slap and ("app" in slap) == ("slapjack" in measured)
    for entry in slap.values():
        assert entry["no_verdict"] == 0 and entry["races"] == RACES * (2 if "by_condition" in entry else 1)
        assert ordered(entry["shown_ms"], entry["races"], low=entry["window_ms"])   # never before the window closes
        assert entry["verdict_ms"]["median"] <= entry["shown_ms"]["median"] <= entry["complete_ms"]["median"]
        assert entry["winner_right"] == entry["races"]
        # The bench's own read of each verdict's frame is timed and taken out, and only that:
        # the frame still comes after the window closes and after the verdict was decided.
        assert 0 < entry["read_ms"]["median"] < entry["shown_ms"]["median"]
        assert ordered(entry["shown_less_read_ms"], entry["races"], low=entry["window_ms"])
        assert entry["verdict_ms"]["median"] <= entry["shown_less_read_ms"]["median"] <= entry["shown_ms"]["median"]
        # Python's collections while the races ran, by generation: a generation has a longest
        # collection exactly when it had any.
        seen = entry["collections"]
        assert len(seen["count"]) == len(seen["longest_ms"]) == 3
        assert all((n > 0) == (ms > 0) for n, ms in zip(seen["count"], seen["longest_ms"])), seen
        assert entry["swap_wait_ms"]["n"] == (entry["races"] if entry["path"].startswith("the Slapjack screen") else 0)

    # The sound off and on, race about in one run (a sound never delays a verdict).
    if "slapjack" in measured:
        sound = slap["app_sound"]
        assert list(sound["by_condition"]) == ["sound off", "sound on"]
        assert sound["by_condition"]["sound off"]["races"] == sound["by_condition"]["sound on"]["races"] == slap["app"]["races"]
        assert sound["sound_loaded"] and sound["sounds_played"] >= 1, "the sound-on races really played a sound"
        assert "app_commits" not in slap, "commits compared only when they are slowed (--commit-delay-ms)"

    # Each verdict is the one its figure gives.
    verdicts = {t["target"]: t["met"] for t in r["targets"]}
    assert verdicts["start to home"] is (start["ratio"] <= 1.5)
    assert verdicts["peak memory, every game's screen opened"] is (memory["ratio"] <= 1.5)
    for game in measured:
        assert verdicts[f"resume {game} adds"] is (start["resume"][game]["adds_ms"]["median"] < 300)
        assert verdicts[f"idle on {game}"] is (idle[game]["percent"] < 2)
    assert verdicts["slap verdict, first edge to the frame (pads path, one label)"] is \
        (slap["pads_path"]["shown_less_read_ms"]["p99"] <= 25)
    if "slapjack" in measured:
        assert verdicts["slap verdict, first edge to the frame (Slapjack screen)"] is \
            (slap["app"]["shown_less_read_ms"]["p99"] <= 40)
        by = slap["app_sound"]["by_condition"]
        assert verdicts["slap verdict with the sound on vs off (Slapjack screen, turn about)"] is \
            (by["sound on"]["shown_less_read_ms"]["p99"] - by["sound off"]["shown_less_read_ms"]["p99"] <= 5)


def test_quick_bench_prints_every_figure_of_the_race_judge_and_the_engines(display):
    r = quick_bench(RULES_PARTS)

    for delivery in ("independent", "ordered"):
        judge = r["race_judge"][delivery]
        assert judge["races"] >= 100 and 0 <= judge["ranked_right_percent"] <= 100
        assert judge["stray_presses"] == 0, "every press reached the race it belongs to"
        assert judge["edge_to_verdict_ms"]["p99"] >= judge["edge_to_verdict_ms"]["median"] > 0

    engines = r["engines"]
    assert set(engines["games"]) == set(GAMES)
    for entry in engines["games"].values():
        assert entry["actions"] >= 50 and entry["push_per_s"]["median"] > 0
        assert ordered(entry["refold_ms"], low=0.001) and ordered(entry["load_ms"], low=0.001)
    if "slapjack" in GAMES:
        assert engines["slapjack_sim"]["median"] > 0

    # Each verdict is the one its figure gives.
    verdicts = {t["target"]: t["met"] for t in r["targets"]}
    if "one-eyed-jack" in GAMES:
        oej = engines["games"]["one-eyed-jack"]
        assert verdicts["one-eyed-jack Game.push"] is (oej["push_per_s"]["median"] >= 20_000)
        assert verdicts[f"refold {oej['actions']} actions, one-eyed-jack"] is (oej["refold_ms"]["p99"] < 10)


def test_quick_bench_prints_every_figure_of_the_camera(display):
    r = quick_bench(CAMERA_PARTS)

    # The camera (quick: one video at each size, a slow reader, one game of four Jacks): each card
    # once at every size, the skipped frames counted, every race on the camera feed decided.
    camera = r["camera"]
    for key in ("640x480", "1280x720", "slow_reader"):
        w = camera["watch"][key]
        assert w["every_card_once"] == w["videos"] and w["phantoms"] == 0 and not w["missed"], key
        if key == "slow_reader":
            # A reader skipping frames knows a landing only to within the frames it read (and a
            # hand leaving over the card's index may hide it a frame or two more): seen here up
            # to 3 frames late, in replays of the old watcher and this one alike.
            assert w["landing_off_frames_max"] <= 3, w["landing_off_frames_max"]
        else:
            assert w["landing_within_one_frame"] == w["cards"], key
        assert w["read"] + w["skipped"] == w["frames"]
        # A card may be told before the whole pile lies still (the hand still leaving), but no
        # sooner than the frame after the one it came to rest in (its own area still from one
        # frame to the next, docs/vision.md); and it comes to rest before the pile lies still.
        assert ordered(w["after_landing_ms"], w["cards"], low=FRAME_MS) and ordered(w["after_still_ms"], w["cards"], low=-10_000)
        assert w["after_landing_ms"]["min"] > w["after_still_ms"]["min"]
        assert 0 < w["cpu_share_of_core_at_30fps"] < 1
    assert camera["watch"]["640x480"]["size"] == [640, 480] and camera["watch"]["1280x720"]["size"] == [1280, 720]
    slow = camera["watch"]["slow_reader"]
    # 50 ms more on every frame than it needs: fewer than 20 frames a second read of 30.
    assert slow["skipped"] > slow["frames"] / 3 and slow["longest_skip_run"] >= 1, "a slow reader skips frames"
    on_camera = camera["slap"]
    assert on_camera["races"] == 4 and on_camera["no_verdict"] == 0, on_camera["errors"]
    assert on_camera["games_every_card_once"] == 1 and on_camera["cards"] == 8
    # docs/rules.md: the first slap on a Jack wins the pile; a press made before the camera had
    # named the Jack counts on it all the same.
    assert on_camera["winner_right"] == 4
    for race in on_camera["each_race"]:
        # Pressed while the Jack was still landing: the camera may have named it already (its
        # own area still); if not, the verdict waits for it. Named, then decided, then on screen.
        assert "named_ms" in race, "the camera named the Jack"
        assert max(race["named_ms"], 0) <= race["verdict_ms"] <= race["ms"]
    assert ordered(on_camera["named_ms"], 4, low=-10_000)

    # The report says what a reader checks: each camera target's verdict is the one its figure gives.
    verdicts = {t["target"]: t for t in targets(r)}
    w = camera["watch"]["640x480"]
    assert verdicts["camera 640x480: card reported after the pile lies still"]["met"] is (w["after_still_ms"]["p95"] <= 150)
    assert verdicts["camera 640x480: pile watcher CPU at 30 fps"]["met"] is (w["cpu_share_of_core_at_30fps"] < 0.25)
    assert verdicts["camera 640x480: each card once, no phantom"]["met"] is True
    on_screen = verdicts["slap verdict on the camera feed, press while the card is still landing, to its frame"]
    assert on_screen["met"] is (on_camera["shown_less_read_ms"]["p99"] <= 100)
    printed = table(r)
    assert f"frames read {w['read']}, skipped {w['skipped']}" in printed
    assert f"the camera named the Jack median {on_camera['named_ms']['median']:.0f} ms" in printed


@pytest.mark.parametrize("flag,value,named", [("--races", "0", "bench --races: 0 races is too few"),
                                              ("--cpu-share", "1.5", "bench --cpu-share: 1.5 is not a share")])
def test_a_setting_out_of_range_is_named_and_nothing_runs(display, flag, value, named):
    done = subprocess.run([sys.executable, "-m", "tools.bench", flag, value], capture_output=True,
                          text=True, timeout=120, env=same_code_env())
    assert done.returncode == 2 and named in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_jack_companion_bench_hands_over_to_the_checkout_s_bench(display, tmp_path):
    # From another folder: the launcher finds the bench beside the app it came from.
    done = subprocess.run([sys.executable, "-m", "ui.launcher", "bench", "--races", "0"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=same_code_env())
    assert done.returncode == 2 and "bench --races: 0 races is too few" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_jack_companion_bench_without_a_checkout_says_where_the_bench_is_in_one_line(tmp_path):
    """Installed from the wheel, the app has no tools/ beside it: one line, no traceback."""
    installed = tmp_path / "site"
    for package in ("companion", "hardware", "ui"):
        shutil.copytree(REPO / package, installed / package, ignore=shutil.ignore_patterns("__pycache__", "tests",
                                                                                          "*.onnx", "*.npz"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "ui.launcher", "bench", "--quick"], capture_output=True, text=True,
                          timeout=120, cwd=installed, env=env)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "source checkout" in lines[0] and "python -m tools.bench" in lines[0], done.stderr
