"""Choosing who plays, for every game's set-up: tap roster players in seating order.

The first player tapped sits in seat 1, the next in seat 2 and so on, clockwise; each chosen
button says its seat ("2. Ben"), and a second tap takes that player out again.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty

from .basics import ChoiceButton


class SeatPicking:
    """A mixin for a set-up screen whose .kv has a grid ``roster`` and an ``empty`` note
    (shown while the roster is too short). The screen says how many may sit (``seat_limit``),
    what to say when they are all taken (``seats_full``), and refreshes itself in ``refresh``."""

    chosen = ListProperty([])  # names in the order tapped = seating order, clockwise
    seat_height = 56  # dp: a roster button's height
    roster_buttons: dict[str, ChoiceButton] = {}  # name -> button; build_roster replaces it whole

    def seat_limit(self) -> int:
        raise NotImplementedError

    def seats_full(self) -> str:
        raise NotImplementedError

    def keeps_seat(self, name: str) -> bool:
        """Whether a chosen name not on the roster stays chosen (a computer player does)."""
        return False

    def build_roster(self, fewest: int) -> None:
        """One button per roster player, afresh; the same table often plays again, so the
        chosen stay chosen unless they have left the roster (``fewest``: the game's minimum)."""
        app = App.get_running_app()
        roster = [p.name for p in app.store.players()]
        self.chosen = [name for name in self.chosen if name in roster or self.keeps_seat(name)][:self.seat_limit()]
        grid = self.ids.roster
        grid.clear_widgets()
        self.roster_buttons = {}
        for name in roster:
            # a name and its seat ("10. Bartholomeus") too wide for one line takes two, never "Bart...meus"
            button = ChoiceButton(text=name, chosen_colour=app.player_colour(name), size_hint_y=None,
                                  height=dp(self.seat_height), shorten=False, line_height=0.9)
            button.player_name = name
            button.bind(on_release=lambda btn: self.toggle(btn.player_name))
            self.roster_buttons[name] = button
            grid.add_widget(button)
        self.ids.empty.opacity = 0 if len(roster) >= fewest else 1

    def toggle(self, name: str) -> None:
        if name in self.chosen:
            self.chosen.remove(name)
        elif len(self.chosen) < self.seat_limit():
            self.chosen.append(name)
        else:
            App.get_running_app().notify(self.seats_full())
        self.refresh()

    def show_seats(self) -> None:
        """Each roster button down with its seat number while chosen."""
        for name, button in self.roster_buttons.items():
            seat = self.chosen.index(name) + 1 if name in self.chosen else 0
            button.state = "down" if seat else "normal"
            button.text = f"{seat}. {name}" if seat else name
