"""How to play: a "Rules" button for a game's set-up, and the page it opens.

One line in a set-up's .kv adds it (``RulesButton:``): the button finds its game from the
screen it sits on (``jacks-setup`` is Jacks), or takes ``game:`` when told. The page shows
that game's section of docs/rules.md (see ui/rules_text.py) on a light card, dark type of at
least 20 px, scrolling when it is longer than the screen.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup, get_hex_from_color

from companion.games import GAMES

from .. import theme
from ..rules_text import game_rules
from .basics import TableButton

KV = Path(__file__).with_suffix(".kv")


class RulesButton(TableButton):
    """Opens the rules of ``game`` (a game's name, as in companion.games.GAMES)."""

    game = StringProperty("")

    def screen_game(self) -> str:
        """The game named on the button, else the game of the screen it is on."""
        if self.game:
            return self.game
        widget = self.parent
        while widget is not None and not isinstance(widget, Screen):
            widget = widget.parent
        from ..app import game_of  # the app's one table of screens to games

        return (game_of(widget.name) or "") if widget is not None else ""

    def on_release(self):
        RulesView(game=self.screen_game()).open(animation=False)


class RuleLine(Label):
    """One bullet or paragraph of the rules, wrapped to the page's width."""


class RulesView(ModalView):
    game = StringProperty("")
    heading = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        info = GAMES.get(self.game)
        title = info.title if info is not None else self.game
        box = self.ids.lines
        try:
            note, lines = game_rules(title)
        except (KeyError, OSError):
            self.heading = f"How to play {title}"
            box.add_widget(RuleLine(text="The rules for this game could not be found in this copy of the companion."))
            return
        self.heading = f"How to play {title}"
        if note:
            box.add_widget(RuleLine(text=escape_markup(note[:1].upper() + note[1:]) + ".", italic=True))
        for line in lines:
            bullet = {0: "", 1: "\u2022  "}.get(line.depth, "\u2013  ")
            box.add_widget(RuleLine(text=bullet + self.marked(line.text),
                                    padding=(dp(24 * max(0, line.depth - 1)), dp(2), 0, dp(2))))

    @staticmethod
    def marked(text: str) -> str:
        """The line in Kivy markup: each suit symbol in its suit's colour, as on a card."""
        out = escape_markup(text)
        for symbol, suit in (("\u2665", "H"), ("\u2666", "D")):
            out = out.replace(symbol, f"[color={get_hex_from_color(theme.suit_colour(suit, False))}]{symbol}[/color]")
        return out


if str(KV) not in Builder.files:   # the look, once, when a set-up first imports this
    Builder.load_file(str(KV))
