"""Jacks set-up: four players from the roster in seating order, and the target score."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import Screen

from ui.widgets.rules import RulesButton  # noqa: F401  (the .kv's Rules button)
from ui.widgets.seats import SeatPicking
from ui.widgets.table_seats import TableSeats  # noqa: F401  (the .kv's seating picture)
from ui.screens.last_table import last_table, on_roster
from ui.screens.opening import start_game

PLAYERS = 4


class JacksSetupScreen(SeatPicking, Screen):
    target = NumericProperty(75)
    seat_height = 64

    table_from = None   # the game whose table the choices started from

    def prepare(self, **_):
        app = App.get_running_app()
        self.target = app.settings["jacks"]["target"]
        table = last_table(app.store, "jacks")
        if table is not None and table.game_id != self.table_from:
            # After a game the same four sit down again (Jacks has no dealer: the 3 of hearts leads).
            self.table_from = table.game_id
            self.chosen = on_roster(table.players, [p.name for p in app.store.players()])
        self.build_roster(fewest=PLAYERS)
        self.refresh()

    def seat_limit(self) -> int:
        return PLAYERS

    def seats_full(self) -> str:
        return "Jacks is for exactly four players: tap a chosen player to take them out."

    def refresh(self):
        self.show_seats()

    def seat_picture(self, chosen) -> list:
        app = App.get_running_app()
        return [(name, app.player_colour(name), "") for name in chosen]

    def change_target(self, step: int):
        self.target = max(5, min(500, self.target + step))

    def start(self):
        app = App.get_running_app()
        if len(self.chosen) != PLAYERS:
            app.notify(f"Choose four players in seating order ({len(self.chosen)} chosen).", "error")
            return
        header = {"game": "jacks", "players": list(self.chosen), "options": {"target": int(self.target)}}
        start_game(header)
