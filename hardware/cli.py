"""``jack-companion pads``: the wiring check for the slap pads.

It lights each pad in turn (watch each light come on), then lists every press and release
with its timestamp and the gap to the previous press, and reports stuck pads. It stops on
Ctrl-C, or after ``--seconds``.

With ``--mock`` it runs on mock pins and plays a short scripted session by itself (a tap, a
press with contact bounce, two pads 2.5 ms apart, a pad held until it is reported stuck),
then stops: the same code path the real pads take, to see what the check prints.
Exit status: 0, or 1 if a pad was still stuck at the end.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time

from companion import config as settings
from companion import paths
from companion.race import ms


def add_commands(sub) -> None:
    p = sub.add_parser("pads", help="wiring check for the slap pads: lights, presses, stuck pads")
    p.add_argument("--mock", action="store_true", help="mock pads playing a scripted session, then stop")
    p.add_argument("--data-dir", help="folder holding config.toml")
    p.add_argument("--seconds", type=float, help="stop after this many seconds (default: Ctrl-C; mock: the script)")
    p.set_defaults(func=cmd_pads)


def _mock_script(board, done: threading.Event, stop: threading.Event) -> None:
    """A short session on mock pins, played on its own thread like a device thread."""
    pads = board.mock
    last = board.count - 1

    def pause(seconds: float) -> bool:
        return not stop.wait(seconds)

    try:
        if not pause(0.1):
            return
        pads.press(0)
        if not pause(0.12):
            return
        pads.release(0)
        if not pause(0.2):
            return
        pads.chatter(1, time.monotonic())          # one press despite the bounce
        if not pause(0.15):
            return
        pads.release(1)
        if not pause(0.2):
            return
        t = time.monotonic()
        pads.deliver([(3 % board.count, True, t + 0.0025), (2, True, t)])   # the later edge arrives first
        if not pause(0.1):
            return
        pads.release(2)
        pads.release(3 % board.count)
        if not pause(0.2):
            return
        pads.press(last)                           # held down until reported stuck
        if not pause(board.stuck_after + 0.6):
            return
        pads.release(last)
        pause(0.2)
    finally:
        done.set()


def cmd_pads(args: argparse.Namespace) -> int:
    # Imported here: gpiozero costs every other command (the app's start among them) 40 ms.
    from .pads import PadError, open_pads

    folder = paths.data_dir(args.data_dir)
    conf, problems = settings.load(paths.config_path(folder))
    for problem in problems:
        print(problem, file=sys.stderr)
    events: queue.Queue = queue.Queue()
    try:
        board = open_pads(conf, mock=True if args.mock else None,
                          on_press=lambda pad, t: events.put(("press", pad, t)),
                          on_release=lambda pad, t: events.put(("release", pad, t)),
                          work_dir=folder)
    except PadError as exc:
        print(exc, file=sys.stderr)
        return 2
    out = sys.stdout
    start = board.now()
    deadline = None if args.seconds is None else start + args.seconds
    try:
        print(f"{board.count} pads: {board.reason}.", file=out)
        print(f"Timing: {board.timing}.", file=out)
        if not board.timestamps_are_edge:
            print("Warning: without edge timestamps, slaps a few ms apart cannot be told apart.", file=out)
        if board.status_text:
            print(board.status_text, file=out)
        _light_check(board, out, 0.05 if args.mock else 0.5)
        print("Press each pad in turn" + (" (mock: playing a scripted session)" if args.mock else "; Ctrl-C to stop")
              + ".", file=out, flush=True)
        script_done = threading.Event()
        stop = threading.Event()
        if args.mock:
            threading.Thread(target=_mock_script, args=(board, script_done, stop), daemon=True).start()
        presses = [0] * board.count
        try:
            _listen(board, events, out, start, deadline, script_done if args.mock else None, presses)
        except KeyboardInterrupt:
            print("", file=out)
        finally:
            stop.set()
        stuck = board.stuck_pads()
        _summary(board, out, presses, stuck)
        return 1 if stuck else 0
    finally:
        board.close()


def _light_check(board, out, seconds: float) -> None:
    lit = [i for i in range(board.count) if board.lights.has_light(i)]
    if not lit:
        print("No lights configured.", file=out)
        return
    for i in lit:
        pin = board.light_pin(i)
        print(f"Lighting {board.names[i]}" + (f" ({pin})" if pin else ""), file=out, flush=True)
        board.lights.set(i, True)
        time.sleep(seconds)
        board.lights.set(i, False)
    board.lights.all_off()


def _listen(board, events: queue.Queue, out, start: float, deadline: float | None,
            script_done: threading.Event | None, presses: list[int]) -> None:
    previous: tuple[int, float] | None = None
    reported_stuck: set[int] = set()
    next_check = 0.0
    while True:
        now = board.now()
        if deadline is not None and now >= deadline:
            return
        if script_done is not None and script_done.is_set() and events.empty():
            return
        try:
            kind, pad, t = events.get(timeout=0.05)
        except queue.Empty:
            pass
        else:
            pin = board.button_pin(pad)
            where = f" {pin:<7}" if pin else ""
            line = f"{t - start:10.6f} s  {board.names[pad]:<6} {kind:<7}{where}"
            if kind == "press":
                presses[pad] += 1
                if previous is not None:
                    who, gap = board.names[previous[0]], t - previous[1]
                    if gap >= 0:
                        line += f"  +{ms(gap)} after {who}'s press"
                    else:   # its callback came later than the other's, its edge earlier
                        line += f"  {ms(-gap)} BEFORE {who}'s press (reported late)"
                previous = (pad, t)
            print(line.rstrip(), file=out, flush=True)
        if now >= next_check:
            next_check = now + 0.1
            stuck = set(board.stuck_pads(now))
            for pad in sorted(stuck - reported_stuck):
                pin = board.button_pin(pad)
                where = f" ({pin})" if pin else ""
                print(f"STUCK: {board.names[pad]}{where} held down for {board.held_for(pad, now) or 0:.1f} s: "
                      "release it, or check its button and wiring", file=out, flush=True)
            for pad in reported_stuck - stuck:
                print(f"{board.names[pad]} is free again.", file=out, flush=True)
            reported_stuck = stuck


def _summary(board, out, presses: list[int], stuck: list[int]) -> None:
    bounces = board.bounces_ignored()
    print("Summary:", file=out)
    for i in range(board.count):
        notes = []
        if presses[i] == 0:
            notes.append("never pressed: check its button and wiring")
        if bounces[i]:
            notes.append(f"{bounces[i]} bounce edges ignored")
        if i in stuck:
            notes.append("STUCK")
        extra = f" ({'; '.join(notes)})" if notes else ""
        print(f"  {board.names[i]}: {presses[i]} press{'es' if presses[i] != 1 else ''}{extra}", file=out)
    print("Stuck pads: " + (", ".join(board.names[i] for i in stuck) if stuck else "none"), file=out, flush=True)
