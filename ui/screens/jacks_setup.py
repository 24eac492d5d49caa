"""Jacks set-up: four players from the roster in seating order, and the target score."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import Screen

from companion.errors import GameError
from companion.session import Session

from ..widgets.seats import SeatPicking

PLAYERS = 4


class JacksSetupScreen(SeatPicking, Screen):
    target = NumericProperty(75)
    seat_height = 64

    def prepare(self, **_):
        app = App.get_running_app()
        self.target = app.settings["jacks"]["target"]
        self.build_roster(fewest=PLAYERS)
        self.refresh()

    def seat_limit(self) -> int:
        return PLAYERS

    def seats_full(self) -> str:
        return "Jacks is for exactly four players: tap a chosen player to take them out."

    def refresh(self):
        self.show_seats()

    def change_target(self, step: int):
        self.target = max(5, min(500, self.target + step))

    def start(self):
        app = App.get_running_app()
        if len(self.chosen) != PLAYERS:
            app.notify(f"Choose four players in seating order ({len(self.chosen)} chosen).", "error")
            return
        header = {"game": "jacks", "players": list(self.chosen), "options": {"target": int(self.target)}}
        try:
            session = Session.start(app.store, header)
        except GameError as exc:
            app.notify(str(exc), "error")
            return
        self.chosen = []
        app.open_session(session)
