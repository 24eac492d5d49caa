"""Slap pads on GPIO: 2 to 8 arcade buttons (to ground, internal pull-up) with optional lights.

The interface the UI uses
-------------------------
::

    from hardware.pads import open_pads

    board = open_pads(config, mock=None, on_press=pressed, on_release=released,
                      work_dir=data_dir)   # a PadHub instead when [pads] hub is set
    board.reason               # how the pads were opened, for the status line:
                               #   "GPIO pads on lgpio" / "mock pads: no GPIO here (...)"
    board.is_mock              # True on MockFactory: draw the lights on screen
    board.mock                 # hardware.mock.MockPads when is_mock, else None:
                               #   board.mock.key_down("1") / key_up("1") from the keyboard
    board.timestamps_are_edge  # False: say on screen that close slaps cannot be told apart
    board.timing               # one line saying where the timestamps come from
    board.count                # number of pads
    board.now()                # "now" on the pads' clock (time.monotonic())
    board.held_pads()          # pads down right now: pass as RaceJudge(held=...) at an opening
    board.stuck_pads()         # pads held down longer than [pads] stuck_ms: show a warning
    board.stuck_report()       # the same as sentences, for the screen and the diagnostics
    board.lights.show_turner(i) / flash_winner(i) / blink_wrong(i) / all_off()
    board.lights.modes()       # per pad "off" | "turner" | "winner" | "wrong" | "on" | None
    board.lights.on_change = f # f() after any light changes (any thread): redraw mock lights
    board.close()

``on_press(pad, t)`` and ``on_release(pad, t)`` get the pad's index (0-based, in the order of
``[pads] buttons``) and the edge's timestamp in seconds on the host's monotonic clock (see
:mod:`companion.race`). They are called on a device thread (lgpio's callback thread, or the
thread that drives a mock pin): take nothing from the screen there; hand the event to Kivy's
main thread (``Clock.schedule_once``) and judge it with :class:`companion.race.RaceJudge`.
``PadBoard(config["pads"], pin_factory=..., on_press=..., on_release=...)`` builds a board on
a factory of your choosing (tests: ``hardware.mock.mock_factory()``).

A PadHub (``[pads] hub`` set) has the same interface plus ``status`` ("connected" or
"searching") and ``status_text`` for the screen, and ``on_status(status, text)``.

A Slapjack race, on Kivy's main thread::

    pads = config["pads"]
    judge = RaceJudge(window=pads["race_window_ms"] / 1000, opened_at=card_landed_at,
                      held=board.held_pads())
    runner = RaceRunner(judge, now=time.monotonic,
                        schedule=lambda delay, fn: Clock.schedule_once_free(lambda dt: fn(), delay),
                        on_verdict=show_verdict)      # verdict.describe() -> lines to show
    # from on_press / on_release (device thread); the window counts from the press's arrival here:
    arrived = board.now()
    Clock.schedule_once_free(lambda dt: runner.press(pad, t, arrived))
    Clock.schedule_once_free(lambda dt: runner.release(pad, t))

``_free``: the app's clock (``ui/kivy_setup.py``) wakes for these at once and draws the verdict's
frame straight away; a plain ``schedule_once`` waits for the next frame, up to 33 ms.

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
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from gpiozero import LED, Button, Device

from companion.race import EdgeFilter, pad_name

if TYPE_CHECKING:
    from .hub import PadHub

log = logging.getLogger(__name__)

MIN_PADS, MAX_PADS = 2, 8
PadCallback = Callable[[int, float], None]

# Pin factories whose when_changed ticks are the edge's own time, on the host monotonic clock.
_EDGE_FACTORIES = {
    "LGPIOFactory": "edge timestamps from the kernel (lgpio)",
    "MockFactory": "mock pads: edge timestamps as driven",
}
# Edge timestamps on the factory's own clock, mapped onto the host's.
_MAPPED_FACTORIES = {"PiGPIOFactory": "edge timestamps from the pigpio daemon"}
_REANCHOR_AFTER = 600.0   # pigpio ticks wrap every 71.6 minutes: re-anchor well before


class PadError(RuntimeError):
    """The pads cannot be opened as configured; the message says what to fix."""


def _factory_kind(factory) -> tuple[str, str]:
    for cls in type(factory).__mro__:
        if cls.__name__ in _EDGE_FACTORIES:
            return "edge", _EDGE_FACTORIES[cls.__name__]
        if cls.__name__ in _MAPPED_FACTORIES:
            return "mapped", _MAPPED_FACTORIES[cls.__name__]
    name = type(factory).__name__
    return "callback", f"{name} gives no edge timestamps: times are taken when the callback runs"


class PadLights:
    """The lights in the pads. Pads without a light are skipped quietly.

    Modes, as the UI draws them for mock pads: "off", "on" (wiring check), "turner" (steady:
    whose turn it is), "winner" (fast flash), "wrong" (three slow blinks, then back).
    """

    FLASH = 0.08          # winner: on/off seconds
    FLASH_FOR = 2.0       # winner: seconds of flashing
    WRONG = 0.25          # wrong slap: on/off seconds
    WRONG_BLINKS = 3

    def __init__(self, leds: Sequence[LED | None], on_change: Callable[[], None] | None = None):
        self._leds = list(leds)
        self._modes: list[str | None] = ["off" if led else None for led in self._leds]
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


class PadBoard:
    """The slap pads on one pin factory. See the module docstring for the whole interface.

    ``pads`` is the ``[pads]`` section of the config: ``buttons`` (2 to 8 gpiozero pin names),
    ``lights`` (same order, "" for none), ``debounce_ms`` and ``stuck_ms``.
    """

    def __init__(self, pads: Mapping, *, pin_factory=None, on_press: PadCallback | None = None,
                 on_release: PadCallback | None = None, reason: str = ""):
        buttons = list(pads.get("buttons", []))
        lights = list(pads.get("lights", []))
        if not MIN_PADS <= len(buttons) <= MAX_PADS:
            raise PadError(f"[pads] buttons lists {len(buttons)} pins; a table needs {MIN_PADS} to {MAX_PADS}")
        lights = (lights + [""] * len(buttons))[:len(buttons)]
        used = [pin for pin in buttons + lights if pin]
        if len(set(used)) != len(used):
            doubles = sorted({pin for pin in used if used.count(pin) > 1})
            raise PadError(f"[pads] uses {', '.join(doubles)} more than once")
        self.pins = buttons
        self.light_pins = lights
        self.count = len(buttons)
        self.debounce = pads.get("debounce_ms", 40) / 1000.0
        self.stuck_after = pads.get("stuck_ms", 2000) / 1000.0
        self.names = [pad_name(i) for i in range(self.count)]
        self.on_press = on_press
        self.on_release = on_release
        self.reason = reason
        self.mock = None            # set by open_pads / hardware.mock on MockFactory
        self._lock = threading.Lock()
        self._buttons: list[Button] = []
        self._leds: list[LED | None] = []
        self._handlers = []         # gpiozero holds only weak references: these keep them alive
        self._settlers: list[threading.Timer | None] = [None] * len(buttons)
        self._closed = False
        try:
            for pin in buttons:
                # bounce_time stays None on purpose: see the module docstring.
                self._buttons.append(Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory))
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
        down = [b.is_pressed for b in self._buttons]
        self._filter = EdgeFilter(self.count, self.debounce, down)
        self._down_since: list[float | None] = [start if d else None for d in down]
        self.lights = PadLights(self._leds)
        for i, button in enumerate(self._buttons):
            # The board takes over the pin's event: Button's own when_pressed/when_held stay
            # silent (and its hold thread idle); is_pressed still reads the pin.
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

    def now(self) -> float:
        """The current time on the clock the press timestamps use."""
        return time.monotonic()

    def held_pads(self) -> list[int]:
        """Pads whose button is down right now (read from the pin, not from events)."""
        return [i for i, b in enumerate(self._buttons) if b.is_pressed]

    def stuck_pads(self, now: float | None = None) -> list[int]:
        """Pads held down for ``stuck_ms`` or longer: a player leaning on it, or a wiring fault."""
        now = self.now() if now is None else now
        stuck = []
        with self._lock:
            for i, button in enumerate(self._buttons):
                if not button.is_pressed:
                    continue
                if self._down_since[i] is None:
                    self._down_since[i] = now   # down without an event we saw: count from now
                if now - self._down_since[i] >= self.stuck_after:
                    stuck.append(i)
        return stuck

    def held_for(self, pad: int, now: float | None = None) -> float | None:
        """Seconds pad ``pad`` has been down, or None if it is up."""
        now = self.now() if now is None else now
        with self._lock:
            since = self._down_since[pad]
        if since is None or not self._buttons[pad].is_pressed:
            return None
        return max(0.0, now - since)

    def stuck_report(self, now: float | None = None) -> list[str]:
        now = self.now() if now is None else now
        return [f"{self.names[i]} ({self.pins[i]}) has been held down for {self.held_for(i, now) or 0:.1f} s: "
                "release it, or check its button and wiring" for i in self.stuck_pads(now)]

    def bounces_ignored(self) -> list[int]:
        """Edges dropped by the debounce, per pad (a noisy switch shows here)."""
        with self._lock:
            return list(self._filter.ignored)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for timer in self._settlers:
                if timer is not None:
                    timer.cancel()
        self.lights.close()
        for button in self._buttons:
            if not button.closed:
                button.pin.when_changed = None
        self._close_devices()
        self._handlers.clear()

    def __enter__(self) -> PadBoard:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
            events = self._filter.settle(pad, self._buttons[pad].is_pressed)
            self._note(pad, events)
        self._emit(pad, events)

    def _note(self, pad: int, events) -> None:
        for kind, when in events:
            self._down_since[pad] = when if kind == "press" else None

    def _emit(self, pad: int, events) -> None:
        for kind, when in events:
            handler = self.on_press if kind == "press" else self.on_release
            if handler is not None:
                try:
                    handler(pad, when)
                except Exception:   # never let a UI bug kill the device thread
                    log.exception("pad %s handler failed", kind)

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
            Device.ensure_pin_factory()
            factory, how = Device.pin_factory, f"GPIO pads on {chosen} (GPIOZERO_PIN_FACTORY)"
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


def open_pads(config: Mapping, mock: bool | None = None, *, on_press: PadCallback | None = None,
              on_release: PadCallback | None = None, on_status: Callable[[str, str], None] | None = None,
              work_dir=None) -> PadBoard | PadHub:
    """The table's pads from the app config (the whole config or its ``[pads]`` section).

    When ``[pads] hub`` names a serial pad hub (and ``mock`` is not True) this returns a
    :class:`hardware.hub.PadHub` instead, which has the same interface plus ``status``.
    """
    pads = config.get("pads", config)
    if pads.get("hub") and not mock:
        from .hub import open_hub

        return open_hub(pads, on_press=on_press, on_release=on_release, on_status=on_status)
    factory, reason = choose_pin_factory(mock, work_dir)
    board = PadBoard(pads, pin_factory=factory, on_press=on_press, on_release=on_release, reason=reason)
    if board.is_mock:
        from .mock import MockPads

        board.mock = MockPads(board, keys=pads.get("keys", ()))
    return board
