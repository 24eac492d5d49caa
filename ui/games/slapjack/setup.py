"""Slapjack set-up: who plays in seating order, how the cards reach the companion, the options.

Three ways to play, one engine:

* **Real deck**: players turn real cards; each reaches the companion from the camera over the
  pile when one is set and chosen, from the serial card reader when one is configured, else
  from the turner tapping it on the screen's card pad (a tap away with the camera too).
* **Judge slaps only**: no cards at all; the companion judges each race and the table taps
  whether the slap was good or wrong.
* **Screen deck**: the companion deals on screen; computer players join at a reaction level
  in ms, offered from a player's own measured average.

Each person's pad is their place among the people in seating order: the first person has
pad 1, the second pad 2, and so on (computer players have none). Which header each way makes,
and each person's pad, are ``companion.games.slapjack.ways``'s; which options a way takes is the
engine's to say: the set-up asks it (``Game(header)``) and shows its reason.
"""

from __future__ import annotations

import random

from kivy.app import App
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.engine import Game
from companion.errors import BadHeader
from companion.games.slapjack.rules import MAX_LEVEL_MS, MAX_PLAYERS, MIN_LEVEL_MS, MIN_PLAYERS
from companion.games.slapjack.bots import DEFAULT_LEVEL_MS, ReactionModel
from companion.stats import slapjack_stats
from companion.games.slapjack.ways import MODES, SCREEN, header_for, pads_for

from ui import theme
from ui.camera_link import camera_for
from ui.pads_link import link_for
from ui.widgets.basics import TableButton
from ui.widgets.seats import SeatPicking
from ui.widgets.slapjack_stats import open_stats
from ui.widgets.rules import RulesButton  # noqa: F401  (the .kv's Rules button)
from ui.widgets.table_seats import TableSeats  # noqa: F401  (the .kv's seating picture, in portrait)
from ui.screens.opening import start_game

__all__ = ["MODES", "SlapjackSetupScreen", "pads_for"]
END_CHOICES = (None, 20, 30, 50, 100, 150, 200, 250, 300, 400, 500, 750, 1000)   # None: play to the end
DEFAULT_END = 300
TIE_CHOICES = (0, 1, 2, 3, 5, 10, 20)
PACE_CHOICES = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)
DEFAULT_PACE = 1.75
LEVEL_STEP_MS = 25
COMPUTER_NAMES = ("Robo", "Zippy", "Bolt", "Chip", "Dot", "Pixel", "Sparky", "Tin")
COMPUTER_COLOUR = "#7F8C8D"


def offered_level(reactions_ms) -> int:
    """The level that gives a close race against a player with these reaction times (the
    computer players' own rule), to the stepper's step."""
    level = ReactionModel.to_match(list(reactions_ms)).mean_ms
    return int(max(MIN_LEVEL_MS, min(MAX_LEVEL_MS, round(level / LEVEL_STEP_MS) * LEVEL_STEP_MS)))


class ComputerRow(BoxLayout):
    """One computer player: its name, its level with − and +, and the levels offered."""

    name = StringProperty("")
    level = NumericProperty(DEFAULT_LEVEL_MS)


class SlapjackSetupScreen(SeatPicking, Screen):
    mode = StringProperty("real")
    # chosen (SeatPicking): names in seating order, computers included
    computers = DictProperty({})       # computer name -> reaction level in ms
    queens_too = BooleanProperty(False)
    doubles_too = BooleanProperty(False)
    penalty_under_pile = BooleanProperty(False)
    out_on_wrong_slap = BooleanProperty(True)
    calm = BooleanProperty(False)
    end_after = NumericProperty(0)     # 0: off; else a number of cards
    tie_window_ms = NumericProperty(0)
    pace = NumericProperty(DEFAULT_PACE)
    guide = StringProperty("")
    pads_text = StringProperty("")
    pads_warning = BooleanProperty(False)
    reader = BooleanProperty(False)    # a card reader is configured: real-deck cards come from it
    camera_offered = BooleanProperty(False)   # [camera] source is set: the real deck may use it
    use_camera = BooleanProperty(False)       # the real deck's cards come from the camera
    # Why the engine refuses an option with this way to play ("": it takes it); the .kv greys it out.
    calm_refused = StringProperty("")
    end_refused = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.computer_rows: dict[str, ComputerRow] = {}
        self.measured: dict[str, list[float]] = {}   # each person's reaction times in past games

    # -- showing ------------------------------------------------------------------------------------

    def prepare(self, **_):
        app = App.get_running_app()
        link = link_for(app)
        link.open()   # the table sees how its pads are read before the game starts
        self.reader = link.reader_configured
        offered = camera_for(app).configured
        if offered != self.camera_offered:
            self.camera_offered = self.use_camera = offered   # a camera just set is the one to use
        self.build_roster(fewest=1 if self.mode == SCREEN else MIN_PLAYERS)
        self.ask_engine()
        records = app.store.games(game="slapjack", status="finished", limit=100_000)
        self.measured = {name: player.reactions_ms
                         for name, player in slapjack_stats(r.result for r in records).items() if player.reactions_ms}
        self.refresh()

    def choose_real(self, camera: bool) -> None:
        """The real deck, its cards from the camera or from the card pad (or card reader)."""
        self.use_camera = bool(camera) and self.camera_offered
        if self.mode == "real":
            self.refresh()
        self.mode = "real"

    def on_mode(self, *_):
        if self.mode != SCREEN:
            for name in list(self.computers):
                self.remove_computer(name, refresh=False)
        self.ask_engine()
        if self.ids:
            self.refresh()

    def ask_engine(self) -> None:
        """Options the engine refuses with this way to play are turned off and greyed out,
        with the engine's reason kept to show when one is tapped."""
        self.calm_refused = self.refused(calm=True, end_after=None)
        self.end_refused = self.refused(end_after=DEFAULT_END, calm=False)
        if self.calm_refused:
            self.calm = False
        if self.end_refused:
            self.end_after = 0

    def refused(self, **options) -> str:
        """Why the engine would not start this way to play with ``options`` ("": it would). The
        players do not matter here: the chosen ones, or stand-ins when too few are chosen."""
        players = list(self.chosen)
        players += [f"Seat {i + 1}" for i in range(len(players), MIN_PLAYERS)]
        try:
            Game(self._header(players[:MAX_PLAYERS], {**self.options(), **options}, seed=0))
        except BadHeader as exc:
            return str(exc)
        return ""

    def refresh(self):
        app = App.get_running_app()
        self.show_seats()
        box = self.ids.computers
        box.clear_widgets()
        self.computer_rows = {}
        for name in self.chosen:
            if name in self.computers:
                row = ComputerRow(name=name, level=self.computers[name])
                row.ids.remove_button.text = f"{self.chosen.index(name) + 1}. {name}  \u2715"
                self._offer(row)
                self.computer_rows[name] = row
                box.add_widget(row)
        self.guide = self.next_step()
        self._describe_pads(app)

    def _offer(self, row: ComputerRow) -> None:
        """Levels offered from the chosen people's own measured averages (past games)."""
        offers = row.ids.offers
        offers.clear_widgets()
        people = [n for n in self.chosen if n not in self.computers and n in self.measured][:2]
        for person in people:
            level = offered_level(self.measured[person])
            button = TableButton(text=f"Like {person}: {level} ms", font_size="13sp",
                                 fill=theme.PANEL_LIGHT)
            button.offer_for = person
            button.bind(on_release=lambda btn, n=row.name, lv=level: self.set_level(n, lv))
            offers.add_widget(button)
        row.ids.offers_hint.text = ("" if people else
                                    "Play a game on pads to measure a player, and their level is offered here.")

    def seat_picture(self, chosen, computers) -> list:
        """The seats for the table picture: (name, colour, their pad or "computer")."""
        app = App.get_running_app()
        link = link_for(app)
        pads = pads_for(list(chosen), computers, link.count)
        return [(name, app.seat_colour(name, computers),
                 "computer" if name in computers else (f"pad {pads[name] + 1}" if name in pads else "no pad"))
                for name in chosen]

    def _describe_pads(self, app) -> None:
        link = link_for(app)
        people = [n for n in self.chosen if n not in self.computers]
        count = link.count
        if not count:
            self.pads_text = link.warning or "No slap pads"
            self.pads_warning = True
            return
        keys = link.keys if link.is_mock else []
        pads = pads_for(self.chosen, self.computers, count)
        parts = [f"{name}: pad {pad + 1}" + (f" (key {keys[pad]})" if pad < len(keys) else "")
                 for name, pad in pads.items()]
        missing = [name for name in people if name not in pads]
        text = ("Pads  " + " \u00b7 ".join(parts)) if parts else f"{count} pads \u00b7 {link.status_text}"
        if missing:
            text += f"  \u2014 only {count} pads: {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} none"
        self.pads_text = text
        self.pads_warning = bool(missing) or bool(link.warning)

    # -- players ------------------------------------------------------------------------------------

    def seat_limit(self) -> int:
        return MAX_PLAYERS

    def seats_full(self) -> str:
        return f"Slapjack is for {MIN_PLAYERS} to {MAX_PLAYERS} players: tap a chosen player to take them out."

    def keeps_seat(self, name: str) -> bool:
        return name in self.computers   # computer players are not on the roster

    def add_computer(self):
        app = App.get_running_app()
        if self.mode != "screen":
            return
        if len(self.chosen) >= MAX_PLAYERS:
            app.notify(f"Slapjack is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
            return
        taken = {p.name.lower() for p in app.store.players()} | {n.lower() for n in self.chosen}
        name = next((n for n in COMPUTER_NAMES if n.lower() not in taken), None)
        if name is None:
            app.notify("No more computer players: take one out first.")
            return
        people = [n for n in self.chosen if n not in self.computers and n in self.measured]
        level = offered_level(self.measured[people[0]]) if people else int(DEFAULT_LEVEL_MS)
        self.computers[name] = level
        self.chosen.append(name)
        self.refresh()

    def remove_computer(self, name: str, refresh: bool = True):
        self.computers.pop(name, None)
        if name in self.chosen:
            self.chosen.remove(name)
        if refresh:
            self.refresh()

    def set_level(self, name: str, level: float):
        if name in self.computers:
            self.computers[name] = int(max(MIN_LEVEL_MS, min(MAX_LEVEL_MS, level)))
            row = self.computer_rows.get(name)
            if row is not None:
                row.level = self.computers[name]

    def step_level(self, name: str, direction: int):
        if name in self.computers:
            self.set_level(name, self.computers[name] + direction * LEVEL_STEP_MS)

    # -- options ------------------------------------------------------------------------------------

    @staticmethod
    def _step(choices, value, direction: int):
        index = choices.index(value) if value in choices else 0
        return choices[max(0, min(len(choices) - 1, index + direction))]

    def step_end(self, direction: int):
        if self.end_refused:
            App.get_running_app().notify(self.end_refused)
            return
        if not self.end_after:
            self.end_after = DEFAULT_END   # either button turns it on at the usual 300 first
            return
        counts = END_CHOICES[1:]
        index = (counts.index(self.end_after) if self.end_after in counts else counts.index(DEFAULT_END)) + direction
        self.end_after = 0 if index < 0 else counts[min(index, len(counts) - 1)]

    def step_tie(self, direction: int):
        self.tie_window_ms = self._step(TIE_CHOICES, self.tie_window_ms, direction)

    def step_pace(self, direction: int):
        self.pace = self._step(PACE_CHOICES, self.pace, direction)

    def toggle_calm(self):
        if self.calm_refused:
            App.get_running_app().notify(self.calm_refused)
            return
        self.calm = not self.calm

    @staticmethod
    def end_words(end_after) -> str:
        return f"after {int(end_after)} cards" if end_after else "off"

    @staticmethod
    def tie_words(window) -> str:
        return f"{window:g} ms" if window else "off"

    # -- starting -----------------------------------------------------------------------------------

    def people(self) -> list[str]:
        return [n for n in self.chosen if n not in self.computers]

    def next_step(self) -> str:
        people = self.people()
        if self.mode == "screen" and not people:
            return "Tap who plays, then add computer players (the Pi deals and they slap on their own)."
        if len(self.chosen) < MIN_PLAYERS:
            more = "add a computer player or tap another player" if self.mode == "screen" else "tap the players"
            return f"Seating order, clockwise from left of the dealer: {more} ({MIN_PLAYERS} to {MAX_PLAYERS})."
        if self.mode == "real":
            how = ("the camera sees each card land" if self.use_camera and self.camera_offered else
                   "cards come from the card reader" if self.reader else "the turner taps each card on the card pad")
            return f"{self.chosen[0]} turns first; {how}."
        if self.mode == "judge":
            return "The companion judges each race; you tap whether the slap was good or wrong."
        return f"The Pi deals a card every {self.pace:g} s, starting with {self.chosen[0]}."

    def ready(self) -> bool:
        return len(self.chosen) >= MIN_PLAYERS and (self.mode != "screen" or bool(self.people()))

    def start_label(self, chosen, computers, mode) -> str:
        if len(chosen) < MIN_PLAYERS:
            return f"Choose {MIN_PLAYERS - len(chosen)} more"
        if mode == "screen" and all(n in computers for n in chosen):
            return "Add a person"
        return "Start"

    def options(self) -> dict:
        options = {
            "queens_too": bool(self.queens_too),
            "doubles_too": bool(self.doubles_too),
            "penalty_under_pile": bool(self.penalty_under_pile),
            "out_on_wrong_slap": bool(self.out_on_wrong_slap),
            "end_after": int(self.end_after) if self.end_after else None,
            "tie_window_ms": self.tie_window_ms,
        }
        if self.calm:
            options["calm"] = True
        return options

    def header(self) -> dict:
        return self._header(list(self.chosen), self.options(), seed=random.SystemRandom().randrange(2**63))

    def _header(self, players: list[str], options: dict, seed: int) -> dict:
        computers = {n: self.computers[n] for n in players if n in self.computers}
        return header_for(self.mode, players, options, reader=self.reader,
                          camera=bool(self.use_camera and self.camera_offered), seed=seed, computers=computers,
                          pace_s=self.pace)

    def start(self):
        app = App.get_running_app()
        if not self.ready():
            app.notify(self.next_step(), "error")
            return
        start_game(self.header())

    def open_stats(self):
        open_stats()
