"""What a frame draws that shows nothing. Kivy still draws a widget at opacity 0 and an
instruction with zero alpha, so hidden widgets leave the frame (ui/widgets/hiding.py) and our
buttons draw no Kivy button image under their own face."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui   # Kivy is imported inside the tests, after the window's settings


def drawn(parent, widget) -> bool:
    return parent.canvas.indexof(widget.canvas) != -1


def test_a_hidden_widget_leaves_the_frame_and_comes_back_in_its_place(driver):
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label

    from ui.widgets.hiding import draw_only_when_seen

    box = BoxLayout()
    first, middle, last = Label(text="a"), Label(text="b"), Label(text="c")
    for widget in (first, middle, last):
        box.add_widget(widget)
    order = [box.canvas.indexof(w.canvas) for w in (first, middle, last)]
    draw_only_when_seen(middle)
    assert drawn(box, middle)

    middle.opacity = 0
    assert not drawn(box, middle)
    assert middle in box.children              # still laid out, still touchable
    middle.opacity = 0.5
    assert [box.canvas.indexof(w.canvas) for w in (first, middle, last)] == order

    # hidden while a sibling goes: it comes back between the ones that are left
    middle.opacity = 0
    box.remove_widget(first)
    middle.opacity = 1
    assert box.canvas.indexof(middle.canvas) < box.canvas.indexof(last.canvas)
    middle.opacity = 0
    box.remove_widget(last)
    middle.opacity = 1
    assert drawn(box, middle)


def test_a_widget_hidden_before_it_has_a_parent_is_left_out_once_it_has_one(driver):
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label

    from ui.widgets.hiding import draw_only_when_seen

    label = Label(text="x", opacity=0)
    draw_only_when_seen(label)
    box = BoxLayout()
    box.add_widget(label)
    driver.pump(1)
    assert not drawn(box, label)
    box.remove_widget(label)                   # Kivy's own remove copes with the missing canvas
    assert label.parent is None


def test_buttons_draw_their_face_and_text_and_no_kivy_button_image(driver):
    from kivy.graphics import BorderImage

    from ui.widgets.basics import ChoiceButton, TableButton
    from ui.widgets.card_picker import PickerSuitButton

    buttons = (TableButton(text="Go"), ChoiceButton(text="Ann"), PickerSuitButton(suit="H"))
    driver.pump(1)   # the texts are rendered, and the canvases take them, before the frame
    for button in buttons:
        assert button.texture is not None
        groups = [button.canvas.before, button.canvas, button.canvas.after]
        instructions = [i for g in groups for i in g.children]
        assert not [i for i in instructions if isinstance(i, BorderImage)], type(button).__name__
        assert any(getattr(i, "texture", None) is button.texture for i in instructions)

def test_a_button_let_go_looks_as_it_did_before_it_was_pressed(driver, app, tmp_path):
    """The pressed glow shows while down and is gone, pixel for pixel, once let go. (A zero size
    does not hide Kivy's RoundedRectangle: it keeps the shape it last had.)"""
    from kivy.core.window import Window
    from PIL import Image, ImageChops

    from ui.widgets.basics import TableButton
    from ui.widgets.shapes import RoundedFill

    button = TableButton(text="Go", size_hint=(None, None), size=(160, 80), pos=(40, 40))
    Window.add_widget(button)
    try:
        def look(name):
            path = driver.screenshot(tmp_path / name)
            height = Image.open(path).height
            return Image.open(path).convert("RGB").crop((40, height - 120, 200, height - 40))

        before = look("before")
        button.state = "down"
        pressed = look("pressed")
        button.state = "normal"
        after = look("after")
        glow = [i for i in button.canvas.before.children if type(i) is RoundedFill]   # not the RoundedBox behind
    finally:
        Window.remove_widget(button)
    assert ImageChops.difference(before, pressed).getbbox() is not None, "pressed looks pressed"
    assert ImageChops.difference(before, after).getbbox() is None, "let go: no glow left behind"
    assert glow and not glow[0].indices   # and, hidden, it has nothing to draw
