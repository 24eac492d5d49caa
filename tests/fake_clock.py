"""A clock and scheduler that move only when a test says so: ``now()`` and
``schedule(delay, fn) -> handle`` as a table controller is handed them (companion/table)."""

from __future__ import annotations

import heapq
import itertools


class Handle:
    def __init__(self):
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    def __init__(self, start: float = 100.0):
        self.t = float(start)
        self._due: list = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.t

    def schedule(self, delay: float, fn) -> Handle:
        handle = Handle()
        heapq.heappush(self._due, (self.t + max(0.0, delay), next(self._order), fn, handle))
        return handle

    def run_until(self, when: float) -> None:
        """Move the clock to ``when``, running every timer due by then in time order (timers set
        by those timers too)."""
        while self._due and self._due[0][0] <= when:
            due, _, fn, handle = heapq.heappop(self._due)
            if handle.cancelled:
                continue
            self.t = max(self.t, due)
            fn()
        self.t = max(self.t, when)

    def run_next(self) -> bool:
        """Move the clock to the next timer still due and run it (False: none is left)."""
        live = [entry for entry in self._due if not entry[3].cancelled]
        if not live:
            return False
        self.run_until(min(entry[0] for entry in live))
        return True

    def advance(self, seconds: float) -> None:
        self.run_until(self.t + seconds)

    def pending(self) -> int:
        """Timers still to fire."""
        return sum(1 for *_, handle in self._due if not handle.cancelled)


def run_until_true(clock: FakeClock, condition, what: str, limit: int = 10_000) -> None:
    """Fire timers one by one until ``condition()`` holds (failing if they run out first)."""
    for _ in range(limit):
        if condition() or not clock.run_next():
            break
    assert condition(), f"never happened: {what}"
