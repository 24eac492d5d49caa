"""The checks ``tools/arm64-check`` runs on each machine, and their comparison.

    python tools/arm64_compare.py draw DIR [N]      draw N photos of piles into DIR (once, on x86:
                                                    both machines then read the same files)
    python tools/arm64_compare.py run OUT DIR       run every check here, photos from DIR;
                                                    writes OUT (one JSON object)
    python tools/arm64_compare.py compare A B       what B said that A did not; exit 1 on a difference

``run`` uses the ``jack-companion`` command beside this Python (the installed app) and the
project's tests beside this file, so one machine's run can be read by another.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# The tests of the rules and the table's memory: no Kivy window, no camera, no devices.
RULES_TESTS = (
    "tests/test_cards.py", "tests/test_legal_actions.py", "tests/test_outcome.py", "tests/test_registry.py",
    "tests/test_replay_json.py", "tests/test_undo.py", "tests/test_store.py", "tests/test_store_held.py",
    "tests/test_table_controllers.py",
    "companion",   # its doctests, and each game's rules tests (companion/games/<game>/tests)
)
# Computer-only Slapjack games: (players, games, seed).
SIMULATIONS = ((2, 40, 1), (3, 40, 2), (4, 40, 3), (8, 20, 4))
SIZES = ((720, 720), (640, 480), (1280, 720))
DECK = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


# ---- draw -------------------------------------------------------------------------------------

def draw(folder: Path, count: int) -> None:
    """``count`` piles of 1 to 4 cards in random designs, sizes and light, each from its own
    seed, as PNG (lossless: the file is the photo), and the project's real photos beside them.
    truth.json gives each drawn photo's card on top."""
    import cv2
    import numpy as np

    from hardware.vision.render import random_scene

    folder.mkdir(parents=True, exist_ok=True)
    truth = {}
    for i in range(count):
        rng = np.random.default_rng([2026, i])
        codes = [str(c) for c in rng.choice(DECK, size=int(rng.integers(1, 5)), replace=False)]
        image, _ = random_scene(rng, codes, size=SIZES[i % len(SIZES)])
        name = f"drawn-{i:03d}.png"
        if not cv2.imwrite(str(folder / name), image):
            raise SystemExit(f"could not write {folder / name}")
        truth[name] = codes[-1]
    for photo in sorted((REPO / "docs" / "vision").rglob("*.jpg")):
        (folder / f"photo-{photo.stem}.jpg").write_bytes(photo.read_bytes())
    (folder / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# ---- run --------------------------------------------------------------------------------------

def _command(args: list[str], cwd: Path = REPO) -> dict:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    return {"code": done.returncode, "out": done.stdout, "err": done.stderr}


def _parts(items: list, k: int | None = None) -> list[list]:
    """``items`` in ``k`` runs of consecutive items (default: one a core), in order: under
    emulation the photos are most of the check, and each is read on its own."""
    k = max(1, min(k or os.cpu_count() or 1, len(items)))
    size, extra = divmod(len(items), k)
    bounds = [i * size + min(i, extra) for i in range(k + 1)]
    return [items[a:b] for a, b in zip(bounds, bounds[1:])]


def _in_parallel(commands: list[list[str]]) -> list[dict]:
    """Each command's exit status and output (as :func:`_command`), all run at once."""
    with ThreadPoolExecutor(max_workers=len(commands)) as pool:
        return list(pool.map(_command, commands))


def _versions() -> dict:
    found = {"machine": platform.machine(), "python": platform.python_version(),
             "libc": " ".join(platform.libc_ver())}
    # Kivy reads its environment on import: no log lines, no settings folder left behind.
    import tempfile

    home = tempfile.TemporaryDirectory(prefix="kivy-home-")
    os.environ.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1", KIVY_HOME=home.name)
    for name, module, dist in (("numpy", "numpy", "numpy"), ("opencv", "cv2", "opencv-python-headless"),
                               ("onnxruntime", "onnxruntime", "onnxruntime"), ("kivy", "kivy", "Kivy"),
                               ("lgpio", "lgpio", "lgpio")):
        try:
            __import__(module)   # the wheel's compiled part loads here, or says what it lacks
            found[name] = metadata.version(dist)
        except Exception as exc:   # noqa: BLE001 - a module that cannot load is a finding, not a crash
            found[name] = f"not importable ({exc})"
    home.cleanup()
    return found


def tests_outcomes(junit_xml: str) -> dict[str, str]:
    """Each test's id and what became of it (passed, failed, error, skipped) from pytest's XML."""
    outcomes = {}
    for case in ET.fromstring(junit_xml).iter("testcase"):
        tid = f"{case.get('classname')}::{case.get('name')}"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
        outcomes[tid] = outcome
    return outcomes


def run(out: Path, photos: Path) -> None:
    command = str(Path(sys.executable).parent / "jack-companion")
    result: dict = {"versions": _versions(), "seconds": {}}
    xml = out.with_suffix(".tests.xml")
    images = sorted(p for p in photos.iterdir() if p.suffix in (".png", ".jpg"))

    def tests() -> None:
        # One process and one Hypothesis seed: both machines run the same examples in the same order.
        done = _command([sys.executable, "-m", "pytest", "-q", "-n", "0", "--hypothesis-seed=0",
                         f"--junitxml={xml}", *RULES_TESTS])
        result["tests"] = tests_outcomes(xml.read_text(encoding="utf-8")) if xml.exists() else {}
        result["tests_tail"] = done["out"][-3000:] + done["err"][-2000:]

    def replay() -> None:
        result["replay"] = {log.name: _command([command, "replay", "--json", str(log)])
                            for log in sorted((REPO / "tests" / "logs").glob("*.jsonl"))}

    def simulate() -> None:
        result["simulate"] = {
            f"{players} players, {games} games, seed {seed}": _command(
                [command, "simulate", "slapjack", "--players", str(players), "--games", str(games),
                 "--seed", str(seed), "--json"])
            for players, games, seed in SIMULATIONS}

    def vision() -> None:
        done = _in_parallel([[command, "vision", "--json", *map(str, part)] for part in _parts(images)])
        result["vision"] = {"code": max(d["code"] for d in done), "err": "".join(d["err"] for d in done),
                            "lines": [json.loads(line) for d in done for line in d["out"].splitlines() if line.strip()]}

    started = time.monotonic()
    for step, what in ((tests, f"{len(RULES_TESTS) - 1} test files and companion's doctests"),
                       (replay, "every log in tests/logs"), (simulate, f"{len(SIMULATIONS)} seeds"),
                       (vision, f"{len(images)} photos")):
        print(f"    {step.__name__}: {what} ...", end="", flush=True)   # under qemu a step takes minutes
        t0 = time.monotonic()
        step()
        result["seconds"][step.__name__] = time.monotonic() - t0
        print(f" {result['seconds'][step.__name__]:.0f} s", flush=True)
    result["seconds"]["all"] = time.monotonic() - started
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


# ---- compare ----------------------------------------------------------------------------------

def compare(a: dict, b: dict, truth: dict | None = None) -> tuple[list[str], list[str]]:
    """(differences, report): every way ``b``'s run differs from ``a``'s that matters, and the
    lines that say what was checked. Names, sure flags, tops, outcomes and outputs must be equal;
    vision's scores and outlines may differ in their last digits (their largest gap is said)."""
    diffs: list[str] = []
    report: list[str] = []
    an, bn = a["versions"]["machine"], b["versions"]["machine"]

    # The rules tests: the same tests, each passed on both.
    ta, tb = a.get("tests", {}), b.get("tests", {})
    if not ta or not tb:
        diffs.append(f"tests: no results from {an if not ta else bn}")
    for tid in sorted(set(ta) | set(tb)):
        oa, ob = ta.get(tid, "not run"), tb.get(tid, "not run")
        if oa != ob:
            diffs.append(f"test {tid}: {oa} on {an}, {ob} on {bn}")
        elif oa not in ("passed", "skipped"):
            diffs.append(f"test {tid}: {oa} on both")
    passed = sum(1 for tid, o in tb.items() if o == "passed" and ta.get(tid) == "passed")
    skipped = sum(1 for o in tb.values() if o == "skipped")
    report.append(f"rules tests: {passed} of {len(set(ta) | set(tb))} passed on both"
                  + (f" ({skipped} skipped)" if skipped else ""))

    # replay and simulate: every byte, and the exit status.
    for part, what in (("replay", "golden logs replayed (--json)"), ("simulate", "Slapjack simulations (--json)")):
        pa, pb = a.get(part, {}), b.get(part, {})
        same = 0
        for key in sorted(set(pa) | set(pb)):
            ra, rb = pa.get(key), pb.get(key)
            if ra is None or rb is None:
                diffs.append(f"{part} {key}: run on one machine only")
            elif ra != rb:
                field = next(f for f in ("code", "out", "err") if ra[f] != rb[f])
                diffs.append(f"{part} {key}: {field} differs")
            else:
                same += 1
        lines = sum(r["out"].count("\n") for r in pb.values())
        report.append(f"{part}: {same} of {len(set(pa) | set(pb))} {what} identical, {lines} lines of output")

    # vision: every card's name and sure flag, and the top, photo by photo.
    va, vb = a.get("vision", {}), b.get("vision", {})
    if va.get("code") != vb.get("code"):
        diffs.append(f"vision: exit status {va.get('code')} on {an}, {vb.get('code')} on {bn}")
    la = {Path(line["image"]).name: line for line in va.get("lines", [])}
    lb = {Path(line["image"]).name: line for line in vb.get("lines", [])}
    cards = sure = right = drawn = 0
    score_gap = outline_gap = 0.0
    for name in sorted(set(la) | set(lb)):
        pa, pb = la.get(name), lb.get(name)
        if pa is None or pb is None:
            diffs.append(f"vision {name}: read on one machine only")
            continue
        said_a = [(c["card"], c["sure"]) for c in pa["cards"]]
        said_b = [(c["card"], c["sure"]) for c in pb["cards"]]
        if said_a != said_b:
            diffs.append(f"vision {name}: {_said(said_a)} on {an}, {_said(said_b)} on {bn}")
        if pa["top"] != pb["top"]:
            diffs.append(f"vision {name}: top {pa['top']} on {an}, {pb['top']} on {bn}")
        for ca, cb in zip(pa["cards"], pb["cards"]):
            score_gap = max(score_gap, abs(ca["score"] - cb["score"]))
            if ca.get("outline") and cb.get("outline") and len(ca["outline"]) == len(cb["outline"]):
                outline_gap = max(outline_gap, max(abs(p - q) for u, v in zip(ca["outline"], cb["outline"])
                                                   for p, q in zip(u, v)))
        cards += len(pb["cards"])
        sure += sum(1 for c in pb["cards"] if c["sure"])
        if truth and name in truth:
            drawn += 1
            right += pb["top"] == truth[name]
    report.append(f"vision: {len(lb)} photos, {cards} cards named ({sure} sure), names, sure flags and tops "
                  f"compared; largest score difference {score_gap:.3f}, largest outline difference "
                  f"{outline_gap:g} px" + (f"; top right in {right} of {drawn} drawn photos" if drawn else ""))
    (err_a, probe_a), (err_b, probe_b) = _without_probe(va.get("err", "")), _without_probe(vb.get("err", ""))
    if err_a != err_b:
        diffs.append("vision: its error output differs")
    if probe_a or probe_b:
        report.append(f"vision: {probe_a + probe_b} lines of ONNX Runtime's CPU probe set aside ({probe_a} on {an}, "
                      f"{probe_b} on {bn}): the root has no /sys")
    return diffs, report


# ONNX Runtime's CPU probe, in a root with no /sys (a Pi has one), says so on stderr: the
# emulated machine's report, not the app's, so it is set aside (and counted) before comparing.
PROBE_LINES = ("Error in cpuinfo:", "onnxruntime cpuid_info warning:", "onnxruntime warning: cpuinfo_initialize failed")


def _without_probe(err: str) -> tuple[str, int]:
    """(``err`` without the CPU probe's lines, how many there were)."""
    lines = err.splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(PROBE_LINES)]
    return "".join(kept), len(lines) - len(kept)


def _said(cards: list[tuple[str, bool]]) -> str:
    return ", ".join(f"{card}{'' if is_sure else '?'}" for card, is_sure in cards) or "no card"


def _seconds(run_: dict) -> str:
    s = run_["seconds"]
    return ", ".join(f"{k} {s[k]:.0f} s" for k in ("tests", "replay", "simulate", "vision", "all") if k in s)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "draw":
        draw(Path(argv[1]), int(argv[2]) if len(argv) > 2 else 60)
        return 0
    if len(argv) == 3 and argv[0] == "run":
        run(Path(argv[1]), Path(argv[2]))
        return 0
    if len(argv) in (3, 4) and argv[0] == "compare":
        a = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
        b = json.loads(Path(argv[2]).read_text(encoding="utf-8"))
        truth = json.loads(Path(argv[3]).read_text(encoding="utf-8")) if len(argv) == 4 else None
        diffs, report = compare(a, b, truth)
        for side in (a, b):
            v = side["versions"]
            print(f"{v['machine']}: Python {v['python']}, {v['libc']}, numpy {v['numpy']}, OpenCV {v['opencv']}, "
                  f"ONNX Runtime {v.get('onnxruntime', 'not asked')}, Kivy {v['kivy']}, lgpio {v['lgpio']}; "
                  f"{_seconds(side)}")
        for line in report:
            print(f"  {line}")
        if diffs:
            print(f"{len(diffs)} difference(s):")
            for line in diffs:
                print(f"  {line}")
            return 1
        print("no difference")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
