"""Rings and batched shapes (ui/widgets/shapes.py) outline what Kivy's wide ``Line`` did, and
draw nothing at all while hidden: a hidden ring with vertices would still cost a draw call."""

from __future__ import annotations

import math

import pytest

pytestmark = pytest.mark.ui   # Kivy is imported inside the tests, after the window's settings


def corner_distances(vertices, centre):
    cx, cy = centre
    return [math.hypot(vertices[i] - cx, vertices[i + 1] - cy) for i in range(0, len(vertices), 4)]


def test_ring_is_a_band_as_wide_as_a_line_of_that_width_would_be(driver):
    from ui.widgets.shapes import ring_outline

    # Line(rounded_rectangle=(10, 20, 100, 60, 8), width=2): a band 2 px either side of the edge.
    vertices, strip = ring_outline(10, 20, 100, 60, radius=8, width=2)
    xs, ys = vertices[0::4], vertices[1::4]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((8, 112, 18, 82))
    # The first corner (bottom right) is centred 8 px in from its corner: outer edge 10 px, inner 6.
    first_corner = vertices[: 4 * 2 * 11]
    distances = corner_distances(first_corner, (102, 28))
    assert distances[0::2] == pytest.approx([10] * 11) and distances[1::2] == pytest.approx([6] * 11)
    assert strip[-2:] == [0, 1] and max(strip) == len(vertices) // 4 - 1   # closed, every vertex used


def test_a_circle_is_a_ring_whose_radius_is_half_its_side(driver):
    from ui.widgets.shapes import ring_outline

    vertices, _ = ring_outline(0, 0, 16, 16, radius=8, width=1)
    distances = corner_distances(vertices, (8, 8))
    assert distances[0::2] == pytest.approx([9] * (len(distances) // 2))
    assert distances[1::2] == pytest.approx([7] * (len(distances) // 2))


def test_a_hidden_or_empty_ring_has_no_vertices_so_nothing_is_drawn(driver):
    from ui.widgets.shapes import Ring

    ring = Ring(rect=(0, 0, 50, 30), radius=6, width=2)
    driver.pump(1)                     # shapes are built just before a frame is drawn
    assert ring.vertices and ring.indices
    ring.shown = False
    driver.pump(1)
    assert not ring.vertices and not ring.indices
    ring.shown = True
    ring.rect = (0, 0, 0, 30)
    driver.pump(1)
    assert not ring.indices


def test_a_shape_changed_many_times_before_a_frame_is_built_once_for_it(driver, monkeypatch):
    """A layout pass sets a new screen's sizes several times over: only the last is drawn."""
    from ui.widgets.shapes import RoundedBox, rounded_fill
    import ui.widgets.shapes as shapes

    built = []
    monkeypatch.setattr(shapes, "rounded_fill", lambda *a: built.append(a) or rounded_fill(*a))
    box = RoundedBox(pos=(0, 0), size=(100, 50), radius=[10])
    for width in (120, 140, 160):
        box.size = (width, 50)
    box.pos = (5, 5)
    assert built == [], "nothing built before the frame"
    driver.pump(1)
    assert built == [(5.0, 5.0, 160.0, 50.0, (10.0, 10.0, 10.0, 10.0))]
    assert list(box.vertices) == pytest.approx(rounded_fill(5, 5, 160, 50, (10, 10, 10, 10))[0])


def test_a_batch_is_one_mesh_and_an_empty_batch_none(driver):
    from ui.widgets.shapes import ShapeBatch

    batch = ShapeBatch()
    assert batch.mesh() is None
    batch.rectangle(0, 0, 10, 10)
    batch.triangle([0, 0, 4, 0, 0, 4])
    batch.ellipse(50, 50, 6, 6)
    mesh = batch.mesh()
    assert mesh.mode == "triangles" and len(mesh.indices) % 3 == 0
    assert max(mesh.indices) == len(mesh.vertices) // 4 - 1


def _pixels(instruction_for, shape) -> bytes:
    """The pixels of one shape drawn in a translucent colour on an off-screen buffer."""
    from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo

    from ui.widgets.shapes import build_waiting

    fbo = Fbo(size=(320, 240))
    with fbo:
        ClearColor(0, 0, 0, 1)
        ClearBuffers()
        Color(1, 0.5, 0.25, 0.6)      # translucent: a pixel covered twice would show brighter
        instruction_for(*shape)
    build_waiting()                   # drawn off the frame: the shapes built now
    fbo.draw()
    return bytes(fbo.pixels)


def test_a_rounded_box_covers_exactly_the_pixels_of_kivys_rounded_rectangle(driver):
    """RoundedBox takes the place of Kivy's RoundedRectangle in every canvas: drawn in bands
    (cheaper for a software renderer), it must still show the very same pixels, corners held to
    half a narrow side included, and each pixel blended once."""
    import random

    from kivy.graphics import RoundedRectangle

    from ui.widgets.shapes import RoundedBox

    rng = random.Random(7)
    shapes = [(10, 20, 300, 100, [12]), (10.5, 20.25, 193.3, 96.7, [12.5]), (0, 0, 16, 16, [8]),
              (5, 5, 200, 40, [12, 12, 0, 0]), (3.3, 7.7, 7.5, 150, [12]), (40, 60, 120, 9.9, [6.5, 11.4, 0, 0])]
    shapes += [(rng.uniform(0, 60), rng.uniform(0, 60), rng.uniform(4, 250), rng.uniform(4, 170),
                [rng.choice([4, 10, 12, 13.125, 25])] if rng.random() < 0.6 else [rng.uniform(0, 16) for _ in range(4)])
               for _ in range(30)]
    for x, y, w, h, radius in shapes:
        kivys = _pixels(lambda *s: RoundedRectangle(pos=s[:2], size=s[2:4], radius=s[4]), (x, y, w, h, radius))
        ours = _pixels(lambda *s: RoundedBox(pos=s[:2], size=s[2:4], radius=s[4]), (x, y, w, h, radius))
        assert kivys.count(0) < len(kivys), "the shape was drawn at all"
        assert ours == kivys, (x, y, w, h, radius)


def test_a_rounded_box_follows_its_widget_and_a_batch_fills_in_bands_too(driver):
    from ui.widgets.shapes import RoundedBox, ShapeBatch, rounded_fill

    box = RoundedBox(pos=(0, 0), size=(100, 50), radius=[10])
    driver.pump(1)
    first = list(box.vertices)
    box.pos = (20, 30)
    driver.pump(1)
    moved = list(box.vertices)
    assert [moved[i] - first[i] for i in range(0, len(first), 4)] == pytest.approx([20] * (len(first) // 4))
    box.radius = [0]
    driver.pump(1)
    assert len(box.indices) == 6, "square corners: one rectangle, two triangles"
    with pytest.raises(ValueError, match="one value or four"):
        box.radius = [1, 2]

    batch = ShapeBatch()
    batch.rounded_rectangle(0, 0, 40, 20, 5)
    vertices, indices = rounded_fill(0, 0, 40, 20, (5, 5, 5, 5))
    assert batch.mesh().vertices == pytest.approx(vertices) and list(batch.mesh().indices) == indices
