"""The app as the kiosk starts it (full screen: a touchscreen's input, Kivy's docked keyboard),
with a name typed on the on-screen keyboard alone. Run by test_kiosk_keyboard.py in its own
process, because Kivy's input settings hold for the whole process:

    python -m tests.ui.kiosk_names DATA_DIR NAME...

Prints one JSON line: what the keyboard showed, and the roster after each name was added.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def key_points(keyboard) -> dict[str, tuple[float, float]]:
    """Where each key of the keyboard is, in window coordinates, found by asking the keyboard
    which key lies under points of a fine grid over it (as its own touch handling does)."""
    points: dict[str, tuple[float, float]] = {}
    width, height = keyboard.size
    steps = 120
    for i in range(steps):
        for j in range(40):
            x, y = (i + 0.5) * width / steps, (j + 0.5) * height / 40
            found = keyboard.get_key_at_pos(x, y)
            if found:
                display, char, name, _width = found[0]   # e.g. ("a", "a", "a", 1), ("⇧", None, "shift", 2.5)
                points.setdefault(name, keyboard.to_parent(x, y))
    return points


def main(argv: list[str]) -> int:
    folder, names = Path(argv[0]), argv[1:]
    from ui.launcher import prepare_kivy

    prepare_kivy(folder, "800x480", fullscreen=True, max_fps=0)   # the kiosk's settings
    from kivy.config import Config
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    from companion import config as settings
    from ui.app import CompanionApp

    from ui.tools.driver import AppDriver

    app = CompanionApp(data_dir=folder, config=settings.defaults())
    driver = AppDriver(app)
    report = {"keyboard_mode": Config.get("kivy", "keyboard_mode"), "rosters": [], "keyboards": [], "focus": []}
    try:
        screen = app.show("players")
        driver.pump(3)
        field = screen.ids.new_name
        driver.tap(field)
        driver.pump(3)
        for name in names:
            boards = [w for w in Window.children if isinstance(w, VKeyboard)]
            report["keyboards"].append(len(boards))
            if not boards:
                break
            points = key_points(boards[0])
            for letter in name:
                if letter.isupper():   # a capital: shift held down with one finger, the letter with another
                    shift = driver.hold(*points["shift"])
                    driver.tap_at(*points[letter.lower()])
                    driver.lift(shift)
                else:
                    driver.tap_at(*points[letter])
            report.setdefault("typed", []).append(field.text)
            driver.tap(screen.ids.add_button)
            driver.pump(3)
            report["rosters"].append([p.name for p in app.store.players()])
            report["focus"].append(bool(field.focus))
    except Exception as exc:   # said in the report, for the test's message
        report["error"] = repr(exc)
    finally:
        print(json.dumps(report), file=sys.__stdout__, flush=True)
        driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
