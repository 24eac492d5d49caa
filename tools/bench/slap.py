"""The slap verdict, timed from a race's first pad edge to the first frame that shows its winner:
the races (``SlapRaces``), the load that keeps the main thread busy drawing, and the pads'
documented path to one label in a window of its own (``python -m tools.bench.probe slap``)."""

from __future__ import annotations

import time

from .frames import FrameWatch, clock_kind, emit, memory


class Collections:
    """Python's garbage collections while the races run, by generation: how many, and the
    longest (a full collection holds the main thread, and so a verdict, for all its length)."""

    def __init__(self):
        import gc

        self.gc = gc
        self.longest_ms = [0.0, 0.0, 0.0]
        self.count = [0, 0, 0]
        self._began = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        generation = info.get("generation", 0)
        self.count[generation] += 1
        self.longest_ms[generation] = max(self.longest_ms[generation], (time.perf_counter() - self._began) * 1000.0)

    def stop(self) -> dict:
        if self._seen in self.gc.callbacks:
            self.gc.callbacks.remove(self._seen)
        return {"count": self.count, "longest_ms": self.longest_ms}


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
    which order (``ranking()``), and what to do between races (``between()``). With
    ``conditions`` (``[(name, set_up), ...]``) the races take turns: each race runs after its
    condition's ``set_up()`` and its result is marked with the name, so two conditions are
    compared race by race in one run, under the same load, rather than in runs minutes apart.

    A race ends only once the app has had every one of its presses: no sooner than planned,
    ``LATE_SETTLE`` after its last edge was actually driven, after the Clock events that hand
    those presses to the app, and once its verdict is on screen (or ``SHOW_WAIT`` has passed).
    A main thread (or device thread) held up past the race's planned end, as a loaded machine
    does for a few hundred ms now and then, hands its presses over late; ended on its planned
    time, the race found no verdict yet, and its presses then counted in the next race (as the
    judge-only table rightly joins presses to a race still waiting for its verdict), naming a
    winner from the race before. ``stalls`` (race numbers, from 0) hold the main thread busy
    from before such a race's first edge until after its planned end, to show it."""

    HOLD = 0.08
    SETTLE = 0.15      # after a race's last delivered edge (and the pads' debounce): its verdict is in
    LATE_SETTLE = 0.1  # after an edge driven late: its press handed over, its window closed
    SHOW_WAIT = 0.5    # at most this long more for the verdict of presses handled late, and its frame
    GAP = 0.1          # from a race scored to the next one's start: the label cleared (a frame), the
                       # slap's commit done (20 ms under --pi); 0.25 before 6 December

    def __init__(self, watch: FrameWatch, board, pads: list[int], verdict_widget, races: int, rng,
                 max_delay_ms: float, ranking, between, done, conditions=(), stalls=(), swap_waited=None):
        from hardware.mock import LateDelivery

        self.watch, self.board, self.pads, self.widget = watch, board, pads, verdict_widget
        self.left, self.rng, self.max_delay = races, rng, max_delay_ms / 1000
        self.ranking, self.between, self.done = ranking, between, done
        self.late = LateDelivery()
        self.results: list[dict] = []
        self.race: dict | None = None
        self.conditions = list(conditions)
        self.stalls = set(stalls)
        self.swap_waited = swap_waited   # seconds the app's swaps have waited for the card, all told

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
        condition = None
        if self.conditions:
            condition, set_up = self.conditions[len(self.results) % len(self.conditions)]
            set_up()
        now = time.monotonic()
        order = rng.sample(self.pads, rng.randint(2, min(4, len(self.pads))))
        t = now + rng.uniform(0.02, 0.06)
        edges = {}
        for pad in order:
            edges[pad] = t
            t += rng.uniform(0.001, 0.003) if rng.random() < 0.5 else rng.uniform(0.003, 0.030)
        frames: list = []
        read: dict = {}   # each frame whose pixels were read: that read's time, and the swaps' wait for the card so far
        done_at = max(edges.values()) + self.HOLD + self.max_delay + self.board.debounce + self.SETTLE

        def listener(t, frame, hashes):
            frames.append((t, hashes))
            if hashes is not None:
                read[t] = (self.watch.read_s, self.swap_waited() if self.swap_waited else None)
            if hashes is not None and "verdict_set" not in self.race:
                # The picture before the verdict is known: stop reading pixels until the verdict
                # is set. A read waits for the renderer while holding Python's lock, which would
                # hold back the presses' device thread: the probe's cost, not the app's.
                self.watch.rects = []

        self.race = {"edges": edges, "frames": frames, "listener": listener, "condition": condition,
                     "swap_waited": self.swap_waited() if self.swap_waited else None, "read": read,
                     "drives": 2 * len(edges), "delivered": [], "driven_late": [],
                     "planned_end": done_at}
        self.watch.watch([self.widget])
        self.watch.listeners.append(listener)
        for pad, edge in edges.items():
            delay = rng.uniform(0, self.max_delay)
            self._drive(pad, True, edge, delay)
            self._drive(pad, False, edge + self.HOLD, delay)
        Clock.schedule_once(lambda dt: self._end(), done_at - time.monotonic())
        if len(self.results) in self.stalls:
            self._stall(done_at + 0.05)

    def _drive(self, pad: int, pressed: bool, edge: float, delay: float) -> None:
        """Drive one edge on the device thread, noting when it was driven (its press is then
        on Kivy's Clock, on its way to the app)."""
        mock, delivered, late = self.board.mock, self.race["delivered"], self.race["driven_late"]

        def drive():
            try:
                (mock.press if pressed else mock.release)(pad, edge)
            finally:
                now = time.monotonic()
                late.append(now - (edge + delay))
                delivered.append(now)

        self.late.later(edge + delay, drive)

    @staticmethod
    def _stall(until: float) -> None:
        while time.monotonic() < until:   # pure Python: the device thread still drives its edges
            sum(i * i for i in range(200))

    def _end(self) -> None:
        from kivy.clock import Clock

        race = self.race
        delivered = race["delivered"]
        if len(delivered) < race["drives"]:
            Clock.schedule_once(lambda dt: self._end(), 0.005)   # an edge not driven yet: a device thread held up
            return
        # Edges driven late (a device thread held up) get their own settle time, counted from then.
        wait = max(race["planned_end"], max(delivered) + self.board.debounce + self.LATE_SETTLE) - time.monotonic()
        if wait > 0:
            Clock.schedule_once(lambda dt: self._end(), wait)
            return
        if "handed_over" not in race:
            # The presses' own Clock events are queued already; this one comes after them, so
            # the app has handled every press (and closed its window) when the race is scored.
            race["handed_over"] = time.monotonic()
            Clock.schedule_once(lambda dt: self._end(), 0)
            return
        set_at = race.get("verdict_set")
        shown = set_at is not None and any(t >= set_at and hashes is not None for t, hashes in race["frames"])
        if not shown and time.monotonic() < race["handed_over"] + self.SHOW_WAIT:
            # Presses handled late: the app's window (a timer of its own) and the frame showing
            # its verdict are still to come.
            Clock.schedule_once(lambda dt: self._end(), 1 / 30)
            return
        self._score()

    def _score(self) -> None:
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
            read_s, waited = race["read"][shown[0][0]]   # every frame from the verdict on is read
            self.results.append({
                "ms": (shown[0][0] - first) * 1000.0,
                "read_ms": read_s * 1000.0,   # the bench's own read of that frame, which held its swap back
                "complete_ms": (complete - first) * 1000.0,
                "verdict_ms": (set_at - first) * 1000.0,
                "winner_right": ranking[:1] == truth[:1],
                "ranked_right": ranking == [p for p in truth if p in ranking],
            })
        # How long past its planned end the race was scored (waiting for presses held up).
        self.results[-1]["end_late_ms"] = max(0.0, time.monotonic() - race["planned_end"]) * 1000.0
        self.results[-1]["driven_late_ms"] = max(race["driven_late"]) * 1000.0   # its latest edge, past its time
        if shown and race["swap_waited"] is not None:
            # How long the frames up to the verdict's own were held back for their commits.
            self.results[-1]["swap_wait_ms"] = (waited - race["swap_waited"]) * 1000.0
        if race["condition"] is not None:
            self.results[-1]["condition"] = race["condition"]
        self.race = None
        self.between()
        self.left -= 1
        if self.left <= 0:
            self.late.close()
            self.done(self.results)
        else:
            Clock.schedule_once(lambda dt: self._race(), self.GAP + self.rng.uniform(0, 1 / 30))


def run_slap(args) -> int:
    """The pads' documented path to the screen, in a window of its own (no game screen)."""
    import random

    from ui.launcher import prepare_kivy, throwaway_folder

    prepare_kivy(throwaway_folder("jack-companion-bench-"), "800x480", max_fps=30)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    from companion import config as settings
    from companion.race import RaceJudge, RaceRunner
    from hardware.pads import open_pads
    from ui.kivy_setup import frame_now

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
                                   done=self.finish, stalls=args.stall_race)
            self.last_ranking = []
            self.between()
            self.collections = Collections()
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
            frame_now()   # as the recipe says: its frame at once

        def finish(self, results):
            self.busy.cancel()
            emit("slap", results=results, memory=memory(), window_ms=window * 1000, busy_ms=args.busy_ms,
                 clock=clock_kind(), path="pads path (hardware/pads.py recipe), one label",
                 collections=self.collections.stop())
            self.board.close()
            self.stop()

    SlapBench().run()
    return 0
