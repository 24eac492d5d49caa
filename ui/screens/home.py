"""Home: the four games, every unfinished game to resume (newest first), and the way to
players, history and settings."""

from __future__ import annotations

import time

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games import GAMES

from ..widgets.basics import TableButton
from .opening import open_kept

NAMES_SHOWN = 4  # a row names this many players, then says how many more


class GameTile(TableButton):
    """A game's name and what it is about; in a tall tile (portrait) both are larger (home.kv)."""

    game = StringProperty("")
    tall = BooleanProperty(False)
    title = StringProperty("")
    blurb = StringProperty("")


class UnfinishedRow(BoxLayout):
    """One unfinished game: what it is, who plays, when it was left; Resume and Put away."""

    game_id = NumericProperty(0)
    text = StringProperty("")


def table_words(players: list[str]) -> str:
    """The players of a game, the first few by name.

    >>> table_words(["Mum", "Dad", "Ben"])
    'Mum, Dad, Ben'
    >>> table_words(["A", "B", "C", "D", "E", "F"])
    'A, B, C, D and 2 more'
    """
    if len(players) <= NAMES_SHOWN + 1:
        return ", ".join(players)
    return ", ".join(players[:NAMES_SHOWN]) + f" and {len(players) - NAMES_SHOWN} more"


def left_words(updated: float, now: float | None = None) -> str:
    """When a game was left, as a player says it.

    >>> import time
    >>> noon = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))
    >>> left_words(noon - 600, noon), left_words(noon - 86400 * 3, noon)
    ('left today at 11:50', 'left Sat 28 Nov at 12:00')
    """
    now = time.time() if now is None else now
    then = time.localtime(updated)
    if time.strftime("%Y%m%d", then) == time.strftime("%Y%m%d", time.localtime(now)):
        return time.strftime("left today at %H:%M", then)
    return time.strftime("left %a %d %b at %H:%M", then)


def unplayed(store, record) -> bool:
    """A game started and left before anything was played: nothing in it worth keeping."""
    return record.status != "finished" and not store.log(record.id)[1]


class HomeScreen(Screen):
    resume_text = StringProperty("")   # the newest unfinished game, in words ("" when none)

    def prepare(self, **_):
        app = App.get_running_app()
        tiles = self.ids.tiles
        tiles.clear_widgets()
        for info in GAMES.values():
            tile = GameTile(game=info.name, title=info.title, blurb=info.blurb,
                            disabled=not app.game_available(info.name))
            tile.bind(on_release=lambda btn: App.get_running_app().new_game(btn.game))
            tiles.add_widget(tile)
        for record in app.store.games(status="open") + app.store.games(status="abandoned"):
            if unplayed(app.store, record):
                app.store.delete_game(record.id)
        self.show_unfinished(app.store.games(status="open"))

    def show_unfinished(self, records) -> None:
        rows = self.ids.unfinished
        # The rows shown last time are kept and put back in order: building a row is the cost
        # of coming home, and the unfinished games change little between two visits.
        kept = {row.game_id: row for row in rows.children}
        rows.clear_widgets()
        self.ids.pop("resume_button", None)
        now = App.get_running_app().clock()
        for record in records:   # newest first, as the store gives them
            title = GAMES[record.game].title if record.game in GAMES else record.game
            text = f"{title} with {table_words(record.players)}, {left_words(record.updated, now)}"
            row = kept.pop(record.id, None)
            if row is None:
                row = UnfinishedRow(game_id=record.id, text=text)
            else:
                row.text = text
            rows.add_widget(row)
            if "resume_button" not in self.ids:
                # The newest game's Resume, by the id the tests and the bench have always tapped.
                self.ids["resume_button"] = row.ids.resume_button
        self.resume_text = ("Unfinished " + rows.children[-1].text) if records else ""
        self.ids.unfinished_view.opacity = 1 if records else 0

    def resume(self, game_id: int | None = None):
        app = App.get_running_app()
        if game_id is None:
            newest = app.store.unfinished()
            if newest is None:
                return
            game_id = newest.id
        open_kept(game_id, "resumed")

    def set_aside(self, game_id: int | None = None):
        """Put an unfinished game away (it stays in the history as put away)."""
        app = App.get_running_app()
        if game_id is None:
            newest = app.store.unfinished()
            game_id = newest.id if newest is not None else None
        if game_id is not None:
            app.store.abandon(game_id)
            app.notify("The unfinished game was put away; it stays in the history.")
        self.prepare()
