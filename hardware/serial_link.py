"""Any serial device read line by line on its own thread (:class:`SerialLink`), found again
after an unplug through a finder (:mod:`hardware.serial_ports`), with what is not a line of
text counted as noise. The pad hub and the card reader both read through it.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

import serial

from .serial_ports import Finder

log = logging.getLogger(__name__)

MAX_LINE = 200                 # longer than any valid line: a runaway stream is noise


class SerialLink:
    """Reads lines from a serial device on its own thread and finds the device again when it
    goes away. ``on_line(text, arrived)`` gets each line (without its end) and the host
    monotonic time its last byte arrived; ``on_noise(raw, why)`` gets what is not a line of
    text; ``on_connect(port)`` / ``on_lost(port)`` bracket each connection; ``on_idle(now)``
    runs at least every ``read_timeout`` seconds while connected.
    """

    def __init__(self, find: Finder, *, name: str, baud: int = 115200,
                 on_line: Callable[[str, float], None], on_noise: Callable[[bytes, str], None] | None = None,
                 on_connect: Callable[[str], None] | None = None, on_lost: Callable[[str], None] | None = None,
                 on_idle: Callable[[float], None] | None = None, retry: float = 0.25, read_timeout: float = 0.05):
        self.find = find
        self.name = name
        self.baud = baud
        self.retry = retry
        self.read_timeout = read_timeout
        self.on_line, self.on_noise = on_line, on_noise
        self.on_connect, self.on_lost, self.on_idle = on_connect, on_lost, on_idle
        self.port: str | None = None
        self._serial = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._rejected: dict[str, float] = {}   # port -> until when it is skipped
        self._reject_now = False
        self._skipping = False                  # the rest of a line already dropped as too long
        self._thread: threading.Thread | None = None

    @property
    def connected(self) -> bool:
        return self._serial is not None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-reader", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._drop(lost=False)

    def write(self, data: bytes) -> bool:
        """Send bytes; False if there is no device (the reader will find it again)."""
        port = self._serial
        if port is None:
            return False
        try:
            with self._write_lock:
                port.write(data)
            return True
        except (serial.SerialException, OSError, ValueError) as exc:   # ValueError: port closed meanwhile
            log.info("%s: write failed (%s)", self.name, exc)
            return False

    def reject(self, seconds: float = 10.0) -> None:
        """This port is not our device: drop it and skip it for a while (reader thread only)."""
        if self.port is not None:
            self._rejected[self.port] = time.monotonic() + seconds
        self._reject_now = True

    def _run(self) -> None:
        buffer = bytearray()
        while not self._stop.is_set():
            if self._serial is None:
                if not self._open():
                    self._stop.wait(self.retry)
                continue
            try:
                data = self._serial.read(self._serial.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError, ValueError) as exc:
                log.info("%s: %s went away (%s)", self.name, self.port, exc)
                if buffer:
                    self._noise(bytes(buffer), "cut off when the device went away")
                    buffer.clear()
                self._drop(lost=True)
                continue
            arrived = time.monotonic()
            if data:
                buffer.extend(data)
                self._split(buffer, arrived)
            if self.on_idle is not None:
                self.on_idle(arrived)
            if self._reject_now:
                self._reject_now = False
                buffer.clear()
                self._drop(lost=True)

    def _split(self, buffer: bytearray, arrived: float) -> None:
        while True:
            ends = [i for i in (buffer.find(b"\n"), buffer.find(b"\r")) if i >= 0]
            if not ends:
                if len(buffer) > MAX_LINE:
                    if not self._skipping:
                        self._noise(bytes(buffer), "too long")
                    self._skipping = True   # up to the line's end: its tail is no line of its own
                    buffer.clear()
                return
            end = min(ends)
            raw = bytes(buffer[:end])
            del buffer[:end + 1]
            if self._skipping:
                self._skipping = False
                continue
            if not raw:
                continue   # the \n of a \r\n, or a blank line
            if len(raw) > MAX_LINE:
                self._noise(raw, "too long")
                continue
            try:
                text = raw.decode("ascii" if raw.isascii() else "utf-8")
            except UnicodeDecodeError:
                self._noise(raw, "not text")
                continue
            try:
                self.on_line(text, arrived)
            except Exception:   # a bug in a handler must not stop the reader
                log.exception("%s: handling %r", self.name, text)

    def _noise(self, raw: bytes, why: str) -> None:
        log.info("%s: noise (%s): %r", self.name, why, raw[:80])
        if self.on_noise is not None:
            self.on_noise(raw, why)

    def _open(self) -> bool:
        now = time.monotonic()
        try:
            candidates = [p for p in self.find() if self._rejected.get(p, 0) <= now]
        except Exception:
            log.exception("%s: looking for the device", self.name)
            return False
        for port in candidates:
            try:
                device = serial.serial_for_url(port, baudrate=self.baud, timeout=self.read_timeout,
                                               write_timeout=0.5)
            except (serial.SerialException, OSError, ValueError) as exc:
                log.debug("%s: cannot open %s (%s)", self.name, port, exc)
                continue
            self._serial, self.port = device, port
            self._skipping = False
            log.info("%s: connected on %s", self.name, port)
            if self.on_connect is not None:
                self.on_connect(port)
            return True
        return False

    def _drop(self, lost: bool) -> None:
        device, port = self._serial, self.port
        self._serial = None
        if device is not None:
            try:
                device.close()
            except Exception:
                pass
            if lost and self.on_lost is not None:
                self.on_lost(port)
