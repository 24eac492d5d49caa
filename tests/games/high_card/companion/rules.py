"""High Card's rules: in seating order each player turns one card of one deck; when everyone
has turned, the highest rank wins, and equal highest share a draw (log.md beside this file)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.cards import HIGH_ORDER, CardError, card_code, full_deck, parse_card
from companion.errors import BadHeader, IllegalAction
from companion.rules import Outcome, Rules


@dataclass(frozen=True)
class HighCardState:
    players: tuple[str, ...]
    turned: tuple[str, ...] = ()   # one card a player, in seating order


class HighCardRules(Rules):
    name = "high-card"
    title = "High Card"

    def start(self, header: dict) -> HighCardState:
        players = header.get("players") or []
        if not 2 <= len(players) <= 6:
            raise BadHeader("High Card is for 2 to 6 players")
        return HighCardState(tuple(players))

    def apply(self, state: HighCardState, action: dict) -> HighCardState:
        if len(state.turned) == len(state.players):
            raise IllegalAction("the game is over: everyone has turned a card")
        if action.get("type") != "turn":
            raise IllegalAction(f"High Card has one action, \"turn\", not {action.get('type')!r}")
        player = state.players[len(state.turned)]
        if action.get("player") != player:
            raise IllegalAction(f"it is {player}'s turn")
        try:
            card = card_code(action.get("card"))
        except CardError as exc:
            raise IllegalAction(str(exc)) from None
        if card in state.turned:
            raise IllegalAction(f"{card} is already turned: one deck has one of each card")
        return HighCardState(state.players, state.turned + (card,))

    def winners(self, state: HighCardState) -> tuple[str, ...]:
        best = max(HIGH_ORDER[parse_card(c).rank] for c in state.turned)
        return tuple(p for p, c in zip(state.players, state.turned) if HIGH_ORDER[parse_card(c).rank] == best)

    def outcome(self, state: HighCardState) -> Outcome | None:
        if len(state.turned) < len(state.players):
            return None
        winners = self.winners(state)
        return Outcome(winners, "the highest card", draw=len(winners) > 1)

    def finished(self, state: HighCardState) -> bool:
        return self.outcome(state) is not None

    def summary(self, state: HighCardState) -> dict:
        outcome = self.outcome(state)
        return {"game": self.name, "turned": dict(zip(state.players, state.turned)),
                "finished": outcome is not None, "winners": list(outcome.winners) if outcome else []}

    def describe(self, state: HighCardState) -> list[str]:
        lines = [f"{p}: {c}" for p, c in zip(state.players, state.turned)]
        outcome = self.outcome(state)
        return lines + ([f"won by {', '.join(outcome.winners)}"] if outcome else [])

    def current_player(self, state: HighCardState) -> str | None:
        return None if self.finished(state) else state.players[len(state.turned)]

    def legal_actions(self, state: HighCardState) -> list[dict]:
        player = self.current_player(state)
        if player is None:
            return []
        return [{"type": "turn", "player": player, "card": str(card)}
                for card in full_deck() if str(card) not in state.turned]

    def cards_out(self, state: HighCardState) -> dict[str, int]:
        return {card: 1 for card in state.turned}

    def example_header(self, players: int | None, rng: random.Random) -> dict:
        return {"game": self.name, "players": [f"P{i + 1}" for i in range(players or rng.randint(2, 6))]}
