"""The table's slap pads, opened from the config: GPIO pads, the serial pad hub, or mock pads.

::

    from hardware.pads import open_pads

    board = open_pads(config, mock=None, on_press=pressed, on_release=released,
                      on_status=status_changed, work_dir=data_dir)

``mock=True`` gives mock pins (keys ``1``-``8`` press them, ``board.mock.key_down("1")``);
``mock=None`` gives GPIO where this machine has it, else mock pins with the reason in
``board.reason``; ``[pads] hub`` set (and ``mock`` not True) gives the USB pad hub. Whichever
it is, ``board`` fills one contract, :class:`hardware.pad_device.PadDevice` (its docstring
lists it), on top of every device's :class:`hardware.device.Device`: ask the contract, never
the kind of board.

``on_press(pad, t)`` and ``on_release(pad, t)`` get the pad's index (0-based, in the order of
``[pads] buttons``) and the edge's timestamp in seconds on the host's monotonic clock (see
:mod:`companion.race`). They are called on a device thread (lgpio's callback thread, the
hub's reader, or the thread that drives a mock pin): take nothing from the screen there; hand
the event to Kivy's main thread (``Clock.schedule_once``) and judge it with
:class:`companion.race.RaceJudge`. ``on_status(status, text)`` comes the same way.

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

``_free``: the app's clock (``ui/kivy_setup.py``) wakes for these at their time and runs them
before the pass's per-frame callbacks (animations); a plain ``schedule_once`` waits for the next
frame, up to 33 ms. ``show_verdict`` ends with ``ui.kivy_setup.frame_now()``: the verdict's frame
is drawn at once, before that per-frame work.
"""

from __future__ import annotations

from typing import Mapping

from .device import StatusCallback
from .gpio_pads import PadBoard, choose_pin_factory
from .pad_device import PadCallback, PadDevice, PadError

__all__ = ["PadBoard", "PadDevice", "PadError", "open_pads"]   # what the app and the tests use


def open_pads(config: Mapping, mock: bool | None = None, *, on_press: PadCallback | None = None,
              on_release: PadCallback | None = None, on_status: StatusCallback | None = None,
              work_dir=None) -> PadDevice:
    """The table's pads from the app config (the whole config or its ``[pads]`` section):
    a :class:`hardware.hub.PadHub` when ``[pads] hub`` names one (and ``mock`` is not True),
    else a :class:`hardware.gpio_pads.PadBoard` on GPIO or on mock pins."""
    pads = config.get("pads", config)
    if pads.get("hub") and not mock:
        from .hub import open_hub

        return open_hub(pads, on_press=on_press, on_release=on_release, on_status=on_status)
    factory, reason = choose_pin_factory(mock, work_dir)
    board = PadBoard(pads, pin_factory=factory, on_press=on_press, on_release=on_release, reason=reason,
                     on_status=on_status)
    if board.is_mock:
        from .mock import MockPads

        board.mock = MockPads(board, keys=pads.get("keys", ()))
    return board
