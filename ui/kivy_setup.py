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

    clock.on_schedule = on_schedule
