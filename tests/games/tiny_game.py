"""A fifth game, used only by the tests: one module whose ``GameInfo`` the tests register.

Count to Ten: players take turns in header order adding 1 or 2 to a shared count; whoever
brings it to ten (or past) wins. It shows that a game is nothing more than its rules and
``register_game`` (docs/adding-a-game.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.errors import BadHeader, IllegalAction
from companion.games.registry import GameInfo
from companion.rules import Outcome, Rules

TARGET = 10


@dataclass(frozen=True)
class TinyState:
    players: tuple[str, ...]
    count: int = 0
    turn: int = 0
    winner: str | None = None


class TinyRules(Rules):
    name = "tiny"
    title = "Count to Ten"

    def start(self, header: dict) -> TinyState:
        if len(header["players"]) < 2:
            raise BadHeader("Count to Ten needs at least two players")
        return TinyState(tuple(header["players"]))

    def apply(self, state: TinyState, action: dict) -> TinyState:
        if state.winner is not None:
            raise IllegalAction("the game is over")
        if action.get("type") != "add":
            raise IllegalAction(f"unknown action type {action.get('type')!r} for Count to Ten (it has \"add\")")
        if action.get("player") != state.players[state.turn]:
            raise IllegalAction(f"it is {state.players[state.turn]}'s turn")
        if action.get("n") not in (1, 2):
            raise IllegalAction("add 1 or 2")
        count = state.count + action["n"]
        return TinyState(state.players, count, (state.turn + 1) % len(state.players),
                         action["player"] if count >= TARGET else None)

    def summary(self, state: TinyState) -> dict:
        return {"game": self.name, "count": state.count, "finished": state.winner is not None,
                "winner": state.winner}

    def describe(self, state: TinyState) -> list[str]:
        return [f"Count to Ten: {state.count}"] + ([f"{state.winner} wins"] if state.winner else [])

    def outcome(self, state: TinyState) -> Outcome | None:
        return None if state.winner is None else Outcome((state.winner,), f"reached {TARGET}")

    copies = 0   # no cards

    def current_player(self, state: TinyState) -> str | None:
        return None if state.winner is not None else state.players[state.turn]

    def legal_actions(self, state: TinyState) -> list[dict]:
        if state.winner is not None:
            return []
        return [{"type": "add", "player": state.players[state.turn], "n": n} for n in (1, 2)]

    def example_header(self, players: int | None, rng: random.Random) -> dict:
        count = players or rng.randint(2, 4)
        return {"game": self.name, "players": [f"P{i + 1}" for i in range(count)]}


# Registered by the tests that use it (and taken out after), never on import: a worker that
# imports this module while collecting must not show a fifth game to every later test.
TINY = GameInfo("tiny", "Count to Ten", "Add one or two; reach ten", TinyRules)
