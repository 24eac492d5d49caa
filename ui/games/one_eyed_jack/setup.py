"""One-Eyed Jack set-up: 2 players, 3, or 4 in two teams, from the roster in seating order;
who goes first (drawn at random here, or tapped); the cards to deal each."""

from __future__ import annotations

import os
import random

import math

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import get_hex_from_color

from companion.games.one_eyed_jack.rules import HAND_SIZES, new_game, side_of_seat, sides_for

from ui import theme
from ui.screens.last_table import last_table, next_seat, on_roster
from ui.screens.opening import start_game
from ui.widgets.basics import ChoiceButton
from ui.widgets.board import SIDE_SYMBOLS, draw_chip, side_colour, text_texture
from ui.widgets.name_grid import NameGrid  # noqa: F401  (the .kv's row of who goes first)
from ui.widgets.rules import RulesButton  # noqa: F401  (the .kv's Rules button)
from ui.widgets.seats import SeatPicking
from ui.widgets.shapes import Ring
from ui.widgets.table_seats import draw_table_top


class OneEyedSeating(Widget):
    """The table seen from above: the seats clockwise from the bottom, each chosen player with
    their side's chip, partners opposite, and who goes first."""

    seats = ListProperty([])  # (name or "", side, goes first) in seating order
    colours = ListProperty([])  # each side's colour: its first player's

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        trigger = Clock.create_trigger(self.redraw)
        self.bind(pos=trigger, size=trigger, seats=trigger, colours=trigger)

    def redraw(self, *_):
        self.canvas.clear()
        if self.height < dp(160) or not self.seats:
            return
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        rx, ry = min(self.width * 0.3, dp(200)), min(self.height * 0.26, dp(160))
        chip = dp(22)
        draw_table_top(self.canvas, cx, cy, rx, ry, "clockwise \u21bb", sp(18))
        for i, (name, side, first) in enumerate(self.seats):
            # Seat 1 at the bottom, then clockwise as seen from above: left, top, right.
            angle = math.radians(270 - i * 360 / len(self.seats))
            x, y = cx + (rx + chip * 0.2) * math.cos(angle), cy + (ry + chip * 0.2) * math.sin(angle)
            if name:
                draw_chip(self.canvas, side, x, y, chip, self.colours)
                words = f"{i + 1}. {name}" + ("  \u2013 first" if first else "")
                colour = theme.PRIMARY if first else theme.TEXT
            else:
                with self.canvas:
                    Color(*theme.TEXT_DIM)
                    Ring(rect=(x - chip, y - chip, 2 * chip, 2 * chip), radius=chip, width=dp(1.5))
                words, colour = f"{i + 1}. ?", theme.TEXT_DIM
            texture = text_texture(words, sp(20), colour)
            below = math.sin(angle) < -0.1
            ty = y - chip - dp(8) - texture.size[1] if below else y + chip + dp(8)
            with self.canvas:
                Color(1, 1, 1, 1)
                Rectangle(texture=texture, size=texture.size, pos=(round(x - texture.size[0] / 2), round(ty)))


class OneEyedJackSetupScreen(SeatPicking, Screen):
    count = NumericProperty(2)
    first = StringProperty("")  # who moves first
    drawn = BooleanProperty(False)  # the companion drew ``first`` (rather than the table tapping it)
    deal_text = StringProperty("")
    seats = ListProperty([])
    side_colours = ListProperty([])
    sides_text = StringProperty("")
    first_text = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # The rules read no randomness; the draw for the first player is the companion's, here.
        self._random = random.Random(os.urandom(16))

    table_from = None   # the game whose table the choices started from

    def prepare(self, **_):
        app = App.get_running_app()
        table = last_table(app.store, "one-eyed-jack")
        if table is not None and table.game_id != self.table_from:
            # After a game the same table sits down again, and the next seat on goes first.
            self.table_from = table.game_id
            chosen = on_roster(table.players, [p.name for p in app.store.players()])
            if len(chosen) == len(table.players):
                self.count, self.chosen = len(chosen), chosen
                self.first, self.drawn = next_seat(chosen, chosen[0]), False
        self.build_roster(fewest=2)
        self.refresh()

    # -- choosing --------------------------------------------------------------------------

    def set_count(self, count: int):
        self.count = count
        self.chosen = self.chosen[:count]
        self.refresh()

    def seat_limit(self) -> int:
        return self.count

    def seats_full(self) -> str:
        return f"{self.count} players are chosen: tap one to take them out, or choose another number of players."

    def draw_first(self):
        if len(self.chosen) == self.count:
            self._draw()
        self.refresh()

    def _draw(self):
        self.first = self._random.choice(self.chosen)
        self.drawn = True

    def pick_first(self, name: str):
        self.first, self.drawn = name, False
        self.refresh()

    def order(self) -> list[str]:
        """The header's players: seating order turned so the first player leads, still clockwise
        (so partners stay opposite)."""
        if self.first not in self.chosen:
            return list(self.chosen)
        at = self.chosen.index(self.first)
        return self.chosen[at:] + self.chosen[:at]

    # -- showing ---------------------------------------------------------------------------

    def refresh(self):
        complete = len(self.chosen) == self.count
        if self.first not in self.chosen:
            self.first, self.drawn = "", False
        if complete and not self.first:
            self._draw()
        order = self.order()
        sides = sides_for(self.count)
        side_of = {name: side_of_seat(i, self.count) for i, name in enumerate(order)}
        # each side plays in its first player's colour, as on the board (ui/games/one_eyed_jack/screen.py)
        app = App.get_running_app()
        colours = [app.player_colour(name) for name in order[:sides]]
        self.side_colours = colours

        for button in self.ids.count_buttons.children:
            button.state = "down" if button.count == self.count else "normal"
        self.show_seats()
        for name in self.chosen:
            # a chosen player wears their side's colour and symbol, not their own colour
            button = self.roster_buttons[name]
            button.chosen_colour = side_colour(side_of[name], colours)
            button.text += f"  {SIDE_SYMBOLS[side_of[name]]}"

        row = self.ids.first_row
        row.clear_widgets()
        for name in self.chosen:
            button = ChoiceButton(text=name, chosen_colour=side_colour(side_of[name], colours))
            button.state = "down" if name == self.first else "normal"
            button.bind(on_release=lambda btn, n=name: self.pick_first(n))
            row.add_widget(button)
        if not complete:
            self.first_text = "Who goes first is drawn once the players are chosen."
        elif self.drawn:
            self.first_text = f"{self.first} goes first (drawn at random). Tap another name to change it."
        else:
            self.first_text = f"{self.first} goes first."

        self.sides_text = "   ".join(
            f"[color={get_hex_from_color(side_colour(side, colours))}]{SIDE_SYMBOLS[side]}[/color] "
            + " & ".join(name for name in order if side_of[name] == side)
            for side in range(sides)) if self.chosen else ""
        self.seats = [(name, side_of[name], name == self.first) if name else ("", 0, False)
                      for name in self.chosen + [""] * (self.count - len(self.chosen))]
        hand = HAND_SIZES[self.count]
        stock = new_game(["?"] * self.count).stock  # the rules count the stock, not the screen
        self.deal_text = f"Deal {hand} cards each \u00b7 {stock} in the stock"

    def instructions(self, count: int) -> str:
        if count == 4:
            return "Tap the 4 players in seating order, going clockwise: partners sit opposite (1 & 3, 2 & 4)."
        return f"Tap the {count} players in seating order, going clockwise."

    def start(self):
        app = App.get_running_app()
        if len(self.chosen) != self.count:
            app.notify(f"Choose {self.count} players in seating order ({len(self.chosen)} chosen).", "error")
            return
        header = {"game": "one-eyed-jack", "players": self.order(), "options": {}}
        start_game(header)
