"""Computer players for Slapjack's screen deck: when they press, drawn from a reaction model.

Pure and clock-free: every function takes a ``random.Random`` and the time the card landed,
and returns planned presses with their own timestamps. The screen schedules them on its
clock and pushes them into the race with the humans' presses (the earliest press still wins
whatever order they arrive in); the simulation pushes them straight into the game.

>>> import random
>>> from companion.engine import Game
>>> from companion.games.slapjack.rules import screen_deck_header
>>> game = Game(screen_deck_header(["Ann", "Robo"], seed=7))
>>> computers = {"Robo": ReactionModel(miss_rate=0.0)}
>>> plan_presses(game.state, computers, random.Random(1), landed=0.0)  # nothing turned yet
[]
>>> _ = game.push(game.rules.turn_action(game.state, t=1.0))
>>> presses = plan_presses(game.state, computers, random.Random(1), landed=1.0)
>>> all(p.player == "Robo" and p.t > 1.1 for p in presses)
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Mapping

from companion.games.slapjack.rules import SlapjackState, rank

DEFAULT_LEVEL_MS = 350.0
CLOSE_RACE_HANDICAP_MS = 100.0  # RULES tip: set the computer about 0.1 s slower than a child's average


@dataclass(frozen=True)
class ReactionModel:
    """How one computer player reacts. Times in milliseconds after the card lands.

    Reaction times are log-normal around ``mean_ms`` (people have a long slow tail and no
    fast one), never quicker than ``fastest_ms``.
    """

    mean_ms: float = DEFAULT_LEVEL_MS
    spread_ms: float = 90.0
    fastest_ms: float = 150.0
    miss_rate: float = 0.03         # a slap card it does not notice
    wrong_rate: float = 0.002       # slapping a card that is not a slap card
    lookalike_rate: float = 0.02    # ...when it is a Queen or King (the usual mistake)
    doubles_extra_ms: float = 120.0  # a pair takes longer to see than a Jack

    @classmethod
    def at_level(cls, level_ms: float) -> "ReactionModel":
        """A computer player set to react in about ``level_ms`` (the table's setting)."""
        level = max(150.0, float(level_ms))
        return cls(mean_ms=level, spread_ms=level * 0.25, fastest_ms=min(150.0, level * 0.6))

    @classmethod
    def to_match(cls, reactions_ms: list[float] | tuple[float, ...],
                 handicap_ms: float = CLOSE_RACE_HANDICAP_MS) -> "ReactionModel":
        """A close race for a player whose reaction times these are: their average plus
        ``handicap_ms`` (negative for a challenge). The default level if there are none."""
        if not reactions_ms:
            return cls()
        return cls.at_level(sum(reactions_ms) / len(reactions_ms) + handicap_ms)

    def draw_ms(self, rng: random.Random) -> float:
        sigma2 = math.log1p((self.spread_ms / self.mean_ms) ** 2)
        mu = math.log(self.mean_ms) - sigma2 / 2
        return max(self.fastest_ms, rng.lognormvariate(mu, math.sqrt(sigma2)))

    def react(self, rng: random.Random, card: str, slappable: bool, waiting: bool = False) -> float | None:
        """Milliseconds after landing that this player presses on ``card``, or None.

        A player waiting out of cards never risks a wrong slap (RULES tip 3).
        """
        roll = rng.random()
        if slappable:
            if roll < self.miss_rate:
                return None
            extra = self.doubles_extra_ms if rank(card) not in ("J", "Q") else 0.0
            return self.draw_ms(rng) + extra
        if waiting:
            return None
        chance = self.lookalike_rate if rank(card) in ("Q", "K") else self.wrong_rate
        if roll < chance:
            return self.draw_ms(rng)
        return None


@dataclass(frozen=True)
class Press:
    """A planned press: who, and the timestamp it carries (seconds, the table's clock)."""

    player: str
    t: float

    def action(self) -> dict:
        return {"type": "slap", "player": self.player, "t": self.t}


def _still_in(state: SlapjackState, name: str) -> bool:
    return not state.table.out[state.setup.seats[name]]


def plan_presses(state: SlapjackState, computers: Mapping[str, ReactionModel], rng: random.Random,
                 landed: float) -> list[Press]:
    """Right after a card lands: the presses the computer players make on it, earliest first.

    In calm mode they make none here; see :func:`calm_press`.
    """
    race = state.race
    if race is None or state.finished or state.setup.options.calm:
        return []
    presses = []
    for name in state.players:  # seat order, so the same seed always draws the same way
        model = computers.get(name)
        if model is None or not _still_in(state, name):
            continue
        waiting = state.base.counts[state.setup.seats[name]] == 0
        ms = model.react(rng, race.card, race.slappable, waiting)
        if ms is not None:
            presses.append(Press(name, landed + ms / 1000.0))
    presses.sort(key=lambda p: p.t)
    return presses


def calm_press(state: SlapjackState, computers: Mapping[str, ReactionModel], rng: random.Random,
               now: float) -> Press | None:
    """Calm mode, when the humans press Carry on: the fastest computer player still in
    takes a slap card they let pass. Never a wrong slap."""
    if not state.slappable:
        return None
    best = None
    for name in state.players:
        model = computers.get(name)
        if model is None or not _still_in(state, name):
            continue
        press = Press(name, now + model.draw_ms(rng) / 1000.0)
        if best is None or press.t < best.t:
            best = press
    return best


def grab_presses(state: SlapjackState, computers: Mapping[str, ReactionModel], rng: random.Random,
                 now: float) -> list[Press]:
    """Nobody has a card to turn and a slap card shows: every computer player still in goes
    for it (nobody misses a card that stays on the table)."""
    if not state.slappable:
        return []
    presses = [Press(name, now + computers[name].draw_ms(rng) / 1000.0)
               for name in state.players if name in computers and _still_in(state, name)]
    return sorted(presses, key=lambda p: p.t)


def plan_slapoff(tied: list[str], computers: Mapping[str, ReactionModel], rng: random.Random,
                 go: float) -> list[Press]:
    """A slap-off on "Go!" at ``go``: the tied computer players' presses, earliest first."""
    presses = [Press(name, go + computers[name].draw_ms(rng) / 1000.0) for name in tied if name in computers]
    return sorted(presses, key=lambda p: p.t)
