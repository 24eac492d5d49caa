"""Opening a game from a screen: a new one from a set-up's header, or a kept one from Home or
History. A refusal (a bad header, a damaged log, a game this version cannot show) is said in
the message bar, never raised at the table."""

from __future__ import annotations

from kivy.app import App

from companion.errors import GameError
from companion.session import Session


def start_game(header: dict) -> None:
    """Start the game ``header`` describes and show its screen."""
    app = App.get_running_app()
    try:
        session = Session.start(app.store, header)
    except GameError as exc:
        text = str(exc)
        app.notify(text[:1].upper() + text[1:], "error")
        return
    app.open_session(session)


def open_kept(game_id: int, verb: str = "opened") -> None:
    """Open a kept game on its screen; ``verb`` says what the table asked for ("resumed")."""
    app = App.get_running_app()
    try:
        session = Session.resume(app.store, game_id)
    except GameError as exc:
        app.notify(f"That game cannot be {verb}: {exc}", "error")
        return
    if not app.game_available(session.game.header["game"]):
        app.notify("This version of the companion cannot show that game yet.", "error")
        return
    app.open_session(session)
