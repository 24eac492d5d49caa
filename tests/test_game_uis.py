"""Each game declares its UI once (ui/games/), and that declaration is the one list the app, the
screenshots and the bench read: docs/adding-a-game.md."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

from companion.games import GAMES
from tests.test_layers import imported_names
from ui.games import GAME_UIS, GameUI, GameUIError, check, ui_for
from ui.games import registry

REPO = Path(__file__).resolve().parent.parent


def test_every_registered_game_has_its_ui_and_nothing_else_does():
    assert set(GAME_UIS) == set(GAMES)
    check(GAMES)   # raises on any mismatch or missing screen module


@pytest.mark.parametrize("name", sorted(GAME_UIS))
def test_each_declared_part_is_there(name):
    ui = ui_for(name)
    for target in (ui.setup, ui.play):
        module, cls = target.split(":")
        assert importlib.util.find_spec(module) is not None, target
        assert f"class {cls}(" in Path(importlib.util.find_spec(module).origin).read_text(), target
    assert callable(importlib.import_module(ui.scenes).scenes)
    recipe = importlib.import_module(ui.bench)
    header, actions = recipe.seed_log(10, 1)
    assert header["game"] == name and actions
    header, actions, how = recipe.long_log(60, 1)
    assert header["game"] == name and len(actions) <= 60 and how
    assert callable(recipe.tap_steps)


def test_a_registered_game_without_a_ui_is_an_error_not_coming_soon():
    with pytest.raises(GameUIError, match="'fifth' is a registered game but no UI is declared"):
        check({**GAMES, "fifth": None})
    with pytest.raises(GameUIError, match="no UI is declared for the game 'fifth'"):
        ui_for("fifth")


def test_a_ui_for_no_game_or_a_missing_screen_is_an_error(monkeypatch):
    monkeypatch.setitem(registry.GAME_UIS, "ghost", GameUI("ghost", "ui.screens.ghost_setup:GhostSetupScreen",
                                                           "ui.screens.ghost:GhostScreen", "x", "y"))
    with pytest.raises(GameUIError) as caught:
        check(GAMES)
    assert "no such game is registered" in str(caught.value)
    assert "its screen module ui.screens.ghost_setup does not exist" in str(caught.value)
    with pytest.raises(GameUIError, match="declared twice"):
        registry.register(GAME_UIS["jacks"])


def test_the_app_never_imports_its_tools_and_nothing_in_ui_reaches_into_tests():
    """Only the command line (ui/launcher.py) starts the tools, and a game's own tools (its
    screenshot scenes and bench recipe, in its folder) are named by string, never imported by
    the app; no file of ui/ loads tests/."""
    tools_of_games = {REPO / (module.replace(".", "/") + ".py") for ui in GAME_UIS.values() for module in (ui.scenes, ui.bench)}
    for path in sorted((REPO / "ui").rglob("*.py")):
        names = [name for _, name in imported_names(REPO, path)]
        assert not [n for n in names if n.split(".")[0] == "tests"], path
        assert "tests/" not in path.read_text(encoding="utf-8"), path
        if "tools" not in path.relative_to(REPO).parts and path.name != "launcher.py" and path not in tools_of_games:
            assert not [n for n in names if n.startswith("ui.tools")], path
