"""History: every game the table has kept, newest first, with its date and its winners; a
game can be opened again, or deleted after the table confirms it."""

from __future__ import annotations

import time

from kivy.app import App
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.games import GAMES
from companion.store import outcome_of

from .home import table_words
from .opening import open_kept

STATUS_WORDS = {"open": "unfinished", "finished": "finished", "abandoned": "put away"}


def result_words(result: dict | None) -> str:
    if not result:
        return ""
    outcome = outcome_of(result)
    if outcome.draw:
        return "a draw"
    if not outcome.winners:
        return ""
    return "won by " + " and ".join(outcome.winners)


class HistoryRow(BoxLayout):
    """One kept game: the button that opens it, and Delete beside it."""

    game_id = NumericProperty(0)
    text = StringProperty("")


class ConfirmDelete(ModalView):
    """"Delete this game?" with the game named, and a way out that keeps it."""

    game_id = NumericProperty(0)
    text = StringProperty("")


class HistoryScreen(Screen):
    def prepare(self, **_):
        app = App.get_running_app()
        rows = self.ids.rows
        rows.clear_widgets()
        records = app.store.games()
        for record in records:
            title = GAMES[record.game].title if record.game in GAMES else record.game
            when = time.strftime("%d %b %Y %H:%M", time.localtime(record.created))
            words = result_words(record.result) if record.status == "finished" else STATUS_WORDS[record.status]
            row = HistoryRow(game_id=record.id, text=f"{when}   {title}: {table_words(record.players)}   {words}")
            rows.add_widget(row)
        self.ids.empty.opacity = 0 if records else 1

    def open(self, game_id: int):
        """Open a kept game on its screen: to carry on, look back, or undo its last action."""
        open_kept(game_id, "opened")

    def ask_delete(self, row: HistoryRow) -> ConfirmDelete:
        view = ConfirmDelete(game_id=row.game_id, text=row.text)
        view.open(animation=False)
        return view

    def delete(self, game_id: int) -> None:
        app = App.get_running_app()
        app.store.delete_game(game_id)
        app.notify("The game was deleted.")
        self.prepare()
