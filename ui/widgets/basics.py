"""The table's building blocks. Their look is in ``basics.kv`` beside this file."""

from __future__ import annotations

from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from .. import theme


class TableButton(Button):
    """A rounded button at least one touch target high; ``primary`` for the main action."""

    primary = BooleanProperty(False)
    danger = BooleanProperty(False)
    fill = ColorProperty(theme.BUTTON)


class ChoiceButton(ToggleButton):
    """A button that stays chosen, filled with ``chosen_colour`` (e.g. the player's colour)."""

    chosen_colour = ColorProperty(theme.PRIMARY)


class Panel(BoxLayout):
    fill = ColorProperty(theme.PANEL)


class TableLabel(Label):
    pass


class CardFace(Label):
    """A card drawn as a white face with its rank and suit symbol in the suit's colour."""

    code = StringProperty("")
    four_colour = BooleanProperty(False)
    face_radius = NumericProperty(8)


class Swatch(Label):
    """A player's name on their colour."""

    fill = ColorProperty(theme.PANEL_LIGHT)
