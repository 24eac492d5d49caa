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
    assert ring.vertices and ring.indices
    ring.shown = False
    assert not ring.vertices and not ring.indices
    ring.shown = True
    ring.rect = (0, 0, 0, 30)
    assert not ring.indices


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
