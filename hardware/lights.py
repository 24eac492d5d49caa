"""The lights in the slap pads, whoever drives them: a gpiozero ``LED`` on a GPIO pin, or a
:class:`hardware.hub.HubLight` that sends the hub a line. Both fill :class:`Light`.

:class:`PadLights` keeps each pad's mode ("off", "on", "turner", "winner", "wrong") so the
screen can draw mock pads' lights, and reverts the timed ones (a winner's flash, a wrong
slap's blinks) on a timer thread of its own.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Protocol, Sequence

log = logging.getLogger(__name__)


class Light(Protocol):
    """One light, as gpiozero's ``LED`` drives it."""

    def on(self) -> None: ...

    def off(self) -> None: ...

    def blink(self, on_time: float = 1, off_time: float = 1, n: int | None = None,
              background: bool = True) -> None: ...


class PadLights:
    """The lights in the pads. Pads without a light are skipped quietly.

    Modes, as the UI draws them for mock pads: "off", "on" (wiring check), "turner" (steady:
    whose turn it is), "winner" (fast flash), "wrong" (three slow blinks, then back).
    """

    FLASH = 0.08          # winner: on/off seconds
    FLASH_FOR = 2.0       # winner: seconds of flashing
    WRONG = 0.25          # wrong slap: on/off seconds
    WRONG_BLINKS = 3

    def __init__(self, leds: Sequence[Light | None], on_change: Callable[[], None] | None = None):
        self._leds = list(leds)
        self._modes: list[str | None] = ["off" if led is not None else None for led in self._leds]
        self._lock = threading.Lock()
        self._timers: dict[int, threading.Timer] = {}
        self.on_change = on_change

    def has_light(self, pad: int) -> bool:
        return self._leds[pad] is not None

    def modes(self) -> list[str | None]:
        with self._lock:
            return list(self._modes)

    def show_turner(self, pad: int | None) -> None:
        """The turner's pad lit steady, every other pad dark (None: all dark)."""
        with self._lock:
            for i in range(len(self._leds)):
                self._set(i, "turner" if i == pad else "off")
        self._changed()

    def flash_winner(self, pad: int) -> None:
        """The winner's pad flashes for a couple of seconds; the others go dark."""
        with self._lock:
            for i in range(len(self._leds)):
                self._set(i, "winner" if i == pad else "off")
            self._revert_after(pad, self.FLASH_FOR, "off")
        self._changed()

    def blink_wrong(self, pad: int) -> None:
        """A wrong slap: that pad blinks slowly three times, then shows what it showed before."""
        with self._lock:
            before = self._modes[pad]
            if before in ("wrong", "winner"):
                before = "off"
            self._set(pad, "wrong")
            self._revert_after(pad, 2 * self.WRONG * self.WRONG_BLINKS, before or "off")
        self._changed()

    def set(self, pad: int, on: bool) -> None:
        """One light on or off, for the wiring check."""
        with self._lock:
            self._set(pad, "on" if on else "off")
        self._changed()

    def all_off(self) -> None:
        with self._lock:
            for i in range(len(self._leds)):
                self._set(i, "off")
        self._changed()

    def close(self) -> None:
        with self._lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()

    # Called with the lock held.
    def _set(self, pad: int, mode: str) -> None:
        led = self._leds[pad]
        if led is None:
            return
        timer = self._timers.pop(pad, None)
        if timer is not None:
            timer.cancel()
        self._modes[pad] = mode
        if mode in ("on", "turner"):
            led.on()
        elif mode == "winner":
            led.blink(on_time=self.FLASH, off_time=self.FLASH, background=True)
        elif mode == "wrong":
            led.blink(on_time=self.WRONG, off_time=self.WRONG, n=self.WRONG_BLINKS, background=True)
        else:
            led.off()

    def _revert_after(self, pad: int, seconds: float, mode: str) -> None:
        if self._leds[pad] is None:
            return

        def revert() -> None:
            with self._lock:
                if self._timers.get(pad) is timer:
                    del self._timers[pad]
                    self._set(pad, mode)
            self._changed()

        timer = threading.Timer(seconds, revert)
        timer.daemon = True
        self._timers[pad] = timer
        timer.start()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:   # a drawing bug must not stop the lights
                log.exception("lights on_change handler failed")
