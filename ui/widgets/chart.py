"""A line chart of each player's running total over the rounds, with the target marked."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

from .. import theme
from .shapes import Ring


class TotalsChart(Widget):
    series = ListProperty([])  # [(name, rgba, [total after round 1, after round 2, ...]), ...]
    target = NumericProperty(75)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, series=self.redraw, target=self.redraw)

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
        left, bottom = self.x + dp(44), self.y + dp(28)
        width, height = max(1, self.width - dp(56)), max(1, self.height - dp(40))

        def at(i: int, value: float) -> tuple[float, float]:
            x = left + (width * i / max(1, rounds))
            return x, bottom + height * value / max(1, top)

        with self.canvas:
            Color(*theme.TEXT_DIM)
            Line(points=[left, bottom, left + width, bottom], width=dp(1))
            Line(points=[left, bottom, left, bottom + height], width=dp(1))
            # The target: reaching it ends the game.
            Color(*theme.DANGER)
            Line(points=[left, at(0, self.target)[1], left + width, at(0, self.target)[1]], width=dp(1.5),
                 dash_length=dp(8), dash_offset=dp(6))
            for value, colour in ((0, theme.TEXT_DIM), (self.target, theme.DANGER)):
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
