"""One computer player for every game: at each step it takes one of the rules' legal actions.

The rules list what may be played (:meth:`companion.rules.Rules.legal_actions`), cards the table
chooses included, so one player serves every game: the tests that play every registered game,
the bench's long logs, and ``simulate``. A ``choose`` function may pick the action (the tests
let hypothesis draw the index, so a failing game shrinks to its shortest log).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from .engine import Game
from .rules import Rules

Choose = Callable[[Sequence[dict]], int]


def random_choice(rng: random.Random) -> Choose:
    return lambda actions: rng.randrange(len(actions))


def steps(game: Game, choose: Choose, limit: int) -> Iterator[Game]:
    """Take up to ``limit`` legal actions (fewer if the game ends), yielding the game after each."""
    for _ in range(limit):
        actions = game.rules.legal_actions(game.state)
        if not actions:
            return
        game.push(actions[choose(actions) % len(actions)])
        yield game


def play(rules: Rules, seed: int, limit: int = 2000, players: int | None = None,
         header: dict | None = None) -> Game:
    """A game of ``rules`` played by the random player from ``seed``, to its end or ``limit`` actions."""
    rng = random.Random(seed)
    game = Game(header or rules.example_header(players, rng), rules)
    for _ in steps(game, random_choice(rng), limit):
        pass
    return game
