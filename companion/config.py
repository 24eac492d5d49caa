"""The table's settings, in a TOML file in the data folder (``config.toml``).

A broken file never stops the app: :func:`load` returns the defaults for whatever it
cannot read, with one message per problem naming its line.
"""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path

import tomli_w

DEFAULTS: dict = {
    "display": {
        "four_colour": False,   # suits in black, vermilion, blue and bluish green
        "fullscreen": False,    # the kiosk turns this on
        "size": "800x480",      # window size on a desktop: 800x480 or 720x1280
        "rotation": 0,          # 0, 90, 180 or 270: turn the picture for a screen mounted sideways
    },
    "jacks": {"target": 75},
    "pads": {
        # gpiozero pin names, one per pad, in seating order; lights may be "" for none
        "buttons": ["GPIO17", "GPIO27", "GPIO22", "GPIO23"],
        "lights": ["GPIO5", "GPIO6", "GPIO13", "GPIO19"],
        "debounce_ms": 40,
        "race_window_ms": 15,
        "keys": ["1", "2", "3", "4", "5", "6", "7", "8"],
        "hub": "",              # serial pad hub: "" none, "auto" find it, or a port
        "hub_usb": "2E8A:0005", # USB VID:PID that "auto" looks for (MicroPython on a Pico)
        "stuck_ms": 2000,       # a pad held down this long is reported as stuck
    },
    # serial card feed: "" none, a port, "usb:VID:PID" or "by-id:TEXT"
    "card_reader": {"port": "", "baud": 9600},
    "sound": {"volume": 70},    # percent, 0 to 100; 0 is off
    # the camera over the pile (docs/vision.md); hardware/camera/settings.py checks the values
    "camera": {"source": "", "size": [640, 480], "fps": 30, "region": [0.0, 0.0, 1.0, 1.0]},
}

# Settings that must lie in a range: (lowest, highest).
_RANGES = {("sound", "volume"): (0, 100)}

_TYPE_WORDS = {bool: "true or false", int: "a whole number", str: "text in quotes", list: "a list [...]"}


def defaults() -> dict:
    return copy.deepcopy(DEFAULTS)


def _line_of(text: str, section: str, key: str | None) -> int | None:
    """The line a section or key stands on, to point a person at it."""
    in_section = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            # "[jacks]  # comment" is still the [jacks] header
            in_section = stripped.split("#", 1)[0].strip().strip("[] ") == section
            if in_section and key is None:
                return number
        elif in_section and key and re.match(rf"{re.escape(key)}\s*=", stripped):
            return number
    return None


def _merge(text: str, loaded: dict, problems: list[str], name: str) -> dict:
    config = defaults()
    for section, values in loaded.items():
        if section not in config:
            problems.append(f"{name} line {_line_of(text, section, None) or '?'}: unknown section [{section}], ignored")
            continue
        if not isinstance(values, dict):
            problems.append(f"{name}: {section} must be a section [{section}], ignored")
            continue
        for key, value in values.items():
            where = f"{name} line {_line_of(text, section, key) or '?'}"
            if key not in config[section]:
                problems.append(f"{where}: unknown setting {key} in [{section}], ignored")
                continue
            want = type(DEFAULTS[section][key])
            if type(value) is not want:
                problems.append(f"{where}: {key} must be {_TYPE_WORDS[want]}; using {DEFAULTS[section][key]!r}")
                continue
            low, high = _RANGES.get((section, key), (value, value))
            if not low <= value <= high:
                problems.append(f"{where}: {key} must be from {low} to {high}; using {DEFAULTS[section][key]!r}")
                continue
            config[section][key] = value
    return config


def load(path: Path) -> tuple[dict, list[str]]:
    """The settings in ``path`` over the defaults, and what was wrong with the file."""
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return defaults(), []
    except (OSError, UnicodeDecodeError) as exc:
        return defaults(), [f"{name}: cannot be read ({exc.__class__.__name__}); using the defaults"]
    try:
        loaded = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib says "(at line N, column M)"; keep that, it is what a person needs.
        return defaults(), [f"{name}: {exc}; using the defaults"]
    problems: list[str] = []
    return _merge(text, loaded, problems, name), problems


def save(path: Path, config: dict) -> None:
    """Write the settings whole: to a new file first, then moved over the old one."""
    tmp = path.with_suffix(".toml.new")
    tmp.write_text("# Jack Table Companion settings (see README: Settings)\n" + tomli_w.dumps(config), encoding="utf-8")
    tmp.replace(path)
