"""One-Eyed Jack at the table: the screen is the board.

A player taps the card they are playing (rank, then suit) or taps a space (which picks the card
it shows), the board lights where that card may go, and a tap puts the chip down. Which spaces
light, which chips are locked, the rows and the winner all come from the rules in companion,
through the table controller (companion/games/one_eyed_jack/table.py); this screen draws it and
forwards the table's taps to it.
"""

from __future__ import annotations

import time

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.cards import SUIT_SYMBOLS
from companion.games.one_eyed_jack.board import ONE_EYED, TWO_EYED, card_at
from companion.games.one_eyed_jack.table import OneEyedJackTable

from ui.screens.game_screen import TableGameScreen
from ui import sound, theme
from ui.widgets.board import OneEyedBoard, side_colour  # the module also gives the .kv OneEyedChip
from ui.widgets.card_picker import CardPicker, PickerRankButton, PickerSuitButton
from ui.widgets.card_words import card_markup
from ui.widgets.name_grid import text_width

# The panel beside (or under) the board needs about this much room; the board takes the rest.
PANEL_WIDTH = 300
PANEL_HEIGHT = 460
OUTER_PAD = dp(6)  # round the board and the panel: the board as big as the screen allows

# A side's tile: its chip, its players' names (20 px, whole: on lines of their own when the
# side is too narrow for one) and the rows it has made.
SIDE_PAD, SIDE_GAP = dp(5), dp(4)
CHIP_W, CHIP_LINE, ROWS_W = dp(26), dp(26), dp(24)
NAMES_PX = dp(20)
NAME_LINE = dp(24) * 0.95  # one line of names at 20 px, as the label sets them (line_height 0.95)


def _extent(text: str) -> float:
    return text_width(text, theme.FONT, NAMES_PX)


def stacked_names(members: list[str], room: float) -> str:
    """A player to a line; a name wider than ``room`` broken in two with a hyphen."""
    lines = []
    for name in members:
        if _extent(name) <= room or len(name) < 4:
            lines.append(name)
        else:
            half = (len(name) + 1) // 2
            lines += [name[:half] + "-", name[half:]]
    return "\n".join(lines)


class OneEyedStage(BoxLayout):
    """A part of the panel that is put away when not in use: hidden, touches go through it.
    (A disabled widget would swallow the touches that land on it instead.)"""

    shown = BooleanProperty(True)

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.shown else False

    def on_touch_move(self, touch):
        return super().on_touch_move(touch) if self.shown else False

    def on_touch_up(self, touch):
        return super().on_touch_up(touch) if self.shown else False


class OneEyedSideTile(BoxLayout):
    """One side: its chip, its players and its rows."""

    side = NumericProperty(0)
    names = StringProperty("")  # "Ann & Cat"
    members = ListProperty([])
    rows = NumericProperty(0)
    current = BooleanProperty(False)
    colours = ListProperty([])  # every side's chip colour, as the board has them
    stacked = BooleanProperty(False)  # the names under the chip, a player to a line (every side alike)
    one_line = BooleanProperty(True)  # whether this side's names fit beside its chip
    shown_names = StringProperty("")
    need = NumericProperty(dp(40))  # the height this tile needs at its width

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fbind("width", self._fit)
        self.fbind("members", self._fit)
        self.fbind("stacked", self._fit)
        self._fit()

    def _fit(self, *_):
        inner = self.width - 2 * SIDE_PAD
        self.one_line = CHIP_W + ROWS_W + 2 * SIDE_GAP + _extent(self.names) <= inner
        self.shown_names = stacked_names(self.members, inner) if self.stacked else self.names
        lines = self.shown_names.count("\n") + 1
        self.need = (CHIP_LINE + lines * NAME_LINE + dp(4)) if self.stacked else dp(40)


class OneEyedJackScreen(TableGameScreen):
    landscape = BooleanProperty(True)
    board_side = NumericProperty(100)
    rank = StringProperty("")  # the card being chosen: its rank, then its suit
    suit = StringProperty("")
    four_colour = BooleanProperty(False)
    turn_text = StringProperty("")
    turn_side = NumericProperty(0)
    turn_fill = ListProperty(theme.PANEL_LIGHT)
    status_text = StringProperty("")
    last_text = StringProperty("")  # the last play in words (markup: cards in their suit's colour)
    side_colours = ListProperty([])  # each side plays in its first player's colour
    stock_text = StringProperty("")
    reshuffle = BooleanProperty(False)
    finished = BooleanProperty(False)
    drawn = BooleanProperty(False)  # the game ended in a draw
    result_text = StringProperty("")
    can_undo = BooleanProperty(False)
    dead = BooleanProperty(False)  # the chosen card has no open space: it may be swapped
    sides_height = NumericProperty(dp(40))  # as tall as the tallest side's names need

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.side_tiles: list[OneEyedSideTile] = []
        self.table: OneEyedJackTable | None = None
        self._said = 0   # the table's notices already shown
        self.bind(size=self._fit)
        # The card stays chosen on the picker while the board shows where it may go.
        self.picker.bind(on_choice=lambda picker: self.choose(picker.rank, picker.suit))

    def _fit(self, *_):
        self.landscape = self.width > self.height
        pad = 2 * OUTER_PAD
        if self.landscape:
            self.board_side = max(dp(100), min(self.height - pad, self.width - pad - dp(8) - dp(PANEL_WIDTH)))
        else:
            self.board_side = max(dp(100), min(self.width - pad, self.height - pad - dp(8) - dp(PANEL_HEIGHT)))

    @property
    def card(self) -> str:
        return self.rank + self.suit if self.rank and self.suit else ""

    @property
    def board(self) -> OneEyedBoard:
        return self.ids.board

    @property
    def picker(self) -> CardPicker:
        return self.ids.picker

    @property
    def rank_buttons(self) -> dict[str, PickerRankButton]:
        return self.picker.rank_buttons

    @property
    def suit_buttons(self) -> dict[str, PickerSuitButton]:
        return self.picker.suit_buttons

    # -- building ------------------------------------------------------------------------------

    def prepare(self, session=None, **_):
        app = App.get_running_app()
        self.four_colour = app.four_colour
        if session is not None:
            self.session = session
            self.table = OneEyedJackTable(session, now=time.monotonic,
                                          schedule=lambda delay, fn: Clock.schedule_once(lambda dt: self.forward(fn), delay))
            self._said = self.table.said
            self.build_sides()
        self._fit()
        self.refresh()

    def build_sides(self):
        app = App.get_running_app()
        box = self.ids.sides
        box.clear_widgets()
        self.side_tiles = []
        sides = self.session.view().sides
        # A side's chips are its first player's colour: a player's colour is theirs in every game.
        self.side_colours = [app.player_colour(members[0]) for members in sides]
        self.board.side_colours = self.side_colours
        for side, members in enumerate(sides):
            tile = OneEyedSideTile(side=side, names=" & ".join(members), members=members,
                                   colours=self.side_colours)
            tile.bind(need=self._sides_fit, one_line=self._sides_fit)
            self.side_tiles.append(tile)
            box.add_widget(tile)
        self._sides_fit()

    def _sides_fit(self, *_):
        stacked = not all(tile.one_line for tile in self.side_tiles)
        for tile in self.side_tiles:
            tile.stacked = stacked
        self.sides_height = max([dp(40) if self.landscape else dp(52)] + [t.need for t in self.side_tiles])

    # -- showing where the game stands -----------------------------------------------------

    def refresh(self):
        if self.session is None:
            return
        table = self.table
        view = self.session.view()
        self.finished = view.finished
        self.drawn = view.draw
        self.can_undo = self.session.can_undo
        self.rank, self.suit = table.rank, table.suit
        card = self.card

        board = self.board
        board.four_colour = self.four_colour
        board.chips = view.chips
        board.locked = [tuple(s) for s in view.locked]
        board.row_lines = [(line.side, [tuple(s) for s in line.spaces], line.count) for line in view.row_lines]
        board.winning = [(line.side, [tuple(s) for s in line.spaces], line.count) for line in view.winning_rows]
        board.highlighted = table.lit
        board.choosing = bool(card)
        board.last = self.last_space()

        rows = view.rows
        for tile in self.side_tiles:
            tile.rows = rows[tile.side]
            tile.current = view.turn_side == tile.side or view.winner == tile.side

        self.reshuffle = view.reshuffle
        self.stock_text = f"Stock\n{view.stock}"
        self.dead = table.dead

        self.turn_text = table.turn_words()
        self.result_text = table.result_words()
        if view.winner is not None:
            self.turn_side = view.winner
            self.turn_fill = side_colour(self.turn_side, self.side_colours)
        elif view.draw:
            self.turn_fill = theme.PANEL_LIGHT
        else:
            self.turn_side = view.turn_side
            self.turn_fill = side_colour(self.turn_side, self.side_colours)
        self.status_text = self.status_words(view)
        self.last_text = self.last_play_words()
        self.refresh_picker()
        self.draw_offer(table.offer, table.offer_words(),
                        on_choose=lambda code: self.forward(table.choose, code),
                        on_dismiss=lambda: self.forward(table.not_it))

    def named(self, card: str) -> str:
        return card_markup(card, self.four_colour)

    def last_play_words(self) -> str:
        """What the last player did, as Jack Change It says it: the card, the space, whose chip."""
        game = self.session.game
        if not game.actions:
            return ""
        action = game.actions[-1]
        before = game.state_after(len(game.actions) - 1)
        player = escape_markup(before.players[before.turn])
        card = card_markup(action.get("card", ""), self.four_colour)
        if action["type"] == "pass":
            return f"Last: {player} passed."
        if action["type"] == "swap":
            return f"Last: {player} swapped the dead {card}."
        if "remove" in action:  # only a one-eyed Jack takes a chip off: the space says enough
            space = card_markup(card_at(*action["remove"]), self.four_colour)
            return f"Last: {player} took the chip off {space}."
        shown = card_markup(card_at(*action["at"]), self.four_colour)
        if action["card"] in TWO_EYED:
            return f"Last: {player} played {card} on {shown}."
        return f"Last: {player} played {card}."

    def status_words(self, view) -> str:
        if self.reshuffle:
            return "The stock ran out: shuffle the discards into a new stock!"
        if self.finished:
            return "Undo takes back the last play."  # "Ann wins!" above says the game is over
        card = self.card
        if not card:
            if self.rank == "J":
                return "J: tap the suit (\u2663 \u2666 wild, \u2660 \u2665 take a chip off)."
            if self.rank:
                return f"{self.rank}: now tap the suit."
            swapped = "Swapped: now play a card. " if view.swapped_this_turn else ""
            return swapped + "Tap the card you play (rank, then suit) or its space."
        lit = len(self.board.highlighted)
        if card in ONE_EYED:
            if not lit:
                return f"{self.named(card)}: there is no chip it can take off now."
            return f"{self.named(card)} one-eyed Jack: tap a lit chip to take it off."
        if card in TWO_EYED:
            return f"{self.named(card)} wild: tap any lit space for your chip."
        if self.dead:
            return f"{self.named(card)} is dead: both its spaces have chips. Swap it for a new card."
        return f"{self.named(card)}: tap a lit space to put your chip there."

    def refresh_picker(self):
        picker = self.picker
        picker.rank, picker.suit = self.rank, self.suit
        picker.relabel()  # a card may have died with the last play

    def suit_label(self, rank: str, suit: str) -> tuple[str, str]:
        """The suit, and under it what the card would do: a Jack's kind, or a dead card."""
        note = self.table.card_note(rank + suit) if rank and self.table is not None else ""
        return SUIT_SYMBOLS[suit], note

    def last_space(self):
        """The space the last play changed, from the log (a swap or a pass changes none)."""
        actions = self.session.game.actions
        for key in ("at", "remove"):
            if actions and key in actions[-1]:
                return tuple(actions[-1][key])
        return None

    # -- the camera: the card seen on the discard pile is the card to place (its spaces light up;
    # the table still taps the space): handed to the table by TableGameScreen.offer_seen.

    def camera_offer_over(self) -> tuple:
        # Over whose turn it is (the board stays whole): beside the board, down to what to do
        # now, which leaves room for the guesses on a row of their own.
        ids = self.ids
        return (ids.turn_banner, ids.home_button, ids.status_box) if self.landscape else (ids.turn_banner, ids.home_button)

    def camera_take(self, code: str) -> None:
        """A card seen for sure: chosen, unless every copy of it is already played."""
        self.offer_seen([code], sure=True)

    def camera_end(self) -> None:
        if self.table is not None:
            self.table.not_it()
        super().camera_end()

    # -- the table's taps, forwarded to its controller -------------------------------------------

    def forward(self, fn, *args):
        """Hand one tap to the table, then draw what it says (and sound a row or the end)."""
        if self.table is None:
            return None
        app = App.get_running_app()
        before, count = self.session.view(), len(self.session.game.actions)
        result = fn(*args)
        if self.table.said != self._said:
            self._said = self.table.said
            notice = self.table.notice
            app.notify(notice.text, notice.kind, seconds=notice.seconds)
        self.refresh()
        if len(self.session.game.actions) > count:   # a play, a swap or a pass went in
            view = self.session.view()
            if view.winner is not None or view.draw:
                sound.play("game-over")
            elif any(n > before.rows[side] for side, n in view.rows.items()):
                sound.play("row")
        return result

    def choose(self, rank: str, suit: str):
        """The card pad: the rank, then the suit (the card pad also puts away the camera's guesses)."""
        self.forward(self.table.pick, rank, suit)

    def clear_card(self):
        self.forward(self.table.clear_card)

    def tap_space(self, row: int, col: int):
        self.forward(self.table.tap_space, row, col)

    def play(self, action: dict) -> bool:
        """Send one action (as logged) to the table: the rules' reason if they refuse it."""
        return bool(self.forward(self.table.play, action))

    def pass_turn(self):
        self.forward(self.table.pass_turn)

    def swap(self):
        self.forward(self.table.swap)

    def undo(self):
        self.forward(self.table.undo)

    def new_game(self):
        App.get_running_app().new_game("one-eyed-jack")
