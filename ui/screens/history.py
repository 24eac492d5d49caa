"""History: every game the table has kept, newest first, with its date and its winners."""

from __future__ import annotations

import time

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.screenmanager import Screen

from companion.errors import GameError
from companion.games import GAMES
from companion.session import Session

from ..widgets.basics import TableButton

STATUS_WORDS = {"open": "unfinished", "finished": "finished", "abandoned": "put away"}


def result_words(result: dict | None) -> str:
    if not result:
        return ""
    winners = result.get("winners") or ([result["winner"]] if result.get("winner") not in (None, "") else [])
    if result.get("draw"):
        return "a draw"
    if not winners:
        return ""
    return "won by " + " and ".join(str(w) for w in winners)


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
            button = TableButton(text=f"{when}   {title}: {', '.join(record.players)}   {words}",
                                 size_hint_y=None, height=dp(60), font_size="17sp")
            button.bind(on_release=lambda btn, gid=record.id: self.open(gid))
            rows.add_widget(button)
        self.ids.empty.opacity = 0 if records else 1

    def open(self, game_id: int):
        """Open a kept game on its screen: to carry on, look back, or undo its last action."""
        app = App.get_running_app()
        try:
            session = Session.resume(app.store, game_id)
        except GameError as exc:
            app.notify(f"That game cannot be opened: {exc}", "error")
            return
        if not app.game_available(session.game.header["game"]):
            app.notify("This version of the companion cannot show that game yet.", "error")
            return
        app.open_session(session)
