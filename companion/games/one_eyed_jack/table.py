"""One-Eyed Jack at the table (docs/rules.md, "One-Eyed Jack"), with no Kivy in it: the card
being played, chosen on the card pad, by a tap on a space, or seen by the camera on the discard
pile; the spaces it may take, as the rules list them (``plays_of``, part of ``legal_actions``);
and the table's taps on the board, Pass, Swap and Undo, each answered in words.

A card the camera is sure of is chosen at once (its spaces light; the table still taps the
space). One it is unsure of is offered as its guesses until the table taps one or "Not it".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from companion.cards import parse_card
from companion.errors import IllegalAction
from companion.games.one_eyed_jack.board import CORNERS, ONE_EYED, TWO_EYED, Space
from companion.games.one_eyed_jack.rules import all_copies_out, cards_for_space, copies_out_reason, is_dead
from companion.table.controller import MOST_GUESSES, Offer, TableController


def card_words(card: str) -> str:
    """``"10♥"``: the card as the table reads it."""
    return parse_card(card).symbol


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Notice:
    """Something said at the foot of the screen: what just happened, or a refusal's reason."""

    text: str
    kind: str = "info"      # "error": a refusal, nothing changed
    seconds: float = 5


class OneEyedJackTable(TableController):
    def __init__(self, session, *, now: Callable[[], float], schedule):
        super().__init__(session, now=now, schedule=schedule)
        self.rank = ""                       # the card being chosen: its rank, then its suit
        self.suit = ""
        self.offer: Offer | None = None      # an unsure card's guesses, for the table to tap
        self.notice: Notice | None = None    # the last thing said
        self.said = 0                        # how many notices were given: a screen shows each once

    # -- what the screen draws -------------------------------------------------------------

    @property
    def card(self) -> str:
        """The card chosen, once both its rank and its suit are."""
        return self.rank + self.suit if self.rank and self.suit else ""

    @property
    def lit(self) -> list[Space]:
        """The spaces the chosen card may take now (a chip put there, or taken off)."""
        card = self.card
        return [self.rules.space_of(play) for play in self.rules.plays_of(self.state, card)] if card else []

    @property
    def dead(self) -> bool:
        """The chosen card has no open space: it may be swapped."""
        card = self.card
        return bool(card) and card not in ONE_EYED + TWO_EYED and is_dead(self.state, card)

    def card_note(self, card: str) -> str:
        """What a card would do, under its suit on the card pad: a Jack's kind, or a dead card."""
        if len(card) < 2:
            return ""
        if card[:-1] == "J":
            return "take off" if card in ONE_EYED else "wild"
        if not self.finished and is_dead(self.state, card):
            return "dead"
        return ""

    def offer_words(self) -> str:
        return "Which card landed?" if self.offer is not None else ""

    def turn_words(self) -> str:
        """Whose turn, or how the game ended: "Ann's turn", "Ann & Cat win!", "A draw"."""
        view = self.game_view()
        if view.winner is not None:
            winners = view.winners
            return f"{' & '.join(winners)} {'win' if len(winners) > 1 else 'wins'}!"
        if view.draw:
            return "A draw"
        return f"{view.turn}'s turn"

    def result_words(self) -> str:
        """How the game ended, in a sentence or two ("" while it goes on)."""
        view = self.game_view()
        if view.winner is not None:
            winners, count, lines = view.winners, view.rows[view.winner], len(view.winning_rows)
            return (f"{' & '.join(winners)} made {count} row{'s' if count != 1 else ''}.\n"
                    f"The winning {'rows are' if lines > 1 else 'row is'} lit in gold.")
        if view.draw:
            return ("Every player passed in a row: nobody could play." if view.draw_reason == "passes"
                    else "The stock ran out a second time.")
        return ""

    # -- the card feeds ----------------------------------------------------------------------

    def on_card(self, card: str, landed_at: float | None = None) -> None:
        """A card seen on the discard pile is the card being played: its spaces light. One whose
        copies are all played already is an old discard seen again: nobody holds it."""
        self.offer = None
        if self.finished:
            return
        if all_copies_out(self.state, card):
            self._say(copies_out_reason(card), "error")
            return
        self.pick(card[:-1], card[-1])

    def on_unsure(self, candidates: Sequence[str], landed_at: float | None = None) -> None:
        if candidates and not self.finished:
            self.offer = Offer(tuple(candidates)[:MOST_GUESSES], False, self.game_view().turn)

    def choose(self, card: str) -> None:
        """The table's tap on one of an unsure card's guesses: as if the camera had been sure."""
        self.on_card(card)

    def not_it(self) -> None:
        self.offer = None

    # -- the table's taps ----------------------------------------------------------------------

    def pick(self, rank: str, suit: str) -> None:
        """The card pad: the rank, then the suit (either may still be blank)."""
        self.offer = None
        if not self.finished:
            self.rank, self.suit = rank, suit

    def clear_card(self) -> None:
        self.rank = self.suit = ""

    def tap_space(self, row: int, col: int) -> bool:
        """A tap on the board: with a card chosen, the rules judge the play there; without one,
        the space picks the card, when it can only be one."""
        if self.finished:
            self._say("The game is over: Undo takes back the last play, or start a new game.", "error")
            return False
        card = self.card
        if card and all_copies_out(self.state, card):
            self._say(copies_out_reason(card), "error")
            return False
        if card:
            return self.play(self.rules.play_on(card, (row, col)))
        options = cards_for_space(self.state, row, col)
        if (row, col) in CORNERS:
            self._say("Corners are free spaces: they count for every side, and nobody plays on them.")
        elif not options:
            self._say("That space has a chip. Tap the card you are playing first (rank, then suit).")
        elif options[0] in ONE_EYED:
            self.rank, self.suit = "J", ""
            self._say("Taking a chip off needs a one-eyed Jack: tap \u2660 or \u2665.")
        else:
            self.rank, self.suit = options[0][:-1], options[0][-1]
        return False

    def pass_turn(self) -> bool:
        return self.play({"type": "pass"})

    def swap(self) -> bool:
        if not self.card:
            self._say("Tap the dead card first (rank, then suit), then Swap.", "error")
            return False
        return self.play({"type": "swap", "card": self.card})

    def undo(self) -> None:
        """Take back the last action. A play's card comes back chosen, so a chip put on the wrong
        space is one tap from right."""
        self.offer = None
        try:
            action = self.session.undo()
        except IllegalAction as exc:
            self._say(sentence(str(exc)), "error")
            return
        if action["type"] == "play":
            self.rank, self.suit = action["card"][:-1], action["card"][-1]
            self._say(f"Took back {card_words(action['card'])}: tap the right space, or choose another card.")
        else:
            self.rank = self.suit = ""
            self._say("Took back the " + ("swap." if action["type"] == "swap" else "pass."))

    # -- inside --------------------------------------------------------------------------

    def play(self, action: dict) -> bool:
        """Send one action to the rules; say their reason if they refuse it, else what it did."""
        before = self.game_view()
        try:
            self.session.play(action)
        except IllegalAction as exc:
            self._say(sentence(str(exc)), "error")
            return False
        self.rank = self.suit = ""
        view = self.game_view()
        gained = [side for side, n in view.rows.items() if n > before.rows[side]]
        if view.winner is not None:
            self._say(f"{self.turn_words()} Well played.")
        elif view.draw:
            self._say(f"The game is a draw. {self.result_words()}")
        elif view.reshuffle:
            self._say("The stock ran out: shuffle the discards into a new stock.", seconds=10)
        elif gained:
            self._say(f"A row for {before.turn}! It is locked: no one-eyed Jack can take it.")
        elif action["type"] == "swap":
            self._say(f"{card_words(action['card'])} swapped: put it on the discards and draw a new card, then play.")
        elif action["type"] == "pass":
            self._say(f"{before.turn} passed ({view.passes_in_row} in a row): if every player passes, "
                      f"the game is a draw.")
        return True

    def _say(self, text: str, kind: str = "info", seconds: float = 5) -> None:
        self.notice = Notice(text, kind, seconds)
        self.said += 1
