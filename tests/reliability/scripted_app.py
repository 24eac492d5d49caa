"""The real app in its own process, playing a scripted game by touch, for the kill tests.

    python -m tests.reliability.scripted_app play DATA_DIR GAME SEED
        taps through a scripted game; after each action has shown on screen it prints
        ``shown N`` (N actions in the log) and flushes, so a killer knows what a player saw.
    python -m tests.reliability.scripted_app start DATA_DIR
        starts the app and prints what the first screen says (its notice) as one JSON line.
    python -m tests.reliability.scripted_app resume DATA_DIR
        starts the app as after a crash, taps Resume on the home screen, and prints the
        resumed game's log as one JSON line: {"game_id":..., "actions": [...], "summary": {...}}.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

JACKS = ("JS", "JH", "JC", "JD")
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def start_app(data_dir: Path):
    from ui.launcher import prepare_kivy

    prepare_kivy(data_dir, "800x480", max_fps=0)
    from companion import config as settings
    from companion import paths
    from ui.app import CompanionApp
    from ui.driver import AppDriver

    # As `jack-companion run` does: the config file in the data folder, its problems shown.
    conf, problems = settings.load(paths.config_path(data_dir))
    app = CompanionApp(data_dir=data_dir, config=conf, config_problems=problems, mock=True)
    return app, AppDriver(app)


def play_jacks(app, driver, rng: random.Random):
    """Add the players, set a game up by touch and record rounds by touch until it ends."""
    players = app.show("players")
    for name in PLAYERS:
        players.ids.new_name.text = name
        driver.tap(players.ids.add_button)
    setup = app.show("jacks-setup")
    driver.pump(2)
    for button in reversed(setup.ids.roster.children):
        driver.tap(button)
    driver.tap(setup.ids.start_button)
    screen = app.manager.current_screen
    shown = 0
    while not screen.finished:
        for jack in JACKS:
            driver.tap(screen.choice_buttons[(jack, rng.choice(PLAYERS))])
        driver.tap(screen.ids.record_button)
        driver.pump(1)  # the frame that shows the new totals
        shown += 1
        assert len(screen.session.game.actions) == shown
        print(f"shown {shown}", flush=True)


PLAYS = {"jacks": play_jacks}


def main(argv: list[str]) -> int:
    mode, data_dir = argv[0], Path(argv[1])
    app, driver = start_app(data_dir)
    if mode == "play":
        PLAYS[argv[2]](app, driver, random.Random(int(argv[3])))
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
                          "tiles": len(home.ids.tiles.children)}), flush=True)
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
