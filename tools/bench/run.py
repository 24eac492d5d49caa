"""``python -m tools.bench``: how fast the companion is where a player would notice, beside bare Kivy.

Every figure comes from the real app in its own process, started the way the kiosk starts it
(``jack-companion run``, Kivy's frame cap at 30), through ``probe.py`` here; Kivy's own
cost comes from ``bare.py``, a Kivy app with one label and the same settings,
measured in the same run. ``docs/benchmarks.md`` says how each figure is taken and why the
method holds on a Raspberry Pi too, and keeps the latest table.

Nothing here imports Kivy: this process seeds throwaway tables (data folders), starts the
children, reads their reports, and measures their CPU from outside (``/proc/PID/stat``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.games import GAMES

from . import engines, pi, race_judge
from .child import BenchError, Child, machine, same_code_env, stats
from .report import table, targets

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo")


# -- tables to run on ------------------------------------------------------------------------------------

def seed_log(game: str, seed: int = 3) -> tuple[dict, list[dict]]:
    """A game in progress: legal, unfinished, about its recipe's SEED_ACTIONS long."""
    from companion.engine import Game

    recipe = engines.recipe(game)
    wanted = recipe.SEED_ACTIONS
    header, actions = recipe.seed_log(wanted, seed)
    played = Game(header)
    for action in actions[:wanted]:
        if played.finished:
            break
        played.push(action)
    while played.finished:
        played.pop()
    return header, played.actions


def make_table(folder: Path, games: dict[str, tuple[dict, list[dict]]], history: int = 3) -> dict[str, int]:
    """A data folder with players, a few finished games, and one unfinished game per entry of
    ``games`` (in order: the last is the newest, the one home offers to resume)."""
    from companion import paths
    from companion.session import Session
    from companion.store import Store

    folder.mkdir(parents=True, exist_ok=True)
    store = Store(paths.store_path(folder))
    ids = {}
    try:
        for name in PLAYERS:
            store.add_player(name)
        rounds = {"JS": "Ann", "JH": "Ann", "JC": "Ann", "JD": "Ann"}
        for _ in range(history):      # the history screen has something in it, as at a real table
            session = Session.start(store, {"game": "jacks", "players": list(PLAYERS[:4]), "options": {"target": 20}})
            session.play({"type": "round", "jacks": rounds})
        for game, (header, actions) in games.items():
            session = Session.start(store, header)
            for action in actions:
                session.play(action)
            ids[game] = session.game_id
            time.sleep(0.01)          # distinct "updated" times: the last one is the newest
    finally:
        store.close()
    return ids


# -- the measurements -----------------------------------------------------------------------------------

# The parts a run can be limited to (``bench --only memory,slap``), in the order they run.
PARTS = ("startup", "memory", "idle", "slap", "judge", "engines", "camera")
MEMORY_RUNS = 3   # its peaks agree within 0.2 MiB run to run (7 runs before 6 December)


class Bench:
    def __init__(self, runs: int, idle_seconds: float, quick: bool, log=print, only: tuple[str, ...] = PARTS,
                 conditions: pi.Conditions | None = None, races: int | None = None):
        self.conditions = conditions or pi.Conditions()
        self.only = only
        self.runs = runs
        self.idle_seconds = idle_seconds
        self.quick = quick
        self.races = races or (10 if quick else 150)
        self.log = log
        self.work = Path(tempfile.mkdtemp(prefix="jack-companion-bench-"))
        self.notes: list[str] = []
        self.results: dict = {"settings": {"runs": runs, "idle_seconds": idle_seconds, "quick": quick,
                                           "races": self.races, "max_fps": 30}}
        if tuple(only) != PARTS:
            self.results["settings"]["only"] = list(only)
        if self.conditions.active:
            self.results["settings"]["pi"] = self.conditions.describe()
            if self.conditions.cpu_share is not None and self.conditions.cgroup is None:
                self.notes.append(f"CPU {self.conditions.how}: measured on the whole machine")
        self.renderer = None
        self.available: list[str] = []
        self.pycache: Path | None = None

    def close(self) -> None:
        self.conditions.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def child(self, argv: list[str]) -> Child:
        """A child process under the run's conditions (the CPU cap and the one CPU)."""
        return Child(argv, cwd=self.work, pycache=self.pycache, preexec=self.conditions.preexec())

    def app(self, data_dir: Path, *flags: str) -> Child:
        delay = self.conditions.commit_delay_ms
        return self.child(["-m", "tools.bench.probe", "app", "--data-dir", str(data_dir), *flags,
                           *(["--commit-delay-ms", str(delay)] if delay else [])])

    def bare(self, data_dir: Path, *flags: str) -> Child:
        return self.child(["-m", "tools.bench.bare", "--data-dir", str(data_dir), *flags])

    def warm_up(self, child: Child) -> dict:
        """An unmeasured run: bytecode compiled, Kivy's config file written, files in the cache."""
        try:
            settled = child.expect("settled")
            child.proc.wait(timeout=30)
        finally:
            child.close()
        return settled

    # -- tables ---------------------------------------------------------------------------------

    def prepare(self) -> None:
        if "camera" in self.only and self.other_cpus():
            self.start_videos()   # made meanwhile, off the measured CPU
        self.log("seeding tables...")
        self.logs = {}
        for game in GAMES:
            self.logs[game] = seed_log(game)
        self.plain = self.work / "table-plain"
        make_table(self.plain, {})
        self.resume_tables = {}
        for game, log in self.logs.items():
            self.resume_tables[game] = self.work / f"table-resume-{game}"
            make_table(self.resume_tables[game], {game: log})
        # Warm up every kind of run once, and ask what can be shown.
        self.pycache = self.work / "pycache"
        settled = self.warm_up(self.app(self.plain, "--exit"))
        self.renderer = settled.get("renderer")
        shown = settled.get("available", [])
        self.available = [g for g in GAMES if g in shown]
        for game, info in GAMES.items():
            if game not in shown:
                self.notes.append(f"{info.title}: skipped (the app says it cannot show it)")
        if not self.quick:   # a smoke test's figures are not quoted: the first runs may compile
            self.warm_up(self.bare(self.work / "bare", "--exit"))
            for game in self.available:
                self.warm_up(self.app(self.resume_tables[game], "--resume", "--exit"))
        self.results["games_measured"] = list(self.available)
        self.results["seeded"] = {g: len(self.logs[g][1]) for g in self.available}

    # -- 1 and 7: start-up ------------------------------------------------------------------------------

    def startup(self) -> None:
        self.log(f"cold starts: {self.runs} runs of the bare app, home, and each game resumed...")
        bare, home, bare_mem, home_mem = [], [], [], []
        resumed = {g: {"home_ms": [], "resumed_ms": [], "adds_ms": []} for g in self.available}
        for run in range(self.runs):
            child = self.bare(self.work / "bare", "--exit")
            try:
                first = child.expect("first_frame")
                settled = child.expect("settled")
                bare.append(child.ms_since_start(first))
                bare_mem.append(settled["memory"]["peak_mib"])
                self.bare_split = settled["memory"]
            finally:
                child.close()
            child = self.app(self.plain, "--exit")
            try:
                first = child.expect("first_frame")
                settled = child.expect("settled")
                if first["screen"] != "home":
                    raise BenchError(f"the first frame showed {first['screen']!r}, not home")
                home.append(child.ms_since_start(first))
                home_mem.append(settled["memory"]["peak_mib"])
            finally:
                child.close()
            for game in self.available:
                child = self.app(self.resume_tables[game], "--resume", "--exit")
                try:
                    first = child.expect("first_frame")
                    shown = child.expect("resumed_frame")
                    child.expect("settled")
                    entry = resumed[game]
                    entry["home_ms"].append(child.ms_since_start(first))
                    entry["resumed_ms"].append(child.ms_since_start(shown))
                    entry["adds_ms"].append((shown["t"] - first["t"]) * 1000)
                finally:
                    child.close()
        self.results["startup"] = {
            "bare_ms": stats(bare), "home_ms": stats(home),
            "ratio": statistics.median(home) / statistics.median(bare),
            "resume": {g: {k: stats(v) for k, v in entry.items()} for g, entry in resumed.items()},
        }
        self.results["memory"] = {"bare_mib": stats(bare_mem), "home_mib": stats(home_mem)}

    def bare_and_home_memory(self) -> None:
        """Peak memory of bare Kivy and of home alone, for a run that skips the start-up part."""
        bare_mem, home_mem = [], []
        for run in range(self.runs):
            for maker, data_dir, into in ((self.bare, self.work / "bare", bare_mem), (self.app, self.plain, home_mem)):
                child = maker(data_dir, "--exit")
                try:
                    settled = child.expect("settled")
                    into.append(settled["memory"]["peak_mib"])
                    if maker == self.bare:
                        self.bare_split = settled["memory"]
                finally:
                    child.close()
        self.results["memory"] = {"bare_mib": stats(bare_mem), "home_mib": stats(home_mem)}

    # -- 2: memory with each game's screen opened in turn --------------------------------------------

    def memory(self) -> None:
        runs = min(self.runs, MEMORY_RUNS)
        self.log(f"memory: {runs} runs opening each game's screen in turn...")
        table = self.work / "table-all"
        self.all_ids = make_table(table, {g: self.logs[g] for g in self.available})
        self.all_table = table
        peaks, steps = [], {g: [] for g in self.available}
        if "bare_mib" not in self.results.get("memory", {}):   # start-up was not measured in this run
            self.bare_and_home_memory()
        for run in range(runs):
            child = self.app(table)
            try:
                child.expect("settled")
                for game in self.available:
                    child.send(cmd="open", game=game, game_id=self.all_ids[game])
                    steps[game].append(child.expect("opened")["memory"]["peak_mib"])
                child.send(cmd="rss")
                last = child.expect("rss")["memory"]
                peaks.append(last["peak_mib"])
            finally:
                child.close()
        memory = self.results["memory"]
        split = getattr(self, "bare_split", {})
        if last.get("anon_mib") is not None and split.get("anon_mib") is not None:
            memory["split_mib"] = {"bare": {"anon": split["anon_mib"], "file": split["file_mib"]},
                                   "all_games": {"anon": last["anon_mib"], "file": last["file_mib"]}}
        memory["all_games_mib"] = stats(peaks)
        memory["after_each_mib"] = {g: stats(v) for g, v in steps.items()}
        memory["ratio"] = statistics.median(peaks) / memory["bare_mib"]["median"]

    # -- 3 and 4: idle load and tap to screen ----------------------------------------------------------

    def idle_window(self, child: Child) -> dict:
        """CPU of ``child`` over idle_seconds, also in a few equal parts (min/median/max)."""
        parts = max(2, round(self.idle_seconds / 5))   # parts of about 5 s
        samples = [(time.monotonic(), child.cpu())]
        for i in range(parts):
            time.sleep(self.idle_seconds / parts)
            samples.append((time.monotonic(), child.cpu()))
        per_part = [100 * (c1 - c0) / (t1 - t0) for (t0, c0), (t1, c1) in zip(samples, samples[1:])]
        total = 100 * (samples[-1][1] - samples[0][1]) / (samples[-1][0] - samples[0][0])
        return {"percent": total, "parts": stats(per_part), "seconds": samples[-1][0] - samples[0][0]}

    def idle_and_taps(self) -> None:
        self.log(f"idle: {self.idle_seconds:g} s on bare Kivy, home and each game's screen; then taps...")
        idle, taps = {}, {}
        judge = self.judge_beside()
        if not hasattr(self, "all_table"):   # the memory part was not run: seed its table here
            self.all_table = self.work / "table-all"
            self.all_ids = make_table(self.all_table, {g: self.logs[g] for g in self.available})
        child = self.bare(self.work / "bare")
        try:
            child.expect("settled")
            time.sleep(0.5)
            idle["bare"] = self.idle_window(child)
        finally:
            child.close()
        child = self.app(self.all_table)
        tap_runs = 1 if self.quick else 5
        try:
            child.expect("settled")
            time.sleep(0.5)
            idle["home"] = self.idle_window(child)
            for game in self.available:
                child.send(cmd="open", game=game, game_id=self.all_ids[game])
                child.expect("opened")
                time.sleep(0.5)
                idle[game] = self.idle_window(child)
                child.send(cmd="tap", game=game, runs=tap_runs)
                try:
                    taps[game] = self.tap_figures(child.expect("taps", timeout=60 + 20 * tap_runs)["results"])
                except BenchError as exc:
                    self.notes.append(f"tap to screen on {game}: failed: {exc}")
            child.send(cmd="rss")
            self.results.setdefault("memory", {})["after_idle_and_taps_mib"] = child.expect("rss")["memory"]["peak_mib"]
        finally:
            child.close()
        self.results["idle"] = idle
        self.results["taps"] = taps
        if judge is not None:
            judge.join()

    def judge_beside(self):
        """Under --pi, the race judge (which runs in this process, uncapped) on the other CPUs
        while the idle periods run on the capped one: it shares no CPU with the app measured
        then, and the idle figure is the app's own CPU time. A thread, started; or None when the
        judge runs in its turn (no CPU of its own to give it, or not asked for)."""
        cpu = self.conditions.cpu
        others = (os.sched_getaffinity(0) - {cpu}) if cpu is not None and hasattr(os, "sched_getaffinity") else set()
        if "judge" not in self.only or not others:
            return None

        def judge():
            os.sched_setaffinity(0, others)   # this thread only (Linux)
            try:
                self.race_judge()
            except Exception as exc:   # said in the notes, as a part that failed in its turn is
                self.notes.append(f"race_judge: failed: {exc}")

        self.judged_beside = True
        thread = threading.Thread(target=judge, name="race-judge", daemon=True)
        thread.start()
        return thread

    @staticmethod
    def tap_figures(results: list[dict]) -> dict:
        by_action: dict[str, dict] = {}
        for result in results:
            name = "undo" if result["action"] == "undo" else "action"
            entry = by_action.setdefault(name, {"names": [], "ms": [], "frames": [], "errors": []})
            if "error" in result:
                entry["errors"].append(result["error"])
                continue
            if result["action"] not in entry["names"]:
                entry["names"].append(result["action"])
            entry["ms"].append(result["ms"])
            entry["frames"].append(result["frames"])
        return {name: {"actions": e["names"], "ms": stats(e["ms"]), "frames": stats(e["frames"]),
                       "errors": e["errors"]} for name, e in by_action.items()}

    # -- 5: the slap verdict -------------------------------------------------------------------------------

    def slap(self) -> None:
        races = self.races
        slap = {}
        if "slapjack" in self.available:
            self.log(f"slap verdict: {races} races on the Slapjack screen (judge only), main thread busy, "
                     "no forced redraw...")
            table = self.work / "table-judge"
            header = {"game": "slapjack", "players": list(PLAYERS[:4]), "options": {}, "feed": "none"}
            make_table(table, {}, history=0)
            # The same screen: its races taking turns in one run between the app as it is, the
            # sound off ("a sound never delays a verdict") and, with slow commits,
            # commits at 0 (the card's delay and none); each condition gets as many races as
            # above. The app's own figure is the "as is" races, and each comparison is read
            # from the same run (before 6 December: three runs, 750 races under --pi for 600).
            runs = [("app_no_redraw", False, None), ("app", True, "as is")]
            for key, redraw, alternate in runs:
                count = races if alternate is None else races * (3 if self.conditions.commit_delay_ms > 0 else 2)
                if alternate is not None:
                    self.log(f"slap verdict: {count} races on the Slapjack screen, taking turns: as is, the sound "
                             "off" + (f", commits at 0 (not {self.conditions.commit_delay_ms:g} ms)"
                                      if self.conditions.commit_delay_ms > 0 else "") + "...")
                child = self.app(table)
                try:
                    child.expect("settled")
                    child.send(cmd="slap", header=header, races=count, busy_ms=8, redraw=redraw,
                               **({"alternate": alternate} if alternate else {}))
                    raw = child.expect("slap", timeout=60 + 2 * count)
                    figures = self.slap_figures(raw)
                except BenchError as exc:
                    self.notes.append(f"slap verdict on the Slapjack screen ({key}): failed: {exc}")
                    continue
                finally:
                    child.close()
                if alternate is None:
                    slap[key] = figures
                else:
                    slap.update(self.as_is_and_paired(figures, raw))
            slap = {k: slap[k] for k in ("app", "app_no_redraw", "app_sound", "app_commits") if k in slap}
        self.log(f"slap verdict: {races} races through the pads' documented path to a label, main thread busy...")
        child = self.child(["-m", "tools.bench.probe", "slap", "--races", str(races)])
        try:
            slap["pads_path"] = self.slap_figures(child.expect("slap", timeout=60 + 2 * races))
            child.proc.wait(timeout=30)
        finally:
            child.close()
        self.results["slap"] = slap

    def as_is_and_paired(self, run: dict, raw: dict) -> dict:
        """One turn-about run (as is, sound off, commits 0) as the figures it stands for: the
        app's own ("app": the races as is) and each pair ("app_sound", "app_commits"): the
        changed condition's races beside the as-is races of the same run."""
        by = run.pop("by_condition")
        shared = {k: run[k] for k in ("alternate", "sounds_played", "sound_loaded", "collections") if k in run}
        out = {"app": {**by["as is"], "collections": run.get("collections"), "turn_about": list(by)}}
        pairs = {"app_sound": ("sound", "sound off", "sound on"),
                 "app_commits": ("commit", next((n for n in by if n.startswith("commits")), None), None)}
        for key, (alternate, changed, as_is_name) in pairs.items():
            if changed not in by:
                continue
            as_is_name = as_is_name or f"commits {self.conditions.commit_delay_ms:g} ms"
            pair = {changed: by[changed], as_is_name: by["as is"]} if key == "app_sound" else \
                {as_is_name: by["as is"], changed: by[changed]}
            names = {changed, "as is"}
            both = self._slap_figures(raw, [r for r in raw["results"] if r.get("condition") in names])
            out[key] = {**both, **shared, "alternate": alternate, "by_condition": pair, "shared_run": list(by)}
        return out

    @classmethod
    def slap_figures(cls, report: dict) -> dict:
        figures = cls._slap_figures(report, report["results"])
        named = [r["condition"] for r in report["results"] if "condition" in r]
        if named:
            figures["alternate"] = report.get("alternate")
            figures["by_condition"] = {name: cls._slap_figures(report, [r for r in report["results"]
                                                                        if r.get("condition") == name])
                                       for name in dict.fromkeys(named)}
            figures["sounds_played"] = report.get("sounds_played", 0)
            figures["sound_loaded"] = report.get("sound_loaded", False)
        return figures

    @staticmethod
    def _slap_figures(report: dict, results: list[dict]) -> dict:
        good = [r for r in results if "ms" in r]
        return {
            "path": report.get("path"), "races": len(results), "no_verdict": len(results) - len(good),
            "shown_ms": stats([r["ms"] for r in good]), "verdict_ms": stats([r["verdict_ms"] for r in good]),
            # The same frames less the bench's own read of their pixels, which held each swap back.
            "shown_less_read_ms": stats([r["ms"] - r.get("read_ms", 0.0) for r in good]),
            "read_ms": stats([r.get("read_ms", 0.0) for r in good]),
            "complete_ms": stats([r.get("complete_ms", r["ms"]) for r in good]),
            "winner_right": sum(r["winner_right"] for r in good), "ranked_right": sum(r["ranked_right"] for r in good),
            "window_ms": report["window_ms"], "busy_ms": report["busy_ms"], "clock": report.get("clock"),
            "redraw": report.get("redraw", True),
            "collections": report.get("collections"),   # Python's garbage collections meanwhile
            # How long past its planned end each race was scored, waiting for presses held up.
            "end_late_ms": stats([r["end_late_ms"] for r in results if "end_late_ms" in r]),
            # How long each race's frames waited at the swap for its commits (the card's cost).
            "swap_wait_ms": stats([r["swap_wait_ms"] for r in good if "swap_wait_ms" in r]),
        }

    def race_judge(self) -> None:
        race_bench = race_judge
        if self.conditions.active:
            self.notes.append("race judge: measured in the bench's own process, without the Pi-like conditions "
                              "(it judges timestamps; its latency figure is the pads path's, measured under them)")
        judge = {}
        count = 200 if self.quick else 3000
        for delivery in ("independent", "ordered"):
            self.log(f"race judge: {count} races, callbacks 0-50 ms late ({delivery})...")
            args = argparse.Namespace(races=count, tables=min(100, count // 2), max_delay_ms=50.0, delivery=delivery,
                                      window_ms=15.0, settle_ms=0.0, busy_ms=8.0, seed=1)
            results = race_bench.run(args)
            n = max(1, results.races)
            judge[delivery] = {
                "races": n, "ranked_right_percent": 100 * results.correct / n,
                "winner_right_percent": 100 * results.winner_right / n,
                "out_of_order_percent": 100 * results.out_of_order / n,
                "stray_presses": results.stray, "lost_races": results.lost,
                "edge_to_verdict_ms": {"median": race_bench.percentile(results.from_edge, 50) * 1000,
                                       "p99": race_bench.percentile(results.from_edge, 99) * 1000},
            }
        self.results["race_judge"] = judge

    # -- 6: engines ----------------------------------------------------------------------------------------

    def engines(self) -> None:
        self.log("engines: actions/s, refold of 500 actions, store load and undo, simulated Slapjack...")
        runs = 3 if self.quick else 7
        if not self.conditions.active:
            self.results["engines"] = engines.run(runs=runs, quick=self.quick)
        else:   # in a child of its own, under the same conditions as the app
            delay = self.conditions.commit_delay_ms
            done = subprocess.run([sys.executable, "-m", "tools.bench.engines", "--json", "--runs", str(runs),
                                   *(["--quick"] if self.quick else []),
                                   *(["--commit-delay-ms", str(delay)] if delay else [])],
                                  capture_output=True, text=True, cwd=self.work, env=same_code_env(),
                                  preexec_fn=self.conditions.preexec())
            if done.returncode != 0:
                raise BenchError(f"the engine figures failed: {done.stderr.strip()[-2000:]}")
            self.results["engines"] = json.loads(done.stdout)
        self.notes.extend(self.results["engines"].pop("notes", []))

    # -- 8: the camera ---------------------------------------------------------------------------------------

    def other_cpus(self) -> set[int]:
        """The CPUs the measured children do not use (under --pi: all but theirs), or none."""
        cpu = self.conditions.cpu
        if cpu is None or not hasattr(os, "sched_getaffinity"):
            return set()
        return os.sched_getaffinity(0) - {cpu}

    def start_videos(self) -> None:
        """The camera part's synthetic videos (``camera.py``), made by a process of their own,
        uncapped: on the CPUs the measured children do not use, while the other parts run, or
        just before the camera part when there are none."""
        self.videos = self.work / "videos"
        others = self.other_cpus()
        self.making = subprocess.Popen(
            [sys.executable, "-m", "tools.bench.camera", "make", str(self.videos), *(["--quick"] if self.quick else [])],
            cwd=self.work, env=same_code_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=(lambda: os.sched_setaffinity(0, others)) if others else None)

    def camera(self) -> None:
        from .camera import SIZES, wanted

        if not hasattr(self, "making"):
            self.start_videos()
        self.log("camera: the synthetic videos being made..." if self.making.poll() is None else
                 "camera: videos made")
        out, err = self.making.communicate(timeout=1800)
        if self.making.returncode != 0:
            raise BenchError(f"the camera's videos could not be made: {err.strip()[-2000:]}")
        names = json.loads(out)
        sizes = " and ".join(f"{w}x{h}" for w, h in SIZES)
        self.log(f"camera: the pile watcher on {len([n for n in names if n.startswith('watch-')])} synthetic videos "
                 f"at 30 fps, {sizes}, and a slow reader...")
        done = subprocess.run([sys.executable, "-m", "tools.bench.camera", "watch", str(self.videos),
                               *(["--quick"] if self.quick else [])], capture_output=True, text=True, cwd=self.work,
                              env=same_code_env(), preexec_fn=self.conditions.preexec())
        if done.returncode != 0:
            raise BenchError(f"the camera's watcher figures failed: {done.stderr.strip()[-2000:]}")
        camera = {"watch": json.loads(done.stdout), "cpu_share": self.conditions.cpu_share}
        self.results["camera"] = camera
        games = [n for n in wanted(self.quick) if n.startswith("slap-")]
        self.log(f"camera: Slapjack on the camera feed, {len(games)} games of four Jacks, a pad pressed while each "
                 "is still landing...")
        table = self.work / "table-camera"
        make_table(table, {}, history=0)
        child = self.app(table)
        try:
            child.expect("settled")
            child.send(cmd="camera_slap", folder=str(self.videos), videos=games, busy_ms=8, redraw=True)
            camera["slap"] = self.camera_slap_figures(child.expect("camera_slap", timeout=120 + 30 * len(games)))
        finally:
            child.close()

    @staticmethod
    def camera_slap_figures(report: dict) -> dict:
        results = report["results"]
        good = [r for r in results if "ms" in r]
        games = report["games"]
        return {
            "path": report["path"], "races": len(results), "no_verdict": len(results) - len(good),
            "errors": [r["error"] for r in results if "error" in r],
            "two_presses": sum(r["presses"] == 2 for r in results),
            "shown_ms": stats([r["ms"] for r in good]),
            "shown_less_read_ms": stats([r["ms"] - r["read_ms"] for r in good]),
            "read_ms": stats([r["read_ms"] for r in good]),
            "verdict_ms": stats([r["verdict_ms"] for r in good]),
            "first_shown_ms": stats([r["first_ms"] for r in good]),
            "named_ms": stats([r["named_ms"] for r in results if "named_ms" in r]),
            "winner_right": sum(r["winner_right"] for r in good),
            "games": len(games), "cards": sum(len(g["truth"]) for g in games),
            "games_every_card_once": sum(g["reported"] == g["truth"] for g in games),
            "frames": sum(g.get("frames", 0) for g in games), "skipped": sum(g.get("skipped", 0) for g in games),
            "busy_ms": report["busy_ms"], "redraw": report["redraw"], "clock": report.get("clock"),
            "collections": report.get("collections"),
            # Each race and game, to tell a slow race's cause (the camera's naming, or after it).
            "each_race": [{k: (round(v, 1) if isinstance(v, float) else v) for k, v in r.items()} for r in results],
            "each_game": [{"video": g["video"], "skipped": g.get("skipped"), "frames": g.get("frames"),
                           **({} if g["reported"] == g["truth"] else {"truth": g["truth"], "reported": g["reported"]})}
                          for g in games],
        }

    # -- all of it -----------------------------------------------------------------------------------------

    def run(self) -> dict:
        load_before = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
        parts = dict(zip(PARTS, (self.startup, self.memory, self.idle_and_taps, self.slap, self.race_judge,
                                 self.engines, self.camera)))
        steps = [self.prepare, *(parts[name] for name in PARTS if name in self.only)]
        began = time.monotonic()
        took = self.results["seconds"] = {}   # where the run's time went, part by part
        for step in steps:
            if step == self.race_judge and getattr(self, "judged_beside", False):
                continue
            started = time.monotonic()
            try:
                step()
            except BenchError as exc:
                if step is self.prepare:
                    raise
                self.notes.append(f"{step.__name__}: failed: {exc}")
            finally:
                took[step.__name__] = round(time.monotonic() - started, 1)
        took["whole run"] = round(time.monotonic() - began, 1)
        self.results["machine"] = machine(self.renderer)
        self.results["machine"]["load_average_before"] = load_before
        self.results["targets"] = targets(self.results)
        self.results["notes"] = self.notes
        return self.results


def parts_of(args: argparse.Namespace) -> tuple[str, ...]:
    """The parts ``--only`` names, in the order given (every part without it)."""
    if not getattr(args, "only", None):
        return PARTS
    return tuple(part.strip() for part in args.only.split(",") if part.strip())


def problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options, in one line; None when nothing is."""
    unknown = [part for part in parts_of(args) if part not in PARTS]
    if unknown:
        return f"bench --only: no part called {', '.join(unknown)}; the parts are {', '.join(PARTS)}"
    races = getattr(args, "races", None)
    if races is not None and races < 1:
        return f"bench --races: {races} races is too few (at least 1)"
    share = getattr(args, "cpu_share", None)
    if share is not None and not 0 < share <= 1:
        return f"bench --cpu-share: {share:g} is not a share of one core (above 0, at most 1)"
    delay = getattr(args, "commit_delay_ms", None)
    if delay is not None and delay < 0:
        return f"bench --commit-delay-ms: {delay:g} is below 0"
    return None


def main(args: argparse.Namespace) -> int:
    wrong = problem(args)
    if wrong is not None:
        print(wrong, file=sys.stderr)
        return 2
    runs = args.runs or (2 if args.quick else 7)
    idle = args.idle_seconds if args.idle_seconds is not None else (2.0 if args.quick else 15.0)
    say = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else (lambda *a: print(*a, flush=True))
    only = parts_of(args)
    races = getattr(args, "races", None)
    share = getattr(args, "cpu_share", None)
    delay = getattr(args, "commit_delay_ms", None)
    conditions = pi.conditions(bool(getattr(args, "pi", False)), share, delay)
    if conditions.active:
        say(f"Pi-like conditions: CPU {conditions.how}" + (f", pinned to CPU {conditions.cpu}" if conditions.cpu
                                                            is not None else "")
            + f"; every durable commit at least {conditions.commit_delay_ms:g} ms")
    bench = Bench(runs, idle, args.quick, log=say, only=only, conditions=conditions, races=races)
    try:
        results = bench.run()
    finally:
        bench.close()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print()
        print(table(results))
    return 0
