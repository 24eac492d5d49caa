"""Jack Change It set-up: the players in seating order, who deals, the options, the first card."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.games.jack_change_it.rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS

from ui.widgets.basics import ChoiceButton
from ui.widgets.card_picker import CardPicker  # noqa: F401  (the first-card view in the .kv uses it)
from ui.widgets.name_grid import NameGrid  # noqa: F401  (the .kv's dealers)
from ui.widgets.rules import RulesButton  # noqa: F401  (the .kv's Rules button)
from ui.widgets.seats import SeatPicking
from ui.widgets.table_seats import TableSeats  # noqa: F401  (the .kv's seating picture)
from ui.screens.last_table import last_table, next_seat, on_roster
from ui.screens.opening import start_game


def seating_from_dealer(seats: list[str], dealer: str) -> list[str]:
    """The seats as tapped (clockwise), turned so the player on the dealer's left comes first.

    >>> seating_from_dealer(["Ann", "Ben", "Cat", "Dan"], "Ben")
    ['Cat', 'Dan', 'Ann', 'Ben']
    """
    left = (seats.index(dealer) + 1) % len(seats)
    return seats[left:] + seats[:left]


class FirstCardButton(ButtonBehavior, BoxLayout):
    """"First card" with the card itself on a white face, so the suit shows in its colour."""

    code = StringProperty("")
    four_colour = BooleanProperty(False)


class FirstCardView(ModalView):
    """The game's own quick picker, rank then suit, for the card turned up to start the pile."""


class JackChangeItSetupScreen(SeatPicking, Screen):
    dealer = StringProperty("")
    queens_reverse = BooleanProperty(OPTIONS["queens_reverse"])
    jacks_wild = BooleanProperty(OPTIONS["jacks_wild"])
    start_card = StringProperty("")
    four_colour = BooleanProperty(False)
    guide = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dealer_buttons: dict[str, ChoiceButton] = {}
        self.card_view: FirstCardView | None = None
        self.table_from: int | None = None   # the game whose table the choices started from

    def prepare(self, **_):
        app = App.get_running_app()
        self.four_colour = app.four_colour
        self.from_last_table(app)
        self.build_roster(fewest=MIN_PLAYERS)
        self.refresh()

    def from_last_table(self, app) -> None:
        """After a game, start from its table: the same seats, the deal moved on one seat
        clockwise (the old dealer's left, who went first), and a new first card. Choices made
        since (a trip to Players and back) stay as they are."""
        table = last_table(app.store, "jack-change-it")
        if table is None or table.game_id == self.table_from:
            return
        self.table_from = table.game_id
        roster = [p.name for p in app.store.players()]
        self.chosen = on_roster(table.players, roster)[:MAX_PLAYERS]
        # The header seats players from the dealer's left, so the last game's dealer sat last.
        dealer = next_seat(table.players, table.players[-1])
        while dealer not in self.chosen and self.chosen:
            dealer = next_seat(table.players, dealer)
        self.dealer = dealer if self.chosen else ""
        self.start_card = ""

    def seat_limit(self) -> int:
        return MAX_PLAYERS

    def seats_full(self) -> str:
        return f"Jack Change It is for {MIN_PLAYERS} to {MAX_PLAYERS} players: tap a chosen player to take them out."

    def toggle(self, name: str):
        if name == self.dealer:
            self.dealer = ""  # the dealer is being taken out
        super().toggle(name)

    def choose_dealer(self, name: str):
        self.dealer = "" if self.dealer == name else name
        self.refresh()

    def refresh(self):
        app = App.get_running_app()
        if self.dealer not in self.chosen:
            self.dealer = ""   # the dealer was taken out
        self.show_seats()
        row = self.ids.dealers
        row.clear_widgets()
        self.dealer_buttons = {}
        for name in self.chosen:
            button = ChoiceButton(text=name, chosen_colour=app.player_colour(name),
                                  state="down" if name == self.dealer else "normal")
            button.bind(on_release=lambda btn, n=name: self.choose_dealer(n))
            self.dealer_buttons[name] = button
            row.add_widget(button)
        self.guide = self.next_step()

    def next_step(self) -> str:
        """What to do next, in words: the line under the title walks the table through."""
        if len(self.chosen) < MIN_PLAYERS:
            return f"Tap the players in seating order, going clockwise ({MIN_PLAYERS} to {MAX_PLAYERS})."
        if not self.dealer:
            return "Now tap who deals: the player on the dealer's left starts."
        first = seating_from_dealer(list(self.chosen), self.dealer)[0]
        if not self.start_card:
            return f"{self.dealer} deals 7 each, so {first} starts. Turn up the first card and tap it in."
        return f"{self.dealer} deals, so {first} starts."

    def ready(self) -> bool:
        return len(self.chosen) >= MIN_PLAYERS and bool(self.dealer) and bool(self.start_card)

    def seat_picture(self, chosen, dealer) -> list:
        """The seats for the table picture: (name, colour, what to say beside them)."""
        app = App.get_running_app()
        first = seating_from_dealer(list(chosen), dealer)[0] if dealer in chosen else ""
        return [(name, app.player_colour(name), "deals" if name == dealer else ("starts" if name == first else ""))
                for name in chosen]

    def start_label(self, chosen, dealer, card) -> str:
        if len(chosen) < MIN_PLAYERS:
            return f"Choose {MIN_PLAYERS - len(chosen)} more"
        if not dealer:
            return "Who deals?"
        if not card:
            return "First card?"
        return "Start"

    # -- the first card ---------------------------------------------------------------------------

    def open_card_picker(self):
        view = FirstCardView()
        picker = view.ids.picker
        picker.four_colour = self.four_colour
        picker.bind(on_card=lambda p, code: self.set_start_card(code))
        view.bind(on_dismiss=lambda v: setattr(self, "card_view", None) if v is self.card_view else None)
        self.card_view = view
        view.open(animation=False)

    def set_start_card(self, code: str):
        self.start_card = code
        if self.card_view is not None:
            self.card_view.dismiss(animation=False)
        self.refresh()

    # -- start ------------------------------------------------------------------------------------

    def start(self):
        app = App.get_running_app()
        if not self.ready():
            app.notify(self.next_step(), "error")
            return
        header = {
            "game": "jack-change-it",
            "players": seating_from_dealer(list(self.chosen), self.dealer),
            "options": {"queens_reverse": bool(self.queens_reverse), "jacks_wild": bool(self.jacks_wild)},
            "start": self.start_card,
        }
        start_game(header)
