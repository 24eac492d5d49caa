"""The USB serial pad hub: a microcontroller that timestamps the pads on its own clock.

The line protocol is in ``hardware/PROTOCOL.md``; the Pico firmware in
``hardware/firmware/pico_hub.py``. This module holds:

* :class:`SerialLink`: any serial device read line by line on its own thread, found again
  by USB id or ``/dev/serial/by-id`` after an unplug (within ``retry`` seconds of it coming
  back), with lines it cannot read counted as noise. The card reader uses it too.
* :class:`HubClock`: maps the hub's microsecond clock onto the host's monotonic clock from
  PING/PONG round trips, trusting the round trip with the lowest delay.
* :class:`PadHub`: the pads behind the hub, with the same interface as
  :class:`hardware.pads.PadBoard` (``on_press(pad, t)``, ``lights``, ``held_pads()``,
  ``stuck_pads()``, ``timestamps_are_edge``, ``close()``) plus ``status`` for the screen.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from collections import deque
from typing import Callable, Iterable, Mapping, Sequence

import serial
from serial.tools import list_ports

from companion.race import EdgeFilter, pad_name

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
PICO_USB_ID = "2E8A:0005"      # MicroPython on a Raspberry Pi Pico
MAX_HUB_PADS = 16
MAX_LINE = 200                 # longer than any valid line: a runaway stream is noise
BY_ID_DIR = "/dev/serial/by-id"

CONNECTED, SEARCHING, CLOSED = "connected", "searching", "closed"


# -- the line format ------------------------------------------------------------------------

def checksum(body: str) -> str:
    """Two hex digits: the XOR of the bytes of ``body``."""
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def frame(*fields: object) -> bytes:
    """One protocol line, ready to send: ``frame("PING", 7) == b"PING 7 *07\\n"``."""
    body = " ".join(str(f) for f in fields)
    return f"{body} *{checksum(body)}\n".encode("ascii")


class LineError(ValueError):
    """A line that is not a valid protocol line (noise)."""


def unframe(line: str) -> list[str]:
    """The fields of a protocol line, or :class:`LineError` if it is not one."""
    body, star, check = line.rpartition(" *")
    if not star or len(check) != 2:
        raise LineError("no checksum")
    if not body.isascii() or not body.isprintable():
        raise LineError("not printable ASCII")
    if checksum(body).upper() != check.upper():
        raise LineError("bad checksum")
    fields = body.split(" ")
    if not all(fields):
        raise LineError("empty field")
    return fields


# -- finding a device ------------------------------------------------------------------------

def parse_usb_id(text: str) -> tuple[int, int]:
    vid, _, pid = text.partition(":")
    return int(vid, 16), int(pid, 16)


def find_ports(spec: str, usb_ids: Iterable[str] = ()) -> list[str]:
    """Serial ports matching ``spec``, best first:

    * ``""``: none; ``"auto"``: by the ``usb_ids`` given (``"2E8A:0005"``);
    * ``"usb:VID:PID"``: that USB id; ``"by-id:TEXT"``: ``/dev/serial/by-id`` names containing TEXT;
    * anything else: a port name or a pyserial URL (``loop://``), used as it is if it exists.

    Stable ``/dev/serial/by-id`` names come first, since ``ttyACM0`` may return as ``ttyACM1``.
    """
    spec = spec.strip()
    if not spec:
        return []
    if spec == "auto" or spec.startswith("usb:"):
        ids = [parse_usb_id(spec[4:])] if spec.startswith("usb:") else [parse_usb_id(u) for u in usb_ids]
        devices = [p.device for p in list_ports.comports() if (p.vid, p.pid) in ids]
        by_id = [link for link in sorted(glob.glob(os.path.join(BY_ID_DIR, "*")))
                 if os.path.realpath(link) in {os.path.realpath(d) for d in devices}]
        covered = {os.path.realpath(link) for link in by_id}
        return by_id + [d for d in sorted(devices) if os.path.realpath(d) not in covered]
    if spec.startswith("by-id:"):
        text = spec[6:].lower()
        links = sorted(glob.glob(os.path.join(BY_ID_DIR, "*")))
        return [link for link in links if text in os.path.basename(link).lower()]
    if "://" in spec or os.path.exists(spec) or os.name == "nt":
        return [spec]
    return []


Finder = Callable[[], Sequence[str]]


def as_finder(port: str | Finder, usb_ids: Iterable[str] = ()) -> Finder:
    if callable(port):
        return port
    ids = tuple(usb_ids)
    return lambda: find_ports(port, ids)


# -- a reconnecting serial line reader ----------------------------------------------------------

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


# -- the hub's clock ---------------------------------------------------------------------------

class HubClock:
    """Host time for hub timestamps. Each PING/PONG gives an offset (host minus hub) good to
    half its round trip; the offset from the quickest of the last ``keep`` round trips wins.

    >>> clock = HubClock()
    >>> clock.sent(1, host=100.000)
    >>> clock.pong(1, hub_us=5_000_000, host=100.010)       # a slow 10 ms round trip
    >>> clock.sent(2, host=101.000)
    >>> clock.pong(2, hub_us=6_000_400, host=101.001)       # a quick one: trusted
    >>> round(clock.to_host(6_500_000), 6)
    101.5001
    """

    def __init__(self, keep: int = 8):
        self.keep = keep
        self._sent: dict[int, float] = {}
        self._samples: deque[tuple[float, float]] = deque(maxlen=keep)   # (rtt, offset)
        self._provisional: float | None = None

    def reset(self) -> None:
        """The hub restarted (its clock with it)."""
        self._sent.clear()
        self._samples.clear()
        self._provisional = None

    def sent(self, seq: int, host: float) -> None:
        self._sent[seq] = host
        if len(self._sent) > 4 * self.keep:   # pongs that never came
            for old in sorted(self._sent)[: len(self._sent) - 2 * self.keep]:
                del self._sent[old]

    def pong(self, seq: int, hub_us: int, host: float) -> None:
        sent = self._sent.pop(seq, None)
        if sent is None or host < sent:
            return
        rtt = host - sent
        self._samples.append((rtt, (sent + host) / 2 - hub_us / 1e6))

    @property
    def synced(self) -> bool:
        return bool(self._samples)

    @property
    def best_rtt(self) -> float | None:
        return min(self._samples)[0] if self._samples else None

    @property
    def offset(self) -> float | None:
        if self._samples:
            return min(self._samples)[1]
        return self._provisional

    def to_host(self, hub_us: int, arrived: float | None = None) -> float:
        """Host time of a hub timestamp. Before the first PONG, the first event's arrival
        stands in (late by its transit time, a millisecond or so)."""
        offset = self.offset
        if offset is None:
            if arrived is None:
                raise ValueError("no clock mapping yet")
            offset = self._provisional = arrived - hub_us / 1e6
        return hub_us / 1e6 + offset


# -- the pads behind the hub -----------------------------------------------------------------------

class HubLight:
    """One light in a hub pad, with the calls :class:`hardware.pads.PadLights` makes on an LED."""

    def __init__(self, hub: PadHub, pad: int):
        self._hub, self._pad = hub, pad

    def on(self) -> None:
        self._hub.send("L", self._pad, 1)

    def off(self) -> None:
        self._hub.send("L", self._pad, 0)

    def blink(self, on_time: float = 1, off_time: float = 1, n: int | None = None, background: bool = True) -> None:
        self._hub.send("L", self._pad, "B", round(on_time * 1000), round(off_time * 1000), n or 0)


class StatusReporter:
    """A serial device's state ("searching", "connected", "closed") and its sentence for the
    screen, told to ``on_status`` once per change, whichever thread the change happens on."""

    status: str
    status_text: str
    on_status: Callable[[str, str], None] | None
    _status_lock: threading.Lock

    def _set_status(self, status: str, text: str) -> None:
        with self._status_lock:
            if (status, text) == (self.status, self.status_text):
                return
            self.status, self.status_text = status, text
        if self.on_status is not None:
            try:
                self.on_status(status, text)
            except Exception:
                log.exception("%s on_status handler failed", type(self).__name__)


class PadHub(StatusReporter):
    """Pads on a USB serial hub. ``port``: ``"auto"`` (by ``usb_ids``), a port, ``usb:VID:PID``,
    ``by-id:TEXT``, a pyserial URL, or a function returning candidate ports.

    ``status`` is CONNECTED or SEARCHING (``status_text`` says it for the screen);
    ``on_status(status, text)`` is called on the reader thread when it changes.
    """

    def __init__(self, port: str | Finder = "auto", *, pads: int = 4, on_press=None, on_release=None,
                 on_status: Callable[[str, str], None] | None = None, usb_ids: Iterable[str] = (PICO_USB_ID,),
                 debounce: float = 0.040, stuck_after: float = 2.0, ping_every: float = 1.0,
                 hello_timeout: float = 1.5, retry: float = 0.25, start: bool = True):
        self.on_press, self.on_release, self.on_status = on_press, on_release, on_status
        self.count = pads
        self.debounce = debounce
        self.stuck_after = stuck_after
        self.ping_every = ping_every
        self.hello_timeout = hello_timeout
        self.clock = HubClock()
        self.noise = 0
        self.recent_noise: deque[str] = deque(maxlen=20)
        self.firmware: str | None = None
        self.status, self.status_text = SEARCHING, "Looking for the pad hub\u2026"
        self._status_lock = threading.Lock()
        self.reason = "pad hub over USB serial"
        self.timing = "edge timestamps from the hub's clock, mapped onto this one"
        self.is_mock, self.mock = False, None
        self._lock = threading.Lock()
        self._filter = EdgeFilter(MAX_HUB_PADS, debounce)
        self._down_since: list[float | None] = [None] * MAX_HUB_PADS
        self._seq = 0
        self._last_ping = 0.0
        self._burst = 0
        self._opened_at = 0.0
        self._hello = False
        self._problem: str | None = None   # why the last device was let go, for the screen
        self.lights = None
        self._make_lights()
        self.link = SerialLink(as_finder(port, usb_ids), name="pad hub", on_line=self._line,
                               on_noise=self._on_noise, on_connect=self._connected, on_lost=self._lost,
                               on_idle=self._idle, retry=retry)
        if start:
            self.link.start()

    # -- the PadBoard interface ------------------------------------------------------------------

    timestamps_are_edge = True
    names = property(lambda self: [pad_name(i) for i in range(self.count)])

    def now(self) -> float:
        return time.monotonic()

    def held_pads(self) -> list[int]:
        with self._lock:
            return [i for i in range(self.count) if self._filter.down[i]]

    def stuck_pads(self, now: float | None = None) -> list[int]:
        now = self.now() if now is None else now
        with self._lock:
            return [i for i in range(self.count)
                    if self._down_since[i] is not None and now - self._down_since[i] >= self.stuck_after]

    def held_for(self, pad: int, now: float | None = None) -> float | None:
        """Seconds pad ``pad`` has been down, or None if it is up."""
        now = self.now() if now is None else now
        with self._lock:
            since = self._down_since[pad]
        return None if since is None else max(0.0, now - since)

    def stuck_report(self, now: float | None = None) -> list[str]:
        now = self.now() if now is None else now
        return [f"{pad_name(i)} on the hub has been held down for {self.held_for(i, now) or 0:.1f} s: "
                "release it, or check its button and wiring" for i in self.stuck_pads(now)]

    def bounces_ignored(self) -> list[int]:
        with self._lock:
            return list(self._filter.ignored[: self.count])

    def close(self) -> None:
        if self.lights is not None:
            self.lights.close()
        self.link.close()
        self._set_status(CLOSED, "Pad hub closed")

    def send(self, *fields: object) -> bool:
        return self.link.write(frame(*fields))

    # -- the reader thread ----------------------------------------------------------------------

    def _make_lights(self) -> None:
        from .pads import PadLights

        on_change = None
        if self.lights is not None:
            self.lights.close()
            on_change = self.lights.on_change
        self.lights = PadLights([HubLight(self, i) for i in range(self.count)], on_change)


    def _connected(self, port: str) -> None:
        self.clock.reset()
        self._hello = False
        self._opened_at = time.monotonic()
        self._burst = 4   # a few quick pings to map the clock straight away
        self.send("HELLO")
        self._set_status(SEARCHING, f"Pad hub found on {port}, waiting for it to answer\u2026")

    def _lost(self, port: str) -> None:
        self._hello = False
        with self._lock:
            # A pad down when the hub vanished cannot be known to be down now.
            self._filter = EdgeFilter(MAX_HUB_PADS, self.debounce)
            self._down_since = [None] * MAX_HUB_PADS
        self._set_status(SEARCHING, self._problem or "Pad hub unplugged: looking for it\u2026")

    def _idle(self, now: float) -> None:
        if not self._hello:
            if now - self._opened_at > self.hello_timeout:
                log.info("pad hub: no answer from %s; trying elsewhere", self.link.port)
                self._problem = f"{self.link.port} does not answer like a pad hub: still looking\u2026"
                self.link.reject()
            return
        if self._burst or now - self._last_ping >= self.ping_every:
            self._burst = max(0, self._burst - 1)
            self._seq = (self._seq + 1) % 1_000_000
            self._last_ping = now
            sent = time.monotonic()
            if self.send("PING", self._seq):
                self.clock.sent(self._seq, sent)

    def _on_noise(self, raw: bytes, why: str) -> None:
        self.noise += 1
        self.recent_noise.append(f"{why}: {raw[:60]!r}")

    def _line(self, text: str, arrived: float) -> None:
        try:
            fields = unframe(text)
            self._handle(fields, arrived)
        except (LineError, ValueError, IndexError) as exc:
            self._on_noise(text.encode("utf-8", "replace"), str(exc) or "unreadable")
            log.info("pad hub: noise (%s): %r", exc, text[:80])

    def _handle(self, fields: list[str], arrived: float) -> None:
        kind = fields[0]
        if kind in ("P", "R"):
            pad, hub_us = int(fields[1]), int(fields[2])
            if not 0 <= pad < self.count:
                raise ValueError(f"pad {pad} out of range")
            at = self.clock.to_host(hub_us, arrived)
            with self._lock:
                events = self._filter.edge(pad, at, kind == "P")
                for event, when in events:
                    self._down_since[pad] = when if event == "press" else None
            for event, when in events:
                handler = self.on_press if event == "press" else self.on_release
                if handler is not None:
                    try:
                        handler(pad, when)
                    except Exception:
                        log.exception("pad hub %s handler failed", event)
        elif kind == "PONG":
            self.clock.pong(int(fields[1]), int(fields[2]), arrived)
        elif kind == "S":
            mask, now = int(fields[1], 16), self.now()
            with self._lock:
                for pad in range(self.count):
                    down = bool(mask >> pad & 1)
                    if down != self._filter.down[pad]:
                        self._filter.down[pad] = down
                        self._down_since[pad] = now if down else None
        elif kind == "HUB":
            version, pads = int(fields[1]), int(fields[2])
            if version != PROTOCOL_VERSION:
                self._problem = (f"The pad hub speaks protocol {version}; this app speaks "
                                 f"{PROTOCOL_VERSION}: update its firmware")
                self.link.reject(60.0)
                return
            if not 1 <= pads <= MAX_HUB_PADS:
                raise ValueError(f"hub says it has {pads} pads")
            self.firmware = fields[3] if len(fields) > 3 else "?"
            if pads != self.count:
                self.count = pads
                self._make_lights()
            self._hello = True
            self._problem = None
            self._burst = max(self._burst, 4)
            self._set_status(CONNECTED, f"Pad hub connected on {self.link.port} ({pads} pads)")
        elif kind == "ERR":
            log.warning("pad hub says: %s", " ".join(fields[1:]))
        else:
            raise ValueError(f"unknown line type {kind!r}")


def open_hub(config: Mapping, *, on_press=None, on_release=None, on_status=None) -> PadHub:
    """The pad hub named by ``[pads] hub`` ("auto", a port, ``usb:VID:PID`` or ``by-id:TEXT``)."""
    pads = config.get("pads", config)
    return PadHub(pads.get("hub") or "auto", pads=len(pads.get("buttons", ())) or 4, on_press=on_press,
                  on_release=on_release, on_status=on_status, usb_ids=[pads.get("hub_usb", PICO_USB_ID)],
                  debounce=pads.get("debounce_ms", 40) / 1000.0, stuck_after=pads.get("stuck_ms", 2000) / 1000.0)
