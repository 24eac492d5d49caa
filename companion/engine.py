"""One pattern for every game: a header and an ordered list of actions, folded into a state.

A game's rules are a :class:`companion.rules.Rules` object: ``start(header)`` gives the first state and
``apply(state, action)`` the next one, never changing the state it was given. A
:class:`Game` keeps the log and one state per action, so undo is a pop and nothing has
to be refolded. Engines never read a clock: time arrives inside actions.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable

from . import gamelog
from .errors import BadHeader, IllegalAction, LogError
from .games import rules_for
from .rules import Outcome, Rules

__all__ = ["Game", "Outcome", "Rules", "UNREADABLE"]


UNREADABLE = "this action cannot be applied"


def _own_copy(value: Any) -> Any:
    """A copy of an action the caller cannot change afterwards. Actions are JSON (dicts, lists,
    strings, numbers), so those are copied directly, several times faster than copy.deepcopy,
    which is kept for anything else a caller might put in one."""
    if type(value) is dict:
        return {key: _own_copy(item) for key, item in value.items()}
    if type(value) is list:
        return [_own_copy(item) for item in value]
    if value is None or type(value) in (str, int, float, bool):
        return value
    return copy.deepcopy(value)


class Game:
    """A game in progress: its header, its actions, and the state after each of them."""

    def __init__(self, header: dict, rules: Rules | None = None):
        try:
            gamelog.check_header(header)
        except ValueError as exc:
            raise BadHeader(str(exc)) from None
        self.rules = rules or rules_for(header)
        self.header = copy.deepcopy(header)
        self.actions: list[dict] = []
        self._states = [self.rules.start(self.header)]

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def players(self) -> list[str]:
        return list(self.header["players"])

    def summary(self) -> dict:
        return self.rules.summary(self.state)

    def view(self):
        """Where the game stands, typed (the rules' :class:`~companion.rules.View`)."""
        return self.rules.view(self.state)

    @property
    def finished(self) -> bool:
        return self.rules.finished(self.state)

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    def check(self, action: dict) -> Any:
        """The state ``action`` would lead to, without taking it; raises IllegalAction."""
        try:
            gamelog.check_action(action)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        return self.rules.apply(self.state, action)

    def push(self, action: dict) -> Any:
        """Apply one action. On an illegal action nothing changes and IllegalAction is raised."""
        try:
            action = _own_copy(action)
        except RecursionError:
            raise IllegalAction("an action must be plain JSON: this one is nested too deeply "
                                "or holds itself") from None
        state = self.check(action)
        self.record(action, state)
        return state

    def record(self, action: dict, state: Any) -> None:
        """Take an action whose next state :meth:`check` already gave (so it is not folded twice)."""
        self.actions.append(action)
        self._states.append(state)

    def pop(self) -> dict:
        """Undo the last action and return it."""
        if not self.actions:
            raise IllegalAction("there is nothing to undo")
        self._states.pop()
        return self.actions.pop()

    def state_after(self, count: int) -> Any:
        """The state after the first ``count`` actions."""
        return self._states[count]

    def to_jsonl(self) -> str:
        return gamelog.write_text(self.header, self.actions)

    @classmethod
    def from_numbered(cls, header: dict, numbered: Iterable[tuple[int, dict]]) -> "Game":
        """Refold a log whose actions carry their line numbers; errors name the line."""
        try:
            game = cls(header)
        except (BadHeader, KeyError) as exc:
            reason = str(exc) if isinstance(exc, BadHeader) else f"unknown game {header.get('game')!r}"
            raise LogError(1, reason) from None
        for number, action in numbered:
            try:
                game.push(action)
            except IllegalAction as exc:
                raise LogError(number, str(exc)) from None
            except (TypeError, ValueError, OverflowError, KeyError, IndexError, AttributeError) as exc:
                # A rules bug met a value nobody foresaw: still one clear line, never a traceback.
                raise LogError(number, f"{UNREADABLE} ({exc.__class__.__name__})") from None
        return game

    @classmethod
    def from_actions(cls, header: dict, actions: Iterable[dict]) -> "Game":
        return cls.from_numbered(header, ((i, a) for i, a in enumerate(actions, start=2)))

    @classmethod
    def from_text(cls, text: str) -> "Game":
        header, numbered = gamelog.read_text(text)
        return cls.from_numbered(header, numbered)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Game":
        header, numbered = gamelog.read_bytes(data)
        return cls.from_numbered(header, numbered)
