"""The registry is the one list of games (docs/adding-a-game.md): each game module
registers itself, companion/games/__init__.py imports each on one line, and a fifth game
is one module plus that line."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from companion import games
from companion.engine import Game
from companion.games import GAMES, rules_for
from companion.games.registry import GameInfo, register_game, unregister_game

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def tiny():
    """The tiny game, registered for one test only: no other test sees a fifth game."""
    from tests.games import tiny_game

    register_game(tiny_game.TINY)   # again, if an earlier test took it out
    yield tiny_game
    unregister_game("tiny")


def test_the_four_games_are_registered_by_their_log_names():
    assert list(GAMES) == ["slapjack", "jacks", "jack-change-it", "one-eyed-jack"]
    assert [GAMES[g].title for g in GAMES] == ["Slapjack", "Jacks", "Jack Change It", "One-Eyed Jack"]
    for name, info in GAMES.items():
        assert rules_for(name).name == name
        assert (REPO / info.log_doc).is_file(), f"{name} names its log format doc"


def test_the_package_imports_each_game_on_one_line_and_lists_nothing_else():
    tree = ast.parse((REPO / "companion/games/__init__.py").read_text())
    imported = [a.name for node in tree.body if isinstance(node, ast.ImportFrom) and node.level == 1
                and node.module is None for a in node.names]
    assert imported == ["slapjack", "jacks", "jack_change_it", "one_eyed_jack"]
    defined = [n for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign, ast.ClassDef, ast.FunctionDef))]
    assert [t.id for n in defined for t in getattr(n, "targets", [])] == ["__all__"]


def test_a_fifth_game_is_one_module_and_one_registration(tiny):
    assert GAMES["tiny"] is tiny.TINY
    game = Game({"game": "tiny", "players": ["Ann", "Ben"]})
    for n in (2, 2, 2, 2, 1, 1):
        game.push({"type": "add", "player": game.players[len(game.actions) % 2], "n": n})
    assert game.finished and game.summary()["winner"] == "Ben"


def test_a_game_unregistered_is_unknown_to_the_engine(tiny):
    unregister_game("tiny")
    with pytest.raises(KeyError):
        rules_for("tiny")


def test_two_games_under_one_name_is_refused(tiny):
    with pytest.raises(ValueError, match="two games are registered as 'tiny'"):
        register_game(GameInfo("tiny", "Another", "", tiny.TinyRules))


def test_rules_for_a_header_or_a_name():
    assert type(rules_for({"game": "jacks", "players": ["A", "B"]})) is type(rules_for("jacks"))
    with pytest.raises(KeyError):
        rules_for({"game": "snap", "players": ["A", "B"]})


def test_a_game_module_that_fails_to_import_is_loud():
    """No 'Coming soon' guess: a game module that cannot be imported stops the import."""
    code = ("import sys\n"
            "sys.modules['companion.games.jacks'] = None\n"   # importing it now fails
            "import companion.games\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert run.returncode != 0 and "import of companion.games.jacks halted" in run.stderr
