"""Jack Change It at the table: whose turn, the suit in play, what is owed and every card count,
large enough to read from the far end; each turn entered with two taps (rank, then suit).

The screen decides nothing about the rules: it asks the engine (``play_problem``, the session's
``check``) and shows the engine's own words, for a play it accepts and for one it refuses.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.togglebutton import ToggleButton

from companion.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS
from companion.errors import IllegalAction
from companion.games.jack_change_it import play_problem

from .. import theme
from ..widgets.basics import ChoiceButton, TableButton

DIRECTION_ARROWS = {"clockwise": "\u21bb", "anticlockwise": "\u21ba"}  # the round arrow
STEP_ARROWS = {"clockwise": "\u203a", "anticlockwise": "\u2039"}  # between seats, in the way play goes
ACE_OF_HEARTS, TWO_OF_HEARTS = "AH", "2H"


def symbol(code: str) -> str:
    """``"10H"`` -> ``"10♥"``: cards on screen always carry their suit symbol."""
    return code[:-1] + SUIT_SYMBOLS[code[-1]]


# -- the quick picker: rank then suit ------------------------------------------------------------

class RankButton(ChoiceButton):
    pass


class SuitButton(ToggleButton):
    """A suit on a white face in its own colour (two- or four-colour), like a card's corner."""

    suit = StringProperty("S")
    four_colour = BooleanProperty(False)
    rank = StringProperty("")  # shown in front of the symbol once the rank is chosen
    caption = StringProperty("")  # a word under the symbol (the Jack's suit chooser)
    symbol_scale = NumericProperty(0.65)  # the symbol's size, as a share of the button's height

    def face(self, rank: str, suit: str, caption: str, scale: float, size) -> str:
        """The markup on the face: as big as it fits, smaller once a rank stands before the symbol."""
        width, height = size
        points = int(min(height * scale, width * 1.2 / (len(rank) + 1)))
        return f"[size={points}]{rank}{SUIT_SYMBOLS[suit]}[/size]" + (f"\n{caption}" if caption else "")


class CardPicker(BoxLayout):
    """Thirteen ranks and four suits; ``on_card(code)`` fires once both are tapped.

    Rank then suit is the way the table is taught, but suit first works too: whichever
    tap completes the card plays it. A second tap on the same rank or suit takes it back.
    """

    rank = StringProperty("")
    suit = StringProperty("")
    four_colour = BooleanProperty(False)
    __events__ = ("on_card",)

    def __init__(self, **kwargs):
        self.rank_buttons: dict[str, RankButton] = {}
        self.suit_buttons: dict[str, SuitButton] = {}
        super().__init__(**kwargs)

    def on_kv_post(self, base_widget):
        # Inside another rule the picker's own rule (and so its ids) comes after __init__.
        for rank in RANKS:
            button = RankButton(text=rank)
            button.bind(on_release=lambda btn, r=rank: self.choose_rank(r))
            self.rank_buttons[rank] = button
            self.ids.ranks.add_widget(button)
        for suit in SUITS:
            button = SuitButton(suit=suit)
            self.bind(four_colour=button.setter("four_colour"), rank=button.setter("rank"))
            button.four_colour = self.four_colour
            button.bind(on_release=lambda btn, s=suit: self.choose_suit(s))
            self.suit_buttons[suit] = button
            self.ids.suits.add_widget(button)

    def choose_rank(self, rank: str) -> None:
        self.rank = "" if self.rank == rank else rank
        self._done()

    def choose_suit(self, suit: str) -> None:
        self.suit = "" if self.suit == suit else suit
        self._done()

    def clear(self) -> None:
        self.rank = self.suit = ""
        self._show()

    def _show(self) -> None:
        # A toggle flips itself on a tap; what is chosen is decided here, not by the button.
        for rank, button in self.rank_buttons.items():
            button.state = "down" if rank == self.rank else "normal"
        for suit, button in self.suit_buttons.items():
            button.state = "down" if suit == self.suit else "normal"

    def _done(self) -> None:
        if self.rank and self.suit:
            code = self.rank + self.suit
            self.clear()  # nothing stays half-chosen, whatever the screen does with the card
            self.dispatch("on_card", code)
        else:
            self._show()

    def on_card(self, code: str) -> None:
        pass


# -- the table ------------------------------------------------------------------------------------

class SeatTile(BoxLayout):
    """One player at the table: name on their colour, cards in hand, a last-card mark."""

    name = StringProperty("")
    count = NumericProperty(0)
    fill = ColorProperty(theme.PANEL_LIGHT)
    current = BooleanProperty(False)
    last_card = BooleanProperty(False)
    strip = NumericProperty(dp(24))  # the height of the name on its colour


class StepArrow(Label):
    pass


class ChooserView(ModalView):
    """A question the turn needs answered before it is entered (the Jack's suit, A♥ with 2♥)."""


class JackChangeItScreen(Screen):
    session = ObjectProperty(None, allownone=True)
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

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seats: dict[str, SeatTile] = {}
        self.step_arrows: list[StepArrow] = []
        self._take = "lift"  # what the main button does while the game is on: "lift" or "pickup"
        self.chooser: ChooserView | None = None
        self.chooser_buttons: dict[str, SuitButton | TableButton] = {}
        self._note = ""  # says what Undo took back, until the next action
        self.ids.picker.bind(on_card=lambda picker, code: self.picked(code))

    def prepare(self, session=None, **_):
        app = App.get_running_app()
        self.four_colour = app.four_colour
        if session is not None:
            self.session = session
            self._note = ""
            self.ids.picker.clear()
            self.build_seats()
        self.refresh()

    @property
    def players(self) -> list[str]:
        return self.session.game.players

    @staticmethod
    def seat_columns(landscape: bool, seats: int) -> int:
        """One row of seats, except a big table in portrait: two rows, so names stay readable."""
        return seats if landscape or seats <= 6 else (seats + 1) // 2

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

    def refresh(self):
        if self.session is None:
            return
        app = App.get_running_app()
        s = self.session.summary()
        self.finished = s["finished"]
        self.can_undo = self.session.can_undo
        self.suit = s["suit"]
        self.named = s["named_suit"] is not None
        self.suit_caption = SUIT_NAMES[s["suit"]] + ("\nnamed by a Jack" if self.named else "")
        self.top = s["top"]
        self.direction = s["direction"]
        for arrow in self.step_arrows:
            arrow.text = STEP_ARROWS[self.direction]
        for name, tile in self.seats.items():
            tile.count = s["hand_sizes"][name]
            tile.current = name == (s["winner"] if self.finished else s["turn"])
            tile.last_card = name in s["last_card"]
        self.owed = s["owed"] is not None
        if self.finished:
            self.turn_text = f"{s['winner']} wins!"
            self.turn_fill = app.player_colour(s["winner"])
            self.winner_text = "Game over"
            self.prompt_text = f"Well played, {s['winner']}!"
            self.action_text = "New game"
        else:
            self.turn_text = s["turn"]
            self.turn_fill = app.player_colour(s["turn"])
            self.winner_text = ""
            self.prompt_text = s["prompt"]
            self._take = "pickup" if "pickup" in s["actions"] else "lift"
            self.action_text = f"Pick up {s['owed']['count']}" if self._take == "pickup" else "Lift a card"
        self.stock_text = f"Stock {s['stock']} \u00b7 pile {s['pile']}"
        self.last_text = self._note or s["last"]
        reminders = []
        if s["turn_over_pile"]:
            reminders.append("Turn the pile over: keep the top card")
        if s["forgiven"]:
            reminders.append(f"{s['forgiven']} forgiven: no cards left")
        self.reminder_text = " \u00b7 ".join(reminders)

    # -- a turn ---------------------------------------------------------------------------------

    def picked(self, code: str) -> None:
        """A card tapped on the picker: a Jack asks for its suit, the A♥ whether the 2♥ went with it."""
        if self.session is None or self.finished:
            return
        if code[:-1] == "J":
            self.ask_suit(code)
        elif code == ACE_OF_HEARTS:
            self.ask_ace()
        else:
            self.play([code])

    def play(self, cards: list[str], suit: str | None = None) -> bool:
        action = {"type": "play", "cards": list(cards)}
        if suit is not None:
            action["suit"] = suit
        return self.act(action)

    def act(self, action: dict) -> bool:
        """Hand one action to the session; a refusal shows the engine's reason and changes nothing."""
        self.close_chooser()
        try:
            self.session.play(action)
        except IllegalAction as exc:
            App.get_running_app().notify(str(exc), "error")
            return False
        self._note = ""
        app = App.get_running_app()
        if app.root.notice_kind == "error":
            app.clear_notice()  # an old refusal no longer applies
        self.refresh()
        return True

    def main_action(self):
        """Lift a card, pick up what is owed, or (once somebody has won) set up the next game."""
        if self.finished:
            App.get_running_app().new_game("jack-change-it")
            return
        self.act({"type": self._take})

    def undo(self):
        app = App.get_running_app()
        self.close_chooser()
        self.ids.picker.clear()
        said = self.session.summary()["last"]
        try:
            self.session.undo()
        except IllegalAction as exc:
            app.notify(str(exc).capitalize(), "error")
            return
        self._note = f"Undone: {said}"
        self.refresh()

    # -- the two questions a card can raise ---------------------------------------------------------

    def ask_suit(self, code: str) -> None:
        """Offer exactly the suits the engine allows this Jack to name (the three others)."""
        state = self.session.state
        allowed = [suit for suit in SUITS if play_problem(state, [code], suit) is None]
        if not allowed:
            # The Jack itself does not go (wrong suit, cards owed, or it would be the last card).
            App.get_running_app().notify(play_problem(state, [code]) or f"{symbol(code)} can't be played now", "error")
            return
        buttons = {}
        for suit in allowed:
            button = SuitButton(suit=suit, four_colour=self.four_colour, caption=SUIT_NAMES[suit],
                                symbol_scale=0.45, font_size="22sp")
            button.bind(on_release=lambda btn, s=suit: self.play([code], s))
            buttons[suit] = button
        self.open_chooser(f"{symbol(code)} changes the suit to:", buttons, cols=len(buttons))

    def ask_ace(self) -> None:
        """A♥ alone, or A♥ with 2♥ on top: one play, so it is asked before anything is entered."""
        state = self.session.state
        problem = play_problem(state, [ACE_OF_HEARTS])
        if problem:
            App.get_running_app().notify(problem, "error")
            return
        buttons = {}
        for cards in ([ACE_OF_HEARTS], [ACE_OF_HEARTS, TWO_OF_HEARTS]):
            words = " + ".join(symbol(c) for c in cards) + (" alone" if len(cards) == 1 else "")
            owed = self._owed_after({"type": "play", "cards": cards})
            if owed:
                words += f"\n{owed['player']} picks up {owed['count']}"
            button = TableButton(text=words, font_size="24sp", primary=len(cards) == 1)
            button.bind(on_release=lambda btn, c=cards: self.play(c))
            buttons[" ".join(cards)] = button
        self.open_chooser(f"{symbol(ACE_OF_HEARTS)} played: did {symbol(TWO_OF_HEARTS)} go on top of it?",
                          buttons, cols=2)

    def _owed_after(self, action: dict) -> dict | None:
        """What the engine says would be owed after ``action``, without entering it."""
        try:
            state = self.session.game.check(action)
        except IllegalAction:
            return None  # offered anyway: a tap on it shows the engine's reason
        return self.session.game.rules.summary(state)["owed"]

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
        if self.chooser is not None:
            self.chooser.dismiss(animation=False)
        self.chooser, self.chooser_buttons = None, {}

    def _forget_chooser(self, view) -> None:
        if view is self.chooser:
            self.chooser, self.chooser_buttons = None, {}
