"""Does every word on a screen fit? A walk of the widget tree that names the first label
whose text a player would not read whole.

A label fails when its text is shortened (Kivy's ``shorten`` cut it to "Gran w...ith"), when it
wraps to more lines than its box holds or breaks a word between lines, or when its texture (the text as drawn) is bigger than
the label's content box (its size less its padding), so part of it is clipped or spills over a
neighbour. Only labels a player can see are checked: hidden (opacity 0 on the way up), empty,
or laid out with no room (a part put away) are skipped.
"""

from __future__ import annotations

SLACK = 1.5  # pixels: rounding in Kivy's layout, not a cut-off


def shown(widget) -> bool:
    from ui.widgets import hiding  # imports Kivy, which the tests' app fixture sets up first

    return hiding.shown(widget) and widget.width > 1 and widget.height > 1


def labels(root):
    """Every visible label with text under ``root`` (a widget, or the window)."""
    from kivy.uix.label import Label  # Kivy is set up by the tests' app fixture first
    tops = [root] if hasattr(root, "walk") else list(root.children)
    for top in tops:
        for widget in top.walk(restrict=True):
            if isinstance(widget, Label) and str(widget.text).strip() and shown(widget):
                yield widget


def _letters(text: str) -> str:
    return "".join(str(text).split())


def _plain(label) -> str:
    """The text a player should read: markup tags taken out, its escapes read back."""
    import re

    text = str(label.text)
    if label.markup:
        text = re.sub(r"\[/?[a-z_]+(=[^\]]*)?\]", "", text)
        text = text.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    return text


def _drawn(label) -> str:
    """The text Kivy laid out to draw: fewer letters than the label holds when it cut some."""
    return "".join(word.text for line in label._label._cached_lines for word in line.words)


def describe(label) -> str:
    return f"{type(label).__name__} {label.text!r} ({label.width:.0f}x{label.height:.0f} px)"


def problem(label) -> str | None:
    """Why ``label``'s text does not fit, or None when it does."""
    label.texture_update()
    box_w = label.width - label.padding[0] - label.padding[2]
    box_h = label.height - label.padding[1] - label.padding[3]
    if label.shorten and not label.markup and label._label is not None:
        # Kivy shortens the text it draws: fewer characters drawn than the label holds.
        drawn = _drawn(label)
        if _letters(drawn) != _letters(label.text):
            return f"{describe(label)} is shortened to {drawn!r}"
    if label.text_size[1] is not None and label._label is not None:
        # A box of fixed height: Kivy draws only the lines that fit in it and drops the rest.
        drawn = _drawn(label)
        if len(_letters(drawn)) < len(_letters(_plain(label))):
            return f"{describe(label)} shows only {drawn!r}: the lines below do not fit its box"
    lines = ["".join(word.text for word in line.words) for line in label._label._cached_lines] \
        if label._label is not None else []
    if len(lines) > 1:
        # A word too long for the box is broken between lines ("game" / "s").
        broken = [word for word in _plain(label).split() if not any(word in line for line in lines)]
        if broken:
            return f"{describe(label)} breaks {broken[0]!r} between lines"
    tw, th = label.texture_size
    if tw > box_w + SLACK or th > box_h + SLACK:
        return (f"{describe(label)} needs {tw:.0f}x{th:.0f} px: its text is clipped or spills out of its box"
                f" ({box_w:.0f}x{box_h:.0f})")
    if label.text_size[0] is not None and label.text_size[0] > box_w + SLACK:
        return f"{describe(label)} wraps at {label.text_size[0]:.0f} px, wider than its box ({box_w:.0f})"
    return None


def misfits(root=None) -> list[str]:
    """Every label under ``root`` (the whole window by default) whose text does not fit."""
    from kivy.core.window import Window
    found = []
    for label in labels(root if root is not None else Window):
        why = problem(label)
        if why:
            found.append(why)
    return found


def assert_text_fits(root=None, where: str = "") -> None:
    found = misfits(root)
    assert not found, f"words cut off{' on ' + where if where else ''}:\n  " + "\n  ".join(found)
