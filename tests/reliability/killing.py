"""Kill the app with SIGKILL at random moments of a scripted game, restart it, and check the
resumed game equals the log up to the last action that was shown (and nothing is lost)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from companion.games import GAMES

REPO = Path(__file__).resolve().parent.parent.parent


@dataclass
class KillResult:
    game: str
    shown: int          # actions a player had seen when the process died
    kept: int           # actions in the resumed game
    resumed_ok: bool


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def kill_once(game: str, seed: int, rng: random.Random) -> KillResult:
    with tempfile.TemporaryDirectory(prefix="companion-kill-") as folder:
        child = subprocess.Popen([sys.executable, "-m", "tests.reliability.scripted_app", "play", folder, game,
                                  str(seed)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                 cwd=REPO, env=_env())
        # Kill after a random number of shown actions, a random moment into the next one.
        target = rng.randint(0, 6)
        shown = 0
        assert child.stdout is not None
        while shown < target:
            line = child.stdout.readline()
            if not line or line.strip() == "done":
                break
            shown = int(line.split()[1])
        time.sleep(rng.uniform(0, 0.25))
        os.kill(child.pid, signal.SIGKILL)
        # Anything shown between the last read and the kill counts too.
        rest, _ = child.communicate(timeout=30)
        for line in rest.splitlines():
            if line.startswith("shown "):
                shown = int(line.split()[1])
        checked = subprocess.run([sys.executable, "-m", "tests.reliability.scripted_app", "resume", folder],
                                 capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
        if checked.returncode != 0:
            raise AssertionError(f"the app did not start again after the kill:\n{checked.stderr[-2000:]}")
        report = json.loads(checked.stdout.strip().splitlines()[-1])
        if report["game_id"] is None:
            # Killed before the game was set up (or after it finished): nothing was shown.
            return KillResult(game, shown, 0, shown == 0)
        kept = len(report["actions"])
        return KillResult(game, shown, kept, kept >= shown and report["screen"] == game)


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--games", default=",".join(GAMES), help="games to kill, by log name (every registered game)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = args.games.split(",")
    results = []
    started = time.monotonic()
    for i in range(args.kills):
        results.append(kill_once(games[i % len(games)], rng.randrange(10 ** 6), rng))
    lost = [r for r in results if not r.resumed_ok]
    print(f"kills: {len(results)}  games: {', '.join(games)}  actions shown before the kills: "
          f"{sum(r.shown for r in results)}  lost: {len(lost)}  ({time.monotonic() - started:.0f} s)")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
