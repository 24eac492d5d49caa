"""The one-way rule for this layer: hardware/ may import companion, never ui or kivy; the race
judge (companion/race.py) imports no device library at all."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_hardware_never_imports_ui_or_kivy():
    for path in (ROOT / "hardware").rglob("*.py"):
        assert not imported(path) & {"ui", "kivy"}, path


def test_the_race_judge_is_pure():
    assert not imported(ROOT / "companion" / "race.py") & {"kivy", "gpiozero", "serial", "time", "threading", "ui"}
