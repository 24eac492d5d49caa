"""Jack Change It at the table (docs/rules.md, "Jack Change It"): the turn entered from the card
pad or the camera over the pile, with no Kivy in it.

A card tapped on the card pad is the player's play at once. A card the camera is sure of is
offered first ("Ann plays 7♣ in 2s"): once the grace is over it is the player's play by
itself, unless the table taps "Not it"; a card the camera is unsure of waits for the table to
tap one of its guesses. Either way a Jack still asks which suit it names and the A♥ whether
the 2♥ went on top of it (a :class:`Question`), both answered from the rules' own list of what
may be played (``plays_of``, part of ``legal_actions``), never from a rule re-derived here.

The controller is handed the table's clock (``now()``) and scheduler, so the grace runs the
same under a test's fake clock as on the table's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from companion.cards import SUITS, parse_card
from companion.errors import IllegalAction
from companion.games.jack_change_it.rules import ACE_AND_TWO, play_problem
from companion.games.jack_change_it.view import Owed
from companion.table.controller import MOST_GUESSES, Offer, TableController

CAMERA_GRACE_S = 1.5   # a sure card from the camera is the player's play after this, unless "Not it"
ACE = ACE_AND_TWO[0]


def card_words(card: str) -> str:
    """``"7♣"``: the card as the table reads it."""
    return parse_card(card).symbol


@dataclass(frozen=True)
class Choice:
    key: str                    # a suit ("D") or the cards ("AH", "AH 2H")
    action: dict                # the play as logged
    owed: Optional[Owed]        # what the next player would owe after it


@dataclass(frozen=True)
class Question:
    """What a card needs answered before it is entered: a Jack's suit ("suit"), or whether the
    2♥ went on top of the A♥ ("ace")."""

    kind: str
    card: str
    choices: tuple[Choice, ...]

    def choice(self, key: str) -> Choice | None:
        return next((c for c in self.choices if c.key == key), None)


class JackChangeItTable(TableController):
    def __init__(self, session, *, now: Callable[[], float], schedule, grace_s: float | None = CAMERA_GRACE_S):
        super().__init__(session, now=now, schedule=schedule)
        self.grace_s = grace_s
        self.offer: Offer | None = None        # what a feed saw, waiting for the table
        self.question: Question | None = None  # what the card being entered needs answered
        self.message = ""                      # the last refusal, in words a player can read
        self.said = 0                          # how many refusals were given: a screen shows each once
        self.note = ""                         # what Undo took back, until the next action
        self._timers: list = []                # the grace's: the play itself, and its countdown's ticks
        self._closed = False

    # -- what the screen draws -------------------------------------------------------------

    def draw_action(self) -> dict | None:
        """The turn's action that is no play, as the rules list it: pick up what is owed, or lift."""
        return self.rules.draw_action(self.state)

    @property
    def action_words(self) -> str:
        """The main button: "Pick up 4", "Lift a card", or "New game" once somebody has won."""
        action = self.draw_action()
        if action is None:
            return "New game"
        if action["type"] == "pickup":
            return f"Pick up {self.game_view().owed.count}"
        return "Lift a card"

    @property
    def last_words(self) -> str:
        """The last thing done, or what Undo just took back."""
        return self.note or self.game_view().last

    def grace_left(self) -> float | None:
        """Seconds until the offered card is the player's play by itself (None: no grace runs)."""
        if self.offer is None or self.offer.until is None:
            return None
        return max(0.0, self.offer.until - self.now())

    def offer_words(self) -> str:
        """The offer's question: "Ann plays 7♣ in 2s" while its grace runs, counting down in
        whole seconds; "Ann played 7♣?" with no grace; "Which card landed?" for guesses."""
        offer = self.offer
        if offer is None:
            return ""
        if not offer.sure:
            return "Which card landed?"
        left = self.grace_left()
        if left is None:
            return f"{offer.player} played {card_words(offer.cards[0])}?"
        return f"{offer.player} plays {card_words(offer.cards[0])} in {max(1, math.ceil(left - 1e-9))}s"

    def knows(self, card: str) -> bool:
        """Whether a card seen is part of the play already being entered: the 2♥ laid on the A♥,
        seen while its question is open or just after it went in with the A♥."""
        if self.question is not None:
            return True
        actions = self.session.game.actions
        return bool(actions) and len(actions[-1].get("cards", ())) > 1 and card in actions[-1]["cards"]

    # -- the card feeds ----------------------------------------------------------------------

    def on_card(self, card: str, landed_at: float | None = None) -> None:
        """A card the camera is sure of: offered, and the player's play once the grace is over."""
        if self.finished or self.knows(card):
            return
        self._offer(Offer((card,), True, self.game_view().turn,
                          None if not self.grace_s else self.now() + self.grace_s))

    def on_unsure(self, candidates: Sequence[str], landed_at: float | None = None) -> None:
        if self.finished or not candidates:
            return
        self._offer(Offer(tuple(candidates)[:MOST_GUESSES], False, self.game_view().turn, None))

    # -- the table's taps --------------------------------------------------------------------

    def choose(self, card: str) -> None:
        """A card tapped: on the card pad, or one the camera offered. It puts the offer away and
        is entered: a Jack asks its suit, the A♥ whether the 2♥ went with it."""
        self.put_offer_away()
        self.question = None
        if self.finished:
            return
        rank = parse_card(card).rank
        if rank == "J":
            self._ask_suit(card)
        elif card == ACE:
            self._ask_ace()
        else:
            self._push({"type": "play", "cards": [card]})

    def not_it(self) -> None:
        """The table says the camera's card is not what was played: nothing is entered."""
        self.put_offer_away()

    def put_offer_away(self) -> None:
        self._cancel_timers()
        self.offer = None

    def answer(self, key: str) -> bool:
        """One of the question's choices tapped (a suit, or "AH" / "AH 2H")."""
        choice = self.question.choice(key) if self.question is not None else None
        if choice is None:
            return False
        self.question = None
        return self._push(choice.action)

    def cancel_question(self) -> None:
        self.question = None

    def main_action(self) -> bool:
        """Lift a card, or pick up what is owed (whichever the rules list now)."""
        self.question = None
        self.put_offer_away()
        action = self.draw_action()
        return action is not None and self._push(action)

    def undo(self) -> None:
        """Take back the last action; the note says what was taken back."""
        self.question = None
        self.put_offer_away()
        said = self.game_view().last
        try:
            self.session.undo()
        except IllegalAction as exc:
            self._refuse(str(exc).capitalize())
            return
        self.note = f"Undone: {said}"

    def close(self) -> None:
        """The table is left: the grace stops, and nothing it scheduled runs after this."""
        self.put_offer_away()
        self._closed = True

    # -- inside ------------------------------------------------------------------------------

    def _offer(self, offer: Offer) -> None:
        self.put_offer_away()
        self._closed = False
        self.offer = offer
        if offer.until is not None:
            self._timers.append(self.schedule(offer.until - self.now(), lambda: self._grace_over(offer)))
            self._next_tick(offer)

    def _next_tick(self, offer: Offer) -> None:
        """The countdown changes at each whole second left: a tick then, so the screen redraws it."""
        left = offer.until - self.now()
        whole = math.ceil(left - 1e-9) - 1   # the next whole second the countdown will show
        if whole >= 1 and self.offer is offer:
            self._timers.append(self.schedule(left - whole, lambda: self._next_tick(offer)))

    def _grace_over(self, offer: Offer) -> None:
        if self.offer is offer and not self._closed:
            self.choose(offer.cards[0])

    def _cancel_timers(self) -> None:
        timers, self._timers = self._timers, []
        for handle in timers:
            handle.cancel()

    def _ask_suit(self, card: str) -> None:
        """Offer exactly the suits the rules let this Jack name (the three others)."""
        plays = self.rules.plays_of(self.state, card)
        if not plays:   # the Jack itself does not go (wrong suit, cards owed, or the last card)
            self._refuse(play_problem(self.state, [card]) or f"{card_words(card)} can't be played now")
            return
        by_suit = {play["suit"]: play for play in plays}
        self.question = Question("suit", card, tuple(Choice(suit, by_suit[suit], None)
                                                     for suit in SUITS if suit in by_suit))

    def _ask_ace(self) -> None:
        """A♥ alone, or A♥ with 2♥ on top: one play, so it is asked before anything is entered.
        Both are offered once the A♥ goes; a tap on one the rules refuse shows their reason."""
        alone = {"type": "play", "cards": [ACE]}
        if alone not in self.rules.plays_of(self.state, ACE):
            self._refuse(play_problem(self.state, [ACE]) or f"{card_words(ACE)} can't be played now")
            return
        with_two = {"type": "play", "cards": list(ACE_AND_TWO)}
        self.question = Question("ace", ACE, tuple(Choice(" ".join(action["cards"]), action, self._owed_after(action))
                                                   for action in (alone, with_two)))

    def _owed_after(self, action: dict) -> Owed | None:
        """What the rules say would be owed after ``action``, without entering it."""
        try:
            state = self.session.game.check(action)
        except IllegalAction:
            return None
        return self.rules.view(state).owed

    def _push(self, action: dict) -> bool:
        try:
            self.session.play(action)
        except IllegalAction as exc:
            self._refuse(str(exc))
            return False
        self.message, self.note = "", ""
        return True

    def _refuse(self, words: str) -> None:
        self.message = words
        self.said += 1
