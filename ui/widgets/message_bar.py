"""The message bar: a refusal's reason or what just happened, never over anything the player
needs (it used to cover controls for 4 to 8 seconds after each action).

On a tall screen the bar has a strip of its own at the foot, always: the screens sit above it.
The 7" screen has no row to spare (a board's spaces, ten players' tiles), so there the bar
goes where nothing is: the lowest place on the screen showing, as wide as it can be, that
touches no control, board, card or words; failing that, over words alone where it hides
the least of them, still clear of every control and board space. Only when no such place exists does it open its
strip at the foot, and the screen above gives up that height for as long as it shows.
Wherever it is, a tap on it puts it away, and a tap anywhere else lands on what is seen.
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.screenmanager import Screen, ScreenManager
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from .hiding import shown

MIN_HEIGHT = dp(48)
STEP = dp(8)

Box = tuple[float, float, float, float]   # x, y, right, top in window pixels


def window_box(widget) -> Box:
    x, y = widget.to_window(*widget.pos)
    return x, y, x + widget.width, y + widget.height


def is_control(widget) -> bool:
    """Something a player touches: a button, a field, or a board's spaces (any widget that
    says it takes touches on its spaces with ``space_at``)."""
    return isinstance(widget, (ButtonBehavior, TextInput)) or hasattr(widget, "space_at")


def occupied(screen) -> tuple[list[Box], list[Box]]:
    """What a player sees on ``screen``: the boxes of its controls and boards, and of the rest
    (cards, words). Layouts, scroll views and bare widgets (spacers) hold nothing of their own."""
    controls, words = [], []
    for widget in screen.walk(restrict=True):
        if widget is screen or isinstance(widget, (Layout, ScrollView, Screen, ScreenManager)):
            continue
        if type(widget) is Widget or widget.width <= 0 or widget.height <= 0:
            continue
        if isinstance(widget, Label) and not widget.text:
            continue
        if shown(widget):
            (controls if is_control(widget) else words).append(window_box(widget))
    return controls, words


def column(controls: list[Box], words: list[Box], left: float, right: float):
    """What reaches into the column from ``left`` to ``right``: the heights each control takes
    in it, and each word box's heights with how much of its width lies in the column (a box
    in the column hides that width times the height they share). Nothing else can meet a box
    in the column, so the search looks at nothing else."""
    taken = [(b[1], b[3]) for b in controls if left < b[2] and b[0] < right]
    under = [(min(right, b[2]) - max(left, b[0]), b[1], b[3]) for b in words if left < b[2] and b[0] < right]
    return taken, under


class MessageBar(Label):
    """The app's one message; ``reserve`` is True while it needs its strip at the foot."""

    reserve = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._watch = None
        self._reserved_for = None
        self._place = Clock.create_trigger(self.place, 0)
        self.fbind("text", self._on_text)
        self.fbind("parent", self._on_parent)

    def on_touch_down(self, touch):
        # A tap on the message puts it away. Written here, not in the kv rule: a kv handler keeps
        # its last arguments, and this touch would keep every widget it met alive (a dropped screen).
        if self.parent is not None and self.parent.notice and self.collide_point(*touch.pos):
            App.get_running_app().clear_notice()
        return super().on_touch_down(touch)

    def _on_parent(self, *_):
        if self.parent is not None:
            self.parent.fbind("size", self._place)
            self.parent.ids.manager.fbind("current", self._place)
            self._place()

    def _on_text(self, *_):
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self.text:
            # The screen changes under a new message (a refresh, a turn): look again after it.
            self._watch = Clock.schedule_once(self.place, 0.1)
        self._place()

    def manager(self):
        return self.parent.ids.manager if self.parent is not None else None

    def measure(self, width: float) -> float:
        self.text_size = (max(1, int(width - dp(24))), None)
        self.texture_update()
        return max(MIN_HEIGHT, self.texture_size[1] + dp(12))

    def open_strip(self) -> None:
        root = self.parent
        self.reserve = True
        # Once a screen has made room it keeps it while it shows: its controls move once, not
        # back and forth with every message.
        self._reserved_for = (root.ids.manager.current, tuple(root.size))
        self.size = (root.width, max(dp(56), self.measure(root.width)))
        self.pos = (root.x, root.y)

    def place(self, *_):
        root, manager = self.parent, self.manager()
        if root is None or manager is None:
            return
        if root.height > root.width:
            self.open_strip()   # a tall screen keeps its strip, message or none
            return
        here = (manager.current, tuple(root.size))
        if self.reserve and self._reserved_for != here:
            self.reserve = False   # another screen, or the window turned: look afresh
        if not self.text:
            return
        if self.reserve or manager.current_screen is None:
            self.open_strip()   # the strip is open (the screen laid out above it): it stays till the message goes
            return
        # First where nothing at all is. Else over words alone (never over a control or a
        # board's space), where it hides the least of them.
        screen = manager.current_screen
        controls, words = occupied(screen)
        best = None
        for width in (root.width - dp(12), root.width * 0.66, root.width * 0.5, root.width * 0.38):
            height = self.measure(width)
            # Each of the three places across, with only what reaches into its column: this runs
            # on the main thread each time a message shows.
            columns = [(x, *column(controls, words, x, x + width))
                       for x in (root.center_x - width / 2, root.x + dp(6), root.right - width - dp(6))]
            y = root.y + dp(4)
            while y + height <= root.top:
                top = y + height
                for x, taken, under in columns:
                    if any(bottom < top and y < upper for bottom, upper in taken):
                        continue
                    hidden = sum(across * max(0.0, min(top, upper) - max(y, bottom))
                                 for across, bottom, upper in under)
                    if hidden == 0:
                        self.size, self.pos = (width, height), (x, y)
                        return
                    if best is None or hidden < best[0]:
                        best = (hidden, (width, height), (x, y))
                y += STEP
        if best is not None:
            self.size, self.pos = best[1], best[2]
            self.measure(best[1][0])
            return
        self.open_strip()   # nowhere is free: the screen makes room
