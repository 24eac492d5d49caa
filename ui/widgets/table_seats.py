"""The table seen from above, for a set-up on a tall screen: the chosen players in their seats
clockwise from the bottom, each on their colour, with a word beside who deals or starts.

A set-up shows it where a portrait screen has height to spare, so the table can check the
seating order at a glance before the game starts.
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty
from kivy.uix.widget import Widget

from .. import theme
from .board import text_texture


def draw_table_top(canvas, cx: float, cy: float, rx: float, ry: float, words: str, font_px: float) -> None:
    """The table as an oval seen from above, with ``words`` in its middle."""
    with canvas:
        Color(*theme.PANEL)
        Ellipse(pos=(cx - rx, cy - ry), size=(2 * rx, 2 * ry))
        Color(*theme.PANEL_LIGHT)
        Line(ellipse=(cx - rx, cy - ry, 2 * rx, 2 * ry), width=dp(2))
        texture = text_texture(words, font_px, theme.TEXT_DIM, bold=False)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, size=texture.size, pos=(cx - texture.size[0] / 2, cy - texture.size[1] / 2))


class TableSeats(Widget):
    seats = ListProperty([])  # (name, rgba colour, word beside the name or "") in seating order

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        trigger = Clock.create_trigger(self.redraw)
        self.bind(pos=trigger, size=trigger, seats=trigger)

    def redraw(self, *_):
        self.canvas.clear()
        if self.height < dp(160) or self.width < dp(160):
            return
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        rx, ry = min(self.width * 0.3, dp(220)), min(self.height * 0.3, dp(200))
        dot = dp(26)
        draw_table_top(self.canvas, cx, cy, rx, ry,
                       "clockwise \u21bb" if self.seats else "Tap the players\nin seating order", sp(20))
        for i, (name, colour, word) in enumerate(self.seats):
            # Seat 1 at the bottom, then clockwise as seen from above: left, top, right.
            angle = math.radians(270 - i * 360 / len(self.seats))
            x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
            number = text_texture(str(i + 1), sp(22), theme.text_on(colour))
            label = text_texture(name + (f" \u2013 {word}" if word else ""), sp(20),
                                 theme.PRIMARY if word else theme.TEXT)
            below = math.sin(angle) < -0.1
            ty = y - dot - dp(6) - label.size[1] if below else y + dot + dp(6)
            lx = max(self.x, min(self.right - label.size[0], x - label.size[0] / 2))
            with self.canvas:
                Color(*colour)
                Ellipse(pos=(x - dot, y - dot), size=(2 * dot, 2 * dot))
                Color(1, 1, 1, 1)
                Rectangle(texture=number, size=number.size, pos=(round(x - number.size[0] / 2),
                                                                  round(y - number.size[1] / 2)))
                Rectangle(texture=label, size=label.size, pos=(round(lx), round(ty)))
