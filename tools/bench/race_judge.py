"""The race judge's accuracy (part of ``python -m tools.bench``): are slaps ranked right when callbacks run late?

Run it alone:  python -m tools.bench.race_judge [--races 10000] [--settle-ms 0] ...

Each race has 2 to 4 pads pressed at known edge times, 1 to 30 ms apart (half of the gaps
under 3 ms). Every press goes through the real path: a mock pin driven with its edge
timestamp, the PadBoard's pin callback and debounce, a queue to the "UI" thread, and the
real RaceJudge there. Each callback is delivered 0 to ``--max-delay-ms`` late (uniform), on
a device thread, while the main thread is kept busy with frames of pure-Python work. Many
tables race at once so that 10,000 races take about a minute.

Delivery models (``--delivery``):
  independent  every press is delayed on its own: a later press can overtake an earlier one
               by up to the whole delay (the harshest reading of "random callback delays").
  ordered      one device thread delivers in edge order, as lgpio's single callback thread
               does: a stall delays everything queued behind it; edges under 2 ms apart
               count as one batch and are handed over later-edge first.

It prints the share of races ranked correctly, the winner's timestamp error and the latency
from the first press to the verdict (median and p99).
"""

from __future__ import annotations

import argparse
import queue
import random
import sys
import threading
import time
from dataclasses import dataclass, field

from companion import config
from companion.race import RaceJudge
from hardware.mock import LateDelivery, MockPads, mock_factory
from hardware.pads import PadBoard

HOLD = 0.08          # how long each pad stays down
LATE_SETTLE = 0.1    # after a race's last edge is driven: its press handed over and debounced (a pad's
                     # settle timer, run on its own thread, can be tens of ms late on a loaded machine)
LEAD = 0.02          # a race is set up this long before it opens
GIVE_UP = 2.0        # a race with no verdict this long after its planned end is counted lost, so a
                     # press that never arrives (a pad left down by the delivery) cannot hang the bench


@dataclass
class Race:
    opened_at: float
    edges: dict[int, float]               # pad -> true edge time
    judge: RaceJudge
    first_callback: float | None = None   # when the first press reached the device callback
    verdict_at: float | None = None
    verdict: object = None
    done_at: float = 0.0                  # when the table is free for the next race
    arrivals: list[int] = field(default_factory=list)   # pads in the order their callbacks ran
    driven: list[float] = field(default_factory=list)     # when each of its edges was driven (device thread)


@dataclass
class Results:
    correct: int = 0
    winner_right: int = 0
    missed: int = 0                       # races where a press came after the verdict
    out_of_order: int = 0                 # races whose callbacks ran out of edge order
    stray: int = 0                        # presses that reached a table with no race open
    lost: int = 0                         # races given up with no verdict (GIVE_UP)
    races: int = 0
    winner_error: list[float] = field(default_factory=list)
    from_edge: list[float] = field(default_factory=list)
    from_callback: list[float] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def busy(seconds: float) -> None:
    """Pure-Python work that holds the interpreter, like building a frame."""
    end = time.perf_counter() + seconds
    x = 0
    while time.perf_counter() < end:
        for i in range(200):
            x += i * i


def plan(rng: random.Random, now: float, pads: int, delivery: str, max_delay: float):
    """Edge times and callback delays for one race."""
    opened = now + LEAD
    count = rng.randint(2, pads)
    order = rng.sample(range(pads), count)
    t = opened + rng.uniform(0.02, 0.06)
    edges = {}
    for pad in order:
        edges[pad] = t
        t += rng.uniform(0.001, 0.003) if rng.random() < 0.5 else rng.uniform(0.003, 0.030)
    delays = {pad: rng.uniform(0.0, max_delay) for pad in order}
    if delivery == "ordered":
        # One thread in edge order: a press cannot be delivered before the one ahead of it...
        # ...except that edges read in one batch (here: under 2 ms apart) are handed over
        # together in line order, not time order: the later edge goes first.
        batches = [[order[0]]]
        for pad in order[1:]:
            if edges[pad] - edges[batches[-1][-1]] < 0.002:
                batches[-1].append(pad)
            else:
                batches.append([pad])
        last = 0.0
        for batch in batches:
            last = max([last] + [edges[pad] + delays[pad] for pad in batch])
            for k, pad in enumerate(reversed(batch)):
                delays[pad] = last + k * 1e-5 - edges[pad]
            last += len(batch) * 1e-5
    return opened, edges, delays


def run(args: argparse.Namespace) -> Results:
    rng = random.Random(args.seed)
    pads_config = dict(config.defaults()["pads"], lights=[])
    inbox: queue.Queue = queue.Queue()     # stands in for Clock.schedule_once
    boards, mocks = [], []
    for table in range(args.tables):
        def on_press(pad, t, table=table):
            inbox.put((table, pad, t, time.monotonic()))
        board = PadBoard(pads_config, pin_factory=mock_factory(), on_press=on_press)
        boards.append(board)
        mocks.append(MockPads(board))
    late = LateDelivery()
    races: list[Race | None] = [None] * args.tables
    free_at = [time.monotonic() + rng.uniform(0, 0.2) for _ in range(args.tables)]
    results = Results()
    started = 0
    window, settle, max_delay = args.window_ms / 1000, args.settle_ms / 1000, args.max_delay_ms / 1000
    try:
        while results.races + results.lost < args.races:
            busy(rng.uniform(0, args.busy_ms / 1000))
            now = time.monotonic()
            for table in range(args.tables):
                if races[table] is None and started < args.races and now >= free_at[table]:
                    opened, edges, delays = plan(rng, now, len(pads_config["buttons"]), args.delivery, max_delay)
                    race = races[table] = Race(opened, edges, RaceJudge(window, settle=settle, opened_at=opened))
                    started += 1
                    for pad, edge in edges.items():
                        drive(late, mocks[table], race, pad, True, edge, delays[pad])
                        drive(late, mocks[table], race, pad, False, edge + HOLD, delays[pad])
                    race.done_at = max(edges.values()) + HOLD + max_delay + pads_config["debounce_ms"] / 1000
            while True:
                try:
                    table, pad, t, called = inbox.get_nowait()
                except queue.Empty:
                    break
                race = races[table]
                if race is None:
                    results.stray += 1
                    continue
                race.arrivals.append(pad)
                race.judge.press(pad, t, time.monotonic())
                if race.first_callback is None or called < race.first_callback:
                    race.first_callback = called
            now = time.monotonic()
            for table, race in enumerate(races):
                if race is None:
                    continue
                if race.verdict is None:
                    verdict = race.judge.poll(now)
                    if verdict is not None:
                        race.verdict, race.verdict_at = verdict, now
                if race.verdict is not None and ended(race, now, pads_config["debounce_ms"] / 1000):
                    score(race, results)
                elif race.verdict is None and now > race.done_at + GIVE_UP:
                    results.lost += 1
                else:
                    continue
                races[table] = None
                free_at[table] = now + rng.uniform(0, 0.02)
    finally:
        late.close()
        # Each gpiozero Button takes up to 0.1 s to stop its hold thread: close them together.
        closers = [threading.Thread(target=board.close) for board in boards]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()
    return results


def drive(late: LateDelivery, pads: MockPads, race: Race, pad: int, pressed: bool, at: float, delay: float) -> None:
    """Drive one edge on the device thread, noting on the race when it was driven."""
    def run():
        try:
            (pads.press if pressed else pads.release)(pad, at)
        finally:
            race.driven.append(time.monotonic())
    late.later(at + delay, run)


def ended(race: Race, now: float, debounce: float) -> bool:
    """A race is scored once its planned time is up and every one of its edges has reached the
    judge: a device thread held up past the planned end (a loaded machine) delivers late, and a
    race scored without those presses would hand them to the table's next race."""
    if now < race.done_at or len(race.driven) < 2 * len(race.edges):
        return False
    return now >= max(race.driven) + debounce + LATE_SETTLE


def score(race: Race, results: Results) -> None:
    truth = sorted(race.edges, key=race.edges.get)
    ranking = list(race.verdict.ranking)
    gathered_in_true_order = [pad for pad in truth if pad in ranking]
    results.races += 1
    results.correct += ranking == gathered_in_true_order and ranking[:1] == truth[:1]
    results.winner_right += ranking[:1] == truth[:1]
    results.missed += bool(race.judge.late)
    results.out_of_order += race.arrivals != truth
    first_edge = race.edges[truth[0]]
    results.winner_error.append(abs(race.verdict.placings[0].at - first_edge))
    results.from_edge.append(race.verdict_at - first_edge)
    results.from_callback.append(race.verdict_at - race.first_callback)


def report(args: argparse.Namespace, results: Results, wall: float) -> None:
    def spread(values: list[float]) -> str:
        return f"median {percentile(values, 50) * 1000:6.2f} ms   p99 {percentile(values, 99) * 1000:6.2f} ms"

    n = max(1, results.races)
    print(f"races: {results.races}, 2-4 pads each, presses 1-30 ms apart; callback delays 0-{args.max_delay_ms:g} ms "
          f"({args.delivery}); main thread busy in 0-{args.busy_ms:g} ms frames; {args.tables} tables at once")
    print(f"judge: window {args.window_ms:g} ms after the first arrival, "
          f"settle {args.settle_ms:g} ms after the earliest edge")
    rows = [
        ("ranked correctly", f"{100 * results.correct / n:7.3f} %  ({results.correct}/{n})"),
        ("winner correct", f"{100 * results.winner_right / n:7.3f} %"),
        ("callbacks out of edge order", f"{100 * results.out_of_order / n:7.3f} % of races"),
        ("a press after the verdict (not ranked)", f"{100 * results.missed / n:7.3f} % of races"),
        ("presses reaching no open race", f"{results.stray}"),
        ("races lost (no verdict)", f"{results.lost}"),
        ("winner timestamp error", spread(results.winner_error)),
        ("latency, first press edge -> verdict", spread(results.from_edge)),
        ("latency, first callback -> verdict", spread(results.from_callback)),
        ("wall time", f"{wall:.0f} s"),
    ]
    for label, value in rows:
        print(f"{label + ':':<40} {value}")


def main(argv: list[str] | None = None) -> int:
    defaults = config.defaults()["pads"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--races", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=100, help="tables racing at once")
    parser.add_argument("--max-delay-ms", type=float, default=50.0, help="callback delays are uniform in 0..this")
    parser.add_argument("--delivery", choices=("independent", "ordered"), default="independent")
    parser.add_argument("--window-ms", type=float, default=float(defaults["race_window_ms"]))
    parser.add_argument("--settle-ms", type=float, default=0.0)
    parser.add_argument("--busy-ms", type=float, default=8.0, help="main-thread frames last 0..this")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.monotonic()
    results = run(args)
    report(args, results, time.monotonic() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
