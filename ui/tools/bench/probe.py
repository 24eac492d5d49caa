"""The bench's probe: the real app (or a Kivy test bench) in a child process, reporting what it sees.

``jack-companion bench`` (``run.py`` here) starts this module and reads its reports; it is not
meant to be run by hand, but it can be::

    python -m ui.tools.bench.probe app --data-dir DIR [--resume] [--exit]
        the real app, started through the real launcher (``run``, frame cap 30), reporting the
        first frame on screen, then (unless --exit) taking commands on stdin, one JSON a line:
          {"cmd": "open", "game": "jacks", "game_id": 3}   show that stored game on its screen
          {"cmd": "tap", "game": "jacks", "runs": 5}       tap game actions, time each to the frame
          {"cmd": "slap", "game_id": 4, "races": 150, "busy_ms": 8, "redraw": true}
                                                           races on the Slapjack screen (a judge-only
                                                           game), pads pressed on the app's mock pins
          {"cmd": "rss"}                                   peak and current resident memory
          {"cmd": "cpu"}                                   its own CPU time (where there is no /proc)
          {"cmd": "quit"}
        with --commit-delay-ms N, every durable commit of the app's store takes at least N ms.
    python -m ui.tools.bench.probe slap --races N [--busy-ms 8] [--max-delay-ms 0] [--not-free]
        a window with the app's Kivy settings and the pads' documented path to the screen (mock
        pins driven at known edge times -> PadBoard -> Clock.schedule_once_free -> RaceRunner ->
        a label), the main thread kept busy drawing; each race timed from its first edge to the
        frame that shows the winner.

Reports go to stdout as lines ``@bench {json}``; anything else on stdout is ignored.

How a frame is known to be on screen: ``Window.flip`` is wrapped, so the time is taken right
after the buffer swap. Whether a frame shows a change is read from the pixels: before each
swap the watched rectangles are read back from the frame just drawn (``glReadPixels`` of a few
small areas), and the frame that "shows the effect" is the first whose pixels there equal the
final, settled picture. Frames are counted with ``Clock.frames`` (one per pass of Kivy's loop,
drawn or not), so "frames" means frames of the app's own loop at its real cap.

Nothing here runs while the app is idle: no timer, no polling. Commands arrive on a thread
blocked on stdin, which hands them to Kivy's main thread.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import zlib
from pathlib import Path

SETTLE_FRAMES = 8       # frames with nothing drawn after which a change is over
HOLD_FRAMES = 2         # a finger stays down this many frames (about 67 ms at 30 fps)
_OUT = sys.stdout


def emit(event: str, **data) -> None:
    _OUT.write("@bench " + json.dumps({"event": event, **data}) + "\n")
    _OUT.flush()


def memory() -> dict:
    """Peak resident memory (the kernel's high-water mark) and the current one, in MiB."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_mib = peak / 1024 / 1024 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB elsewhere
    found = {}
    try:
        with open("/proc/self/status") as status:
            for line in status:
                key = line.split(":")[0]
                if key in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
                    found[key] = round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return {"peak_mib": found.get("VmHWM", round(peak_mib, 1)), "current_mib": found.get("VmRSS"),
            "anon_mib": found.get("RssAnon"), "file_mib": found.get("RssFile")}


# -- frames -----------------------------------------------------------------------------------------

class FrameWatch:
    """Every buffer swap, timed right after it; optionally the pixels of some rectangles of the
    frame just drawn (read before the swap), to tell which frame first shows a change."""

    def __init__(self):
        from kivy.clock import Clock
        from kivy.core.window import Window

        self.Clock, self.Window = Clock, Window
        self.flips = 0
        self.last_flip_frame = 0
        self.last_flip_time = None
        self.listeners: list = []       # f(t, frame, hashes) after each swap
        self.rects: list[tuple[int, int, int, int]] = []
        swap = Window.flip

        def flip():
            hashes = self._read() if self.rects else None
            swap()
            t = time.monotonic()
            self.flips += 1
            self.last_flip_frame = Clock.frames
            self.last_flip_time = t
            for listener in list(self.listeners):
                listener(t, Clock.frames, hashes)

        Window.flip = flip

    def _read(self) -> tuple:
        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

        return tuple(zlib.crc32(glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE)) for x, y, w, h in self.rects)

    def watch(self, widgets) -> None:
        """Watch where ``widgets`` are on the window (in window pixels, clipped to it)."""
        width, height = self.Window.size
        rects = []
        for widget in widgets:
            x0, y0 = widget.to_window(widget.x, widget.y)
            x1, y1 = widget.to_window(widget.right, widget.top)
            x0, y0 = max(0, int(x0)), max(0, int(y0))
            x1, y1 = min(width, int(x1 + 0.999)), min(height, int(y1 + 0.999))
            if x1 > x0 and y1 > y0:
                rects.append((x0, y0, x1 - x0, y1 - y0))
        self.rects = rects

    def after_settled(self, callback, frames: int = SETTLE_FRAMES) -> None:
        """``callback()`` once ``frames`` frames have passed with nothing drawn."""
        Clock = self.Clock

        def check(dt):
            if Clock.frames - self.last_flip_frame >= frames:
                event.cancel()
                callback()

        event = Clock.schedule_interval(check, 0)


def read_commands(handle) -> None:
    """Commands from stdin, one JSON a line, each handed to Kivy's main thread."""
    from kivy.clock import Clock

    def reader():
        for line in sys.stdin:
            line = line.strip()
            if line:
                command = json.loads(line)
                Clock.schedule_once(lambda dt, c=command: handle(c))

    threading.Thread(target=reader, name="bench-commands", daemon=True).start()


class TapTimer:
    """One tap on a game action, timed from the lift to the first frame that shows its final effect."""

    def __init__(self, watch: FrameWatch, finger):
        self.watch, self.finger = watch, finger

    def measure(self, target, effect_widgets, done, hold_frames: int = HOLD_FRAMES) -> None:
        """Tap ``target`` (a widget or an (x, y)); ``done(result)`` with a dict once it has settled."""
        watch = self.watch
        record: list[tuple[float, int, tuple]] = []
        lift: dict = {}

        def on_frame(t, frame, hashes):
            record.append((t, frame, hashes))

        def on_release(t, frame):
            lift.update(t=t, frame=frame, index=len(record))

        def finish():
            watch.listeners.remove(on_frame)
            watch.rects = []
            if not lift:
                done({"error": "the tap never reached the app"})
                return
            before = record[lift["index"] - 1][2] if lift["index"] > 0 else None
            after = record[lift["index"]:]
            if not after:
                done({"error": "nothing was drawn after the tap"})
                return
            final = after[-1][2]
            if before is not None and final == before:
                done({"error": "the watched area did not change"})
                return
            t, frame, _ = next(r for r in after if r[2] == final)
            done({"ms": (t - lift["t"]) * 1000.0, "frames": frame - lift["frame"] + 1,
                  "last_change_frames": after[-1][1] - lift["frame"] + 1})

        def start():
            watch.watch(effect_widgets)
            watch.listeners.append(on_frame)
            watch.Window.canvas.ask_update()     # one frame of the picture before the tap
            if hasattr(target, "to_window"):
                self.finger.tap_widget(target, hold_frames=hold_frames, on_release=on_release)
            else:
                self.finger.tap(*target, hold_frames=hold_frames, on_release=on_release)
            watch.Clock.schedule_once(lambda dt: watch.after_settled(finish), 0.05 + hold_frames / 30)

        start()


# -- the app ------------------------------------------------------------------------------------------

def tap_steps(screen, game: str):
    """(setup taps, the measured tap, watched widgets, name) for the game's action (from its bench
    recipe), then for its Undo."""
    import importlib

    from ui.games import ui_for

    steps = importlib.import_module(ui_for(game).bench).tap_steps(screen)
    watched = steps[-1][2]
    return [*steps, ([], screen.ids.undo_button, watched, "undo")]


def run_app(args) -> int:
    from ui import launcher

    state: dict = {"first": None}
    original = launcher.prepare_kivy

    def prepare(*a, **k):
        original(*a, **k)
        if args.commit_delay_ms:
            # An SD card: the app's store, every durable commit at least this long (companion/store.py).
            # Patched here, once Kivy's config is set: ui.app imports Kivy.
            import functools

            import ui.app
            from companion.store import Store

            ui.app.Store = functools.partial(Store, min_commit_s=args.commit_delay_ms / 1000)
        hooks(state, args)

    launcher.prepare_kivy = prepare
    argv = ["run", "--data-dir", args.data_dir, "--mock"]
    return launcher.main(argv)


def hooks(state: dict, args) -> None:
    """Put the probe into the app: frames, a scripted finger, and what to report when."""
    from kivy.app import App
    from kivy.clock import Clock

    from ui.tools.driver import Finger

    watch = FrameWatch()
    finger = Finger().install()
    timer = TapTimer(watch, finger)

    def current_screen():
        app = App.get_running_app()
        manager = getattr(app, "manager", None) if app else None
        return manager.current if manager is not None else None

    def on_frame(t, frame, hashes):
        screen = current_screen()
        if state["first"] is None:
            state["first"] = screen
            emit("first_frame", t=t, frame=frame, screen=screen)
            if args.resume:
                home = App.get_running_app().manager.get_screen("home")
                if not home.resume_text:
                    emit("error", message="no unfinished game to resume")
                else:
                    finger.tap_widget(home.ids.resume_button, hold_frames=0,
                                      on_release=lambda t, frame: emit("resume_tap", t=t, frame=frame))
        if args.resume and "resumed" not in state and screen not in (None, "home"):
            state["resumed"] = screen
            emit("resumed_frame", t=t, frame=frame, screen=screen)
        if state.get("settle_armed") is None and (not args.resume or "resumed" in state):
            state["settle_armed"] = True
            watch.after_settled(settled)

    def settled():
        watch.listeners.remove(on_frame)
        from ui.games import GAME_UIS

        app = App.get_running_app()
        emit("settled", t=watch.last_flip_time, frame=watch.last_flip_frame, flips=watch.flips,
             screen=current_screen(), memory=memory(), renderer=gl_renderer(), clock=clock_kind(),
             available=[game for game in GAME_UIS if app.game_available(game)])
        if args.exit:
            App.get_running_app().stop()
        else:
            read_commands(lambda command: handle(command))

    def handle(command: dict) -> None:
        try:
            kind = command["cmd"]
            if kind == "open":
                open_game(command)
            elif kind == "tap":
                tap_game(command)
            elif kind == "rss":
                emit("rss", memory=memory())
            elif kind == "slap":
                slap_game(command)
            elif kind == "cpu":
                emit("cpu", seconds=time.process_time())
            elif kind == "quit":
                App.get_running_app().stop()
        except Exception as exc:   # report, keep the app up
            import traceback

            emit("error", message=f"{exc.__class__.__name__}: {exc}", trace=traceback.format_exc())

    def open_game(command: dict) -> None:
        from companion.session import Session

        app = App.get_running_app()
        session = Session.resume(app.store, command["game_id"])
        screen = app.open_session(session)
        watch.after_settled(lambda: emit("opened", game=command["game"], screen=screen.name, memory=memory()))

    def tap_game(command: dict) -> None:
        app = App.get_running_app()
        screen = app.manager.current_screen
        results: list[dict] = []
        runs = int(command.get("runs", 5))

        def one_run(left: int) -> None:
            if left == 0:
                emit("taps", game=command["game"], results=results, memory=memory())
                return
            steps = tap_steps(screen, command["game"])

            def next_step():
                if not steps:
                    one_run(left - 1)
                    return
                setup, target, watched, name = steps.pop(0)
                for button in setup:
                    finger.tap_widget(button, hold_frames=HOLD_FRAMES)
                wait = (len(setup) * (HOLD_FRAMES + 1) + 2) / 30

                def measure(dt):
                    watch.after_settled(lambda: timer.measure(target, watched, lambda r: record(name, r)), 2)

                Clock.schedule_once(measure, wait)

            def record(name, result):
                results.append({"action": name, **result})
                next_step()

            next_step()

        one_run(runs)

    def slap_game(command: dict) -> None:
        """Races on the Slapjack screen of a judge-only game, pads pressed on mock pins."""
        import random

        from companion.session import Session

        app = App.get_running_app()
        screen = app.open_session(Session.resume(app.store, command["game_id"]))
        rng = random.Random(command.get("seed", 1))
        redraw = bool(command.get("redraw", True))

        def go():
            board = screen.link.board
            if board is None or board.mock is None:
                emit("error", message="the Slapjack screen opened no mock pads")
                return
            pads = sorted(screen.pads.values())
            seat_of_pad = {pad: screen.players.index(name) for name, pad in screen.pads.items()}
            pad_of_seat = {seat: pad for pad, seat in seat_of_pad.items()}

            def ranking():
                race = screen.state.race
                return [pad_of_seat[seat] for seat, _ in race.ranked()] if race is not None else []

            def between():
                if screen.verdict_waiting:
                    screen.judge(True)

            def done(results):
                busy.cancel()
                screen.unbind(verdict_text=changed)
                emit("slap", results=results, memory=memory(), window_ms=screen._window() * 1000,
                     busy_ms=command.get("busy_ms", 8), clock=clock_kind(), redraw=redraw,
                     path="the Slapjack screen, race judge only (feed none)")

            def changed(*_):
                races.verdict_set()

            races = SlapRaces(watch, board, pads, screen.ids.verdict_label, int(command.get("races", 50)), rng,
                              float(command.get("max_delay_ms", 0)), ranking, between, done)
            screen.bind(verdict_text=changed)
            busy = busy_drawing(rng, float(command.get("busy_ms", 8)), redraw)
            races.start()

        watch.after_settled(go)

    watch.listeners.append(on_frame)


def clock_kind() -> str:
    """Which Kivy clock runs the loop (``KIVY_CLOCK`` wins over the config, as in Kivy)."""
    from kivy.config import Config

    return os.environ.get("KIVY_CLOCK") or Config.get("kivy", "kivy_clock")


def gl_renderer() -> str:
    try:
        from kivy.graphics.opengl import GL_RENDERER, glGetString

        value = glGetString(GL_RENDERER)
        return value.decode() if isinstance(value, bytes) else str(value)
    except Exception:
        return "unknown"


# -- the slap verdict -----------------------------------------------------------------------------------

def busy_drawing(rng, busy_ms: float, redraw: bool = True):
    """Keep the main thread busy drawing: every frame 0..busy_ms of pure-Python work, and (with
    ``redraw``) the whole window redrawn, as Kivy does whenever anything on screen moves.
    Returns the Clock event (cancel it to stop)."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    def busy(dt):
        end = time.perf_counter() + rng.uniform(0, busy_ms / 1000)
        x = 0
        while time.perf_counter() < end:
            for i in range(200):
                x += i * i
        if redraw:
            Window.canvas.ask_update()

    return Clock.schedule_interval(busy, 0)


class SlapRaces:
    """Races on mock pads pressed at known edge times, as a player's hand would: each edge is
    driven on a device thread at its own time (plus 0..max_delay_ms, a late callback), and the
    race is timed from its first edge to the first frame whose pixels show the final verdict.

    The caller says when the verdict is set (:meth:`verdict_set`), which pads it ranked in
    which order (``ranking()``), and what to do between races (``between()``)."""

    HOLD = 0.08

    def __init__(self, watch: FrameWatch, board, pads: list[int], verdict_widget, races: int, rng,
                 max_delay_ms: float, ranking, between, done):
        from hardware.mock import LateDelivery

        self.watch, self.board, self.pads, self.widget = watch, board, pads, verdict_widget
        self.left, self.rng, self.max_delay = races, rng, max_delay_ms / 1000
        self.ranking, self.between, self.done = ranking, between, done
        self.late = LateDelivery()
        self.results: list[dict] = []
        self.race: dict | None = None

    def start(self) -> None:
        from kivy.clock import Clock

        Clock.schedule_once(lambda dt: self._race(), 0.3 + self.rng.uniform(0, 1 / 30))

    def verdict_set(self) -> None:
        if self.race is not None and "verdict_set" not in self.race:
            self.race["verdict_set"] = time.monotonic()
            self.watch.watch([self.widget])   # from here every frame is read, to find the one showing it

    def _race(self) -> None:
        from kivy.clock import Clock

        rng = self.rng
        now = time.monotonic()
        order = rng.sample(self.pads, rng.randint(2, min(4, len(self.pads))))
        t = now + rng.uniform(0.02, 0.06)
        edges = {}
        for pad in order:
            edges[pad] = t
            t += rng.uniform(0.001, 0.003) if rng.random() < 0.5 else rng.uniform(0.003, 0.030)
        frames: list = []

        def listener(t, frame, hashes):
            frames.append((t, hashes))
            if hashes is not None and "verdict_set" not in self.race:
                # The picture before the verdict is known: stop reading pixels until the verdict
                # is set. A read waits for the renderer while holding Python's lock, which would
                # hold back the presses' device thread: the probe's cost, not the app's.
                self.watch.rects = []

        self.race = {"edges": edges, "frames": frames, "listener": listener}
        self.watch.watch([self.widget])
        self.watch.listeners.append(listener)
        mock = self.board.mock
        for pad, edge in edges.items():
            delay = rng.uniform(0, self.max_delay)
            self.late.drive(mock, pad, True, edge, delay)
            self.late.drive(mock, pad, False, edge + self.HOLD, delay)
        done_at = max(edges.values()) + self.HOLD + self.max_delay + self.board.debounce + 0.15
        Clock.schedule_once(lambda dt: self._end(), done_at - time.monotonic())

    def _end(self) -> None:
        from kivy.clock import Clock

        race = self.race
        self.watch.listeners.remove(race["listener"])
        self.watch.rects = []
        edges = race["edges"]
        first = min(edges.values())
        truth = sorted(edges, key=edges.get)
        frames = race["frames"]
        set_at = race.get("verdict_set")
        frames = [(t, hashes) for t, hashes in frames if hashes is not None]
        before = [hashes for t, hashes in frames if set_at is None or t < set_at]
        shown = [(t, hashes) for t, hashes in frames
                 if set_at is not None and t >= set_at and (not before or hashes != before[-1])]
        if not shown:
            self.results.append({"error": "no verdict shown"})
        else:
            # The winner shows in the first frame drawn after the verdict; presses that come
            # after the window join the race as they arrive and their gaps are added to it.
            final = frames[-1][1]
            complete = next(t for t, hashes in shown if hashes == final)
            ranking = [p for p in self.ranking() if p in edges]
            self.results.append({
                "ms": (shown[0][0] - first) * 1000.0,
                "complete_ms": (complete - first) * 1000.0,
                "verdict_ms": (set_at - first) * 1000.0,
                "winner_right": ranking[:1] == truth[:1],
                "ranked_right": ranking == [p for p in truth if p in ranking],
            })
        self.race = None
        self.between()
        self.left -= 1
        if self.left <= 0:
            self.late.close()
            self.done(self.results)
        else:
            Clock.schedule_once(lambda dt: self._race(), 0.25 + self.rng.uniform(0, 1 / 30))


def run_slap(args) -> int:
    """The pads' documented path to the screen, in a window of its own (no game screen)."""
    import random
    import tempfile

    from ui.launcher import prepare_kivy

    prepare_kivy(Path(tempfile.mkdtemp(prefix="jack-companion-bench-")), "800x480", max_fps=30)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    from companion import config as settings
    from companion.race import RaceJudge, RaceRunner
    from hardware.pads import open_pads

    pads_config = settings.defaults()["pads"]
    window = pads_config["race_window_ms"] / 1000
    rng = random.Random(args.seed)
    # As hardware/pads.py says: presses and the window's timer as "free" events (ui/kivy_setup.py).
    schedule = Clock.schedule_once if args.not_free else Clock.schedule_once_free

    class SlapBench(App):
        def build(self):
            self.verdict = Label(text="", font_size="40sp")
            return self.verdict

        def on_start(self):
            watch = FrameWatch()
            self.board = open_pads(pads_config, mock=True, on_press=self.on_press)
            self.runner = None
            self.busy = busy_drawing(rng, args.busy_ms)
            self.races = SlapRaces(watch, self.board, list(range(self.board.count)), self.verdict, args.races, rng,
                                   args.max_delay_ms, ranking=lambda: self.last_ranking, between=self.between,
                                   done=self.finish)
            self.last_ranking = []
            self.between()
            self.races.start()

        def between(self):
            self.verdict.text = ""
            judge = RaceJudge(window, held=self.board.held_pads())
            self.runner = RaceRunner(judge, now=time.monotonic,
                                     schedule=lambda delay, fn: schedule(lambda dt: fn(), delay),
                                     on_verdict=self.show_verdict)

        # The pads' documented path (hardware/pads.py): device thread -> Clock -> RaceRunner.
        def on_press(self, pad, t):
            arrived = self.board.now()
            schedule(lambda dt: self.runner.press(pad, t, arrived), 0)

        def show_verdict(self, verdict):
            self.races.verdict_set()
            self.last_ranking = list(verdict.ranking)
            self.verdict.text = "\n".join(verdict.describe())

        def finish(self, results):
            self.busy.cancel()
            emit("slap", results=results, memory=memory(), window_ms=window * 1000, busy_ms=args.busy_ms,
                 clock=clock_kind(), path="pads path (hardware/pads.py recipe), one label")
            self.board.close()
            self.stop()

    SlapBench().run()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.tools.bench.probe")
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("app")
    p.add_argument("--data-dir", required=True)
    p.add_argument("--resume", action="store_true", help="tap Resume as soon as home is on screen")
    p.add_argument("--exit", action="store_true", help="quit once the start-up has settled")
    p.add_argument("--commit-delay-ms", type=float, default=0.0, help="every durable commit of the store takes "
                                                                     "at least this (an SD card)")
    p = sub.add_parser("slap")
    p.add_argument("--races", type=int, default=50)
    p.add_argument("--busy-ms", type=float, default=8.0)
    p.add_argument("--max-delay-ms", type=float, default=0.0, help="extra callback delay, uniform 0..this")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--not-free", action="store_true", help="hand presses over with Clock.schedule_once instead")
    args = parser.parse_args(argv)
    if args.mode == "app":
        return run_app(args)
    return run_slap(args)


if __name__ == "__main__":
    sys.exit(main())
