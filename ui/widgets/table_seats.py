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
        dot, gap = dp(26), dp(6)
        # A name (and the word under it) beside its seat on the left and right, above or below
        # it at the top and bottom; the oval leaves room for the widest, so none runs off the
        # picture or over another seat (ten 12-letter names round a portrait table).
        labels = [text_texture(name + (f"\n\u2013 {word}" if word else ""), sp(20),
                               theme.PRIMARY if word else theme.TEXT) for name, _, word in self.seats]
        widest = max((t.size[0] for t in labels), default=0)
        tallest = max((t.size[1] for t in labels), default=0)
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        rx = max(dp(60), min(self.width / 2 - widest - dot - gap, self.width * 0.3 + dp(40), dp(260)))
        ry = max(dp(40), min(self.height / 2 - dot - gap - tallest, dp(200)))
        draw_table_top(self.canvas, cx, cy, rx, ry,
                       "clockwise \u21bb" if self.seats else "Tap the players\nin seating order", sp(20))
        for i, ((name, colour, word), label) in enumerate(zip(self.seats, labels)):
            # Seat 1 at the bottom, then clockwise as seen from above: left, top, right.
            angle = math.radians(270 - i * 360 / len(self.seats))
            across, up = math.cos(angle), math.sin(angle)
            x, y = cx + rx * across, cy + ry * up
            number = text_texture(str(i + 1), sp(22), theme.text_on(colour))
            lw, lh = label.size
            if across < -0.45:
                lx, ly = x - dot - gap - lw, y - lh / 2
            elif across > 0.45:
                lx, ly = x + dot + gap, y - lh / 2
            else:
                lx, ly = x - lw / 2, (y - dot - gap - lh) if up < 0 else (y + dot + gap)
            lx = max(self.x, min(self.right - lw, lx))
            ly = max(self.y, min(self.top - lh, ly))
            with self.canvas:
                Color(*colour)
                Ellipse(pos=(x - dot, y - dot), size=(2 * dot, 2 * dot))
                Color(1, 1, 1, 1)
                Rectangle(texture=number, size=number.size, pos=(round(x - number.size[0] / 2),
                                                                  round(y - number.size[1] / 2)))
                Rectangle(texture=label, size=label.size, pos=(round(lx), round(ly)))
