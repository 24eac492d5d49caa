"""Home: the four games, the unfinished game to resume, and the way to players and settings."""

from __future__ import annotations

import time

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import GameError
from companion.games import GAMES
from companion.session import Session

from ..widgets.basics import TableButton


class GameTile(TableButton):
    game = StringProperty("")


class HomeScreen(Screen):
    resume_text = StringProperty("")
    unfinished = ObjectProperty(None, allownone=True)

    def prepare(self, **_):
        app = App.get_running_app()
        tiles = self.ids.tiles
        tiles.clear_widgets()
        for info in GAMES.values():
            ready = app.game_available(info.name)
            tile = GameTile(game=info.name, text=f"[size=30sp]{info.title}[/size]\n"
                            + (info.blurb if ready else "Coming soon: not built yet"),
                            markup=True, disabled=not ready)
            tile.bind(on_release=lambda btn: App.get_running_app().new_game(btn.game))
            tiles.add_widget(tile)
        self.unfinished = app.store.unfinished()
        if self.unfinished is None:
            self.resume_text = ""
        else:
            record = self.unfinished
            title = GAMES[record.game].title if record.game in GAMES else record.game
            when = time.strftime("%a %d %b, %H:%M", time.localtime(record.updated))
            self.resume_text = f"Unfinished {title} with {', '.join(record.players)} ({when})"

    def resume(self):
        app = App.get_running_app()
        if self.unfinished is None:
            return
        try:
            session = Session.resume(app.store, self.unfinished.id)
        except GameError as exc:
            app.notify(f"That game cannot be resumed: {exc}", "error")
            return
        if not app.game_available(self.unfinished.game):
            app.notify("This version of the companion cannot show that game yet.", "error")
            return
        app.open_session(session)

    def set_aside(self):
        """Put the unfinished game away (it stays in the history as abandoned)."""
        app = App.get_running_app()
        if self.unfinished is not None:
            app.store.abandon(self.unfinished.id)
            app.notify("The unfinished game was put away; it stays in the history.")
        self.prepare()
