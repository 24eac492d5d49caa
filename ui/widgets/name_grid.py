"""Grids that keep every name whole: as many to a row as the widest name allows, and as many
rows as that takes, never a shortened "Bart...meus".

``NameGrid``: buttons with names on them (who deals, who goes first). ``SeatTileGrid``: the
Slapjack table's seats, each row as tall as its tiles' words need.
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty
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


def even_rows(count: int, cols: int) -> tuple[int, int]:
    """(columns, rows) for ``count`` cells at most ``cols`` to a row, shared evenly over the rows
    (eight: two rows of four, not five and three).

    >>> even_rows(8, 5), even_rows(10, 4), even_rows(3, 7)
    ((4, 2), (4, 3), (3, 1))
    """
    rows = -(-count // cols)
    return -(-count // rows), rows


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


def seat_columns(names: list[str], room: float, gap: float, font_name: str, font_px: float,
                 text_room: float = dp(16)) -> int:
    """Columns for seat tiles that each show one name whole on a line, the rows shared evenly
    (eight seats: two rows of four, not five and three)."""
    if not names:
        return 1
    widest = max(text_width(name, font_name, font_px) for name in names) + text_room
    return even_rows(len(names), columns(widest, room, gap, len(names)))[0]


def side_by_side(width: float, count: str, caption: str, count_px: float, caption_px: float,
                 bold_font: str, font: str) -> bool:
    """Whether a seat's stack ("6", "1 won") and its pad line ("pad 1 · key 1") fit on one
    line of a tile ``width`` px wide; if not, the pad line goes under the stack."""
    # the gap between them, room for a mock pad's light, and a little slack
    need = text_width(count, bold_font, count_px) + text_width(caption, font, caption_px) + dp(26)
    return need <= width


def seat_rows_height(grid, landscape: bool, cols: int, gap: float, font: str, bold_font: str) -> float:
    """The height of a grid of seat tiles (children with ``count_text``, ``caption`` and
    ``status``): each row as tall as its tiles need, the pad line beside the stack or under it."""
    tiles = list(reversed(grid.children))
    if not tiles:
        return 0
    cols = max(1, int(cols))
    width = (grid.width - (cols - 1) * gap) / cols - dp(8)
    flat, tall = (dp(64), dp(72)) if landscape else (dp(96), dp(80))   # tall: with no pad line yet

    def lines(tile) -> int:   # the pad line under the stack wraps in a narrow tile
        words = tile.status or tile.caption
        return max(1, math.ceil(text_width(words, bold_font if tile.status else font, dp(20)) / max(width, 1)))

    def row_height(row) -> float:
        if all(side_by_side(width, t.count_text, t.status or t.caption, dp(26), dp(20),
                            bold_font, bold_font if t.status else font) for t in row):
            return flat
        return tall + dp(24) * max(lines(t) for t in row)

    rows = [tiles[i:i + cols] for i in range(0, len(tiles), cols)]
    heights = [row_height(row) for row in rows]
    for row, height in zip(rows, heights):
        for tile in row:   # a grid shares its height evenly between rows: each tile says its own
            tile.size_hint_y, tile.height = None, height
    return sum(heights) + gap * (len(rows) - 1)


class SeatTileGrid(GridLayout):
    """Seat tiles (with ``name``, ``count_text``, ``caption`` and ``status``): as many to a row as
    keep every name whole, each row as tall as its tiles' words need."""

    landscape = BooleanProperty(True)

    def __init__(self, **kwargs):
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("cols", 1)
        super().__init__(**kwargs)
        self._trigger = Clock.create_trigger(self.fit, -1)
        self._watched: set[int] = set()
        self.bind(width=self._trigger, children=self._trigger, landscape=self._trigger)

    def fit(self, *_):
        from .. import theme

        for tile in self.children:
            if id(tile) not in self._watched:
                self._watched.add(id(tile))
                tile.bind(name=self._trigger, count_text=self._trigger, caption=self._trigger,
                          status=self._trigger)
        names = [tile.name for tile in self.children]
        self.cols = seat_columns(names, self.width, self.spacing[0], theme.FONT_BOLD, dp(20))
        self.height = seat_rows_height(self, self.landscape, self.cols, self.spacing[1], theme.FONT, theme.FONT_BOLD)
