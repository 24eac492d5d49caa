"""Kivy's config for a table touchscreen, set before any other part of Kivy is imported."""

from __future__ import annotations

import os
import sys
import threading


def on_kiosk_display() -> bool:
    """True on a Pi driving its screen directly (no desktop): SDL's KMS/DRM video driver."""
    return sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")


def configure(size: str | None, fullscreen: bool = False, rotation: int = 0, max_fps: int = 30) -> None:
    from kivy.config import Config

    if rotation in (0, 90, 180, 270):
        Config.set("graphics", "rotation", str(rotation))
    width, height = (size or "800x480").split("x")
    Config.set("graphics", "width", width)
    Config.set("graphics", "height", height)
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    # Nothing animates while the table is idle; a low cap keeps a Pi cool between taps.
    # (Programs driving the app frame by frame, such as the tests, pass 0: no cap.)
    Config.set("graphics", "maxfps", str(max_fps))
    # The "free_all" clock: an event scheduled with Clock.schedule_once_free (a slap pad's press
    # handed over from its device thread, the end of a race's window) wakes the loop at its time
    # and the frame showing it is drawn at once, not at the next tick up to 33 ms later. Every
    # other event keeps the frame cap, so an animation never runs the loop faster than 30 fps.
    Config.set("kivy", "kivy_clock", "free_all")
    # No multisampling: a frame costs 3-5x less to draw on a software renderer (and less GPU
    # fill on a small board), 10 MB less memory, and the flat panels look the same.
    Config.set("graphics", "multisamples", "0")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "window_icon", "")
    Config.set("kivy", "log_level", "warning")
    # Exactly one input provider per touch: the default config adds a sysfs probe on top of
    # the mouse, and a touchscreen then delivers every tap twice.
    for name in list(Config.options("input")):
        Config.remove_option("input", name)
    from kivy.clock import Clock  # made now, from the settings above

    # Timers fire within 2 ms of their time and the loop sleeps until then. Kivy's default (a
    # third of a frame) runs the loop 40 times a second at a cap of 30, and makes an interrupting
    # clock spin for up to 20 ms before each timer.
    Clock.clock_resolution = 0.002
    no_wake_from_the_loop(Clock)
    free_events_first(Clock)
    if on_kiosk_display() or fullscreen:
        Config.set("graphics", "show_cursor", "0")
        Config.set("input", "touch", "probesysfs,provider=hidinput")
        Config.set("kivy", "keyboard_mode", "systemanddock")
    else:
        Config.set("input", "mouse", "mouse,multitouch_on_demand")
        Config.set("kivy", "keyboard_mode", "system")


def no_wake_from_the_loop(clock) -> None:
    """A free event scheduled on the loop's own thread (a race window's timer, set as a press is
    handled) needs no wake-up call: the loop is awake, and its next sleep already ends at the
    earliest free event. Kivy's interrupting clocks set the wake-up anyway, so the loop skips
    that sleep and runs a whole extra pass (every per-frame callback, a redraw if one is asked
    for) just as a slap's window opens. Events from other threads (the pads' presses) still
    wake it."""
    schedule_hook = getattr(clock, "on_schedule", None)
    if schedule_hook is None or not hasattr(clock, "get_min_free_timeout"):
        return   # not an interrupting clock: nothing to spare
    loop_thread = threading.current_thread()

    def on_schedule(event):
        if threading.current_thread() is not loop_thread:
            schedule_hook(event)
        elif getattr(event, "free", False):
            # What Kivy's hook does besides the wake-up: a free event counts from now, not
            # from the start of the pass (its timer would fire early by the pass's age so far).
            event._last_dt = clock.time()

    clock.on_schedule = on_schedule


_frame_asked = threading.Event()
# A pass of the loop waits this long at most for a free event due (a race window's end), so
# that the event is not kept waiting by the pass's per-frame callbacks (a screen's animations).
FREE_EVENT_AHEAD_S = 0.010


_draw_at_once = True


def draw_at_once(on: bool) -> None:
    """Whether :func:`frame_now` draws its frame at once (the app, the bench, the screenshots),
    or leaves it to the pass's own drawing (the tests' driver, which draws only the frames a
    test looks at: a frame drawn inside the clock's tick would be one it did not ask for)."""
    global _draw_at_once
    _draw_at_once = on


def frame_now() -> None:
    """Asked from a free event (a race's verdict): its frame is drawn as soon as the pass's free
    events have run, before the pass's per-frame callbacks, which would otherwise run first
    (0 to 8 ms of them in the bench's load). Asked from anywhere else it does nothing more: the
    pass's own frame, drawn after everything it runs, shows it."""
    _frame_asked.set()


def free_events_first(clock) -> None:
    """A pass of the loop woken by a free event (a race window's end, a pad's press) runs the
    free events that are due before the pass's per-frame callbacks (animations, anything
    scheduled every frame), not after them in the order those were first scheduled, and draws
    the frame at once when one of them asked for it (:func:`frame_now`): a verdict then waits
    for no per-frame work started after its time. Kivy's free clocks keep their free events
    apart (``_process_free_events``, which the "free_only" clock runs while it sleeps); the
    "free_all" clock runs them with every other event, in the pass."""
    run_free = getattr(clock, "_process_free_events", None)
    if run_free is None:
        return   # not a free clock: its events have no such order to keep
    idle = clock.idle

    def idle_then_free_events():
        current = idle()
        # A pass begun just before a race window closes (a frame's time, a press) would run its
        # per-frame callbacks first, and Kivy may also wake a little early (by up to 4/5 of the
        # clock's resolution; a timer fired early finds its window open and sets itself again).
        # So the free events due soon are waited for, at their time, before the pass goes on; a
        # frame waits that long at most.
        until = clock.time() + FREE_EVENT_AHEAD_S
        _frame_asked.clear()
        while True:
            due = clock.get_min_free_timeout()   # 0 for one due now, a huge time for none
            now = clock.time()
            if due > until or now > until:
                break
            if due > now:
                clock.usleep((due - now) * 1e6)   # a press from a device thread cuts it short
            run_free(clock.time())
        if _frame_asked.is_set():
            _frame_asked.clear()
            if _draw_at_once:
                _draw_now(tick_draw)
        return current

    tick_draw = clock.tick_draw

    def free_events_then_tick_draw():
        run_free(clock.time())   # one that fell due during the pass's callbacks joins its frame
        tick_draw()

    clock.idle = idle_then_free_events
    clock.tick_draw = free_events_then_tick_draw


def _draw_now(tick_draw) -> None:
    """What Kivy's loop does to draw a frame (``EventLoop.idle`` after its clock's tick)."""
    from kivy.base import EventLoop
    from kivy.lang import Builder

    window = EventLoop.window
    if window is None:
        return
    Builder.sync()
    tick_draw()
    Builder.sync()
    if window.canvas.needs_redraw:
        window.dispatch("on_draw")
        window.dispatch("on_flip")
