"""The examples in the UI modules' docstrings run too. Collected with the rest they would import
Kivy before the tests' window and config exist, so they run here, once the app is up."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytestmark = pytest.mark.ui

MODULES = ("ui.rules_text", "ui.screens.home", "ui.screens.jack_change_it_setup", "ui.screens.last_table",
           "ui.widgets.name_grid")


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_ui_module_hold(app, name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples: take it off the list"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples fail"


def test_every_ui_module_with_examples_is_listed():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = sorted(".".join(p.relative_to(root).with_suffix("").parts) for p in (root / "ui").rglob("*.py")
                   if ">>>" in p.read_text())
    assert found == sorted(MODULES)
