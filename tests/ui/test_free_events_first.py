"""A race window's end is a free event on Kivy's clock; the app runs free events before a pass's
per-frame callbacks, at their time rather than early, and draws the frame at once when one asks
for it (ui/kivy_setup.py): a verdict does not wait for an animation's work started after it."""

from __future__ import annotations

import time

import pytest


@pytest.fixture
def passes(driver):
    """What happened in the passes of Kivy's loop, in order: "timer", "per-frame", "frame"."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    seen: list[tuple[str, float]] = []
    swap = Window.flip

    def flip():
        swap()
        seen.append(("frame", time.monotonic()))

    def per_frame(dt):
        seen.append(("per-frame", time.monotonic()))
        end = time.monotonic() + 0.03   # a screen's busy per-frame work
        while time.monotonic() < end:
            pass

    before, driver.draws = driver.draws, "every"
    Window.flip = flip
    event = Clock.schedule_interval(per_frame, 0)
    driver.pump(2)
    yield seen
    event.cancel()
    Window.flip = swap
    driver.draws = before


def run_timer(driver, seen, ask_for_frame: bool):
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.kivy_setup import frame_now

    fired = []

    def timer(dt):
        fired.append(time.monotonic())
        seen.append(("timer", fired[-1]))
        Window.canvas.ask_update()
        if ask_for_frame:
            frame_now()

    seen.clear()
    set_at = time.monotonic()
    Clock.schedule_once_free(timer, 0.005)
    for _ in range(20):
        if fired:
            break
        driver.pump(1)
    driver.pump(1)
    assert fired, "the timer never fired"
    after = [what for what, t in seen if t >= fired[0]]
    return set_at, fired[0], after


def on_time(set_at: float, fired: float) -> None:
    # Not early (a race window's timer fired early finds the window open and sets itself
    # again), and not kept waiting by the 30 ms of per-frame work that falls due meanwhile.
    assert set_at + 0.005 <= fired < set_at + 0.005 + 0.015, f"fired {1000 * (fired - set_at):.1f} ms after set"


def test_a_timer_asking_for_its_frame_is_shown_before_the_pass_s_per_frame_work(driver, passes):
    set_at, fired, after = run_timer(driver, passes, ask_for_frame=True)
    on_time(set_at, fired)
    assert after[:3] == ["timer", "frame", "per-frame"], after


def test_without_asking_the_frame_comes_after_the_pass_s_work(driver, passes):
    # The same pass, less frame_now(): the per-frame work runs first, then the frame that
    # shows the timer's change (so the test above measures what frame_now changes).
    set_at, fired, after = run_timer(driver, passes, ask_for_frame=False)
    on_time(set_at, fired)
    assert after[0] == "timer" and after.index("per-frame") < after.index("frame"), after
