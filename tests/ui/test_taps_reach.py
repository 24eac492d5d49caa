"""A finger on any control a player can see reaches that control: nothing hidden, disabled or
put away lies over it and takes the touch (docs: the message bar and the game screens never let
a tap land on something the player cannot see). A disabled widget takes every touch that lands
on it, so a part put away but still laid out over a control silently eats its taps."""

from __future__ import annotations

import pytest

from tests.ui.test_words_fit import SIZES, show_case

# Touches reach widgets, not pixels; the long names of the cases leave the roster after each test.
pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("undrawn", "players_leave")]

STATES = [("jacks", 4, "round"), ("jacks", 4, "over"), ("jack-change-it", 4, "turn"),
          ("one-eyed-jack", 2, "card"), ("one-eyed-jack", 2, "won"),
          ("slapjack", 4, "race"), ("slapjack", 4, "card"), ("slapjack", 4, "judge"), ("slapjack", 4, "over")]


def controls(screen):
    """The buttons a player can see and use (in a scrolling list a touch waits to see whether
    it is a scroll, so those are left to the tests that scroll)."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.scrollview import ScrollView

    from ui.widgets import hiding

    for widget in screen.walk(restrict=True):
        if not isinstance(widget, ButtonBehavior) or widget.disabled or not hiding.shown(widget):
            continue
        if widget.width <= 1 or widget.height <= 1:
            continue
        parent, scrolled = widget.parent, False
        while parent is not None and parent is not parent.parent:
            scrolled = scrolled or isinstance(parent, ScrollView)
            parent = parent.parent
        if not scrolled:
            yield widget


def took(touch, widget) -> bool:
    return any(ref() is widget for ref in touch.grab_list)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game,players,state", STATES, ids=lambda v: str(v))
def test_a_finger_on_a_control_reaches_it(driver, app, size, game, players, state):
    from kivy.core.window import Window

    screen = show_case(app, driver, size, game, players, state)
    buttons = list(controls(screen))
    assert buttons, "the screen shows controls"
    missed = []
    for button in buttons:
        before = getattr(button, "state", None)
        x, y = button.to_window(*button.center)
        touch = driver.hold(x, y)
        if not took(touch, button):
            missed.append(f"{type(button).__name__} {getattr(button, 'text', '')!r} at ({x:.0f}, {y:.0f})")
        # Slide off before lifting: the button lets go without acting.
        driver.finger.move(touch, Window.width + 50, Window.height + 50)
        driver.settle()
        driver.lift(touch)
        if before is not None and button.state != before:   # a toggle flips on the press
            button.state = before
    assert not missed, f"{game} ({state}) at {size[0]}x{size[1]}: taps do not reach\n  " + "\n  ".join(missed)
