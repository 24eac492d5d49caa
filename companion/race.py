"""Who slapped first: the race judge, and the edge filter that turns pad edges into presses.

Pure logic: no clock, no threads, no devices. Every call that needs the time is handed
it ("now"), so a race replays the same way in a test as at the table.

Time is float seconds on the host's monotonic clock, the scale of ``time.monotonic()``.
That is the clock lgpio's kernel edge timestamps are on (CLOCK_MONOTONIC, which gpiozero
hands over as ns / 1e9), the clock the serial hub's timestamps are mapped onto, and the
clock a UI reads for "now". A float64 keeps sub-microsecond resolution for years of uptime.

A race opens at a known time (a card landed, "Go!" on screen) or at an unknown one. The
judge gathers presses for ``window`` seconds after the first valid press *arrives*, and ranks
them by their edge timestamps, never by arrival order (ties: the first to arrive wins).

>>> judge = RaceJudge(window=0.015, opened_at=10.0)
>>> judge.press(2, at=10.2513, now=10.2530)       # pad 2's callback ran first...
'counted'
>>> judge.press(0, at=10.2480, now=10.2545)       # ...but pad 0's edge was earlier
'counted'
>>> judge.poll(now=10.2600) is None                # still inside the window
True
>>> verdict = judge.poll(now=10.2680)
>>> verdict.winner
0
>>> verdict.describe()
['Pad 1 first (reaction 248 ms)', 'Pad 3 +3.3 ms']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

COUNTED = "counted"          # ranked in this race
FALSE_START = "false start"  # pressed before the race opened
HELD = "held"                # the pad was already down when the race opened: needs a fresh press
REPEAT = "repeat"            # the same pad again: its earliest press stands
LATE = "late"                # arrived after the verdict


def pad_name(pad: int, names: Sequence[str] | None = None) -> str:
    """Players see pads numbered from 1, or by the names the table gave them."""
    if names and 0 <= pad < len(names) and names[pad]:
        return names[pad]
    return f"Pad {pad + 1}"


def ms(seconds: float) -> str:
    """A gap for people: one decimal below 100 ms, whole milliseconds above."""
    value = seconds * 1000.0
    return f"{value:.1f} ms" if abs(value) < 100 else f"{value:.0f} ms"


@dataclass(frozen=True)
class Press:
    pad: int
    at: float        # the edge's own timestamp
    arrived: float   # when the judge heard of it
    order: int       # arrival order, to break exact ties

    @property
    def lateness(self) -> float:
        """How long after the edge its callback reached the judge."""
        return self.arrived - self.at


@dataclass(frozen=True)
class Placing:
    pad: int
    at: float
    behind: float            # seconds after the winner (0.0 for the winner)
    reaction: float | None   # seconds after the opening, when the opening is known


@dataclass(frozen=True)
class Verdict:
    """A closed race. ``winner`` is None when nobody made a valid press."""

    placings: tuple[Placing, ...]
    false_starts: tuple[Press, ...]
    held: tuple[int, ...]          # pads down at the opening that never pressed afresh
    opened_at: float | None
    first_arrival: float | None
    closed_at: float

    @property
    def winner(self) -> int | None:
        return self.placings[0].pad if self.placings else None

    @property
    def ranking(self) -> tuple[int, ...]:
        return tuple(p.pad for p in self.placings)

    def describe(self, names: Sequence[str] | None = None) -> list[str]:
        """The lines the screen shows, winner first."""
        lines = []
        for i, place in enumerate(self.placings):
            who = pad_name(place.pad, names)
            if i == 0:
                reaction = f" (reaction {ms(place.reaction)})" if place.reaction is not None else ""
                lines.append(f"{who} first{reaction}")
            else:
                lines.append(f"{who} +{ms(place.behind)}")
        for press in self.false_starts:
            early = f" ({ms(self.opened_at - press.at)} early)" if self.opened_at is not None else ""
            lines.append(f"{pad_name(press.pad, names)} false start{early}")
        for pad in self.held:
            lines.append(f"{pad_name(pad, names)} was held down: release it and press again")
        if not self.placings and not lines:
            lines.append("Nobody slapped")
        return lines


class RaceJudge:
    """One race: feed it presses (and releases of held pads), poll it until it gives a verdict.

    ``window``: seconds to keep gathering after the first valid press arrives.
    ``settle``: also keep gathering until this long after the earliest edge seen, for
    callbacks that run late (0 turns it off; see the benchmark for the trade-off).
    ``opened_at``: when the race opened, if known: earlier presses are false starts and
    reaction times are measured from it. ``held``: pads already down at the opening, as seen at
    ``held_at`` (a press whose edge lies between the opening and then is that pad's own press).
    """

    def __init__(self, window: float = 0.015, *, settle: float = 0.0, opened_at: float | None = None,
                 held: Iterable[int] = (), held_at: float | None = None):
        if window < 0 or settle < 0:
            raise ValueError("window and settle must not be negative")
        self.window = window
        self.settle = settle
        self.opened_at = opened_at
        self._held = set(held)
        # When the held pads were seen down: later than opened_at for a card told late (a
        # camera's); a pad pressed in between went down after the card landed, not before.
        self._held_at = held_at
        self._best: dict[int, Press] = {}
        self._false_starts: dict[int, Press] = {}
        self._first_arrival: float | None = None
        self._arrivals = 0
        self.verdict: Verdict | None = None
        self.late: list[Press] = []   # presses that came after the verdict, for diagnostics

    # -- feeding it -------------------------------------------------------------------------

    def press(self, pad: int, at: float, now: float) -> str:
        """A press of ``pad`` whose edge was at ``at``, reaching the judge at ``now``.
        Returns what became of it: COUNTED, FALSE_START, HELD, REPEAT or LATE."""
        record = Press(pad, at, now, self._arrivals)
        self._arrivals += 1
        if self.verdict is not None:
            self.late.append(record)
            return LATE
        if self.opened_at is not None and at < self.opened_at:
            # Keep the earliest false start per pad; a pad pressed early is held at the opening.
            if pad not in self._false_starts or at < self._false_starts[pad].at:
                self._false_starts[pad] = record
            return FALSE_START
        if pad in self._held:
            if not (self.opened_at is not None and self._held_at is not None and self.opened_at <= at <= self._held_at):
                return HELD
            self._held.discard(pad)   # pressed after the card landed: the press it was down for
        known = self._best.get(pad)
        if known is not None and known.at <= at:
            return REPEAT
        self._best[pad] = record
        if self._first_arrival is None:
            self._first_arrival = now
        return COUNTED

    def release(self, pad: int, at: float, now: float) -> None:
        """A release: a held pad that lets go may then win with a fresh press."""
        self._held.discard(pad)

    # -- closing it -------------------------------------------------------------------------

    @property
    def deadline(self) -> float | None:
        """When the race closes, on the same clock as ``now``; None until a valid press."""
        if self._first_arrival is None or self.verdict is not None:
            return None
        close = self._first_arrival + self.window
        if self.settle:
            close = max(close, min(p.at for p in self._best.values()) + self.settle)
        return close

    def seconds_until_close(self, now: float) -> float | None:
        """How long a UI timer should wait before polling again (None: nothing to wait for)."""
        deadline = self.deadline
        return None if deadline is None else max(0.0, deadline - now)

    def poll(self, now: float) -> Verdict | None:
        """The verdict once the window has passed (and from then on), else None."""
        if self.verdict is None:
            deadline = self.deadline
            if deadline is not None and now >= deadline:
                self.close(now)
        return self.verdict

    def close(self, now: float) -> Verdict:
        """Close the race now, whatever the window says (e.g. nobody slapped in time)."""
        if self.verdict is not None:
            return self.verdict
        ranked = sorted(self._best.values(), key=lambda p: (p.at, p.order))
        first = ranked[0].at if ranked else 0.0
        placings = tuple(
            Placing(p.pad, p.at, p.at - first, None if self.opened_at is None else p.at - self.opened_at)
            for p in ranked)
        false_starts = tuple(sorted(self._false_starts.values(), key=lambda p: p.at))
        early = {p.pad for p in false_starts}
        held = tuple(sorted(self._held - set(self._best) - early))
        self.verdict = Verdict(placings, false_starts, held, self.opened_at, self._first_arrival, now)
        return self.verdict

    def late_winner(self) -> Press | None:
        """A press that arrived after the verdict but whose edge beat the winner: a callback
        ran later than the window allowed. Diagnostics count these."""
        if self.verdict is None or not self.verdict.placings:
            return None
        best = self.verdict.placings[0].at
        beaten = [p for p in self.late if p.at < best and p.pad not in self._held]
        return min(beaten, key=lambda p: p.at) if beaten else None


class RaceRunner:
    """Drives a :class:`RaceJudge` from a UI timer, so the window closes by itself.

    ``now`` reads the clock (``time.monotonic`` in the app); ``schedule(delay, fn)`` calls
    ``fn()`` after ``delay`` seconds on the UI thread, e.g. with Kivy::

        RaceRunner(judge, now=time.monotonic,
                   schedule=lambda d, fn: Clock.schedule_once_free(lambda dt: fn(), d),
                   on_verdict=self.show_verdict)

    Call :meth:`press` and :meth:`release` on the UI thread with the pads' timestamps, and for a
    press the time its callback ran on the device thread (``arrived``), so the window is counted
    from when the press reached the app, not from when the UI thread was free to hear of it.
    """

    def __init__(self, judge: RaceJudge, *, now: Callable[[], float],
                 schedule: Callable[[float, Callable[[], None]], object],
                 on_verdict: Callable[[Verdict], None]):
        self.judge = judge
        self._now = now
        self._schedule = schedule
        self._on_verdict = on_verdict
        self._timer_for: float | None = None   # the deadline a timer is already set for
        self._timer = None                     # its handle, when ``schedule`` gives one

    @property
    def closed(self) -> bool:
        return self.judge.verdict is not None

    def press(self, pad: int, at: float, arrived: float | None = None) -> str:
        outcome = self.judge.press(pad, at, self._now() if arrived is None else arrived)
        self._arm()
        return outcome

    def release(self, pad: int, at: float) -> None:
        self.judge.release(pad, at, self._now())

    def seconds_until_close(self) -> float | None:
        return self.judge.seconds_until_close(self._now())

    def cancel(self) -> None:
        """Stop the window's timer without a verdict (the race was taken back, or the table
        left): a handle with ``cancel()`` is cancelled, and a timer that fires anyway does nothing."""
        self.judge.close(self._now())
        timer, self._timer = self._timer, None
        if timer is not None and hasattr(timer, "cancel"):
            timer.cancel()

    def close(self) -> Verdict:
        """Close now (e.g. a time-out with no valid press) and announce the verdict."""
        announced = self.judge.verdict is not None
        verdict = self.judge.close(self._now())
        if not announced:
            self._on_verdict(verdict)
        return verdict

    def _arm(self) -> None:
        deadline = self.judge.deadline
        if deadline is None or deadline == self._timer_for:
            return
        self._timer_for = deadline
        self._timer = self._schedule(max(0.0, deadline - self._now()), self._tick)

    def _tick(self) -> None:
        if self.judge.verdict is not None:
            return
        self._timer_for = None
        verdict = self.judge.poll(self._now())
        if verdict is not None:
            self._on_verdict(verdict)
        else:
            self._arm()   # the deadline moved (settle) or the timer fired early


class EdgeFilter:
    """Raw pin edges in, presses and releases out: the first edge counts, then the pad
    ignores everything for ``debounce`` seconds (contact bounce lasts a few ms).

    Debouncing here rather than with gpiozero's ``bounce_time`` keeps the *first* edge's
    timestamp: under lgpio a bounce_time delays the event and moves its timestamp.
    Edges of one pad must come in order (every pin factory delivers them so); pads may
    interleave in any order. Not thread-safe: the caller holds a lock.

    >>> f = EdgeFilter(pads=1, debounce=0.040)
    >>> f.edge(0, 1.0000, pressed=True)
    [('press', 1.0)]
    >>> f.edge(0, 1.0004, pressed=False), f.edge(0, 1.0009, pressed=True)   # chatter
    ([], [])
    >>> f.edge(0, 1.2000, pressed=False)
    [('release', 1.2)]
    """

    def __init__(self, pads: int, debounce: float, down: Sequence[bool] = ()):
        self.debounce = debounce
        self.down = [bool(down[i]) if i < len(down) else False for i in range(pads)]
        self.last_edge: list[float | None] = [None] * pads
        self.ignored = [0] * pads   # bounce edges dropped, for the wiring check
        self.pending: list[tuple[float, bool] | None] = [None] * pads   # last edge dropped

    def edge(self, pad: int, at: float, pressed: bool) -> list[tuple[str, float]]:
        last = self.last_edge[pad]
        if last is not None and at - last < self.debounce:
            self.ignored[pad] += 1
            self.pending[pad] = (at, pressed)
            return []
        self.pending[pad] = None
        events: list[tuple[str, float]] = []
        if pressed:
            if self.down[pad]:
                # A fresh press on a pad we think is down: its release fell inside a
                # debounce gap (a very short tap). Say it was released, then pressed.
                events.append(("release", at))
            self.down[pad] = True
            self.last_edge[pad] = at
            events.append(("press", at))
        elif self.down[pad]:
            self.down[pad] = False
            self.last_edge[pad] = at
            events.append(("release", at))
        return events

    def settle(self, pad: int, pressed_now: bool) -> list[tuple[str, float]]:
        """Call once the debounce time after a dropped edge has passed, with the pin's level:
        if the dropped edges left the pad in another state (a tap shorter than the debounce),
        report that change, at the time of the dropped edge that made it.

        >>> f = EdgeFilter(pads=1, debounce=0.040)
        >>> f.edge(0, 5.000, pressed=True), f.edge(0, 5.020, pressed=False)
        ([('press', 5.0)], [])
        >>> f.settle(0, pressed_now=False)
        [('release', 5.02)]
        """
        pending, self.pending[pad] = self.pending[pad], None
        if pending is None or pressed_now == self.down[pad]:
            return []
        at = pending[0] if pending[1] == pressed_now else self.last_edge[pad]
        self.down[pad] = pressed_now
        self.last_edge[pad] = at
        return [("press" if pressed_now else "release", at)]
