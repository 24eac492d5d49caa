"""Engine benchmark (a script, not a test): how fast the rules fold actions, with no screen at all.

Run it:  python -m tools.bench.engines [--runs 7] [--json]
(``python -m tools.bench`` runs the same functions and puts the figures in its table.)

For each game whose rules exist it makes a long legal log by random play with real cards
(a shuffled double deck, real hands, seeded, so every run folds the same actions), then:

* actions/s: the whole log pushed through ``Game.push`` (check, copy, apply, keep a snapshot),
  from a fresh game each run;
* refold of 500 actions: ``Game.from_actions`` on the first 500 actions, what an edit of an
  early round or a resume from the store costs; and the same through the store
  (``Store.load``: read the rows from SQLite, parse, refold);
* undo through the store: ``Session.undo`` on a 500-action game (a snapshot pop plus one
  durable SQLite write), which is what the Undo button costs;
* Slapjack: whole computer-only games per second (``companion.simulation.play_game``,
  4 players, the default reaction model).

The logs come from each game's bench recipe (``ui/games/<game>/bench.py``, named by the game's
declaration in ``ui/games/``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.engine import Game
from companion.games import GAMES

REFOLD_ACTIONS = 500


def recipe(game: str):
    """The bench recipe a game's UI declaration names."""
    from ui.games import ui_for

    return importlib.import_module(ui_for(game).bench)


def log_for(game: str, actions: int, seed: int = 1) -> tuple[dict, list[dict], str]:
    """A legal log of ``game`` with ``actions`` actions (or the longest random game found, if the
    game cannot run that long), with a note saying how it was made."""
    return recipe(game).long_log(actions, seed)


# -- measurements ---------------------------------------------------------------------------------------

def spread(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"min": ordered[0], "median": statistics.median(ordered), "max": ordered[-1],
            "p99": ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))], "n": len(ordered)}


def push_rate(header: dict, actions: list[dict], runs: int) -> dict:
    """Actions per second through Game.push, from a fresh game each run."""
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        game = Game(header)
        for action in actions:
            game.push(action)
        rates.append(len(actions) / (time.perf_counter() - start))
    return spread(rates)


def refold_ms(header: dict, actions: list[dict], runs: int) -> dict:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        Game.from_actions(header, actions)
        times.append((time.perf_counter() - start) * 1000)
    return spread(times)


def store_figures(header: dict, actions: list[dict], runs: int, commit_delay_ms: float = 0.0) -> dict:
    """Store.load (SQLite + parse + refold) and Session.undo (pop + durable write) of this log."""
    from companion.session import Session
    from companion.store import Store

    with tempfile.TemporaryDirectory(prefix="jack-companion-engine-bench-") as folder:
        store = Store(Path(folder) / "companion.sqlite3", min_commit_s=commit_delay_ms / 1000)
        try:
            game_id = store.new_game(header)
            for action in actions:
                store.append(game_id, action)
            loads, undos = [], []
            for _ in range(runs):
                start = time.perf_counter()
                session = Session.resume(store, game_id)
                loads.append((time.perf_counter() - start) * 1000)
                last = session.game.actions[-1]
                start = time.perf_counter()
                session.undo()
                undos.append((time.perf_counter() - start) * 1000)
                session.play(last)   # put it back for the next run
        finally:
            store.close()
    return {"load_ms": spread(loads), "undo_ms": spread(undos)}


def slapjack_games_per_second(games: int, players: int = 4, seed: int = 7) -> dict:
    from companion.simulation import play_game

    seeds = random.Random(seed)
    rates, cards = [], []
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(games):
            cards.append(play_game(players, seeds.randrange(2**32)).cards_turned)
        rates.append(games / (time.perf_counter() - start))
    return {**spread(rates), "players": players, "games_per_run": games,
            "median_cards_turned": statistics.median(cards)}


def run(runs: int = 7, quick: bool = False, commit_delay_ms: float = 0.0) -> dict:
    """Every engine figure, for each game whose rules exist."""
    results: dict = {"games": {}, "notes": []}
    for name, info in GAMES.items():
        try:
            header, actions, how = log_for(name, REFOLD_ACTIONS)
        except KeyError:
            results["notes"].append(f"{info.title}: no random player for it here yet, skipped")
            continue
        entry = {"log": how, "actions": len(actions),
                 "push_per_s": push_rate(header, actions, max(3, runs)),
                 "refold_ms": refold_ms(header, actions, max(5, runs * 3))}
        entry.update(store_figures(header, actions, max(3, runs), commit_delay_ms))
        results["games"][name] = entry
    if "slapjack" in GAMES:
        results["slapjack_sim"] = slapjack_games_per_second(10 if quick else 60)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--commit-delay-ms", type=float, default=0.0, help="every durable commit takes at least this")
    args = parser.parse_args(argv)
    results = run(args.runs, args.quick, args.commit_delay_ms)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for name, entry in results["games"].items():
        print(f"{name:<15} {entry['actions']:>4} actions ({entry['log']})")
        print(f"  push      {entry['push_per_s']['median']:>10,.0f} actions/s (min {entry['push_per_s']['min']:,.0f})")
        print(f"  refold    {entry['refold_ms']['median']:>10.2f} ms median, p99 {entry['refold_ms']['p99']:.2f} ms")
        print(f"  load      {entry['load_ms']['median']:>10.2f} ms median (Store.load: SQLite + refold)")
        print(f"  undo      {entry['undo_ms']['median']:>10.2f} ms median (Session.undo, durable write)")
    if "slapjack_sim" in results:
        sim = results["slapjack_sim"]
        print(f"slapjack simulate: {sim['median']:.1f} games/s ({sim['players']} players, "
              f"median {sim['median_cards_turned']:g} cards turned)")
    for note in results["notes"]:
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
