"""Jacks set-up: four players from the roster in seating order, and the target score."""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.screenmanager import Screen

from companion.errors import GameError
from companion.session import Session

from ..widgets.basics import ChoiceButton

PLAYERS = 4


class JacksSetupScreen(Screen):
    chosen = ListProperty([])  # names, in the order tapped = seating order
    target = NumericProperty(75)

    def prepare(self, **_):
        app = App.get_running_app()
        self.target = app.settings["jacks"]["target"]
        roster = [p.name for p in app.store.players()]
        self.chosen = [name for name in self.chosen if name in roster][:PLAYERS]
        grid = self.ids.roster
        grid.clear_widgets()
        for player in app.store.players():
            button = ChoiceButton(text=player.name, chosen_colour=app.player_colour(player.name),
                                  size_hint_y=None, height=dp(64))
            button.player_name = player.name
            button.bind(on_release=self.toggle)
            grid.add_widget(button)
        self.ids.empty.opacity = 0 if len(roster) >= PLAYERS else 1
        self.refresh()

    def toggle(self, button):
        name = button.player_name
        if name in self.chosen:
            self.chosen.remove(name)
        elif len(self.chosen) < PLAYERS:
            self.chosen.append(name)
        else:
            App.get_running_app().notify("Jacks is for exactly four players: tap a chosen player to take them out.")
        self.refresh()

    def refresh(self):
        for button in self.ids.roster.children:
            name = button.player_name
            seat = self.chosen.index(name) + 1 if name in self.chosen else 0
            button.state = "down" if seat else "normal"
            button.text = f"{seat}. {name}" if seat else name

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
