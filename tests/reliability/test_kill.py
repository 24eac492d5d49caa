"""The app killed with SIGKILL mid-game comes back with every action a player saw.

The full run (200 kills and more) is `python -m tests.reliability.killing`; the figures are in
the README. Here a few kills keep the property under test on every change.
"""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES

from .killing import kill_once

pytestmark = [pytest.mark.ui, pytest.mark.slow]


@pytest.mark.parametrize("game", list(GAMES))   # every registered game, by its touch script
@pytest.mark.parametrize("seed", range(2))
def test_a_killed_game_resumes_with_everything_shown(game, seed, display):
    result = kill_once(game, seed, random.Random(seed))
    assert result.resumed_ok, result
    assert result.kept >= result.shown
