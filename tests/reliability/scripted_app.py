"""The real app in its own process, playing a scripted game by touch, for the kill tests.

    python -m tests.reliability.scripted_app play DATA_DIR GAME SEED
        taps through a scripted game; after each action has shown on screen it prints
        ``shown N`` (N actions in the log) and flushes, so a killer knows what a player saw.
    python -m tests.reliability.scripted_app start DATA_DIR
        starts the app and prints what the first screen says (its notice), and which screens'
        modules it has read, as one JSON line.
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
    from ui.tools.driver import AppDriver

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


def _shown(screen, shown: int) -> int:
    """Report an action a player has seen take effect (the frame after it has been drawn)."""
    assert len(screen.session.game.actions) == shown + 1, "the tap did not take"
    print(f"shown {shown + 1}", flush=True)
    return shown + 1


def _open(app, driver, header: dict):
    from companion.session import Session

    for name in header["players"]:
        if name not in {p.name for p in app.store.players()}:
            app.store.add_player(name)
    screen = app.open_session(Session.start(app.store, header))
    driver.pump(2)
    return screen


def _tap_card(driver, picker, code: str):
    driver.tap(picker.rank_buttons[code[:-1]])
    driver.tap(picker.suit_buttons[code[-1]])


def play_jack_change_it(app, driver, rng: random.Random):
    """Ann plays Hearts that are no trick cards, Ben lifts, until Ann goes out."""
    screen = _open(app, driver, {"game": "jack-change-it", "players": ["Ann", "Ben"],
                                 "options": {"queens_reverse": True, "jacks_wild": False}, "start": "7H"})
    hearts = ["3H", "4H", "6H", "9H", "10H", "KH"]
    rng.shuffle(hearts)
    shown = 0
    for code in hearts * 2:
        if screen.session.game.finished:
            break
        _tap_card(driver, screen.ids.picker, code)
        driver.pump(1)
        shown = _shown(screen, shown)
        if screen.session.game.finished:
            break
        driver.tap(screen.ids.action_button)  # "Lift a card"
        driver.pump(1)
        shown = _shown(screen, shown)


def play_one_eyed_jack(app, driver, rng: random.Random):
    """Two players put chips on the spaces of cards drawn at random, by the picker and the board."""
    from companion.cards import RANKS, SUITS
    from companion.games.one_eyed_jack.board import spaces_of

    screen = _open(app, driver, {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
    cards = [r + s for r in RANKS if r != "J" for s in SUITS]
    rng.shuffle(cards)
    shown = 0
    for code in cards[:24]:
        if screen.session.game.finished:
            break
        driver.tap(screen.rank_buttons[code[:-1]])
        driver.tap(screen.suit_buttons[code[-1]])
        row, col = spaces_of(code)[rng.randrange(2)]
        driver.tap_at(*screen.ids.board.cell_window_centre(row, col))
        driver.pump(1)
        shown = _shown(screen, shown)


def play_slapjack(app, driver, rng: random.Random):
    """A real deck on the card pad: each card the turner taps is stored before it shows."""
    from companion.cards import RANKS, SUITS

    screen = _open(app, driver, {"game": "slapjack", "players": ["Ann", "Ben"], "options": {}, "feed": "pad"})
    cards = [r + s for r in RANKS if r != "J" for s in SUITS]
    rng.shuffle(cards)
    shown = 0
    for code in cards[:20]:
        _tap_card(driver, screen.ids.card_pad, code)
        driver.pump(1)
        shown = _shown(screen, shown)


PLAYS = {"jacks": play_jacks, "jack-change-it": play_jack_change_it, "one-eyed-jack": play_one_eyed_jack,
         "slapjack": play_slapjack}


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
                          "tiles": len(home.ids.tiles.children),
                          "screen_modules": sorted(m for m in sys.modules if m.startswith("ui.screens."))}), flush=True)
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
