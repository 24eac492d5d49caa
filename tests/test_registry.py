"""The registry is the one list of games (docs/adding-a-game.md): each game is a folder that
registers itself, and companion/games/__init__.py imports every folder it finds."""

from __future__ import annotations

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
def high_card():
    """High Card (tests/games/high_card/), registered for one test only: no other test sees a
    fifth game."""
    from tests.games import high_card_registered

    with high_card_registered() as info:
        yield info


def test_every_game_folder_is_registered_by_its_log_name_with_its_log_doc():
    folders = sorted(p.parent.name for p in (REPO / "companion/games").glob("*/__init__.py"))
    assert sorted(info.folder.rsplit("/", 1)[1] for info in GAMES.values()) == folders
    for name, info in GAMES.items():
        assert rules_for(name).name == name
        assert info.folder == f"companion/games/{name.replace('-', '_')}"
        assert (REPO / info.log_doc).is_file(), f"{name} names its log format doc"
    assert [info.order for info in GAMES.values()] == sorted(info.order for info in GAMES.values())


def test_the_package_finds_its_games_and_names_none():
    """No file lists the games: companion/games/__init__.py imports the folders it finds."""
    text = (REPO / "companion/games/__init__.py").read_text()
    for name, info in GAMES.items():
        folder = info.folder.rsplit("/", 1)[1]
        assert f'"{name}"' not in text and f"import {folder}" not in text and f"'{name}'" not in text


def test_a_fifth_game_is_one_folder_and_one_registration(high_card):
    assert GAMES["high-card"] is high_card
    game = Game({"game": "high-card", "players": ["Ann", "Ben"]})
    for player, card in (("Ann", "QS"), ("Ben", "KD")):
        game.push({"type": "turn", "player": player, "card": card})
    assert game.finished and game.outcome.winners == ("Ben",)


def test_a_game_unregistered_is_unknown_to_the_engine(high_card):
    unregister_game("high-card")
    with pytest.raises(KeyError):
        rules_for("high-card")


def test_two_games_under_one_name_is_refused(high_card):
    with pytest.raises(ValueError, match="two games are registered as 'high-card'"):
        register_game(GameInfo("high-card", "Another", "", high_card.rules))


def test_a_header_that_chooses_its_rules_class_is_played_by_one_of_the_games_rules():
    """Slapjack's header chooses the race judge with "feed": "none" (its log.md): the judge is
    one of the game's declared rules classes, so every generic test reaches it."""
    for name, info in GAMES.items():
        assert type(rules_for(name)) is info.rules
    judge = rules_for({"game": "slapjack", "players": ["A", "B"], "feed": "none"})
    assert type(judge) in GAMES["slapjack"].variants


def test_rules_for_a_header_or_a_name():
    assert type(rules_for({"game": "jacks", "players": ["A", "B"]})) is type(rules_for("jacks"))
    with pytest.raises(KeyError):
        rules_for({"game": "snap", "players": ["A", "B"]})


def test_a_game_module_that_fails_to_import_is_loud():
    """No 'Coming soon' guess: a game module that cannot be imported stops the import."""
    code = ("import sys\n"
            "sys.modules['companion.games.jacks.rules'] = None\n"   # importing it now fails
            "import companion.games\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert run.returncode != 0 and "import of companion.games.jacks.rules halted" in run.stderr
