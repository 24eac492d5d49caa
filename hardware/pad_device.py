"""The slap pads' part of the device contract: what the GPIO board (on lgpio or on mock pins)
and the serial pad hub both answer, so that the screens and the wiring check never ask which
one they hold. On top of :class:`hardware.device.Device`::

    pads.count                 # number of pads
    pads.names                 # "Pad 1", "Pad 2", ... in the order of [pads] buttons
    pads.reason                # how the pads were opened: "GPIO pads on lgpio", "pad hub over USB serial"
    pads.timing                # one line saying where the timestamps come from
    pads.timestamps_are_edge   # False: say on screen that close slaps cannot be told apart
    pads.is_mock               # True on mock pins: draw the lights on screen
    pads.mock                  # hardware.mock.MockPads when is_mock (key_down / key_up), else None
    pads.on_press, pads.on_release   # f(pad, t) on the device thread, t the edge's own time
    pads.debounce, pads.stuck_after  # seconds ([pads] debounce_ms, stuck_ms)
    pads.lights                # hardware.lights.PadLights, always there (pads without lights skip)
    pads.now()                 # now on the clock the timestamps use (time.monotonic())
    pads.held_pads()           # pads down right now: RaceJudge(held=...) at an opening
    pads.held_for(pad)         # seconds that pad has been down, or None
    pads.stuck_pads()          # pads down for stuck_after or longer
    pads.stuck_report()        # the same as sentences, for the screen and the wiring check
    pads.bounces_ignored()     # edges the debounce dropped, per pad
    pads.button_pin(pad), pads.light_pin(pad)   # "GPIO17", or None where the board does not say

A subclass fills :meth:`held_pads`, :meth:`held_for` and :meth:`bounces_ignored`, keeps when
each pad went down in ``_down_since`` (through :meth:`_note`), and hands debounced edges to
:meth:`_emit`.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Callable

from companion.race import pad_name

from .device import CONNECTED, Device, StatusCallback

if TYPE_CHECKING:
    from .lights import PadLights
    from .mock import MockPads

log = logging.getLogger(__name__)

PadCallback = Callable[[int, float], None]


class PadError(RuntimeError):
    """The pads cannot be opened as configured; the message says what to fix."""


class PadDevice(Device, ABC):
    """A set of slap pads. See the module docstring for the whole contract."""

    timestamps_are_edge = True
    is_mock = False

    def __init__(self, count: int, *, on_press: PadCallback | None = None, on_release: PadCallback | None = None,
                 debounce: float = 0.040, stuck_after: float = 2.0, reason: str = "", timing: str = "",
                 on_status: StatusCallback | None = None, status: str = CONNECTED, status_text: str | None = None):
        super().__init__(on_status=on_status, status=status, status_text=status_text)
        self.count = count
        self.on_press, self.on_release = on_press, on_release
        self.debounce, self.stuck_after = debounce, stuck_after
        self.reason, self.timing = reason, timing
        self.mock: MockPads | None = None
        self.lights: PadLights
        self._lock = threading.Lock()             # guards the pads' state, taken on device threads
        self._down_since: list[float | None] = []   # when each pad went down, None while up

    @property
    def names(self) -> list[str]:
        return [pad_name(i) for i in range(self.count)]

    def now(self) -> float:
        """The current time on the clock the press timestamps use."""
        return time.monotonic()

    @abstractmethod
    def held_pads(self) -> list[int]:
        """Pads down right now."""

    @abstractmethod
    def held_for(self, pad: int, now: float | None = None) -> float | None:
        """Seconds pad ``pad`` has been down, or None if it is up."""

    @abstractmethod
    def bounces_ignored(self) -> list[int]:
        """Edges dropped by the debounce, per pad (a noisy switch shows here)."""

    def stuck_pads(self, now: float | None = None) -> list[int]:
        """Pads held down for ``stuck_after`` or longer: a player leaning on it, or a wiring fault."""
        now = self.now() if now is None else now
        held = [(i, self.held_for(i, now)) for i in range(self.count)]
        return [i for i, seconds in held if seconds is not None and seconds >= self.stuck_after]

    def stuck_report(self, now: float | None = None) -> list[str]:
        now = self.now() if now is None else now
        return [f"{self.names[i]}{self._where(i)} has been held down for {self.held_for(i, now) or 0:.1f} s: "
                "release it, or check its button and wiring" for i in self.stuck_pads(now)]

    def button_pin(self, pad: int) -> str | None:
        """The pin pad ``pad``'s button is wired to, or None where the board does not say."""
        return None

    def light_pin(self, pad: int) -> str | None:
        """The pin pad ``pad``'s light is wired to, or None (no light, or the board does not say)."""
        return None

    # -- for subclasses ---------------------------------------------------------------------------

    def _where(self, pad: int) -> str:
        """Where a pad is, for a sentence about it: " (GPIO22)"."""
        pin = self.button_pin(pad)
        return f" ({pin})" if pin else ""

    def _note(self, pad: int, events) -> None:
        """Keep when the pad went down (call with ``_lock`` held)."""
        for kind, when in events:
            self._down_since[pad] = when if kind == "press" else None

    def _emit(self, pad: int, events) -> None:
        """Hand debounced ``(kind, t)`` events to ``on_press`` / ``on_release``."""
        for kind, when in events:
            handler = self.on_press if kind == "press" else self.on_release
            if handler is not None:
                try:
                    handler(pad, when)
                except Exception:   # never let a UI bug kill the device thread
                    log.exception("%s %s handler failed", type(self).__name__, kind)
