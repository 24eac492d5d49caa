"""A line chart of each player's running total over the rounds, with the target marked.

Each line carries its player's name at its end (beside a bar of the player's colour), so the chart needs no
legend; the target is a dashed grey line, unlike any player's colour.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

from .. import theme
from .shapes import Ring


TARGET_GREY = (0.75, 0.75, 0.75, 1)
LABEL_SP = 20  # the names at the lines' ends: read at arm's length


def spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Heights for labels as near ``wanted`` as may be, each at least ``gap`` from the next
    (two players on the same total would otherwise print their names over each other)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    floor = low
    for i in order:
        placed[i] = max(wanted[i], floor)
        floor = placed[i] + gap
    over = (placed[order[-1]] - high) if order else 0
    if over > 0:  # pushed past the top: slide them all down, keeping their order
        for i in order:
            placed[i] = max(low, placed[i] - over)
    return placed


class TotalsChart(Widget):
    series = ListProperty([])  # [(name, rgba, [total after round 1, after round 2, ...]), ...]
    target = NumericProperty(75)

    def __init__(self, **kwargs):
        self.name_boxes: list[tuple] = []  # where each name is drawn (x, y, w, h), in series order
        super().__init__(**kwargs)
        # Drawn once before the next frame, however many of these change in between: a screen
        # being built and laid out moves and sizes the chart several times, and each drawing
        # makes every label and point anew. A chart in no window (the one a screen makes to work
        # out the series) is not drawn.
        self._redraw_soon = Clock.create_trigger(self._redraw_due, -1)
        self.bind(pos=self._redraw_soon, size=self._redraw_soon, series=self._redraw_soon, target=self._redraw_soon,
                  parent=self._redraw_soon)

    def _redraw_due(self, *_):
        if self.parent is not None:
            self.redraw()

    def _text(self, text: str, size: float, colour) -> tuple:
        label = CoreLabel(text=text, font_size=size, font_name=theme.FONT, color=colour)
        label.refresh()
        return label.texture

    def redraw(self, *_):
        self.canvas.clear()
        if self.width < dp(60) or self.height < dp(60):
            return  # laid out with no room (the Jacks screen's inline chart in landscape): draw nothing
        rounds = max((len(values) for _, _, values in self.series), default=0)
        top = max([self.target] + [max(values) for _, _, values in self.series if values])
        names = [self._text(name, sp(LABEL_SP), theme.TEXT) for name, _, _ in self.series]
        room = max((t.size[0] for t in names), default=0) + dp(22)  # the names, right of the lines
        left, bottom = self.x + dp(44), self.y + dp(28)
        width, height = max(1, self.width - dp(56) - room), max(1, self.height - dp(40))

        def at(i: int, value: float) -> tuple[float, float]:
            x = left + (width * i / max(1, rounds))
            return x, bottom + height * value / max(1, top)

        with self.canvas:
            Color(*theme.TEXT_DIM)
            Line(points=[left, bottom, left + width, bottom], width=dp(1))
            Line(points=[left, bottom, left, bottom + height], width=dp(1))
            # The target: reaching it ends the game.
            # Dashes as short segments: Kivy dashes only lines one pixel wide.
            Color(*TARGET_GREY)
            y = at(0, self.target)[1]
            x, dash = left, dp(10)
            while x < left + width:
                Line(points=[x, y, min(x + dash, left + width), y], width=dp(1.5))
                x += dash * 1.8
            for value, colour in ((0, theme.TEXT_DIM), (self.target, TARGET_GREY)):
                texture = self._text(str(value), sp(13), colour)
                Color(1, 1, 1, 1)
                Rectangle(texture=texture, size=texture.size,
                          pos=(left - texture.size[0] - dp(6), at(0, value)[1] - texture.size[1] / 2))
            for i in range(1, rounds + 1):
                texture = self._text(str(i), sp(13), theme.TEXT_DIM)
                Color(1, 1, 1, 1)
                x, _ = at(i, 0)
                Rectangle(texture=texture, size=texture.size, pos=(x - texture.size[0] / 2, self.y + dp(4)))
            for _, colour, values in self.series:
                points = [c for i, v in enumerate([0, *values]) for c in at(i, v)]
                Color(*colour)
                if len(points) >= 4:
                    Line(points=points, width=dp(2.5))
                for x, y in zip(points[::2], points[1::2]):
                    r = dp(3.5)
                    Ring(rect=(x - r, y - r, 2 * r, 2 * r), radius=r, width=dp(2))
            # Each name at its line's end, nudged apart where totals are close.
            ends = [at(len(values), values[-1] if values else 0)[1] for _, _, values in self.series]
            gap = max((t.size[1] for t in names), default=0)
            heights = spread([e - gap / 2 for e in ends], gap, self.y, self.top - gap)
            self.name_boxes = []
            for (_, colour, _), texture, y in zip(self.series, names, heights):
                # white on the felt reads better than a dark player colour; a bar of it beside the name
                Color(*colour)
                Rectangle(pos=(left + width + dp(8), y + texture.size[1] * 0.2), size=(dp(6), texture.size[1] * 0.6))
                pos = (left + width + dp(18), y)
                Color(1, 1, 1, 1)
                Rectangle(texture=texture, size=texture.size, pos=pos)
                self.name_boxes.append((*pos, *texture.size))
