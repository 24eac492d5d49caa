"""The real app in its own process, playing a scripted game by touch, for the kill tests.

    python -m tests.reliability.scripted_app play DATA_DIR GAME SEED
        taps through a game as its recipe's ``play_by_touch`` does; after each action has shown on screen it prints
        ``shown N`` (N actions in the log) and flushes, so a killer knows what a player saw.
    python -m tests.reliability.scripted_app start DATA_DIR
        starts the app and prints what the first screen says (its notice), and which screens'
        modules it has read, as one JSON line.
    python -m tests.reliability.scripted_app resume DATA_DIR
        starts the app as after a crash, taps Resume on the home screen, and prints the
        resumed game's log as one JSON line: {"game_id":..., "actions": [...], "summary": {...}}.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import tempfile
from pathlib import Path

def start_app(data_dir: Path):
    from ui.launcher import prepare_kivy

    prepare_kivy(data_dir, "800x480", max_fps=0)
    from companion import config as settings
    from companion import paths
    from ui.app import CompanionApp
    from ui.tools.driver import AppDriver

    # As `jack-companion run` does: the config file in the data folder, its problems shown.
    conf, problems = settings.load(paths.config_path(data_dir))
    app = CompanionApp(data_dir=data_dir, config=conf, config_problems=problems, mock=True)
    return app, AppDriver(app)


def play(app, driver, game: str, rng: random.Random) -> None:
    """Play ``game`` by touch with its bench recipe's script (ui/games/<game>/bench.py), printing
    ``shown N`` once each action has taken effect and its frame is drawn."""
    from ui.games import ui_for

    shown = 0
    for screen in importlib.import_module(ui_for(game).bench).play_by_touch(app, driver, rng):
        shown += 1
        assert len(screen.session.game.actions) == shown, "the tap did not take"
        print(f"shown {shown}", flush=True)


def main(argv: list[str]) -> int:
    mode, data_dir = argv[0], Path(argv[1])
    app, driver = start_app(data_dir)
    if mode == "play":
        play(app, driver, argv[2], random.Random(int(argv[3])))
        print("done", flush=True)
    elif mode == "hold":
        # Stay up on the home screen until told to stop (standard input closes).
        driver.pump(3)
        print("ready", flush=True)
        sys.stdin.read()
    elif mode == "start":
        driver.pump(3)
        home = app.manager.current_screen
        print(json.dumps({"screen": home.name, "notice": app.root.notice, "notice_kind": app.root.notice_kind,
                          "tiles": len(home.ids.tiles.children),
                          "screen_modules": sorted(m for m in sys.modules if m.startswith("ui.screens.")
                                                 or (m.startswith("ui.games.") and m.count(".") == 3))}), flush=True)
    else:
        home = app.show("home")
        driver.pump(2)
        if not home.resume_text:
            print(json.dumps({"game_id": None}), flush=True)
        else:
            driver.tap(home.ids.resume_button)
            screen = app.manager.current_screen
            session = screen.session
            print(json.dumps({"game_id": session.game_id, "screen": screen.name,
                              "actions": session.game.actions, "summary": session.summary()}), flush=True)
    driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
