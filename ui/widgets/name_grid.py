"""A grid of buttons with names on them (who deals, who goes first) that keeps every name whole:
as many to a row as the widest name allows, and as many rows as that takes, never a shortened
"Bart...meus" (issue: "Gran w...ith 31!").
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.gridlayout import GridLayout


def text_width(text: str, font_name: str, font_px: float) -> float:
    return CoreLabel(font_name=font_name, font_size=font_px).get_extents(text)[0]


def columns(widest: float, room: float, gap: float, count: int, most: int = 0) -> int:
    """How many cells ``widest`` px wide fit across ``room`` with ``gap`` between them.

    >>> columns(150, 704, 6, 10)
    4
    >>> columns(150, 704, 6, 3)
    3
    >>> columns(900, 704, 6, 10)
    1
    """
    fit = int((room + gap) // (widest + gap)) if widest > 0 else count
    return max(1, min(count, fit, most or count))


class NameGrid(GridLayout):
    """Its children are buttons; it sets its own columns and height from their words."""

    row_height = NumericProperty(dp(48))
    text_room = NumericProperty(dp(12))  # a button's text keeps this much clear of its edges (it wraps at 8)
    most = NumericProperty(0)  # the most to a row (0: as many as fit)

    def __init__(self, **kwargs):
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self._trigger = Clock.create_trigger(self.fit, -1)
        self.bind(width=self._trigger, children=self._trigger, row_height=self._trigger, most=self._trigger)

    def fit(self, *_):
        buttons = list(self.children)
        if not buttons:
            self.cols, self.height = 1, 0
            return
        widest = max(text_width(b.text, b.font_name, b.font_size) for b in buttons) + self.text_room
        self.cols = columns(widest, self.width, self.spacing[0], len(buttons), self.most)
        rows = -(-len(buttons) // self.cols)
        self.height = rows * self.row_height + (rows - 1) * self.spacing[1]
