"""Slap pads on GPIO: 2 to 8 arcade buttons (to ground, internal pull-up) with optional lights,
on any gpiozero pin factory: lgpio on a Pi, or :func:`hardware.mock.mock_factory` on a desktop
and in the tests, so the mock pads run this very code.

:class:`PadBoard` fills the pads' contract (:mod:`hardware.pad_device`) and adds ``pins``,
``light_pins`` and ``factory``. :func:`choose_pin_factory` picks the factory; the app opens
its pads through :func:`hardware.pads.open_pads`.

Timing
------
The timestamp is the pin factory's own event timestamp, taken from the pin-level
``when_changed(ticks, state)``, never the time our Python callback ran:

* lgpio (Pi 5, Pi 4 and older on a current OS): the kernel's edge timestamp, CLOCK_MONOTONIC,
  which gpiozero passes as seconds. ``timestamps_are_edge`` is True.
* MockFactory: the timestamp the test or keyboard helper drove the pin with. True.
* pigpio: the daemon's microsecond tick at the edge, mapped onto the host clock. True.
* anything else (RPi.GPIO, the native factory): they report the time their thread noticed
  the edge, so we take ``time.monotonic()`` in the callback and ``timestamps_are_edge`` is
  False; the UI says so on screen.

Debounce is ours (:class:`companion.race.EdgeFilter`): the first edge counts and the same
pad is ignored for ``[pads] debounce_ms``. ``bounce_time`` is never set: under lgpio it
delays the event and moves its timestamp to the end of the bounce.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from typing import Mapping

from gpiozero import LED, DigitalInputDevice
from gpiozero import Device as GpioDevice

from companion.race import EdgeFilter

from .lights import PadLights
from .device import StatusCallback
from .pad_device import PadCallback, PadDevice, PadError

log = logging.getLogger(__name__)

MIN_PADS, MAX_PADS = 2, 8

# Pin factories whose when_changed ticks are the edge's own time, on the host monotonic clock.
_EDGE_FACTORIES = {
    "LGPIOFactory": "edge timestamps from the kernel (lgpio)",
    "MockFactory": "mock pads: edge timestamps as driven",
}
# Edge timestamps on the factory's own clock, mapped onto the host's.
_MAPPED_FACTORIES = {"PiGPIOFactory": "edge timestamps from the pigpio daemon"}
_REANCHOR_AFTER = 600.0   # pigpio ticks wrap every 71.6 minutes: re-anchor well before


def _factory_kind(factory) -> tuple[str, str]:
    for cls in type(factory).__mro__:
        if cls.__name__ in _EDGE_FACTORIES:
            return "edge", _EDGE_FACTORIES[cls.__name__]
        if cls.__name__ in _MAPPED_FACTORIES:
            return "mapped", _MAPPED_FACTORIES[cls.__name__]
    name = type(factory).__name__
    return "callback", f"{name} gives no edge timestamps: times are taken when the callback runs"


class PadBoard(PadDevice):
    """The slap pads on one pin factory; the contract is :class:`hardware.pad_device.PadDevice`.

    ``pads`` is the ``[pads]`` section of the config: ``buttons`` (2 to 8 gpiozero pin names),
    ``lights`` (same order, "" for none), ``debounce_ms`` and ``stuck_ms``.
    """

    def __init__(self, pads: Mapping, *, pin_factory=None, on_press: PadCallback | None = None,
                 on_release: PadCallback | None = None, reason: str = "",
                 on_status: StatusCallback | None = None):
        buttons = list(pads.get("buttons", []))
        lights = list(pads.get("lights", []))
        if not MIN_PADS <= len(buttons) <= MAX_PADS:
            raise PadError(f"[pads] buttons lists {len(buttons)} pins; a table needs {MIN_PADS} to {MAX_PADS}")
        lights = (lights + [""] * len(buttons))[:len(buttons)]
        used = [pin for pin in buttons + lights if pin]
        if len(set(used)) != len(used):
            doubles = sorted({pin for pin in used if used.count(pin) > 1})
            raise PadError(f"[pads] uses {', '.join(doubles)} more than once")
        super().__init__(len(buttons), on_press=on_press, on_release=on_release, reason=reason,
                         debounce=pads.get("debounce_ms", 40) / 1000.0,
                         stuck_after=pads.get("stuck_ms", 2000) / 1000.0, on_status=on_status)
        self.pins = buttons
        self.light_pins = lights
        self._buttons: list[DigitalInputDevice] = []
        self._leds: list[LED | None] = []
        self._handlers = []         # gpiozero holds only weak references: these keep them alive
        self._settlers: list[threading.Timer | None] = [None] * len(buttons)
        try:
            for pin in buttons:
                # bounce_time stays None on purpose: see the module docstring. A pad is a button,
                # but gpiozero's Button starts a thread per pad for when_held, which the board
                # never uses (it takes the pin's events itself): the plain input device has none.
                self._buttons.append(DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                                        pin_factory=pin_factory))
            for pin in lights:
                self._leds.append(LED(pin, pin_factory=pin_factory) if pin else None)
        except Exception as exc:
            self._close_devices()
            raise PadError(f"cannot open the pads ({exc.__class__.__name__}: {exc}); "
                           "check [pads] in config.toml") from exc
        self.factory = self._buttons[0].pin_factory
        self._kind, self.timing = _factory_kind(self.factory)
        self._anchor: tuple[float, object] | None = None
        if self._kind == "mapped":
            self._anchor = (time.monotonic(), self.factory.ticks())
        start = self.now()
        down = [b.is_active for b in self._buttons]
        self._filter = EdgeFilter(self.count, self.debounce, down)
        self._down_since = [start if d else None for d in down]
        self.lights = PadLights(self._leds)
        for i, button in enumerate(self._buttons):
            # The board takes over the pin's event: the device's own when_activated stays
            # silent; is_active still reads the pin.
            handler = functools.partial(self._edge, i)
            self._handlers.append(handler)
            button.pin.when_changed = handler

    # -- facts for the UI --------------------------------------------------------------------

    @property
    def timestamps_are_edge(self) -> bool:
        return self._kind in ("edge", "mapped")

    @property
    def is_mock(self) -> bool:
        return any(cls.__name__ == "MockFactory" for cls in type(self.factory).__mro__)

    def held_pads(self) -> list[int]:
        """Pads whose button is down right now (read from the pin, not from events)."""
        return [i for i, b in enumerate(self._buttons) if b.is_active]

    def held_for(self, pad: int, now: float | None = None) -> float | None:
        """Seconds pad ``pad`` has been down, or None if it is up."""
        now = self.now() if now is None else now
        with self._lock:
            if not self._buttons[pad].is_active:
                return None
            if self._down_since[pad] is None:
                self._down_since[pad] = now   # down without an event we saw: count from now
            since = self._down_since[pad]
        return max(0.0, now - since)

    def bounces_ignored(self) -> list[int]:
        with self._lock:
            return list(self._filter.ignored)

    def button_pin(self, pad: int) -> str:
        return self.pins[pad]

    def light_pin(self, pad: int) -> str | None:
        return self.light_pins[pad] or None

    def _release(self) -> None:
        with self._lock:
            for timer in self._settlers:
                if timer is not None:
                    timer.cancel()
        self.lights.close()
        for button in self._buttons:
            if not button.closed:
                button.pin.when_changed = None
        self._close_devices()
        self._handlers.clear()

    # -- the device thread -------------------------------------------------------------------

    def _stamp(self, ticks) -> float:
        if self._kind == "edge":
            return float(ticks)
        if self._kind == "mapped":
            host, tick = self._anchor
            if time.monotonic() - host > _REANCHOR_AFTER:
                host, tick = self._anchor = (time.monotonic(), self.factory.ticks())
            return host + self.factory.ticks_diff(ticks, tick)
        return time.monotonic()   # no edge timestamp to be had: the best we can do

    def _edge(self, pad: int, ticks, state) -> None:
        at = self._stamp(ticks)
        pressed = not state   # to ground with a pull-up: low is pressed
        with self._lock:
            events = self._filter.edge(pad, at, pressed)
            self._note(pad, events)
            if self._filter.pending[pad] is not None and self._settlers[pad] is None:
                # Dropped edges may have left the pad in another state: look again once
                # the debounce time has passed.
                timer = self._settlers[pad] = threading.Timer(self.debounce, self._settle, (pad,))
                timer.daemon = True
                timer.start()
        self._emit(pad, events)

    def _settle(self, pad: int) -> None:
        with self._lock:
            self._settlers[pad] = None
            if self._closed:
                return
            events = self._filter.settle(pad, self._buttons[pad].is_active)
            self._note(pad, events)
        self._emit(pad, events)

    def _close_devices(self) -> None:
        for device in [*self._buttons, *self._leds]:
            if device is not None:
                try:
                    device.close()
                except Exception:
                    log.exception("closing %r", device)


def _ensure_lgpio_workdir(work_dir) -> None:
    """lgpio makes a notify pipe in its working directory (``$LG_WD``, else the current
    one); under systemd that may be unwritable. Point it somewhere writable first."""
    if os.environ.get("LG_WD"):
        return
    if os.access(os.getcwd(), os.W_OK):
        return
    for candidate in (work_dir, os.environ.get("XDG_RUNTIME_DIR"), "/tmp"):
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK):
            os.environ["LG_WD"] = str(candidate)
            return


def choose_pin_factory(mock: bool | None, work_dir=None):
    """The pin factory for the pads and a sentence saying why.

    ``mock=True``: MockFactory. ``mock=False``: GPIO or an error. ``mock=None``: GPIO when
    this machine has it, else MockFactory with the reason. ``$GPIOZERO_PIN_FACTORY``, when
    set, names the GPIO factory instead of lgpio.
    """
    from .mock import mock_factory

    if mock:
        return mock_factory(), "mock pads (asked for)"
    chosen = os.environ.get("GPIOZERO_PIN_FACTORY")
    try:
        if chosen and chosen != "mock":
            GpioDevice.ensure_pin_factory()
            factory, how = GpioDevice.pin_factory, f"GPIO pads on {chosen} (GPIOZERO_PIN_FACTORY)"
        else:
            _ensure_lgpio_workdir(work_dir)
            from gpiozero.pins.lgpio import LGPIOFactory

            factory, how = LGPIOFactory(), "GPIO pads on lgpio"
    except Exception as exc:
        why = "lgpio is not installed" if isinstance(exc, ImportError) else f"{exc.__class__.__name__}: {exc}"
        if mock is False:
            raise PadError(f"no GPIO for the pads: {why}") from exc
        return mock_factory(), f"mock pads: no GPIO here ({why})"
    return factory, how
