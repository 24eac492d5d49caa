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


def hardware_modules_imported(name: str) -> set[str]:
    """The hardware modules ``hardware/<name>.py`` imports, lazily or not."""
    names = set()
    for node in ast.walk(ast.parse((ROOT / "hardware" / f"{name}.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                names |= {node.module} if node.module else {alias.name for alias in node.names}
            elif node.module and node.module.startswith("hardware."):
                names.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            names |= {alias.name.split(".")[1] for alias in node.names if alias.name.startswith("hardware.")}
    return names


def test_the_card_reader_reads_through_the_generic_reader_not_the_hub():
    used = hardware_modules_imported("card_reader")
    assert "serial_link" in used
    assert not used & {"hub", "hub_protocol", "hub_clock"}, used


def test_open_pads_sits_above_both_boards():
    assert {"gpio_pads", "hub"} <= hardware_modules_imported("pads")
    for below in ("gpio_pads", "hub", "lights", "pad_device", "device", "mock"):
        assert "pads" not in hardware_modules_imported(below), below
    assert "hub" not in hardware_modules_imported("gpio_pads")
    assert "gpio_pads" not in hardware_modules_imported("hub")


def test_the_device_contract_needs_no_device_library():
    # A camera (picamera2, OpenCV) subclasses Device without pulling in gpiozero or pyserial.
    for name in ("device", "pad_device", "lights"):
        assert not imported(ROOT / "hardware" / f"{name}.py") & {"gpiozero", "serial", "cv2", "kivy"}, name
