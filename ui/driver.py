"""Drive the real app without a person: step Kivy's event loop, tap widgets, take pictures.

The screenshots command, the UI tests and the benchmarks all use this, so what they show
is what a player's finger would do: a touch goes in through the window like any other.
"""

from __future__ import annotations

import os
from pathlib import Path

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.input.motionevent import MotionEvent


class FingerTouch(MotionEvent):
    """One finger on the glass, at window coordinates: one press, one release."""

    _next_id = 0

    def __init__(self, x: float, y: float):
        FingerTouch._next_id += 1
        super().__init__("finger", FingerTouch._next_id, self._scaled(x, y), is_touch=True, type_id="touch")
        self.profile = ["pos"]

    @staticmethod
    def _scaled(x: float, y: float) -> dict:
        return {"x": x / (Window.width - 1.0), "y": y / (Window.height - 1.0)}

    def depack(self, args):
        self.sx, self.sy = args["x"], args["y"]
        super().depack(args)


class AppDriver:
    def __init__(self, app):
        self.app = app
        app._run_prepare()  # build() and open the window, as App.run() does before its loop
        self.pump(3)

    def pump(self, frames: int = 2) -> None:
        """Let Kivy run ``frames`` frames: clock callbacks, layout, drawing."""
        for _ in range(frames):
            Clock.tick()
            EventLoop.idle()

    def resize(self, width: int, height: int) -> None:
        Window.size = (width, height)
        self.pump(4)

    def tap_at(self, x: float, y: float) -> None:
        touch = FingerTouch(x, y)
        EventLoop.post_dispatch_input("begin", touch)
        self.pump(1)
        EventLoop.post_dispatch_input("end", touch)
        self.pump(2)

    def tap(self, widget) -> None:
        """Tap the middle of ``widget`` where it shows on screen (after any pending layout)."""
        self.pump(1)
        x, y = widget.to_window(*widget.center)
        self.tap_at(x, y)

    def screenshot(self, path: Path) -> Path:
        self.pump(3)
        made = Path(Window.screenshot(name=str(Path(path).with_suffix(".png"))))
        final = Path(path).with_suffix(".png")
        os.replace(made, final)
        return final

    def close(self) -> None:
        self.app.stop()
        self.pump(1)
