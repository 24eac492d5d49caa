"""The card picker every game taps cards in with: thirteen ranks and four suits, two taps a card.

Its look is in ``card_picker.kv`` beside this file. Each game sets what differs:

* ``orientation``: "horizontal" is a wide bar, the suits a 2 x 2 block beside the ranks;
  "vertical" stacks the ranks over one row of suits (a side panel, or portrait).
* ``rank_cols``: ranks to a row (7 gives two rows; a narrow panel wants 5).
* ``touch``: the smallest a button may be; ``gap``: the space between buttons.
* ``suit_label(rank, suit) -> (big text, word under it)``: what a suit button says, e.g.
  ``("7♠", "")`` once the 7 is chosen, or ``("♥", "take off")`` for a one-eyed Jack.
* ``hold``: a finished card stays chosen until the screen clears it (the board needs it
  while a space is chosen); otherwise the picker clears itself as it hands the card over.
"""

from __future__ import annotations

from kivy.metrics import sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.togglebutton import ToggleButton

from companion.cards import RANKS, SUIT_SYMBOLS, SUITS

from .. import theme
from .basics import ChoiceButton


def card_text(code: str) -> str:
    """``"10H"`` -> ``"10♥"``: cards on screen always carry their suit symbol."""
    return code[:-1] + SUIT_SYMBOLS[code[-1]] if code else ""


def suit_only(rank: str, suit: str) -> tuple[str, str]:
    return SUIT_SYMBOLS[suit], ""


def rank_and_suit(rank: str, suit: str) -> tuple[str, str]:
    """The chosen rank in front of each suit, so the button shows the card it will enter."""
    return rank + SUIT_SYMBOLS[suit], ""


class PickerRankButton(ChoiceButton):
    font_max = NumericProperty(sp(28))  # as big as this, or as fits the button


class PickerSuitButton(ToggleButton):
    """A suit on a white face in its own colour (two- or four-colour), like a card's corner,
    with a word under it when it matters. Also the suit choice in a game's own questions."""

    suit = StringProperty("S")
    four_colour = BooleanProperty(False)
    shown = StringProperty("")  # the big text: the symbol, or rank and symbol; "" for the symbol alone
    note = StringProperty("")  # a word under it ("wild", "dead", "Hearts")
    symbol_scale = NumericProperty(0.65)  # the big text's size, as a share of the button's height
    symbol_max = NumericProperty(float("inf"))

    @staticmethod
    def face(shown: str, suit: str, note: str, scale: float, most: float, size, font_size: float) -> str:
        """The markup on the face: as big as it fits, smaller once a rank stands before the symbol;
        the word under it at the button's font size, or smaller on a short button."""
        width, height = size
        shown = shown or SUIT_SYMBOLS[suit]
        points = int(min(height * scale, width * 1.2 / len(shown), most))
        words = f"\n[size={int(min(height * 0.25, font_size))}]{note}[/size]" if note else ""
        return f"[size={points}]{shown}[/size]{words}"


class CardPicker(BoxLayout):
    """Thirteen ranks and four suits; ``on_card(code)`` fires once both are tapped.

    Rank then suit is the way the table is taught, but suit first works too: whichever tap
    completes the card plays it. A second tap on the same rank or suit takes it back.
    ``on_choice`` fires after every tap, for a screen that shows the choice as it is made.
    """

    rank = StringProperty("")
    suit = StringProperty("")
    four_colour = BooleanProperty(False)
    hold = BooleanProperty(False)
    suit_label = ObjectProperty(suit_only)
    rank_cols = NumericProperty(7)
    touch = NumericProperty(theme.PRIMARY_TOUCH)
    gap = NumericProperty(theme.GAP)
    rank_font = NumericProperty(sp(28))  # the largest a rank is written
    symbol_scale = NumericProperty(0.65)  # a suit's big text, as a share of its button's height...
    symbol_max = NumericProperty(float("inf"))  # ...and at most this
    note_font = NumericProperty(sp(18))  # the word under a suit, at most
    orientation = OptionProperty("horizontal", options=("horizontal", "vertical"))
    __events__ = ("on_card", "on_choice")

    def __init__(self, **kwargs):
        self.rank_buttons: dict[str, PickerRankButton] = {}
        self.suit_buttons: dict[str, PickerSuitButton] = {}
        super().__init__(**kwargs)
        self.bind(rank=self._show, suit=self._show)
        self.bind(rank=self.relabel, suit_label=self.relabel)  # what a suit says may hang on the rank

    def on_kv_post(self, base_widget):
        # Inside another rule the picker's own rule (and so its ids) comes after __init__.
        for rank in RANKS:
            button = PickerRankButton(text=rank)
            self._follow(button, rank_font="font_max", touch="size_hint_min")
            button.bind(on_release=lambda btn, r=rank: self.choose_rank(r))
            self.rank_buttons[rank] = button
            self.ids.ranks.add_widget(button)
        for suit in SUITS:
            button = PickerSuitButton(suit=suit)
            self._follow(button, four_colour="four_colour", symbol_scale="symbol_scale", symbol_max="symbol_max",
                         note_font="font_size", touch="size_hint_min")
            button.bind(on_release=lambda btn, s=suit: self.choose_suit(s))
            self.suit_buttons[suit] = button
            self.ids.suits.add_widget(button)
        self._show()
        self.relabel()

    def _follow(self, button, **names) -> None:
        """Keep each of the button's properties (values) set from the picker's (keys)."""
        for mine, its in names.items():
            def copy(picker, value, its=its):
                setattr(button, its, (value, value) if its == "size_hint_min" else value)
            copy(self, getattr(self, mine))
            self.bind(**{mine: copy})

    def choose_rank(self, rank: str) -> None:
        self.rank = "" if self.rank == rank else rank
        self._done()

    def choose_suit(self, suit: str) -> None:
        self.suit = "" if self.suit == suit else suit
        self._done()

    def clear(self) -> None:
        self.rank = self.suit = ""
        self._show()

    def relabel(self, *_) -> None:
        """Say again what each suit button says (the screen calls it when the game changes)."""
        for suit, button in self.suit_buttons.items():
            button.shown, button.note = self.suit_label(self.rank, suit)

    def _show(self, *_) -> None:
        # A toggle flips itself on a tap; what is chosen is decided here, not by the button.
        for rank, button in self.rank_buttons.items():
            button.state = "down" if rank == self.rank else "normal"
        for suit, button in self.suit_buttons.items():
            button.state = "down" if suit == self.suit else "normal"

    def _done(self) -> None:
        code = self.rank + self.suit if self.rank and self.suit else ""
        if code and not self.hold:
            self.clear()  # nothing stays half-chosen, whatever the screen does with the card
        self._show()
        self.dispatch("on_choice")
        if code:
            self.dispatch("on_card", code)

    def on_card(self, code: str) -> None:
        pass

    def on_choice(self) -> None:
        pass
