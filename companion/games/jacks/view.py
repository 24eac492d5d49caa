"""Jacks as its screen and table read it: a frozen, typed view of the state (companion/rules.py's
``View``); ``summary()`` is this view as JSON, for ``replay --json`` (log.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from companion.games.jacks.tricks import Note, RoundPlay, Trick
from companion.rules import View, plain


@dataclass(frozen=True)
class Played(View):
    player: str
    card: str


@dataclass(frozen=True)
class TrickView(View):
    number: int
    leader: str
    cards: tuple[Played, ...]       # in the order played
    winning: Optional[str]          # who takes it so far
    taker: Optional[str]            # once all four have played
    jacks: tuple[str, ...]

    @classmethod
    def of(cls, trick: Trick) -> "TrickView":
        winning = trick.winning
        return cls(trick.number, trick.leader, tuple(Played(p, c) for p, c in trick.plays),
                   winning[0] if winning else None, trick.taker, trick.jacks)


@dataclass(frozen=True)
class PlayView(View):
    """The round being played trick by trick."""
    trick: TrickView                # the trick being played
    to_play: str
    last_trick: Optional[TrickView]
    jacks_taken: Mapping[str, str]  # Jack -> who took it
    round_over: bool                # all four Jacks taken
    notes: tuple[Note, ...]         # the rules the table broke, in words
    plays: int                      # cards played this round

    @classmethod
    def of(cls, hand: RoundPlay) -> "PlayView":
        last = hand.last_trick
        return cls(TrickView.of(hand.current), hand.to_play, TrickView.of(last) if last else None,
                   hand.jacks_taken, hand.all_jacks_taken, hand.notes, len(hand.played))


@dataclass(frozen=True)
class JacksView(View):
    game: str
    round: int                       # the round being played or entered next
    pass_cards: str                  # that round's pass: "left", "right", "across" or "none"
    target: int
    scores: Mapping[str, int]
    rounds: tuple[Mapping[str, int], ...]   # each recorded round's points
    finished: bool
    winners: tuple[str, ...]
    play: Optional[PlayView]         # None unless a round is being played trick by trick

    def as_json(self) -> dict:
        summary = {"game": self.game, "round": self.round, "pass": self.pass_cards, "target": self.target,
                   "scores": plain(self.scores), "rounds": plain(self.rounds), "finished": self.finished,
                   "winners": plain(self.winners)}
        if self.play is not None:   # older logs, entered round by round, never have one
            summary["play"] = self.play.as_json()
        return summary
