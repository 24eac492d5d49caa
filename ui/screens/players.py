"""The table's roster: add a player, rename them, give them a colour. Kept between runs."""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput

from companion.store import PLAYER_COLOURS, StoreError

from .. import theme
from ..widgets.basics import TableButton


class PlayerRow(BoxLayout):
    player_id = NumericProperty(0)


class NameInput(TextInput):
    pass


class PlayersScreen(Screen):
    def prepare(self, **_):
        self.refresh()

    def refresh(self):
        app = App.get_running_app()
        rows = self.ids.rows
        rows.clear_widgets()
        for player in app.store.players():
            row = PlayerRow(player_id=player.id)
            fill = theme.rgba(player.colour)
            colour = TableButton(text="Colour", size_hint_x=None, width=dp(110), fill=fill, color=theme.text_on(fill))
            colour.bind(on_release=lambda btn, pid=player.id: self.next_colour(pid))
            name = NameInput(text=player.name)
            name.bind(on_text_validate=lambda field, pid=player.id: self.rename(pid, field),
                      focus=lambda field, focused, pid=player.id: None if focused else self.rename(pid, field))
            remove = TableButton(text="Remove", size_hint_x=None, width=dp(120))
            remove.bind(on_release=lambda btn, pid=player.id: self.remove(pid))
            for widget in (colour, name, remove):
                row.add_widget(widget)
            rows.add_widget(row)

    def add(self):
        app = App.get_running_app()
        field = self.ids.new_name
        try:
            player = app.store.add_player(field.text)
        except StoreError as exc:
            app.notify(str(exc).capitalize(), "error")
            return
        field.text = ""
        app.notify(f"{player.name} joined the table.")
        self.refresh()
        # The next name goes straight in: the field (and the on-screen keyboard) stay up.
        field.focus = True

    def rename(self, player_id: int, field) -> None:
        app = App.get_running_app()
        current = app.store.player(player_id)
        if field.text.strip() == current.name:
            return
        try:
            app.store.rename_player(player_id, field.text)
        except StoreError as exc:
            field.text = current.name
            app.notify(str(exc).capitalize(), "error")
            return
        app.notify(f"{current.name} is now {field.text.strip()}. Games already played keep the old name.")

    def next_colour(self, player_id: int) -> None:
        app = App.get_running_app()
        current = app.store.player(player_id).colour
        taken = {p.colour for p in app.store.players() if p.id != player_id}
        index = PLAYER_COLOURS.index(current) if current in PLAYER_COLOURS else -1
        # The next colour nobody else has: two players never share one (a chip, a line, a tile).
        free = [c for c in PLAYER_COLOURS[index + 1:] + PLAYER_COLOURS[:index + 1] if c not in taken]
        if not free:
            app.notify("Every colour is taken: remove a player to free one.", "error")
            return
        app.store.set_colour(player_id, free[0])
        self.refresh()

    def remove(self, player_id: int) -> None:
        app = App.get_running_app()
        player = app.store.player(player_id)
        app.store.remove_player(player_id)
        app.notify(f"{player.name} left the roster. Their games stay in the history.")
        self.refresh()
