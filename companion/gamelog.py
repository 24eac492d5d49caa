"""The one game-log format every game shares: JSON Lines, a header then one action a line.

Line 1: ``{"game": "jacks", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"target": 75}}``
Then one JSON object per action, each with a ``"type"``. See ``docs/game-log.md``.
"""

from __future__ import annotations

import json
from typing import Iterable

from .errors import LogError

MAX_NAME_LENGTH = 24


def check_header(header: object) -> dict:
    """The fields every game's header shares; the game's rules check the rest.

    Raises ``ValueError`` with the problem in words.
    """
    if not isinstance(header, dict):
        raise ValueError("the first line must be the game's header, a JSON object")
    game = header.get("game")
    if not isinstance(game, str) or not game:
        raise ValueError('the header needs "game", the name of the game (e.g. "jacks")')
    players = header.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError('the header needs "players", a list of names in seating order')
    seen = set()
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"player names must be non-empty text, not {json.dumps(name)}")
        if len(name) > MAX_NAME_LENGTH:
            raise ValueError(f"the player name {name[:MAX_NAME_LENGTH]!r}... is longer than {MAX_NAME_LENGTH} characters")
        if name in seen:
            raise ValueError(f"the player name {name!r} is used twice; names must be unique")
        seen.add(name)
    options = header.get("options", {})
    if not isinstance(options, dict):
        raise ValueError('"options" must be a JSON object')
    return header


def check_action(action: object) -> dict:
    if not isinstance(action, dict):
        raise ValueError("an action must be a JSON object")
    if not isinstance(action.get("type"), str):
        raise ValueError('an action needs a "type", e.g. {"type": "round", ...}')
    return action


def parse_line(text: str, number: int) -> object:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        raise LogError(number, f"not valid JSON ({reason})") from None


def read_lines(lines: Iterable[str]) -> tuple[dict, list[tuple[int, dict]]]:
    """Split a saved game into its header and its numbered actions.

    Blank lines are allowed (and skipped) so a hand-written log may breathe;
    line numbers still count them, so errors point at the line in the editor.
    """
    header = None
    actions: list[tuple[int, dict]] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        value = parse_line(text, number)
        try:
            if header is None:
                header = check_header(value)
            else:
                actions.append((number, check_action(value)))
        except ValueError as exc:
            raise LogError(number, str(exc)) from None
    if header is None:
        raise LogError(1, "the file is empty: a saved game starts with its header line")
    return header, actions


def read_text(text: str) -> tuple[dict, list[tuple[int, dict]]]:
    # Split on "\n" only, as read_bytes does: str.splitlines() also breaks on characters
    # JSON allows inside a string (U+2028, U+0085, form feed...), cutting a line in two.
    return read_lines(line.rstrip("\r") for line in text.split("\n"))


def read_bytes(data: bytes) -> tuple[dict, list[tuple[int, dict]]]:
    """Like :func:`read_text`, but says which line is not UTF-8 instead of failing whole."""
    lines = data.split(b"\n")
    decoded = []
    for number, raw in enumerate(lines, start=1):
        try:
            decoded.append(raw.decode("utf-8").rstrip("\r"))
        except UnicodeDecodeError:
            raise LogError(number, "not text (the bytes are not UTF-8)") from None
    return read_lines(decoded)


def dumps_line(value: dict) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def write_text(header: dict, actions: Iterable[dict]) -> str:
    return "".join(dumps_line(v) + "\n" for v in [header, *actions])
