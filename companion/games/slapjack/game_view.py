"""Slapjack as its table and screens read it: a frozen, typed view of the state (companion/rules.py's
``View``), answered alike by both rules classes: the card game (rules.py) and the race judge
(judge.py, no cards). ``summary()`` is the view as JSON, for ``replay --json`` (log.md).

What both answer is :class:`SlapjackGameView`; a game whose cards the companion follows answers
:class:`CardsView` (stacks, the pile, the top card), the race judge :class:`JudgeView` (races
and verdicts). The judge sees no card: its ``turn``, ``top`` and ``cards_turned`` are None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from companion.rules import View, plain


@dataclass(frozen=True)
class SlapView(View):
    player: str
    t: float                         # the press's edge time
    gap_ms: float                    # after the first press
    reaction_ms: Optional[float] = None   # after the card landed, when its landing time is known

    def as_json(self) -> dict:
        out = {"player": self.player, "t": self.t, "gap_ms": self.gap_ms}
        if self.reaction_ms is not None:
            out["reaction_ms"] = self.reaction_ms
        return out


@dataclass(frozen=True)
class Penalty(View):
    payer: str
    to: str                          # a player, "pile" or "turner"

    def as_json(self) -> dict:
        return {"from": self.payer, "to": self.to}


@dataclass(frozen=True)
class RaceView(View):
    """The open (or last) race: a card dealt (it has a turner) or a race judged by the table."""
    card: Optional[str]              # None when nobody saw the card (the race judge)
    slaps: tuple[SlapView, ...]      # in the order of their edges
    winner: Optional[str]
    tie: tuple[str, ...]
    wrong: tuple[str, ...]
    penalties: tuple[Penalty, ...]
    text: str                        # the verdict as the screen says it
    turner: Optional[str] = None     # a dealt card's
    slappable: Optional[bool] = None  # a dealt card's
    number: Optional[int] = None     # a judged race's
    verdict: Optional[str] = None    # a judged race's: the table's word

    def as_json(self) -> dict:
        if self.turner is None:   # a judged race
            return {"number": self.number, "card": self.card, "slaps": plain(self.slaps), "verdict": self.verdict,
                    "winner": self.winner, "tie": plain(self.tie), "wrong": plain(self.wrong),
                    "penalties": plain(self.penalties), "text": self.text}
        return {"card": self.card, "turner": self.turner, "slappable": self.slappable, "slaps": plain(self.slaps),
                "winner": self.winner, "tie": plain(self.tie), "wrong": plain(self.wrong),
                "penalties": plain(self.penalties), "text": self.text}


@dataclass(frozen=True)
class TallyView(View):
    """A player's record over the game."""
    slaps_won: int
    cards_won: int
    wrong_slaps: int
    cards_paid: int
    reactions_ms: tuple[float, ...]
    average_ms: Optional[float]
    best_ms: Optional[float]

    @classmethod
    def of(cls, tally) -> "TallyView":
        times = tuple(tally.reactions_ms)
        return cls(tally.slaps_won, tally.cards_won, tally.wrong_slaps, tally.cards_paid, times,
                   round(sum(times) / len(times), 1) if times else None, min(times) if times else None)


def tallies(players, tallies_) -> dict[str, TallyView]:
    return {name: TallyView.of(tally) for name, tally in zip(players, tallies_)}


@dataclass(frozen=True)
class SlapjackGameView(View):
    """What both rules classes answer."""
    game: str
    players: tuple[str, ...]
    feed: Optional[str]              # "pad", "reader", "camera", "none" (the judge); None: the screen deck
    turn: Optional[str]              # who turns the next card (None: nobody, or no cards seen)
    top: Optional[str]               # the card on top of the pile
    cards_turned: Optional[int]      # None for the judge, who sees no card
    pending: Optional[str]           # what the game waits for besides the next card
    race: Optional[RaceView]
    notices: tuple[str, ...]
    tallies: Mapping[str, TallyView]
    options: Mapping[str, object]
    finished: bool
    ended: Optional[str]
    winners: tuple[str, ...]


@dataclass(frozen=True)
class CardsView(SlapjackGameView):
    """A game whose cards the companion follows: a real deck, or the screen deck."""
    stacks: Mapping[str, int]
    pile: int
    under: int                       # cards paid under the pile
    slappable: bool
    out: tuple[str, ...]
    waiting: tuple[str, ...]         # out of cards, on their last chance
    cards_left: Optional[int]        # with "end after N cards"
    screen_deck: bool
    computers: Mapping[str, int]     # computer players and their levels (ms)

    def as_json(self) -> dict:
        return {"game": self.game, "players": plain(self.players), "turn": self.turn, "stacks": plain(self.stacks),
                "pile": self.pile, "under": self.under, "top": self.top, "slappable": self.slappable,
                "out": plain(self.out), "waiting": plain(self.waiting), "cards_turned": self.cards_turned,
                "cards_left": self.cards_left, "pending": self.pending,
                "race": None if self.race is None else self.race.as_json(), "notices": plain(self.notices),
                "tallies": plain(self.tallies), "options": plain(self.options), "screen_deck": self.screen_deck,
                "feed": self.feed, "computers": plain(self.computers), "finished": self.finished,
                "ended": self.ended, "winners": plain(self.winners)}


@dataclass(frozen=True)
class JudgeView(SlapjackGameView):
    """Judging slaps only: the races and the table's verdicts."""
    races: int
    judged: int                      # races the table gave a verdict on

    def as_json(self) -> dict:
        # The card game's keys are kept, empty, so one reader reads every Slapjack summary.
        return {"game": self.game, "players": plain(self.players), "feed": self.feed, "turn": None,
                "stacks": {name: None for name in self.players}, "pile": None, "under": None, "top": None,
                "slappable": False, "out": [], "waiting": [], "cards_turned": None, "cards_left": None,
                "races": self.races, "judged": self.judged, "pending": self.pending,
                "race": None if self.race is None else self.race.as_json(), "notices": plain(self.notices),
                "tallies": plain(self.tallies), "options": plain(self.options), "screen_deck": False,
                "computers": {}, "finished": self.finished, "ended": self.ended, "winners": plain(self.winners)}
