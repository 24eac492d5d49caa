"""``python -m tools.bench``: how fast the companion is where a player would notice, beside bare
Kivy (docs/benchmarks.md). Run from a checkout; ``jack-companion bench`` hands over to it there.

This module reads the options and, with no display, runs itself again under ``xvfb-run``;
``run.py`` does the rest.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

PROG = "python -m tools.bench"
ROOT = Path(__file__).resolve().parents[2]   # the checkout: companion/, hardware/, ui/ and tools/


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="start-up, memory, idle load, tap and slap latency, engines, "
                                                       "the camera; beside bare Kivy")
    p.add_argument("--json", action="store_true", help="every figure as one JSON object")
    p.add_argument("--quick", action="store_true", help="few runs, short idle periods, one warm-up run (a smoke test)")
    p.add_argument("--runs", type=int, help="cold starts and memory runs (default 7, --quick 2)")
    p.add_argument("--idle-seconds", type=float, help="idle period on each screen (default 15, --quick 2)")
    p.add_argument("--races", type=int, help="slap races on each path and condition (default 150, --quick 10)")
    p.add_argument("--only", help="just these parts, comma-separated: startup, memory, idle (and taps), slap, "
                                  "judge (the race judge's accuracy), engines, camera (the pile watcher at 30 fps, "
                                  "Slapjack on the camera feed)")
    p.add_argument("--pi", action="store_true", help="Pi-like conditions: one core capped at 40%% (cgroup CPU "
                                                     "controller, 5 ms period) and every durable commit 20 ms")
    p.add_argument("--cpu-share", type=float, metavar="F", help="cap the app and bare Kivy at this share of one core")
    p.add_argument("--commit-delay-ms", type=float, metavar="N",
                   help="every durable commit of the store takes at least N ms (an SD card; --pi: 20)")
    return p


def code_path() -> str:
    """PYTHONPATH with this checkout first, so that a run started from any folder (or again
    under xvfb-run) imports this tree's tools and app."""
    return os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser().parse_args(argv)
    from ui.launcher import needs_virtual_display

    from . import run

    wrong = run.problem(args)
    if wrong is not None:   # said before any virtual screen is started for nothing
        print(wrong, file=sys.stderr)
        return 2
    if needs_virtual_display() and not os.environ.get("SDL_VIDEODRIVER"):
        # Headless: the app and bare Kivy draw on a virtual screen (say so in the figures).
        # On a Pi's own screen, with the kiosk stopped: SDL_VIDEODRIVER=kmsdrm python -m tools.bench
        os.environ["JACK_COMPANION_XVFB"] = "1"
        os.environ["PYTHONPATH"] = code_path()
        # -noreset: the bench starts one app after another; a server reset as one leaves can
        # drop the next as it connects.
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24 -noreset", sys.executable, "-m",
                               "tools.bench", *argv])
    return run.main(args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
