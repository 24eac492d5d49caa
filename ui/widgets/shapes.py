"""Shapes drawn as few, small meshes: rings round chosen buttons and current seats, and batches
of same-coloured shapes (the board's 96 card faces) drawn as one mesh instead of one each.

Kivy's ``Line`` wider than 1 px builds a rounded rectangle from 180 segments, each with a round
joint, and when its colour is translucent it draws the line twice through the stencil buffer.
That costs a software renderer several hundred KB a frame per ring (and a GPU needless
triangles), and it is paid even while the ring is invisible. ``Ring`` is the same outline as
``Line(rounded_rectangle=(x, y, w, h, radius), width=width)``: a band ``2 * width`` wide centred
on the rectangle's edge, as a single triangle strip (no overlaps, so translucent colours need no
stencil). While ``shown`` is False it has no vertices, and Kivy then draws nothing at all.
``RoundedFill`` is the filled shape, hidden the same way (a zero size does not hide Kivy's own
RoundedRectangle or Ellipse: they keep the shape they last had).

Filled rounded rectangles (``RoundedFill``, ``RoundedBox``, a batch's) are drawn as a quarter fan
in each corner and one rectangle for each band between the corners (``rounded_fill``). Kivy's own
RoundedRectangle draws one fan from the centre, whose long thin triangles each reach across the
shape: a software renderer takes about twice as long to fill that as a rectangle of the same
size, and the same shape in bands hardly longer (docs/benchmarks.md). ``RoundedBox`` takes its
place in a .kv canvas, with the same ``pos``, ``size`` and ``radius``.

In a .kv canvas::

    Ring:
        rect: self.x + dp(1.5), self.y + dp(1.5), self.width - dp(3), self.height - dp(3)
        radius: dp(9)
        width: dp(2)
        shown: self.state == "down"
"""

from __future__ import annotations

import functools
import math

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Mesh

CORNER_SEGMENTS = 10  # as many as Kivy's RoundedRectangle gives a corner


@functools.lru_cache(maxsize=None)
def _corner_arcs(segments: int) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Unit offsets round each corner (bottom-right, top-right, top-left, bottom-left), worked
    out once per segment count: every ring of every screen is built from these, and a layout
    pass moves dozens of them (the trigonometry was most of a resume's Python on a slow core)."""
    return tuple(tuple((math.cos(math.radians(start + 90.0 * step / segments)),
                        math.sin(math.radians(start + 90.0 * step / segments))) for step in range(segments + 1))
                 for start in (-90.0, 0.0, 90.0, 180.0))


@functools.lru_cache(maxsize=None)
def _circle(segments: int) -> tuple[tuple[float, float], ...]:
    """Unit offsets round a circle in ``segments`` steps (the board's chips share a handful)."""
    return tuple((math.cos(2 * math.pi * i / segments), math.sin(2 * math.pi * i / segments)) for i in range(segments))


def rounded_outline(x: float, y: float, w: float, h: float, radius: float,
                    segments: int = CORNER_SEGMENTS) -> list[tuple[float, float]]:
    """The points round a rounded rectangle, counter-clockwise from its bottom-right corner."""
    r = max(0.0, min(radius, w / 2, h / 2))
    centres = ((x + w - r, y + r), (x + w - r, y + h - r), (x + r, y + h - r), (x + r, y + r))
    return [(cx + c * r, cy + s * r) for (cx, cy), arc in zip(centres, _corner_arcs(segments)) for c, s in arc]


def ring_outline(x: float, y: float, w: float, h: float, radius: float, width: float,
                 segments: int = CORNER_SEGMENTS) -> tuple[list[float], list[int]]:
    """Vertices (x, y, u, v) and triangle-strip indices of the band between the rounded
    rectangle grown by ``width`` and the one shrunk by ``width``: both keep the rectangle's own
    corner centres, so the band is ``2 * width`` wide all round."""
    r = max(0.0, min(radius, w / 2, h / 2))
    outer = rounded_outline(x - width, y - width, w + 2 * width, h + 2 * width, r + width, segments)
    inner = rounded_outline(x + width, y + width, w - 2 * width, h - 2 * width, max(0.0, r - width), segments)
    vertices = [c for (ox, oy), (ix, iy) in zip(outer, inner) for c in (ox, oy, 0.0, 0.0, ix, iy, 0.0, 0.0)]
    count = len(vertices) // 4
    return vertices, list(range(count)) + [0, 1]  # back to the first pair: the band is closed


def corner_radii(radius) -> tuple[float, float, float, float]:
    """Four corner radii (top-left, top-right, bottom-right, bottom-left) from a .kv ``radius``:
    one number, or a list of one or four (each a number or Kivy's ``(rx, ry)``, read as rx)."""
    values = list(radius) if isinstance(radius, (list, tuple)) else [radius]
    values = [float(v[0] if isinstance(v, (list, tuple)) else v) for v in values]
    if len(values) == 1:
        values *= 4
    if len(values) != 4:
        raise ValueError(f"a rounded rectangle's radius is one value or four, not {len(values)}")
    return tuple(values)


def rounded_fill(x: float, y: float, w: float, h: float, radii: tuple[float, float, float, float],
                 segments: int = CORNER_SEGMENTS) -> tuple[list[float], list[int]]:
    """Vertices (x, y, u, v) and triangles filling a rounded rectangle whose corners have
    ``radii`` (top-left, top-right, bottom-right, bottom-left): a quarter fan round each corner's
    centre, and a rectangle for each band between the corners' heights. Every triangle is small
    or fat, and no pixel is covered twice, so a translucent colour blends once. As in Kivy's
    RoundedRectangle, a radius is held to half the width across and half the height up, so a
    narrow shape's corners are quarter ellipses: the same pixels as Kivy's."""
    rx = [max(0.0, min(r, w / 2)) for r in radii]
    ry = [max(0.0, min(r, h / 2)) for r in radii]
    (tlx, trx, brx, blx), (tly, try_, bry, bly) = rx, ry
    vertices: list[float] = []
    indices: list[int] = []
    edges = sorted({y, y + bly, y + bry, y + h - tly, y + h - try_, y + h})
    for low, high in zip(edges, edges[1:]):
        left = blx if high <= y + bly else (tlx if low >= y + h - tly else 0.0)
        right = brx if high <= y + bry else (trx if low >= y + h - try_ else 0.0)
        x0, x1 = x + left, x + w - right
        if x1 > x0 and high > low:
            base = len(vertices) // 4
            vertices += [x0, low, 0.0, 0.0, x1, low, 0.0, 0.0, x1, high, 0.0, 0.0, x0, high, 0.0, 0.0]
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    corners = ((x + w - brx, y + bry, brx, bry), (x + w - trx, y + h - try_, trx, try_),
               (x + tlx, y + h - tly, tlx, tly), (x + blx, y + bly, blx, bly))
    for (cx, cy, ax, ay), arc in zip(corners, _corner_arcs(segments)):
        if ax <= 0 or ay <= 0:
            continue
        base = len(vertices) // 4
        vertices += [cx, cy, 0.0, 0.0]
        vertices += [c for cos, sin in arc for c in (cx + cos * ax, cy + sin * ay, 0.0, 0.0)]
        indices += [k for i in range(segments) for k in (base, base + 1 + i, base + 2 + i)]
    return vertices, indices


class _Waiting:
    """Shapes whose rect, radius or width changed, built once just before the next frame is
    drawn: a layout pass sets a new screen's sizes and places several times over (a resume built
    each shape two or three times, most of them for sizes never drawn)."""

    def __init__(self):
        self.shapes: set = set()
        self._trigger = None

    def add(self, shape) -> None:
        self.shapes.add(shape)
        if self._trigger is None:
            # -1: with the layouts, before the frame is drawn (Kivy runs these until none is left).
            self._trigger = Clock.create_trigger(lambda dt: self.build(), -1)
        self._trigger()

    def build(self) -> None:
        while self.shapes:
            self.shapes.pop()._build()


_waiting = _Waiting()


def build_waiting() -> None:
    """Build every shape changed since the last frame now: for drawing off the frame (an Fbo)."""
    _waiting.build()


class _ShownShape(Mesh):
    """A mesh drawn from ``rect`` and ``radius``, rebuilt before the next frame when either changes, with no vertices
    at all while ``shown`` is False. (Kivy's own RoundedRectangle and Ellipse keep the shape
    they had when their size becomes 0, so a zero size does not hide them.)"""

    _keys = ("rect", "radius", "shown")

    def __init__(self, mode: str, **kwargs):
        self._rect = (0.0, 0.0, 0.0, 0.0)
        self._radius = 0.0
        self._shown = True
        self._width = 1.0
        shape = {key: kwargs.pop(key) for key in self._keys if key in kwargs}
        super().__init__(mode=mode, **kwargs)
        self._ready = False     # while the shape's own properties are set: built once, before the frame
        for key, value in shape.items():
            setattr(self, key, value)
        self._ready = True
        _waiting.add(self)

    def _geometry(self) -> tuple[list[float], list[int]]:
        raise NotImplementedError

    def _build(self) -> None:
        x, y, w, h = self._rect
        if not self._shown or w <= 0 or h <= 0 or self._width <= 0:
            self.vertices, self.indices = [], []   # nothing to draw: Kivy skips the draw call
            return
        self.vertices, self.indices = self._geometry()

    def _set(self, name: str, value) -> None:
        # A layout pass sets the same rect again and again: only a change is worth a rebuild.
        if getattr(self, name) == value:
            return
        setattr(self, name, value)
        if self._ready:
            _waiting.add(self)

    rect = property(lambda self: self._rect, lambda self, v: self._set("_rect", tuple(float(c) for c in v)))
    radius = property(lambda self: self._radius, lambda self, v: self._set("_radius", float(v)))
    shown = property(lambda self: self._shown, lambda self, v: self._set("_shown", bool(v)))


class Ring(_ShownShape):
    """A rounded rectangle's outline (a circle when the radius is half a square's side)."""

    _keys = ("rect", "radius", "shown", "width")

    def __init__(self, **kwargs):
        super().__init__("triangle_strip", **kwargs)

    def _geometry(self):
        return ring_outline(*self._rect, self._radius, self._width)

    width = property(lambda self: self._width, lambda self, v: self._set("_width", float(v)))


class RoundedFill(_ShownShape):
    """A filled rounded rectangle (a disc when the radius is half a square's side) that draws
    nothing while hidden: a pressed button's glow, a warning's background, a pad's light."""

    def __init__(self, **kwargs):
        super().__init__("triangles", **kwargs)

    def _geometry(self):
        return rounded_fill(*self._rect, self._corners())

    def _corners(self) -> tuple[float, float, float, float]:
        return (self._radius,) * 4


class RoundedBox(RoundedFill):
    """Kivy's ``RoundedRectangle`` in a .kv canvas or in code, with its ``pos``, ``size`` and
    ``radius`` (one value, or four from the top-left corner clockwise), filled in bands."""

    def __init__(self, **kwargs):
        self._radii = (10.0,) * 4   # Kivy's default
        kwargs.setdefault("size", (100.0, 100.0))
        super().__init__(**kwargs)

    _keys = ("pos", "size", "radius", "shown")

    def _corners(self) -> tuple[float, float, float, float]:
        return self._radii

    pos = property(lambda self: self._rect[:2], lambda self, v: setattr(self, "rect", (*v, *self._rect[2:])))
    size = property(lambda self: self._rect[2:], lambda self, v: setattr(self, "rect", (*self._rect[:2], *v)))
    radius = property(lambda self: list(self._radii), lambda self, v: self._set("_radii", corner_radii(v)))


Factory.register("Ring", cls=Ring)
Factory.register("RoundedFill", cls=RoundedFill)
Factory.register("RoundedBox", cls=RoundedBox)


class ShapeBatch:
    """Many shapes of one colour as one ``Mesh``: one draw call, however many shapes.

    A software renderer keeps a few tens of KB per draw call in every frame it draws, so a
    board of a hundred shapes drawn one by one costs megabytes a frame; a GPU driver is also
    happier with one call. Shapes in a batch must not overlap when the colour is translucent
    (each would blend over the other); the board's never do."""

    def __init__(self):
        self.vertices: list[float] = []
        self.indices: list[int] = []

    def _fan(self, cx: float, cy: float, outline: list[tuple[float, float]]) -> None:
        base = len(self.vertices) // 4
        self.vertices += [cx, cy, 0.0, 0.0]
        self.vertices += [c for px, py in outline for c in (px, py, 0.0, 0.0)]
        n = len(outline)
        self.indices += [k for i in range(n) for k in (base, base + 1 + i, base + 1 + (i + 1) % n)]

    def rectangle(self, x: float, y: float, w: float, h: float) -> None:
        self._fan(x + w / 2, y + h / 2, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])

    def rounded_rectangle(self, x: float, y: float, w: float, h: float, radius: float) -> None:
        vertices, indices = rounded_fill(x, y, w, h, (radius,) * 4)
        base = len(self.vertices) // 4
        self.vertices += vertices
        self.indices += [base + i for i in indices]

    def ellipse(self, cx: float, cy: float, rx: float, ry: float) -> None:
        # about a segment per two pixels of the rim: as round as Kivy's 180 on a chip-sized circle
        segments = max(16, min(180, int(math.pi * (rx + ry) / 2)))
        self._fan(cx, cy, [(cx + rx * c, cy + ry * s) for c, s in _circle(segments)])

    def triangle(self, points) -> None:
        base = len(self.vertices) // 4
        for i in range(0, 6, 2):
            self.vertices += [points[i], points[i + 1], 0.0, 0.0]
        self.indices += [base, base + 1, base + 2]

    def ring(self, x: float, y: float, w: float, h: float, radius: float, width: float) -> None:
        if w <= 0 or h <= 0 or width <= 0:
            return
        vertices, strip = ring_outline(x, y, w, h, radius, width)
        base = len(self.vertices) // 4
        self.vertices += vertices
        count = len(vertices) // 4
        for i in range(0, count, 2):  # each step round the band: two triangles
            a, b, c, d = i, i + 1, (i + 2) % count, (i + 3) % count
            self.indices += [base + a, base + b, base + c, base + b, base + d, base + c]

    def mesh(self) -> Mesh | None:
        """The batch as one mesh, or None when it is empty (nothing to draw)."""
        if not self.indices:
            return None
        return Mesh(vertices=self.vertices, indices=self.indices, mode="triangles")

    def add_to(self, group, colour) -> None:
        """``colour`` and the batch into an instruction group, if there is anything to draw."""
        mesh = self.mesh()
        if mesh is not None:
            group.add(Color(*colour))
            group.add(mesh)
