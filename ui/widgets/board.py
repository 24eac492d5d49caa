"""The One-Eyed Jack board as one widget, and the chip marks the side panels use.

The board is 100 spaces drawn with canvas instructions and cached text textures rather than
100 Buttons: a redraw then costs a few hundred instructions and no layout pass, which keeps a
Pi quick between taps. The whole cell is the touch target; a tap reports ``on_space(row, col)``.
The widget only draws what it is given (chips, lit spaces, rows): the rules stay in companion.
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, Line, PopMatrix, PushMatrix, Rectangle, Translate
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.cards import SUIT_SYMBOLS
from companion.games.one_eyed_jack.board import CORNERS, LAYOUT, SIZE

from .. import theme
from .shapes import RoundedBox, ShapeBatch

# One chip colour per side (Okabe-Ito blue, vermilion, bluish green: colour-blind players
# can tell them apart), and each side its own shape, so colour is never the only cue.
SIDE_COLOURS = (theme.rgba("#0072B2"), theme.rgba("#D55E00"), theme.rgba("#009E73"))
SIDE_SHAPES = ("circle", "square", "triangle")
SIDE_SYMBOLS = ("\u25cf", "\u25a0", "\u25b2")  # the same shapes as text: ● ■ ▲

EDGE = (0, 0, 0, 0.45)  # the dark rim that keeps a chip or a line clear of what is under it
STAR = "\u2605"

_TEXTURES: dict[tuple, object] = {}


def side_colour(side: int, colours=()) -> list[float]:
    """A side's chip colour: its player's colour when the screen gives it (``colours``, one per
    side), so a player has the same colour in every game; else the side's own."""
    if side < len(colours):
        return list(colours[side])
    return list(SIDE_COLOURS[side % len(SIDE_COLOURS)])


def text_texture(text: str, size: float, colour, bold: bool = True):
    """A label's texture, made once per text, size and colour: the board reuses 49 of them."""
    key = (text, int(round(size)), tuple(round(float(c), 3) for c in colour), bold)
    texture = _TEXTURES.get(key)
    if texture is None:
        if len(_TEXTURES) > 600:  # sizes change on turning the screen; old ones are not needed
            _TEXTURES.clear()
        label = CoreLabel(text=text, font_size=key[1], font_name=theme.FONT_BOLD if bold else theme.FONT,
                          color=list(colour), halign="center", line_height=0.92)
        label.refresh()
        texture = _TEXTURES[key] = label.texture
    return texture


def _shape(batch: ShapeBatch, shape: str, cx: float, cy: float, r: float) -> None:
    if shape == "circle":
        batch.ellipse(cx, cy, r, r)
    elif shape == "square":
        s = r * 0.9  # a square as wide as the circle looks bigger; this evens them out
        batch.rounded_rectangle(cx - s, cy - s, 2 * s, 2 * s, r * 0.22)
    else:
        big = r * 1.3  # circumradius: a triangle fills less of its box than a circle
        half = big * 0.866
        lift = big * 0.12  # sit the triangle's middle a little low so it looks centred
        batch.triangle([cx, cy + big - lift, cx - half, cy - big / 2 - lift, cx + half, cy - big / 2 - lift])


def draw_chips(group, chips, colours=()) -> None:
    """Chips, each ``(side, cx, cy, r)``: its side's shape, filled with its colour, on a white rim
    with a dark edge. Chips never overlap, so each layer of them all is one mesh (a few draw
    calls for the whole board rather than three a chip)."""
    edges, rims, fills = ShapeBatch(), ShapeBatch(), {}
    for side, cx, cy, r in chips:
        shape = SIDE_SHAPES[side % len(SIDE_SHAPES)]
        rim = max(1.5, r * 0.14)
        _shape(edges, shape, cx, cy, r + rim + 1)
        _shape(rims, shape, cx, cy, r + rim)
        _shape(fills.setdefault(side, ShapeBatch()), shape, cx, cy, r)
    edges.add_to(group, EDGE)
    rims.add_to(group, (1, 1, 1, 1))
    for side in sorted(fills):
        fills[side].add_to(group, side_colour(side, colours))


def draw_chip(group, side: int, cx: float, cy: float, r: float, colours=()) -> None:
    draw_chips(group, [(side, cx, cy, r)], colours)


def draw_lock(group, cx: float, cy: float, size: float) -> None:
    """A small padlock centred on (cx, cy): the mark of a chip in a row, which no one-eyed Jack
    can take. White on a dark rim, so it shows on any chip colour and over a row's line."""
    w, h = size * 0.7, size * 0.5
    body_x, body_y = cx - w / 2, cy - size * 0.5
    r = w * 0.3  # the shackle: two legs and a half circle over the body
    legs = body_y + h + size * 0.1
    arc = [(cx + r * math.cos(math.pi * i / 12), legs + r * math.sin(math.pi * i / 12)) for i in range(13)]
    shackle = [body_x + w / 2 + r, body_y + h] + [v for point in arc for v in point] + [cx - r, body_y + h]
    thick = max(1.0, size * 0.075)
    rim = max(1.0, size * 0.08)
    group.add(Color(*EDGE[:3], 0.8))
    group.add(Line(points=shackle, width=thick + rim))
    group.add(RoundedBox(pos=(body_x - rim, body_y - rim), size=(w + 2 * rim, h + 2 * rim), radius=[size * 0.1]))
    group.add(Color(1, 1, 1, 1))
    group.add(Line(points=shackle, width=thick))
    group.add(RoundedBox(pos=(body_x, body_y), size=(w, h), radius=[size * 0.08]))


class OneEyedBoard(Widget):
    """The 10x10 board: each space's card, the chips, the spaces lit for the chosen card, the
    rows as lines through their chips, locked chips and the last play."""

    four_colour = BooleanProperty(False)
    chips = ListProperty([None] * (SIZE * SIZE))  # the side holding each space, row by row, or None
    highlighted = ListProperty([])  # (row, col) the chosen card may take
    choosing = BooleanProperty(False)  # a card is chosen: every space it cannot take is dimmed
    locked = ListProperty([])  # (row, col) of chips in rows
    row_lines = ListProperty([])  # (side, [(row, col), ...], count) for every line that counts
    winning = ListProperty([])  # the winner's lines, drawn bold; every other space dimmed
    last = ObjectProperty(None, allownone=True)  # the space the last play changed
    cell = NumericProperty(0)  # the side of one space in pixels
    side_colours = ListProperty([])  # each side's chip colour (its first player's); empty: the sides' own
    label_px = NumericProperty(0)  # the height in pixels of a space's rank and suit (read by tests)

    __events__ = ("on_space",)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._faces = InstructionGroup()
        self._marks = InstructionGroup()
        # Each group is drawn where the board was when it was drawn, and shifted to where it is
        # now: a layout that only moves the board (a screen being laid out moves it several
        # times before its first frame) then costs no redraw.
        self._shifts = {}
        for group in (self._faces, self._marks):
            shift = Translate(0, 0)
            self.canvas.add(PushMatrix())
            self.canvas.add(shift)
            self.canvas.add(group)
            self.canvas.add(PopMatrix())
            self._shifts[id(group)] = [shift, None]   # the translation, and where the group was drawn
        # -1: drawn before the frame in which they changed, not one frame (33 ms) later.
        self._draw_faces = Clock.create_trigger(self.draw_faces, -1)
        self._draw_marks = Clock.create_trigger(self.draw_marks, -1)
        self.bind(pos=self._moved, size=self._moved, four_colour=self._draw_faces)
        for name in ("chips", "highlighted", "choosing", "locked", "row_lines", "winning", "last", "side_colours"):
            self.bind(**{name: self._draw_marks})

    def on_space(self, row: int, col: int):
        pass

    # -- geometry --------------------------------------------------------------------------

    def _moved(self, *_):
        cell = min(self.width, self.height) / SIZE
        if cell == self.cell and self._shift_to_origin():
            return              # the same board somewhere else: shifted, not drawn again
        self.cell = cell
        self._draw_faces()
        self._draw_marks()

    def _shift_to_origin(self) -> bool:
        """Shift each drawn group to the board's origin now; False if a group must be drawn
        again instead (not drawn yet, or a shift of a fraction of a pixel, which would blur
        the spaces' text)."""
        x0, y0 = self._origin()
        moves = []
        for shift, drawn_at in self._shifts.values():
            if drawn_at is None:
                return False
            dx, dy = x0 - drawn_at[0], y0 - drawn_at[1]
            if dx != round(dx) or dy != round(dy):
                return False
            moves.append((shift, (dx, dy)))
        for shift, xy in moves:
            shift.xy = xy
        return True

    def _drawing(self, group) -> None:
        """``group`` is about to be drawn afresh where the board is now."""
        group.clear()
        entry = self._shifts[id(group)]
        entry[0].xy = (0, 0)
        entry[1] = self._origin()

    def _origin(self) -> tuple[float, float]:
        side = self.cell * SIZE
        return self.x + (self.width - side) / 2, self.y + (self.height - side) / 2

    def cell_rect(self, row: int, col: int) -> tuple[float, float, float, float]:
        """Where a space is drawn, in the widget's parent's coordinates (row 0 at the top)."""
        x0, y0 = self._origin()
        return x0 + col * self.cell, y0 + (SIZE - 1 - row) * self.cell, self.cell, self.cell

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        x, y, w, h = self.cell_rect(row, col)
        return x + w / 2, y + h / 2

    def cell_window_centre(self, row: int, col: int) -> tuple[float, float]:
        """Where a finger taps a space on the glass (window coordinates)."""
        return self.to_window(*self.cell_centre(row, col))

    def space_at(self, x: float, y: float) -> tuple[int, int] | None:
        if self.cell <= 0:
            return None
        x0, y0 = self._origin()
        col = int((x - x0) // self.cell)
        row = SIZE - 1 - int((y - y0) // self.cell)
        if 0 <= row < SIZE and 0 <= col < SIZE and x >= x0 and y >= y0:
            return row, col
        return None

    # -- touch: the whole cell is the target; lifting the finger on the same cell taps it ----

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or self.disabled:
            return super().on_touch_down(touch)
        space = self.space_at(*touch.pos)
        if space is None:
            return False
        touch.grab(self)
        touch.ud[self] = space
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        space = touch.ud.get(self)
        if space is not None and self.space_at(*touch.pos) == space:
            self.dispatch("on_space", *space)
        return True

    # -- drawing ---------------------------------------------------------------------------

    def draw_faces(self, *_):
        """The cards printed on the board: redrawn only when the size or the suit colours change."""
        group = self._faces
        self._drawing(group)
        cell = self.cell
        if cell <= 0:
            return
        inset = max(1.0, cell * 0.035)
        faces, corners = ShapeBatch(), ShapeBatch()
        for row in range(SIZE):
            for col in range(SIZE):
                x, y, w, h = self.cell_rect(row, col)
                (corners if (row, col) in CORNERS else faces).rounded_rectangle(
                    x + inset, y + inset, w - 2 * inset, h - 2 * inset, cell * 0.1)
        faces.add_to(group, theme.CARD_FACE)
        corners.add_to(group, theme.PANEL_LIGHT)
        group.add(Color(1, 1, 1, 1))
        # Rank over suit, as large as two lines fit in a space: 20 px on the 7" screen.
        text_size = cell * 0.44
        self.label_px = round(text_size)
        for row in range(SIZE):
            for col in range(SIZE):
                card = LAYOUT[row][col]
                if card is None:
                    texture = text_texture(STAR, cell * 0.62, theme.PRIMARY)
                else:
                    rank, suit = card[:-1], card[-1]
                    texture = text_texture(f"{rank}\n{SUIT_SYMBOLS[suit]}", text_size,
                                           theme.suit_colour(suit, self.four_colour))
                cx, cy = self.cell_centre(row, col)
                tw, th = texture.size
                group.add(Rectangle(texture=texture, size=(tw, th), pos=(round(cx - tw / 2), round(cy - th / 2))))

    def draw_marks(self, *_):
        """What changes as the game goes: chips, lit spaces, rows, locks, the last play."""
        group = self._marks
        self._drawing(group)
        cell = self.cell
        if cell <= 0:
            return
        inset = max(1.0, cell * 0.035)
        lit = {tuple(s) for s in self.highlighted}
        winning_spaces = {tuple(s) for _, spaces, _ in self.winning for s in spaces}
        chip_r = cell * 0.33

        draw_chips(group, [(side, *self.cell_centre(*divmod(index, SIZE)), chip_r)
                           for index, side in enumerate(self.chips) if side is not None], self.side_colours)

        # A chosen card: dim what it cannot take, light what it can.
        dim = ()
        if self.choosing:
            dim = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in lit]
        elif self.winning:
            dim = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in winning_spaces]
        if dim:
            shade = ShapeBatch()
            for space in dim:
                shade.rectangle(*self.cell_rect(*space))
            shade.add_to(group, (*theme.FELT[:3], 0.62))
        if lit:
            glow, rings = ShapeBatch(), ShapeBatch()
            for space in lit:
                x, y, w, h = self.cell_rect(*space)
                if self.chips[space[0] * SIZE + space[1]] is None:
                    glow.rounded_rectangle(x + inset, y + inset, w - 2 * inset, h - 2 * inset, cell * 0.1)
                rings.ring(x + inset + 1, y + inset + 1, w - 2 * inset - 2, h - 2 * inset - 2, cell * 0.1,
                           max(1.5, cell * 0.055))
            glow.add_to(group, (*theme.PRIMARY[:3], 0.28))
            rings.add_to(group, theme.PRIMARY)

        # Rows: a line from the first space of each to its last; the winner's bold and gold.
        winning_lines = {tuple(map(tuple, spaces)) for _, spaces, _ in self.winning}
        for side, spaces, _count in self.row_lines:
            spaces = [tuple(s) for s in spaces]
            wins = tuple(spaces) in winning_lines
            (x1, y1), (x2, y2) = self.cell_centre(*spaces[0]), self.cell_centre(*spaces[-1])
            width = cell * (0.085 if wins else 0.06)
            group.add(Color(*EDGE[:3], 0.7))
            group.add(Line(points=[x1, y1, x2, y2], width=width + max(1.5, cell * 0.035), cap="round"))
            group.add(Color(*(theme.PRIMARY if wins else (1, 1, 1, 1))))
            group.add(Line(points=[x1, y1, x2, y2], width=width, cap="round"))

        for space in self.locked:
            cx, cy = self.cell_centre(*space)
            draw_lock(group, cx + cell * 0.27, cy + cell * 0.27, cell * 0.36)

        # The last play, so the table can see what just happened.
        if self.last is not None and not self.choosing and not self.winning:
            x, y, w, h = self.cell_rect(*self.last)
            # a bold white ring on a dark edge: seen on a chip, a card and a space left empty
            edge, last = ShapeBatch(), ShapeBatch()
            edge.ring(x, y, w, h, cell * 0.12, max(3.0, cell * 0.11))
            last.ring(x + 1, y + 1, w - 2, h - 2, cell * 0.12, max(2.0, cell * 0.07))
            edge.add_to(group, EDGE)
            last.add_to(group, (1, 1, 1, 1))


class OneEyedChip(Widget):
    """One side's chip on its own, beside a name: in the turn banner, the rows and the set-up."""

    side = NumericProperty(0)
    scale = NumericProperty(0.36)
    colours = ListProperty([])  # as the board's side_colours

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Drawn on the next frame, once the layout has settled (center_x can lag behind pos).
        trigger = Clock.create_trigger(self.redraw)
        self.bind(pos=trigger, size=trigger, side=trigger, scale=trigger, colours=trigger)
        trigger()

    def redraw(self, *_):
        self.canvas.clear()
        draw_chip(self.canvas, self.side, self.x + self.width / 2, self.y + self.height / 2,
                  min(self.width, self.height) * self.scale, self.colours)
