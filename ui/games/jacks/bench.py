"""Jacks on the bench: random rounds, and a round tapped in then recorded."""

import random

from ui.tools.recipes import NAMES


def jacks_log(actions: int, seed: int = 1, target: int | None = None) -> tuple[dict, list[dict]]:
    """``actions`` rounds of Jacks (the target set high enough that the game is still on)."""
    rng = random.Random(seed)
    players = list(NAMES[:4])
    target = target or max(75, 25 * actions)
    header = {"game": "jacks", "players": players, "options": {"target": min(target, 10_000)}}
    log = [{"type": "round", "jacks": {jack: rng.choice(players) for jack in ("JS", "JH", "JC", "JD")}}
           for _ in range(actions)]
    return header, log


SEED_ACTIONS = 6   # how far in the game each screen is measured on has run


def seed_log(wanted: int, seed: int):
    return jacks_log(wanted, seed, target=75)


def long_log(actions: int, seed: int):
    header, log = jacks_log(actions, seed)
    return header, log, f"{actions} random rounds, target {header['options']['target']}"


def tap_steps(s):
    players = s.players
    wanted = {jack: players[i % len(players)] for i, jack in enumerate(("JS", "JH", "JC", "JD"))}
    # Undo brings the round's taps back: tap only the choices not already made.
    picks = [s.choice_buttons[(jack, name)] for jack, name in wanted.items() if s.assignment.get(jack) != name]
    return [(picks, s.ids.record_button, [s.ids.round_label, s.ids.totals], "record round")]

def play_by_touch(app, driver, rng):
    """Add the players, set a game up by touch and record rounds by touch until it ends.

    A generator: it yields once after each action has taken effect and its frame is drawn, so a
    caller (the kill tests) knows what a player has seen."""
    jacks = ("JS", "JH", "JC", "JD")
    players_screen = app.show("players")
    for name in NAMES[:4]:
        if name not in {p.name for p in app.store.players()}:
            players_screen.ids.new_name.text = name
            driver.tap(players_screen.ids.add_button)
    setup = app.show("jacks-setup")
    driver.pump(2)
    for button in reversed(setup.ids.roster.children):
        if len(setup.chosen) < 4:
            driver.tap(button)
    driver.tap(setup.ids.start_button)
    screen = app.manager.current_screen
    while not screen.finished:
        for jack in jacks:
            driver.tap(screen.choice_buttons[(jack, rng.choice(screen.players))])
        driver.tap(screen.ids.record_button)
        driver.pump(1)  # the frame that shows the new totals
        yield screen
