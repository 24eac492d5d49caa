"""Jacks at the table, refereed from the camera over the middle (docs/rules.md, "Jacks").

One tap says who holds 3H; from then on every card a feed reports is a ``play`` in the log,
by whoever is to play. A card the feed is unsure of is asked with its guesses; the card pad
gives a card the camera missed. When all four Jacks are taken the round is offered for
**Record round** with their takers filled in. Everything lives in the log, so a table started
again on the same session (after a power cut) is where it was.

The table keeps which cards lie in the middle: the trick being played and the trick taken before
it, until the camera sees the middle gathered (``on_cleared``). A card the camera reports again
while it still lies there is the same card seen twice, not a second play; a card played again
after it was gathered is a play, and the round says it was seen twice (docs/rules.md, "Jacks").
"""

from __future__ import annotations

from typing import Callable, Sequence

from companion.cards import parse_card
from companion.errors import IllegalAction
from companion.games.jacks.tricks import TRICK_SIZE
from companion.games.jacks.view import PlayView
from companion.table.controller import TableController

SHOW_TAKEN_S = 3.0   # how long the taken trick stays on screen before the next trick's view


def card_words(card: str) -> str:
    return parse_card(card).symbol


class JacksTable(TableController):
    def __init__(self, session, *, now: Callable[[], float], schedule):
        super().__init__(session, now=now, schedule=schedule)
        self.asking: list[str] = []          # an unsure card's guesses, for the table to choose
        self.waiting: list[str] = []         # cards seen before anyone was said to lead
        self.message = ""                    # the last refusal, in words a player can read
        self.showing_taken = False           # the trick just taken is on screen
        self._taken_timer = None
        self._cleared_at = 0                 # the round's plays when the middle was seen gathered

    # -- what the screen draws -------------------------------------------------------------
    @property
    def play(self) -> PlayView | None:
        """The round being played trick by trick (None before its leader is tapped)."""
        return self.session.view().play

    @property
    def needs_leader(self) -> bool:
        return self.play is None and not self.session.game.finished

    @property
    def offer(self) -> dict[str, str] | None:
        """Who took each Jack, once all four are taken: the round to record."""
        play = self.play
        return dict(play.jacks_taken) if play and play.round_over else None

    @property
    def middle(self) -> list[str]:
        """The cards lying in the middle as far as the table knows: the trick being played and
        the one taken before it, less those the camera has seen gathered."""
        play = self.play
        if not play:
            return []
        cards = []
        for trick in (play.last_trick, play.trick):   # every trick before them was gathered
            if trick is not None:
                first = TRICK_SIZE * (trick.number - 1)   # the round's plays before this trick
                cards += [c.card for k, c in enumerate(trick.cards) if first + k >= self._cleared_at]
        return cards

    def seen_again(self, card: str) -> str | None:
        """Words for a card the camera reports while it still lies in the middle (not a play)."""
        if card in self.middle:
            return f"{card_words(card)} still lies in the middle: seen again, not played again"
        return None

    @property
    def notes(self) -> list[str]:
        return [n.text for n in self.play.notes] if self.play else []

    # -- taps --------------------------------------------------------------------------
    def tap_leader(self, player: str) -> None:
        """The holder of 3H (or whoever the table says led); cards seen before it are played now."""
        if self._push({"type": "lead", "player": player}):
            waiting, self.waiting = self.waiting, []
            for card in waiting:
                self._play(card)

    def choose(self, card: str) -> None:
        """The table's answer to an unsure card, or a card from the card pad."""
        self.asking = []
        self._play(card)

    def undo(self) -> None:
        """Take back the last play (or the last tap); one tap undoes one thing."""
        self.asking, self.message = [], ""
        if self.waiting:
            self.waiting.pop()
        elif self.session.can_undo:
            self.session.undo()
        self._cleared_at = min(self._cleared_at, self.play.plays if self.play else 0)
        self.showing_taken = False

    def record_round(self, jacks: dict[str, str] | None = None) -> bool:
        """Record round, with the offered takers unless the table edited them."""
        if not self._push({"type": "round", "jacks": jacks or self.offer}):
            return False
        self._cleared_at = 0   # a new round's middle
        return True

    # -- the card feeds ------------------------------------------------------------------
    def on_card(self, card: str, landed_at: float | None = None) -> None:
        again = self.seen_again(card)
        if again is not None:
            self.message = again
            return
        self._play(card)

    def on_cleared(self, at: float | None = None) -> None:
        """The camera sees the middle empty: the taken trick's cards were gathered."""
        self._cleared_at = self.play.plays if self.play else 0

    def on_unsure(self, candidates: Sequence[str], landed_at: float | None = None) -> None:
        self.asking = list(candidates)

    # -- inside --------------------------------------------------------------------------
    def _play(self, card: str) -> None:
        if self.needs_leader:
            self.waiting.append(card)
            self.message = "Who holds 3\u2665? Tap them: they led"
            return
        self.showing_taken = False   # the next trick's first card: the taken one leaves the screen
        before = self.play.last_trick if self.play else None
        if self._push({"type": "play", "card": card}) and self.play.last_trick != before:
            self._show_taken()

    def close(self) -> None:
        """The table is left: its timer goes too (nothing holds the screen after it)."""
        if self._taken_timer is not None:
            self._taken_timer.cancel()
        self._taken_shown()

    def _show_taken(self) -> None:
        if self._taken_timer is not None:
            self._taken_timer.cancel()
        self.showing_taken = True
        self._taken_timer = self.schedule(SHOW_TAKEN_S, self._taken_shown)

    def _taken_shown(self) -> None:
        self.showing_taken, self._taken_timer = False, None

    def _push(self, action: dict) -> bool:
        try:
            self.session.play(action)
        except IllegalAction as exc:
            self.message = str(exc)
            return False
        self.message = ""
        return True
