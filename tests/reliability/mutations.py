"""Damaged saved games, made from good ones: what a bad disk, a bad editor or a child makes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.games.one_eyed_jack.board import spaces_of

LOGS = Path(__file__).resolve().parent.parent / "logs"


def good_logs() -> dict[str, bytes]:
    """One good log of every game, as bytes."""
    logs = {p.name: p.read_bytes() for p in sorted(LOGS.glob("*.jsonl")) if "bad" not in p.name}
    (r0, c0), (r1, c1) = spaces_of("2S")[0], spaces_of("3H")[0]
    logs["one-eyed-jack.jsonl"] = "".join(json.dumps(v) + "\n" for v in (
        {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}},
        {"type": "play", "card": "2S", "at": [r0, c0]},
        {"type": "play", "card": "3H", "at": [r1, c1]},
        {"type": "play", "card": "JS", "remove": [r1, c1]},
        {"type": "pass"},
    )).encode()
    return logs


WEIRD_VALUES = [None, True, False, 0, -1, 10 ** 400, 1e308, -1e308, 3.5, "", "JS", "XX", "\u2660", "Ann",
                "a" * 5000, [], [1, 2], {}, {"type": None}, [[[[[]]]]], "\x00", "J\u2665"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One damage, chosen at random, to a good log."""
    lines = data.split(b"\n")
    kind = rng.randrange(10)
    if kind == 0:  # cut off mid-line, as a power cut during a write would
        return data[: rng.randrange(len(data))]
    if kind == 1:  # random bytes somewhere
        at = rng.randrange(len(data) + 1)
        return data[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) + data[at:]
    if kind == 2:  # a whole binary file
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
    if kind == 3:  # a line dropped or doubled
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i] + (lines[i:i + 1] * 2 if rng.random() < 0.5 else []) + lines[i + 1:])
    if kind == 4:  # nested too deep to read
        return data + b"[" * 100_000 + b"\n"
    # A field of a JSON line given a value of the wrong kind (or an unknown action, card, player).
    numbered = [i for i, line in enumerate(lines) if line.strip()]
    i = rng.choice(numbered)
    try:
        value = json.loads(lines[i])
    except ValueError:
        return data
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        choice = rng.choice(WEIRD_VALUES + ["unknown-action"])
        if choice == "unknown-action":
            value["type"] = rng.choice(["shuffle", "Round", "", "deal"])
        else:
            value[key] = choice
    lines[i] = json.dumps(value).encode()
    return b"\n".join(lines)
