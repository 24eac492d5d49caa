"""Named one-shot timers over a controller's scheduler, so that "the next card" or "the end"
is set at most once and everything still to come is cancelled in one call."""

from __future__ import annotations

from typing import Callable

Schedule = Callable[[float, Callable[[], None]], object]


class Timers:
    """``schedule(delay, fn)`` calls ``fn()`` after ``delay`` seconds and returns a handle with
    ``cancel()``. A timer fires only while ``running()`` says so (the table is showing)."""

    def __init__(self, schedule: Schedule, running: Callable[[], bool]):
        self._schedule = schedule
        self._running = running
        self._named: dict[str, object] = {}
        self._loose_handles: dict[int, object] = {}
        self._next_id = 0

    def set(self, name: str, delay: float, fn: Callable[[], None]) -> None:
        """(Re)set the timer called ``name``."""
        self.cancel(name)

        def fire():
            if self._named.get(name) is handle_box[0]:
                del self._named[name]
            if self._running():
                fn()
        handle_box = [None]
        handle_box[0] = self._schedule(max(0.0, delay), fire)
        self._named[name] = handle_box[0]

    def has(self, name: str) -> bool:
        return name in self._named

    def later(self, delay: float, fn: Callable[[], None]) -> None:
        """An unnamed timer (a computer player's press), cancelled with the rest by :meth:`drop_loose`."""
        key = self._next_id
        self._next_id += 1

        def fire():
            self._loose_handles.pop(key, None)
            if self._running():
                fn()
        self._loose_handles[key] = self._schedule(max(0.0, delay), fire)

    def cancel(self, name: str) -> None:
        handle = self._named.pop(name, None)
        if handle is not None:
            handle.cancel()

    def drop_loose(self) -> None:
        handles, self._loose_handles = list(self._loose_handles.values()), {}
        for handle in handles:
            handle.cancel()

    def cancel_all(self) -> None:
        for name in list(self._named):
            self.cancel(name)
        self.drop_loose()
