"""Jacks: a Hearts-like trick-taking game for four where only the Jacks score.

The companion does not see the tricks; after each round the scorer says who took each
Jack, and the rules here turn that into penalty points (docs/rules.md, "Jacks").

>>> from companion.engine import Game
>>> game = Game({"game": "jacks", "players": ["Ann", "Ben", "Cat", "Dan"]})
>>> _ = game.push({"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Ann", "JD": "Cat"}})
>>> game.summary()["scores"]
{'Ann': 11, 'Ben': 7, 'Cat': 3, 'Dan': 0}
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import product

from companion.cards import CardError, full_deck, parse_card
from companion.games.jacks.tricks import RoundPlay
from companion.rules import Outcome, Rules
from companion.games.jacks.view import JacksView, PlayView
from companion.errors import BadHeader, IllegalAction

JACKS = ("JS", "JH", "JC", "JD")
POINTS = {"JS": 7, "JH": 7, "JC": 4, "JD": 3}
ROUND_TOTAL = sum(POINTS.values())  # 21
PASSES = {1: "left", 2: "right", 3: "across", 0: "none"}
DEFAULT_TARGET = 75
PLAYERS = 4


def pass_for_round(number: int) -> str:
    """Which way 3 cards go before round ``number`` (from 1): left, right, across, none."""
    if number < 1:
        raise ValueError("rounds count from 1")
    return PASSES[number % 4]


ALL_FOUR, ONE_EACH, BY_JACK = "all four", "one each", "by jack"


def round_kind(players: list[str] | tuple[str, ...], jacks: dict[str, str]) -> str:
    """Which rule of docs/rules.md (Jacks) scores a round: all four Jacks to one player, one Jack
    to each player, or each Jack's own points.

    >>> round_kind(["A", "B", "C", "D"], {"JS": "A", "JH": "A", "JC": "A", "JD": "A"})
    'all four'
    >>> round_kind(["A", "B", "C", "D"], {"JS": "A", "JH": "B", "JC": "C", "JD": "D"})
    'one each'
    """
    takers = set(jacks.values())
    if len(jacks) == len(JACKS) and len(takers) == 1:  # "shooting the moon"
        return ALL_FOUR
    if len(takers) == len(players) == len(jacks) == len(JACKS):
        return ONE_EACH
    return BY_JACK


def round_points(players: list[str] | tuple[str, ...], jacks: dict[str, str]) -> dict[str, int]:
    """Penalty points of one round, given who took each Jack.

    >>> round_points(["A", "B", "C", "D"], {"JS": "A", "JH": "A", "JC": "A", "JD": "A"})
    {'A': 0, 'B': 21, 'C': 21, 'D': 21}
    >>> round_points(["A", "B", "C", "D"], {"JS": "A", "JH": "B", "JC": "C", "JD": "D"})
    {'A': 7, 'B': 7, 'C': 7, 'D': 7}
    """
    kind = round_kind(players, jacks)
    if kind == ALL_FOUR:
        (taker,) = set(jacks.values())
        return {p: 0 if p == taker else ROUND_TOTAL for p in players}
    if kind == ONE_EACH:
        return {p: ROUND_TOTAL // 3 for p in players}
    points = {p: 0 for p in players}
    for jack, taker in jacks.items():
        points[taker] += POINTS[jack]
    return points


@dataclass(frozen=True)
class JacksState:
    players: tuple[str, ...]
    target: int
    rounds: tuple[tuple[tuple[str, str], ...], ...] = ()  # per round: (jack, taker) pairs
    # The totals after the last round, carried from state to state so that a refold stays
    # linear (None: work them out from the rounds).
    totals: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    # The round being played trick by trick from the camera or the card pad (None: no play of
    # this round seen yet; rounds told by their Jacks alone never have one).
    hand: RoundPlay | None = None

    def round_jacks(self, number: int) -> dict[str, str]:
        return dict(self.rounds[number - 1])

    @property
    def round_scores(self) -> list[dict[str, int]]:
        return [round_points(self.players, dict(r)) for r in self.rounds]

    @property
    def totals_by_round(self) -> list[dict[str, int]]:
        """Each player's running total after each round (the chart's points)."""
        running = {p: 0 for p in self.players}
        out = []
        for points in self.round_scores:
            running = {p: running[p] + points[p] for p in self.players}
            out.append(running)
        return out

    @property
    def scores(self) -> dict[str, int]:
        if self.totals is not None:
            return dict(zip(self.players, self.totals))
        totals = self.totals_by_round
        return totals[-1] if totals else {p: 0 for p in self.players}

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    @property
    def finished(self) -> bool:
        return bool(self.rounds) and max(self.scores.values()) >= self.target

    @property
    def winners(self) -> list[str]:
        if not self.finished:
            return []
        low = min(self.scores.values())
        return [p for p in self.players if self.scores[p] == low]


class JacksRules(Rules):
    name = "jacks"
    title = "Jacks"

    def start(self, header: dict) -> JacksState:
        players = header["players"]
        if len(players) != PLAYERS:
            raise BadHeader(f"Jacks is played by exactly 4 players; this game has {len(players)}")
        options = dict(header.get("options") or {})
        unknown = sorted(set(options) - {"target"})
        if unknown:
            raise BadHeader(f"unknown option {unknown[0]!r} for Jacks (its only option is \"target\")")
        target = options.get("target", DEFAULT_TARGET)
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 10_000:
            raise BadHeader(f"the target must be a whole number of points from 1 to 10000, not {target!r}")
        return JacksState(tuple(players), target)

    def read_jacks(self, state: JacksState, jacks: object) -> tuple[tuple[str, str], ...]:
        """Check a round's {jack: taker} and return it in JS JH JC JD order."""
        if not isinstance(jacks, dict):
            raise IllegalAction('"jacks" must say who took each Jack, e.g. {"JS": "Ann", ...}')
        given: dict[str, str] = {}
        for code, taker in jacks.items():
            try:
                card = str(parse_card(code))
            except CardError:
                raise IllegalAction(f"{code!r} is not a Jack: the four Jacks are JS, JH, JC and JD") from None
            if card not in POINTS:
                raise IllegalAction(f"{card} is not a Jack: the four Jacks are JS, JH, JC and JD")
            if card in given:
                raise IllegalAction(f"{card} is given twice: each Jack is taken by one player")
            if taker not in state.players:
                raise IllegalAction(f"{taker!r} is not playing in this game (players: {', '.join(state.players)})")
            given[card] = taker
        missing = [j for j in JACKS if j not in given]
        if missing:
            raise IllegalAction(f"nobody took {' or '.join(missing)}: a round ends only when all four Jacks are taken")
        return tuple((j, given[j]) for j in JACKS)

    def apply(self, state: JacksState, action: dict) -> JacksState:
        kind = action.get("type")
        if kind in ("lead", "play"):
            return self.apply_play(state, action)
        if kind == "round":
            if state.finished:
                raise IllegalAction("the game is over: no more rounds (undo or edit a round to change it)")
            taken = self.read_jacks(state, action.get("jacks"))
            before, points = state.scores, round_points(state.players, dict(taken))
            return JacksState(state.players, state.target, state.rounds + (taken,),
                              tuple(before[p] + points[p] for p in state.players))  # no hand: the next round starts
        if kind == "edit":
            number = action.get("round")
            if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(state.rounds):
                played = f"rounds 1 to {len(state.rounds)}" if state.rounds else "no rounds yet"
                raise IllegalAction(f"there is no round {number!r} to edit ({played} played)")
            rounds = list(state.rounds)
            rounds[number - 1] = self.read_jacks(state, action.get("jacks"))
            edited = JacksState(state.players, state.target, tuple(rounds), hand=state.hand)
            for after, totals in enumerate(edited.totals_by_round[:-1], start=1):
                if max(totals.values()) >= state.target:
                    raise IllegalAction(
                        f"with that change the game would have ended after round {after}, "
                        f"but {len(rounds)} rounds were played")
            return edited
        raise IllegalAction(f"unknown action type {kind!r} for Jacks "
                            f"(it has \"lead\", \"play\", \"round\" and \"edit\")")

    def apply_play(self, state: JacksState, action: dict) -> JacksState:
        """A round played trick by trick: ``lead`` says who holds 3H (docs/rules.md, "Jacks": the
        holder of 3H leads the first trick), then each ``play`` is the next card in the middle."""
        if state.finished:
            raise IllegalAction("the game is over: no more rounds (undo or edit a round to change it)")
        if action["type"] == "lead":
            leader = action.get("player")
            if leader not in state.players:
                raise IllegalAction(f"{leader!r} is not playing in this game (players: {', '.join(state.players)})")
            if state.hand is not None and state.hand.played:
                raise IllegalAction("this round's first trick has begun: undo its plays to change who led")
            hand = RoundPlay.led_by(state.players, leader)
        else:
            if state.hand is None:
                raise IllegalAction("say who holds 3\u2665 first: they lead the round's first trick")
            try:
                hand = state.hand.play(action.get("card"))
            except CardError as exc:
                raise IllegalAction(str(exc)) from None
        return replace(state, hand=hand)

    def view(self, state: JacksState) -> JacksView:
        return JacksView(self.name, state.next_round, pass_for_round(state.next_round), state.target,
                         dict(state.scores), tuple(state.round_scores), state.finished, tuple(state.winners),
                         None if state.hand is None else PlayView.of(state.hand))

    def describe(self, state: JacksState) -> list[str]:
        lines = [f"Jacks, target {state.target}, after {len(state.rounds)} round(s)"]
        for p in state.players:
            lines.append(f"  {p:<12} {state.scores[p]:>4}")
        if state.finished:
            lines.append("Game over: " + " and ".join(state.winners) + (" win" if len(state.winners) > 1 else " wins"))
        else:
            lines.append(f"Next: round {state.next_round}, pass {pass_for_round(state.next_round)}")
        if state.hand is not None and not state.finished:
            trick = state.hand.current
            played = ", ".join(f"{p} {c}" for p, c in trick.plays) or f"{trick.leader} leads"
            lines.append(f"Trick {trick.number}: {played}; {state.hand.to_play} to play")
            lines.extend(f"  {note.text}" for note in state.hand.notes)
        return lines

    def finished(self, state: JacksState) -> bool:
        return state.finished

    def outcome(self, state: JacksState) -> Outcome | None:
        """docs/rules.md, "Jacks": once a player reaches the target, the lowest score wins
        (equal lowest share the win)."""
        if not state.finished:
            return None
        return Outcome(tuple(state.winners), "lowest score when a player reached the target")

    # --- what may be played ------------------------------------------------------------

    # Nothing a real table did is refused (companion/games/jacks/log.md): a card seen twice is noted, and
    # a round may be told by its Jacks while its tricks are being played.
    unlisted_taken = frozenset({"play", "round"})

    def current_player(self, state: JacksState) -> str | None:
        """The player to lay the next card while a round is played trick by trick; None between
        rounds, when the table says who leads or who took the Jacks."""
        hand = state.hand
        if state.finished or hand is None or hand.all_jacks_taken:
            return None
        return hand.to_play

    def legal_actions(self, state: JacksState) -> list[dict]:
        """Between rounds: who leads the first trick, or the round told by its Jacks (each way of
        giving the four Jacks). In a round played trick by trick: every card not yet seen this
        round (one deck holds one of each), and who led while no card is down; once all four
        Jacks are taken, the round as its tricks tell it."""
        if state.finished:
            return []
        hand = state.hand
        leads = [{"type": "lead", "player": p} for p in state.players]
        if hand is None:
            return leads + [{"type": "round", "jacks": dict(zip(JACKS, takers))}
                            for takers in product(state.players, repeat=len(JACKS))]
        if hand.all_jacks_taken:
            return [{"type": "round", "jacks": {j: hand.jacks_taken[j] for j in JACKS}}]
        seen = set(hand.played)
        plays = [{"type": "play", "card": card} for card in _DECK if card not in seen]
        return plays + ([] if hand.played else leads)

    def cards_out(self, state: JacksState) -> dict[str, int]:
        return dict(Counter(state.hand.played)) if state.hand is not None else {}

    def example_header(self, players: int | None, rng) -> dict:
        target = rng.choice([None, 21, DEFAULT_TARGET])
        return {"game": self.name, "players": [f"P{i + 1}" for i in range(PLAYERS)],
                **({"options": {"target": target}} if target else {})}


_DECK = tuple(str(card) for card in full_deck())
