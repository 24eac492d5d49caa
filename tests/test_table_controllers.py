"""Every game's table controller (``companion/games/<game>/table.py``) stands on the one base
(companion/table/controller.py): the same card feeds, choose, undo and close, so a screen and a
feed treat every game's table alike. Found by looking, as the games are."""

from __future__ import annotations

import importlib
import importlib.util
import inspect

import pytest

from companion.games import GAMES
from companion.table.controller import TableController

TABLES = [info.folder.replace("/", ".") + ".table" for info in GAMES.values()
          if importlib.util.find_spec(info.folder.replace("/", ".") + ".table") is not None]


def test_every_game_played_at_the_table_has_its_table():
    """docs/adding-a-game.md: each of the four games has a live part at the table (a card feed,
    a race, a timer, a card being chosen), and a controller for it."""
    assert sorted(TABLES) == [f"companion.games.{game}.table"
                              for game in ("jack_change_it", "jacks", "one_eyed_jack", "slapjack")]


@pytest.mark.parametrize("module", TABLES)
def test_each_table_controller_stands_on_the_base_and_answers_every_feed(module):
    found = [cls for _, cls in inspect.getmembers(importlib.import_module(module), inspect.isclass)
             if cls.__module__ == module and cls.__name__.endswith("Table")]
    assert found, f"{module} has no table controller"
    for cls in found:
        assert issubclass(cls, TableController), cls
        for name in ("on_card", "on_unsure", "choose", "undo"):
            assert getattr(cls, name) is not getattr(TableController, name), f"{cls.__name__} does not answer {name}"
