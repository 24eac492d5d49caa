"""A game being played at the table: the rules' state and the store's log moving together.

Every action is checked, then written to the store, and only then taken into the game
the screen reads, so nothing a player saw can be lost.
"""

from __future__ import annotations

import copy

from .engine import Game
from .store import Store


class Session:
    def __init__(self, store: Store, game_id: int, game: Game | None = None):
        self.store = store
        self.game_id = game_id
        self.game = game if game is not None else store.load(game_id)

    @classmethod
    def start(cls, store: Store, header: dict) -> "Session":
        game = Game(header)
        return cls(store, store.new_game(game.header), game)

    @classmethod
    def resume(cls, store: Store, game_id: int) -> "Session":
        return cls(store, game_id)

    @property
    def state(self):
        return self.game.state

    def summary(self) -> dict:
        return self.game.summary()

    def view(self):
        return self.game.view()

    def play(self, action: dict):
        """Check, store durably, then apply; raises IllegalAction with nothing changed."""
        action = copy.deepcopy(action)
        state = self.game.check(action)
        rules = self.game.rules
        self.store.append(self.game_id, action, rules.summary(state), rules.outcome(state))
        self.game.record(action, state)
        return state

    def save_soon(self) -> None:
        """Inside ``Store.holding`` (the app holds a race's writes to the frame that shows them):
        start making what was written so far durable now, so the card's wait overlaps what the
        table does next (the screen's update, laying out the frame) instead of starting after
        it; that frame still waits for it. Outside, every action is durable already."""
        self.store.start_commit()

    @property
    def can_undo(self) -> bool:
        return bool(self.game.actions)

    def undo(self) -> dict:
        action = self.game.actions[-1] if self.game.actions else None
        if action is None:
            return self.game.pop()  # raises "nothing to undo"
        before, rules = self.game.state_after(len(self.game.actions) - 1), self.game.rules
        self.store.pop(self.game_id, rules.summary(before), rules.outcome(before))
        return self.game.pop()

    def abandon(self) -> None:
        self.store.abandon(self.game_id)
