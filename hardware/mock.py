"""Mock pads: gpiozero's MockFactory, with pins that can be driven at a chosen edge timestamp.

The same :class:`hardware.gpio_pads.PadBoard` code runs on these pins as on lgpio: a mock press goes
through gpiozero's pin ``when_changed`` just like a real edge. Used by the desktop app (keys
``1``-``8`` press pads 1-8, per ``[pads] keys``), the tests and the benchmark.

* :meth:`MockPads.press` / :meth:`MockPads.release` drive a pin now, with the edge timestamp
  you give (default: now). ``MockPin.drive_low`` calls the handlers synchronously, so the
  board's ``on_press`` has run when ``press`` returns.
* :meth:`MockPads.deliver` drives a list of edges in the order given, whatever their
  timestamps say: callbacks arriving out of timestamp order.
* :class:`LateDelivery` drives edges later, from its own thread, as a busy interpreter
  delays real callbacks: a press whose callback runs late.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Callable, Iterable, Sequence

from gpiozero.pins.mock import MockFactory, MockPin, PinState


class StampedMockPin(MockPin):
    """A MockPin whose ``drive_low``/``drive_high`` take the edge timestamp to report."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self._stamp: float | None = None
        self._drive_lock = threading.RLock()

    def drive_low(self, at: float | None = None) -> None:
        with self._drive_lock:
            self._stamp = at
            try:
                super().drive_low()
            finally:
                self._stamp = None

    def drive_high(self, at: float | None = None) -> None:
        with self._drive_lock:
            self._stamp = at
            try:
                super().drive_high()
            finally:
                self._stamp = None

    def _change_state(self, value):
        # MockPin stamps each change with monotonic() and reports _last_change as the ticks.
        if self._state == value:
            return False
        t = time.monotonic() if self._stamp is None else self._stamp
        self._state = value
        if len(self.states) > 1000:   # a long benchmark would grow the history forever
            del self.states[:500]
        self.states.append(PinState(t - self._last_change, value))
        self._last_change = t
        return True


def mock_factory() -> MockFactory:
    """A fresh MockFactory whose pins take edge timestamps."""
    return MockFactory(pin_class=StampedMockPin)


class MockPads:
    """Press and release the pads of a mock :class:`PadBoard` from code or the keyboard."""

    def __init__(self, board, keys: Sequence[str] = ()):
        self.board = board
        self.keys = {str(key): i for i, key in enumerate(keys) if i < board.count}

    def pin(self, pad: int) -> StampedMockPin:
        pin = self.board._buttons[pad].pin
        if not isinstance(pin, StampedMockPin):
            raise TypeError("these pads are not on hardware.mock pins")
        return pin

    def last_edge(self) -> float:
        """The time of the latest edge driven on any pad."""
        return max(self.pin(pad)._last_change for pad in range(self.board.count))

    def back_from_now(self, seconds: float) -> float:
        """A time ``seconds`` before now, for presses dated back, and past the board's debounce
        after the last edge on any pad (waiting till it is), so they are not taken for bounce."""
        while self.board.now() - seconds < self.last_edge() + 2 * self.board.debounce:
            time.sleep(0.01)
        return self.board.now() - seconds

    def press(self, pad: int, at: float | None = None) -> float:
        """Push pad ``pad`` down; its edge is at ``at`` (default now). Returns the timestamp."""
        at = time.monotonic() if at is None else at
        self.pin(pad).drive_low(at)
        return at

    def release(self, pad: int, at: float | None = None) -> float:
        at = time.monotonic() if at is None else at
        self.pin(pad).drive_high(at)
        return at

    def chatter(self, pad: int, at: float, gaps: Iterable[float] = (0.0004, 0.0003, 0.0011, 0.0006)) -> None:
        """A press with contact bounce: down at ``at``, then up/down again after each gap,
        ending down. The gaps are seconds between successive edges."""
        t = at
        self.press(pad, t)
        down = True
        for gap in gaps:
            t += gap
            (self.release if down else self.press)(pad, t)
            down = not down
        if not down:
            self.press(pad, t + 0.0005)

    def deliver(self, edges: Iterable[tuple[int, bool, float]]) -> None:
        """Drive ``(pad, pressed, at)`` edges in the order given, not in timestamp order."""
        for pad, pressed, at in edges:
            (self.press if pressed else self.release)(pad, at)

    def key_down(self, key: str, at: float | None = None) -> bool:
        """A key bound to a pad went down (auto-repeat is harmless). False: not a pad key."""
        pad = self.keys.get(key)
        if pad is None:
            return False
        self.press(pad, at)
        return True

    def key_up(self, key: str, at: float | None = None) -> bool:
        pad = self.keys.get(key)
        if pad is None:
            return False
        self.release(pad, at)
        return True


class LateDelivery:
    """A device thread that drives mock pins at set times: presses whose callbacks run late.

    ``later(run_at, fn)`` runs ``fn()`` on this thread once ``time.monotonic()`` reaches
    ``run_at``; entries run in ``run_at`` order, so deliveries overtake one another just as
    their delays say.
    """

    def __init__(self):
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._closed = False
        self._running = False
        self.errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name="late-delivery", daemon=True)
        self._thread.start()

    def later(self, run_at: float, fn: Callable[[], None]) -> None:
        with self._wake:
            heapq.heappush(self._queue, (run_at, next(self._order), fn))
            self._wake.notify()

    def drive(self, pads: MockPads, pad: int, pressed: bool, at: float, delay: float) -> None:
        """Drive ``pad`` with edge time ``at``, its callback running ``delay`` s after ``at``."""
        self.later(at + delay, lambda: (pads.press if pressed else pads.release)(pad, at))

    def idle(self) -> bool:
        with self._wake:
            return not self._queue and not self._running

    def wait_idle(self, timeout: float = 5.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.idle():
                return True
            time.sleep(0.002)
        return self.idle()

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._thread.join(timeout=2)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed and (not self._queue or self._queue[0][0] > time.monotonic()):
                    wait = None if not self._queue else self._queue[0][0] - time.monotonic()
                    self._wake.wait(wait)
                if self._closed:
                    return
                _, _, fn = heapq.heappop(self._queue)
                self._running = True
            try:
                fn()
            except BaseException as exc:   # keep delivering; the caller checks .errors
                self.errors.append(exc)
            finally:
                with self._wake:
                    self._running = False
