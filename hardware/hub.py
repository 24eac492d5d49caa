"""The USB serial pad hub: a microcontroller that timestamps the pads on its own clock.

:class:`PadHub` fills the pads' contract (:mod:`hardware.pad_device`), so the app uses it as
it uses the GPIO board; ``status`` says whether the hub is there (CONNECTED) or being looked
for (SEARCHING), ``status_text`` says it for the screen. It reads the hub through a
:class:`hardware.serial_link.SerialLink`, speaks the lines of :mod:`hardware.hub_protocol`
(``hardware/PROTOCOL.md``), and maps the hub's timestamps with a
:class:`hardware.hub_clock.HubClock`. The Pico firmware is ``hardware/firmware/pico_hub.py``.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from typing import Iterable, Mapping

from companion.race import EdgeFilter

from .device import CONNECTED, SEARCHING, StatusCallback
from .hub_clock import HubClock
from .hub_protocol import MAX_HUB_PADS, PROTOCOL_VERSION, LineError, frame, unframe
from .lights import PadLights
from .pad_device import PadCallback, PadDevice
from .serial_link import SerialLink
from .serial_ports import Finder, as_finder

log = logging.getLogger(__name__)

PICO_USB_ID = "2E8A:0005"      # MicroPython on a Raspberry Pi Pico


class HubLight:
    """One light in a hub pad, with the calls :class:`hardware.lights.PadLights` makes on a light."""

    def __init__(self, hub: PadHub, pad: int):
        self._hub, self._pad = hub, pad

    def on(self) -> None:
        self._hub.send("L", self._pad, 1)

    def off(self) -> None:
        self._hub.send("L", self._pad, 0)

    def blink(self, on_time: float = 1, off_time: float = 1, n: int | None = None, background: bool = True) -> None:
        self._hub.send("L", self._pad, "B", round(on_time * 1000), round(off_time * 1000), n or 0)


class PadHub(PadDevice):
    """Pads on a USB serial hub. ``port``: ``"auto"`` (by ``usb_ids``), a port, ``usb:VID:PID``,
    ``by-id:TEXT``, a pyserial URL, or a function returning candidate ports.

    ``status`` is CONNECTED or SEARCHING (``status_text`` says it for the screen);
    ``on_status(status, text)`` is called on the reader thread when it changes.
    """

    closed_text = "Pad hub closed"

    def __init__(self, port: str | Finder = "auto", *, pads: int = 4, on_press: PadCallback | None = None,
                 on_release: PadCallback | None = None, on_status: StatusCallback | None = None,
                 usb_ids: Iterable[str] = (PICO_USB_ID,), debounce: float = 0.040, stuck_after: float = 2.0,
                 ping_every: float = 1.0, hello_timeout: float = 1.5, retry: float = 0.25, start: bool = True):
        super().__init__(pads, on_press=on_press, on_release=on_release, debounce=debounce,
                         stuck_after=stuck_after, reason="pad hub over USB serial",
                         timing="edge timestamps from the hub's clock, mapped onto this one",
                         on_status=on_status, status=SEARCHING, status_text="Looking for the pad hub\u2026")
        self.ping_every = ping_every
        self.hello_timeout = hello_timeout
        self.clock = HubClock()
        self.noise = 0
        self.recent_noise: deque[str] = deque(maxlen=20)
        self.firmware: str | None = None
        self._filter = EdgeFilter(MAX_HUB_PADS, debounce)
        self._down_since = [None] * MAX_HUB_PADS
        self._seq = 0
        self._last_ping = 0.0
        self._burst = 0
        self._opened_at = 0.0
        self._hello = False
        self._problem: str | None = None   # why the last device was let go, for the screen
        self._make_lights(None)
        self.link = SerialLink(as_finder(port, usb_ids), name="pad hub", on_line=self._line,
                               on_noise=self._on_noise, on_connect=self._connected, on_lost=self._lost,
                               on_idle=self._idle, retry=retry)
        if start:
            self.link.start()

    # -- the pads' contract -------------------------------------------------------------------

    def held_pads(self) -> list[int]:
        with self._lock:
            return [i for i in range(self.count) if self._filter.down[i]]

    def held_for(self, pad: int, now: float | None = None) -> float | None:
        now = self.now() if now is None else now
        with self._lock:
            since = self._down_since[pad]
        return None if since is None else max(0.0, now - since)

    def bounces_ignored(self) -> list[int]:
        with self._lock:
            return list(self._filter.ignored[: self.count])

    def _where(self, pad: int) -> str:
        return " on the hub"

    def _release(self) -> None:
        self.lights.close()
        self.link.close()

    def send(self, *fields: object) -> bool:
        return self.link.write(frame(*fields))

    # -- the reader thread ----------------------------------------------------------------------

    def _make_lights(self, before: PadLights | None) -> None:
        """Lights for ``count`` pads; whoever listened to the old ones hears the new."""
        on_change = None
        if before is not None:
            before.close()
            on_change = before.on_change
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
                self._note(pad, events)
            self._emit(pad, events)
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
                self._make_lights(self.lights)
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
