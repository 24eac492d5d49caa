"""What every game's screen shares: it shows one session, draws the engine's typed view of it
(``refresh``), forwards taps to the rules or the game's table controller, and listens to the
camera while it shows (ui/widgets/seen_card.py). A game's screen subclasses it and says how it
draws (docs/adding-a-game.md)."""

from __future__ import annotations

from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from ui.widgets.seen_card import SeesCards


class GameScreen(SeesCards, Screen):
    session = ObjectProperty(None, allownone=True)

    @property
    def players(self) -> list[str]:
        return self.session.game.players

    @property
    def view(self):
        """Where the game stands, typed (the rules' ``View``): what ``refresh`` draws."""
        return self.session.view()

    def refresh(self) -> None:
        """Draw :attr:`view`."""
        raise NotImplementedError

    def on_enter(self, *_):
        self.camera_begin()

    def on_leave(self, *_):
        self.camera_end()


class TableGameScreen(GameScreen):
    """A game screen whose table controller (``self.table``) takes the camera's cards: a sure
    card and an unsure one's guesses go to the table through the screen's ``forward`` (which
    hands one tap to the table and draws what it says)."""

    table = None

    def forward(self, fn, *args):
        raise NotImplementedError

    def offer_seen(self, cards: list[str], sure: bool) -> None:
        if self.table is None or not cards:
            return
        if sure:
            self.forward(self.table.on_card, cards[0])
        else:
            self.forward(self.table.on_unsure, cards)
