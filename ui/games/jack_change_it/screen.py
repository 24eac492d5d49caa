"""Jack Change It at the table: whose turn, the suit in play, what is owed and every card count,
large enough to read from the far end; each turn entered with two taps (rank, then suit), or
seen by the camera over the pile.

The screen decides nothing about the rules and keeps no timer: it draws the table controller
(companion/games/jack_change_it/table.py), which asks the rules what may be played and holds
the camera's offer and its grace, and forwards the table's taps to it.
"""

from __future__ import annotations

import time

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.cards import SUIT_NAMES
from companion.games.jack_change_it.table import JackChangeItTable, Question

from ui.screens.game_screen import TableGameScreen
from ui import sound, theme
from ui.widgets.basics import TableButton
from ui.widgets.card_words import card_markup, words_markup
from ui.widgets.card_picker import CardPicker, PickerSuitButton, card_text  # noqa: F401  (the .kv uses CardPicker)
from ui.widgets.name_grid import even_rows, text_width

DIRECTION_ARROWS = {"clockwise": "\u21bb", "anticlockwise": "\u21ba"}  # the round arrow
STEP_ARROWS = {"clockwise": "\u203a", "anticlockwise": "\u2039"}  # between seats, in the way play goes


# -- the table ------------------------------------------------------------------------------------

NAME_PX = dp(20)  # a seat's name: never under 20 px, the smallest type for game state
ARROW_W, SEAT_GAP = dp(14), dp(3)  # the arrow after each seat, and the gap either side of it
DIRECTION_W = dp(140)  # the tile saying which way play goes, left of the seats
NAME_ROOM = dp(8)  # a seat's name keeps this much clear of its tile's edges


def name_lines(name: str, room: float) -> tuple[str, int]:
    """``name`` as a seat shows it in ``room`` px: whole on one line, or broken over two at
    full size ("Christa-" over "belle") rather than smaller type or an ellipsis."""
    if text_width(name, theme.FONT_BOLD, NAME_PX) <= room or len(name) <= 3:
        return name, 1
    if " " in name:
        return name.replace(" ", "\n", 1), 2
    half = (len(name) + 1) // 2
    return f"{name[:half]}-\n{name[half:]}", 2


def two_line_width(name: str) -> float:
    """How wide ``name`` is on a seat when it takes two lines (its wider line)."""
    shown = name_lines(name, 0)[0]
    return max(text_width(line, theme.FONT_BOLD, NAME_PX) for line in shown.split("\n"))


def seat_grid(names: list[str], room: float, most: int) -> tuple[int, int]:
    """(columns, rows) for the seats in ``room`` px across, ``most`` to a row: as few rows as
    keep every name whole in at most two lines, and the seats shared evenly over them."""
    if not names:
        return 1, 1
    tile = max(two_line_width(name) for name in names) + NAME_ROOM
    per_seat = tile + ARROW_W + 2 * SEAT_GAP
    return even_rows(len(names), max(1, min(len(names), most, int(room // per_seat))))


class SeatTile(BoxLayout):
    """One player at the table: name on their colour, cards in hand, a last-card mark."""

    name = StringProperty("")
    count = NumericProperty(0)
    fill = ColorProperty(theme.PANEL_LIGHT)
    current = BooleanProperty(False)
    last_card = BooleanProperty(False)
    strip = NumericProperty(dp(24))  # the height of the name on its colour
    shown_name = StringProperty("")  # the name, broken over two lines when one is too narrow
    name_lines = NumericProperty(1)
    compact = BooleanProperty(False)  # seats in rows: the count and the last-card mark side by side

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fbind("name", self._fit_name)
        self.fbind("width", self._fit_name)
        self._fit_name()

    def _fit_name(self, *_):
        """A long name takes two lines rather than smaller type or an ellipsis ("Gran w...ith 31!")."""
        self.shown_name, self.name_lines = name_lines(self.name, self.width - NAME_ROOM)


class StepArrow(Label):
    pass


class ChooserView(ModalView):
    """A question the turn needs answered before it is entered (the Jack's suit, A♥ with 2♥)."""


class JackChangeItScreen(TableGameScreen):
    four_colour = BooleanProperty(False)
    turn_text = StringProperty("")
    turn_fill = ColorProperty(theme.PANEL_LIGHT)
    suit = StringProperty("S")
    suit_caption = StringProperty("")
    named = BooleanProperty(False)
    top = StringProperty("")
    prompt_text = StringProperty("")
    owed = BooleanProperty(False)
    direction = StringProperty("clockwise")
    stock_text = StringProperty("")
    last_text = StringProperty("")
    reminder_text = StringProperty("")  # turn the pile over / cards forgiven: must not be missed
    action_text = StringProperty("Lift a card")
    finished = BooleanProperty(False)
    winner_text = StringProperty("")
    can_undo = BooleanProperty(False)
    seat_count = NumericProperty(0)
    seat_cols = NumericProperty(1)
    seat_rows = NumericProperty(1)  # a big table's seats take two rows (or more, in portrait)
    tight = BooleanProperty(False)  # two rows of seats in landscape: the rest of the screen closes up
    long_names = BooleanProperty(False)  # some seat's name takes two lines: the seats stand taller

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seats: dict[str, SeatTile] = {}
        self.step_arrows: list[StepArrow] = []
        self.table: JackChangeItTable | None = None
        self.chooser: ChooserView | None = None
        self.chooser_buttons: dict[str, PickerSuitButton | TableButton] = {}
        self._shown_question: Question | None = None   # the table's question the chooser shows
        self._said = 0   # the table's refusals already shown
        self.ids.picker.bind(on_card=lambda picker, code: self.picked(code))
        self.bind(size=lambda *_: self.lay_out_seats())

    def prepare(self, session=None, **_):
        app = App.get_running_app()
        self.four_colour = app.four_colour
        if session is not None:
            self.session = session
            self.use_clock(time.monotonic, lambda delay, fn: Clock.schedule_once(lambda dt: fn(), delay))
            self.ids.picker.clear()
            self.build_seats()
        self.refresh()

    def use_clock(self, now, schedule) -> None:
        """A table for the session on this clock (the table's; a test's fake one; a picture's
        stopped one): each of its timers redraws the screen when it fires."""
        if self.table is not None:
            self.table.close()
        self.table = JackChangeItTable(self.session, now=now,
                                       schedule=lambda delay, fn: schedule(delay, lambda: self.forward(fn)))
        self._said = self.table.said

    def lay_out_seats(self) -> None:
        """As many seats to a row as keep every name whole: one row for a small table, two
        (or more on a tall screen) for a big one or long names; the rest of the screen makes room."""
        if self.session is None:
            return
        names = self.players
        room = self.width - 2 * dp(8) - DIRECTION_W - dp(4)
        # a tall screen has height to spare: six seats to a row at most, so each stays wide
        self.seat_cols, self.seat_rows = seat_grid(names, room, len(names) if self.width > self.height else 6)
        tile = (room - self.seat_cols * (ARROW_W + 2 * SEAT_GAP)) / self.seat_cols
        self.long_names = any(name_lines(name, tile - NAME_ROOM)[1] > 1 for name in names)
        self.tight = self.seat_rows > 1 and self.width > self.height
        for tile_widget in self.seats.values():
            tile_widget.compact = self.seat_rows > 1

    @staticmethod
    def seat_row_height(landscape: bool, rows: int, long_names: bool) -> float:
        """A seat with a two-line name needs 76 px (the name, then its count at 20 px or more)."""
        if rows > 1:
            tall = dp(76) if landscape else dp(90)
            return rows * tall + (rows - 1) * SEAT_GAP
        if landscape:
            return dp(112) if long_names else dp(80)
        return dp(150)

    def build_seats(self):
        app = App.get_running_app()
        row = self.ids.seats
        row.clear_widgets()
        self.seats = {}
        self.step_arrows = []
        self.seat_count = len(self.players)
        for name in self.players:
            tile = SeatTile(name=name, fill=app.player_colour(name))
            self.seats[name] = tile
            row.add_widget(tile)
            arrow = StepArrow()
            self.step_arrows.append(arrow)
            row.add_widget(arrow)  # the last one points from the last seat round to the first
        self.lay_out_seats()

    def refresh(self):
        if self.session is None:
            return
        app = App.get_running_app()
        s = self.session.view()
        self.finished = s.finished
        self.can_undo = self.session.can_undo
        self.suit = s.suit
        self.named = s.named_suit is not None
        self.suit_caption = SUIT_NAMES[s.suit] + ("\nnamed by a Jack" if self.named else "")
        self.top = s.top
        self.direction = s.direction
        for arrow in self.step_arrows:
            arrow.text = STEP_ARROWS[self.direction]
        for name, tile in self.seats.items():
            tile.count = s.hand_sizes[name]
            tile.current = name == (s.winner if self.finished else s.turn)
            tile.last_card = name in s.last_card
        self.owed = s.owed is not None
        if self.finished:
            self.turn_text = f"{s.winner} wins!"
            self.turn_fill = app.player_colour(s.winner)
            self.winner_text = "Game over"
            self.prompt_text = f"Well played, {s.winner}!"
        else:
            self.turn_text = s.turn
            self.turn_fill = app.player_colour(s.turn)
            self.winner_text = ""
            self.prompt_text = s.prompt
        self.action_text = self.table.action_words
        self.stock_text = f"Stock {s.stock} \u00b7 pile {s.pile}"
        self.last_text = words_markup(self.table.last_words, self.four_colour)
        reminders = []
        if s.turn_over_pile:
            reminders.append("Turn the pile over: keep the top card")
        if s.forgiven:
            reminders.append(f"{s.forgiven} forgiven: no cards left")
        self.reminder_text = " \u00b7 ".join(reminders)
        self.draw_table_offer()
        self.draw_question()

    # -- the table's taps, forwarded to its controller --------------------------------------------

    def forward(self, fn, *args) -> None:
        """Hand one tap (or a timer of the table's) to the table, then draw what it says: a
        refusal in the rules' own words, or the play that went in."""
        if self.table is None:
            return
        app = App.get_running_app()
        count = len(self.session.game.actions)
        fn(*args)
        entered = len(self.session.game.actions) > count
        if self.table.said != self._said:
            self._said = self.table.said
            app.notify(self.table.message, "error")
        elif entered and app.root.notice_kind == "error":
            app.clear_notice()  # an old refusal no longer applies
        self.refresh()
        if entered and (self.finished or self.owed):
            sound.play("game-over" if self.finished else "pick-up")

    def picked(self, code: str) -> None:
        """A card tapped on the picker: a Jack asks for its suit, the A♥ whether the 2♥ went with
        it (the card pad also puts right what the camera offered)."""
        self.forward(self.table.choose, code)

    def main_action(self):
        """Lift a card, pick up what is owed, or (once somebody has won) set up the next game."""
        if self.finished:
            App.get_running_app().new_game("jack-change-it")
            return
        self.forward(self.table.main_action)

    def undo(self):
        self.ids.picker.clear()
        self.forward(self.table.undo)

    # -- the camera: the card seen on the pile is offered by the table (TableGameScreen.offer_seen) ---

    def camera_end(self) -> None:
        if self.table is not None:
            self.table.put_offer_away()
        super().camera_end()

    def camera_offer_over(self):
        # Over the whole band of name, suit and card when it is one band (the question names the
        # player); in a tall window over the name alone, leaving the suit in play in sight.
        return (self.ids.head,) if self.width > self.height else (self.ids.turn_label,)

    def draw_table_offer(self) -> None:
        """The table's offer: its question counting down while the grace runs, "Not it" beside."""
        self.draw_offer(self.table.offer, self.table.offer_words(),
                           on_choose=lambda code: self.forward(self.table.choose, code),
                           on_dismiss=lambda: self.forward(self.table.not_it))

    # -- the two questions a card can raise ---------------------------------------------------------

    def draw_question(self) -> None:
        """The table's question, as a chooser: the suits the rules let this Jack name, or the A♥
        alone or with the 2♥ (what each leaves owed)."""
        question = self.table.question
        if question is None:
            self._shown_question = None
            self.close_chooser()
            return
        if question is self._shown_question and self.chooser is not None:
            return
        buttons = {}
        if question.kind == "suit":
            for choice in question.choices:
                button = PickerSuitButton(suit=choice.key, four_colour=self.four_colour, note=SUIT_NAMES[choice.key],
                                          symbol_scale=0.45, font_size="22sp")
                buttons[choice.key] = button
            title = f"{self.card_words(question.card)} changes the suit to:"
        else:
            for choice in question.choices:
                cards = choice.action["cards"]
                words = " + ".join(self.card_words(c) for c in cards) + (" alone" if len(cards) == 1 else "")
                if choice.owed:
                    words += f"\n{choice.owed.player} picks up {choice.owed.count}"
                buttons[choice.key] = TableButton(text=words, font_size="24sp", primary=len(cards) == 1, markup=True)
            ace, two = (self.card_words(c) for c in question.choices[-1].action["cards"])
            title = f"{ace} played: did {two} go on top of it?"
        for key, button in buttons.items():
            button.bind(on_release=lambda btn, k=key: self.forward(self.table.answer, k))
        self.open_chooser(title, buttons, cols=len(buttons) if question.kind == "suit" else 2)
        self._shown_question = question

    def card_words(self, code: str) -> str:
        """A card as markup: its rank, and its suit symbol in the suit's colour."""
        return card_markup(code, self.four_colour)

    def open_chooser(self, title: str, buttons: dict, cols: int) -> None:
        self.close_chooser()
        view = ChooserView()
        view.ids.title.text = title
        grid = view.ids.choices
        grid.cols = cols
        for button in buttons.values():
            grid.add_widget(button)
        self.chooser, self.chooser_buttons = view, buttons
        view.bind(on_dismiss=self._forget_chooser)  # Cancel, or a tap beside it
        view.open(animation=False)

    def close_chooser(self) -> None:
        chooser, self.chooser, self.chooser_buttons = self.chooser, None, {}
        if chooser is not None:
            chooser.dismiss(animation=False)

    def _forget_chooser(self, view) -> None:
        """Cancel, or a tap beside the chooser: the table's question is put away unanswered."""
        if view is self.chooser:
            self.chooser, self.chooser_buttons = None, {}
            self._shown_question = None
            if self.table is not None:
                self.table.cancel_question()
