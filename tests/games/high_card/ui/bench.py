"""High Card on the bench: games played by the one random player."""

from companion import random_player
from companion.games import rules_for


def seed_log(wanted: int, seed: int):
    game = random_player.play(rules_for("high-card"), seed, limit=wanted, players=2 + seed % 5)
    return game.header, game.actions


def long_log(actions: int, seed: int):
    header, log = seed_log(actions, seed)
    return header, log, f"a game of {len(header['players'])} players"


def tap_steps(s):
    return []
