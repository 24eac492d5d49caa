"""A new game is its two folders and nothing else (docs/adding-a-game.md).

The repository is copied, tests/games/high_card/'s two folders are put in place
(companion/games/high_card/ and ui/games/high_card/), nothing else is touched, and the tests
every game gets are run there: undo and refold, legal actions and the rules' promises, the
registry and the UI declaration, plus the new game's own rules tests from its folder. They must
find High Card by themselves: no list names it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "tests" / "games" / "high_card"

pytestmark = pytest.mark.slow


def copy_of_the_repository(into: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file() and not name.startswith("docs/screenshots/"):
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


def test_a_game_added_as_two_folders_gets_every_generic_test(tmp_path):
    tree = copy_of_the_repository(tmp_path / "repo")
    before = sorted(p.relative_to(tree) for p in tree.rglob("*") if p.is_file())
    shutil.copytree(EXAMPLE / "companion", tree / "companion/games/high_card")
    shutil.copytree(EXAMPLE / "ui", tree / "ui/games/high_card")
    added = sorted(p.relative_to(tree) for p in tree.rglob("*") if p.is_file() and p.relative_to(tree) not in before)
    assert {p.parts[:3] for p in added} == {("companion", "games", "high_card"), ("ui", "games", "high_card")}

    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    # The copy's own code, not this checkout's: the game is found there or nowhere.
    where = subprocess.run([sys.executable, "-c", "import companion.games as g, ui.games as u; "
                            "print(g.__file__); print(sorted(g.GAMES)); print(sorted(u.GAME_UIS))"],
                           cwd=tree, env=env, capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    origin, games, uis = where.stdout.splitlines()
    assert origin.startswith(str(tree)) and "'high-card'" in games and "'high-card'" in uis

    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-n0", "-p", "no:cacheprovider",
                          "tests/test_undo.py", "tests/test_legal_actions.py", "tests/test_registry.py",
                          "tests/test_game_uis.py", "companion/games/high_card",
                          # the new game's part of each generic test (the four games' parts run here)
                          "-k", "high-card or high_card or test_registry or test_game_uis"],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    passed = [line.split()[1] for line in run.stdout.splitlines() if line.startswith("PASSED ")]
    for test in ("tests/test_undo.py::test_undo_gives_back_the_state_before_each_action[high-card]",
                 "tests/test_legal_actions.py::test_legal_actions_are_what_the_rules_accept[high-card]",
                 "tests/test_legal_actions.py::test_the_random_player_finishes_every_game[high-card]",
                 "tests/test_game_uis.py::test_each_declared_part_is_there[high-card]",
                 "tests/test_registry.py::test_every_game_folder_is_registered_by_its_log_name_with_its_log_doc",
                 "companion/games/high_card/tests/test_rules.py::test_equal_highest_share_a_draw"):
        assert test in passed, f"{test} did not run and pass in the copy"
