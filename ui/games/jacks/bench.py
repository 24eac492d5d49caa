"""Jacks on the bench: random rounds, and a round tapped in then recorded."""

import random

from ui.tools.bench.recipes import NAMES


def jacks_log(actions: int, seed: int = 1, target: int | None = None) -> tuple[dict, list[dict]]:
    """``actions`` rounds of Jacks (the target set high enough that the game is still on)."""
    rng = random.Random(seed)
    players = list(NAMES[:4])
    target = target or max(75, 25 * actions)
    header = {"game": "jacks", "players": players, "options": {"target": min(target, 10_000)}}
    log = [{"type": "round", "jacks": {jack: rng.choice(players) for jack in ("JS", "JH", "JC", "JD")}}
           for _ in range(actions)]
    return header, log


SEED_ACTIONS = 6   # how far in the game each screen is measured on has run


def seed_log(wanted: int, seed: int):
    return jacks_log(wanted, seed, target=75)


def long_log(actions: int, seed: int):
    header, log = jacks_log(actions, seed)
    return header, log, f"{actions} random rounds, target {header['options']['target']}"


def tap_steps(s):
    players = s.players
    wanted = {jack: players[i % len(players)] for i, jack in enumerate(("JS", "JH", "JC", "JD"))}
    # Undo brings the round's taps back: tap only the choices not already made.
    picks = [s.choice_buttons[(jack, name)] for jack, name in wanted.items() if s.assignment.get(jack) != name]
    return [(picks, s.ids.record_button, [s.ids.round_label, s.ids.totals], "record round")]
