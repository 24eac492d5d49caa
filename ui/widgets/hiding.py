"""Widgets hidden with ``opacity: 0`` that cost nothing to draw.

Kivy draws a widget at opacity 0 like any other: every instruction in its canvas, and in its
children's, is still a draw call that shows nothing, in every frame. ``draw_only_when_seen``
takes the widget's canvas out of its parent's while its opacity is 0 and puts it back in its
place among its siblings' when it shows again. The widget itself stays where it is: in the
layout, with its size, its ids and its touches, exactly as with opacity alone.

In a .kv rule, beside the ``opacity`` that hides the widget::

    opacity: 0 if root.finished else 1
    on_kv_post: hiding.draw_only_when_seen(self)
"""

from __future__ import annotations

from kivy.clock import Clock


def shown(widget) -> bool:
    """Whether ``widget`` and every widget it sits in are drawn (none of them at opacity 0)."""
    w = widget
    while w is not None and w is not w.parent:
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent
    return True


def draw_only_when_seen(widget) -> None:
    """From now on, ``widget``'s canvas is drawn only while its opacity is above 0."""
    widget.fbind("opacity", _on_opacity)
    # add_widget sets the parent before it adds the canvas: look again just before the frame
    widget.fbind("parent", _on_parent)
    update(widget)


def _on_opacity(widget, _value) -> None:
    update(widget)


def _on_parent(widget, _parent) -> None:
    Clock.schedule_once(lambda _dt: update(widget), -1)


def _groups(parent) -> list:
    canvas = parent.canvas
    groups = [canvas]
    if canvas.has_before:
        groups.append(canvas.before)
    if canvas.has_after:
        groups.append(canvas.after)
    return groups


def update(widget) -> None:
    """Take ``widget``'s canvas out of its parent's, or put it back, as its opacity says."""
    parent = widget.parent
    if parent is None or parent.canvas is None or widget.canvas is None:
        return
    groups = _groups(parent)
    holder = next((g for g in groups if g.indexof(widget.canvas) != -1), None)
    if widget.opacity == 0:
        if holder is not None:
            holder.remove(widget.canvas)
            widget._drawn_in = holder
        return
    if holder is not None:
        return
    group = getattr(widget, "_drawn_in", None)
    if not any(group is g for g in groups):  # moved to another parent meanwhile
        group = parent.canvas
    _put_back(widget, parent, group)


def _put_back(widget, parent, group) -> None:
    """Insert the canvas where add_widget would have it: after the siblings drawn before it
    (later in ``children``), before those drawn after it (earlier in ``children``)."""
    siblings = parent.children
    at = next((i for i, w in enumerate(siblings) if w is widget), None)
    if at is not None:
        for sibling in reversed(siblings[:at]):   # the nearest sibling drawn on top of it
            index = group.indexof(sibling.canvas)
            if index != -1:
                group.insert(index, widget.canvas)
                return
        for sibling in siblings[at + 1:]:         # the nearest sibling drawn under it
            index = group.indexof(sibling.canvas)
            if index != -1:
                group.insert(index + 1, widget.canvas)
                return
    group.add(widget.canvas)
