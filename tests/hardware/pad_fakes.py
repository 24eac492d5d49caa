"""Fakes for the hardware tests: an event recorder, and a pad hub at the far end of a real
pseudo-terminal. (Kept out of conftest.py so tests can import them by a name of their own.)"""

from __future__ import annotations

import os
import select
import threading
import time

from hardware.hub_protocol import frame, unframe


class Recorder:
    """Collects (kind, pad, t) from device threads."""

    def __init__(self):
        self.events: list[tuple[str, int, float]] = []
        self._lock = threading.Lock()
        self.changed = threading.Condition(self._lock)

    def press(self, pad: int, t: float) -> None:
        with self._lock:
            self.events.append(("press", pad, t))
            self.changed.notify_all()

    def release(self, pad: int, t: float) -> None:
        with self._lock:
            self.events.append(("release", pad, t))
            self.changed.notify_all()

    def presses(self) -> list[tuple[int, float]]:
        with self._lock:
            return [(pad, t) for kind, pad, t in self.events if kind == "press"]

    def wait_for(self, count: int, timeout: float = 5.0) -> list[tuple[str, int, float]]:
        with self._lock:
            self.changed.wait_for(lambda: len(self.events) >= count, timeout)
            return list(self.events)


def wait_until(predicate, timeout: float = 5.0) -> bool:
    """Poll a condition; generous timeout for a shared, noisy CI machine."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


class FakeHub:
    """The hub end of a real pseudo-terminal: answers HELLO and PING like the firmware, with
    a clock that runs ``offset`` seconds behind the host's monotonic clock."""

    def __init__(self, pads: int = 4, offset: float = 1234.5, version: int = 1):
        self.pads, self.offset, self.version = pads, offset, version
        self.received: list[list[str]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.master = None
        self.path = None
        self._thread = None
        self.plug()

    def hub_us(self, host_time: float) -> int:
        return round((host_time - self.offset) * 1e6)

    def plug(self) -> None:
        """A new pseudo-terminal: the hub plugged in (maybe under another name)."""
        master, slave = os.openpty()
        self.master, self.path = master, os.ttyname(slave)
        self._slave = slave
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(master, self._stop), daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self.master)
        os.close(self._slave)
        self.master = self.path = None

    def finder(self):
        return [self.path] if self.path else []

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def press(self, pad: int, host_time: float) -> None:
        self.write(frame("P", pad, self.hub_us(host_time)))

    def release(self, pad: int, host_time: float) -> None:
        self.write(frame("R", pad, self.hub_us(host_time)))

    def commands(self, kind: str) -> list[list[str]]:
        with self._lock:
            return [c for c in self.received if c[0] == kind]

    def _serve(self, master: int, stop: threading.Event) -> None:
        buffer = b""
        while not stop.is_set():
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
                if not ready:
                    continue
                buffer += os.read(master, 1024)
            except OSError:
                return
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                fields = unframe(line.decode("ascii"))
                with self._lock:
                    self.received.append(fields)
                if fields[0] == "HELLO":
                    self.write(frame("HUB", self.version, self.pads, "test"))
                elif fields[0] == "PING":
                    self.write(frame("PONG", fields[1], self.hub_us(time.monotonic())))

    def close(self) -> None:
        if self.master is not None:
            self.unplug()
