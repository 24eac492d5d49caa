"""The examples in the UI modules' docstrings run too. Collected with the rest they would import
Kivy before the tests' window and config exist, so they run here, once the app is up."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]
# Every module under ui/ whose docstrings hold an example.
MODULES = sorted(".".join(path.relative_to(ROOT).with_suffix("").parts) for path in (ROOT / "ui").rglob("*.py")
                 if ">>>" in path.read_text())


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_ui_module_hold(app, name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name}: a '>>>' that is not an example"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples fail"
