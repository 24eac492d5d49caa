"""Drive the real app without a person: a finger on the glass, Kivy's loop stepped, pictures taken.

The screenshots command, the UI tests and the bench all tap through :class:`Finger`, an input
provider like a touchscreen's: a touch queued here reaches Kivy in its input pass and goes
through the same post-processing every real touch does. There is no other way in.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from kivy.base import EventLoop, runTouchApp
from kivy.clock import Clock
from kivy.config import Config
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.input.motionevent import MotionEvent
from kivy.input.provider import MotionEventProvider

from ui.kivy_setup import draw_at_once


class FingerTouch(MotionEvent):
    """One finger on the glass, at window coordinates: one press, one release."""

    count = 0

    def __init__(self, x: float, y: float):
        FingerTouch.count += 1
        super().__init__("finger", FingerTouch.count, self.scaled(x, y), is_touch=True, type_id="touch")
        self.profile = ["pos"]

    @staticmethod
    def scaled(x: float, y: float) -> dict:
        return {"x": x / (Window.width - 1.0), "y": y / (Window.height - 1.0)}

    def depack(self, args):
        self.sx, self.sy = args["x"], args["y"]
        super().depack(args)


class Finger(MotionEventProvider):
    """Touches queued by frame; each of Kivy's input passes hands over the next frame's batch."""

    def __init__(self):
        super().__init__("finger", None)
        self.queue: list[list] = []      # per frame: [(etype, touch, on_dispatched)]
        self.lock = threading.Lock()
        self.lifted: list[tuple[float, list]] = []   # touches lifted: when, and who still holds them

    def install(self) -> "Finger":
        EventLoop.add_input_provider(self)
        return self

    def update(self, dispatch_fn) -> None:
        with self.lock:
            batch = self.queue.pop(0) if self.queue else None
        for etype, touch, on_dispatched in batch or ():
            if on_dispatched is not None:
                on_dispatched(time.monotonic(), Clock.frames)
            dispatch_fn(etype, touch)
            if etype == "end":
                # Only the touch's grab list is kept (weak references): the touch itself holds
                # every widget it touched (touch.ud), and would keep a dropped screen alive.
                self.lifted.append((time.monotonic(), touch.grab_list))
                self._forget_released()

    RELEASE_WAIT_S = 1.0

    @property
    def holding(self) -> bool:
        """A button still shows a lifted touch pressed. Kivy keeps a button down for its
        ``min_state_time`` (35 ms) of real time, so a tap is seen; and a ScrollView hands its
        buttons a tap's release 0.2 s after the finger lifted (ScrollView.on_touch_up): the
        touch is held by them until then."""
        self._forget_released()
        return bool(self.lifted)

    def _forget_released(self) -> None:
        now = time.monotonic()
        shown_for = Config.getfloat("graphics", "min_state_time")
        self.lifted = [(at, grabs) for at, grabs in self.lifted if now - at < self.RELEASE_WAIT_S and
                       (now - at < shown_for or any(ref() is not None for ref in grabs))]

    @property
    def pending(self) -> bool:
        with self.lock:
            return bool(self.queue)

    def tap(self, x: float, y: float, hold_frames: int = 2, on_release=None) -> None:
        """A finger down at (x, y) in window pixels, up ``hold_frames`` frames later (0: same frame).
        ``on_release(t, frame)`` runs as the lift is handed to Kivy: the moment a button acts."""
        touch = FingerTouch(x, y)
        with self.lock:
            if hold_frames == 0:
                self.queue.append([("begin", touch, None), ("end", touch, on_release)])
            else:
                self.queue.append([("begin", touch, None)])
                self.queue.extend([] for _ in range(hold_frames - 1))
                self.queue.append([("end", touch, on_release)])

    def down(self, x: float, y: float) -> FingerTouch:
        """A finger put down at (x, y) and kept there until :meth:`up` (a key held, say shift)."""
        touch = FingerTouch(x, y)
        with self.lock:
            self.queue.append([("begin", touch, None)])
        return touch

    def up(self, touch: FingerTouch) -> None:
        with self.lock:
            self.queue.append([("end", touch, None)])

    def move(self, touch: FingerTouch, x: float, y: float) -> None:
        """The finger held down slides to (x, y), one frame later."""
        with self.lock:
            self.queue.append([("update", touch, lambda *_: touch.move(FingerTouch.scaled(x, y)))])

    def tap_widget(self, widget, **kwargs) -> None:
        self.tap(*widget.to_window(*widget.center), **kwargs)


class AppDriver:
    """The app built and its window open, with Kivy's loop stepped by hand (``pump``)."""

    def __init__(self, app):
        self.app = app
        # What App.run() does before its loop, through public calls: build, show, start.
        app.load_config()
        app.load_kv(filename=app.kv_file)
        app.root = app.build()
        Window.add_widget(app.root)
        app.dispatch("on_start")
        self.finger = Finger().install()
        runTouchApp(embedded=True)    # input providers and the event loop started; we dispatch
        self.pump(3)

    # Which frames are drawn: "every" (the bench and the screenshots time and show frames),
    # "last" of each step the caller takes (the tests: the clock, input and layout run every
    # frame alike; on the software renderer a drawn frame is most of a tap's cost), or "none"
    # (for checks of the layout alone: a label's text is measured when it is laid out, not drawn).
    _draws = "every"

    @property
    def draws(self) -> str:
        return self._draws

    @draws.setter
    def draws(self, which: str) -> None:
        if which not in ("every", "last", "none"):
            raise ValueError(f"AppDriver.draws is 'every', 'last' or 'none', not {which!r}")
        self._draws = which

    def pump(self, frames: int = 2) -> None:
        """Let Kivy run ``frames`` frames: clock callbacks, input, layout, drawing."""
        for i in range(frames):
            self._frame(self.draws == "every" or (self.draws == "last" and i == frames - 1))

    def _frame(self, draw: bool) -> None:
        draw_at_once(self.draws == "every")   # a verdict's frame drawn at once only when every frame is
        Clock.tick()
        if draw:
            EventLoop.idle()
            return
        # EventLoop.idle() less its drawing: the clock, the input, the rules, the layout.
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()

    def _until_no_touch_left(self) -> None:
        while self.finger.pending:
            self._frame(self.draws == "every")

    def resize(self, width: int, height: int) -> None:
        Window.size = (width, height)
        self.pump(4)

    def tap_at(self, x: float, y: float) -> None:
        """A finger down and up at (x, y), one frame apart, then the frames that follow it."""
        self.finger.tap(x, y, hold_frames=1)
        self._until_no_touch_left()
        self.pump(2)

    def hold(self, x: float, y: float) -> FingerTouch:
        """A finger down at (x, y) that stays down (lift it with :meth:`lift`)."""
        touch = self.finger.down(x, y)
        self.settle()
        return touch

    def lift(self, touch: FingerTouch) -> None:
        self.finger.up(touch)
        self.settle()

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 5) -> None:
        """A finger put down at ``start``, slid to ``end`` over ``steps`` frames, and lifted there."""
        touch = self.finger.down(*start)
        for k in range(1, steps + 1):
            self.finger.move(touch, start[0] + (end[0] - start[0]) * k / steps,
                             start[1] + (end[1] - start[1]) * k / steps)
        self.finger.up(touch)
        self.settle()

    def settle(self) -> None:
        self._until_no_touch_left()
        self.pump(1)

    def open_game(self, header: dict):
        """Start a game from ``header`` (its players added to the roster if new) and show it."""
        from companion.session import Session

        for name in header["players"]:
            if name not in {p.name for p in self.app.store.players()}:
                self.app.store.add_player(name)
        screen = self.app.open_session(Session.start(self.app.store, header))
        self.pump(2)
        return screen

    def tap_card(self, picker, code: str) -> None:
        """Tap a card on a card picker: its rank, then its suit."""
        self.tap(picker.rank_buttons[code[:-1]])
        self.tap(picker.suit_buttons[code[-1]])

    def tap(self, widget) -> None:
        """Tap the middle of ``widget`` where it shows on screen (after any pending layout)."""
        self.pump(1)
        x, y = widget.to_window(*widget.center)
        self.tap_at(x, y)

    def screenshot(self, path: Path) -> Path:
        """The screen at rest: every button let go (the same picture however fast the machine)."""
        while self.finger.holding:
            time.sleep(0.01)
            self._frame(draw=False)
        self.pump(3)
        made = Path(Window.screenshot(name=str(Path(path).with_suffix(".png"))))
        final = Path(path).with_suffix(".png")
        os.replace(made, final)
        return final

    def close(self) -> None:
        self.app.stop()
        self.pump(1)
