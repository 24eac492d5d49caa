"""Jack Change It on the bench: random play with real hands from a shuffled double deck, every
play one the engine allows (companion/random_tables.py); and a card played, or the action button."""

from ui.tools.recipes import NAMES, first_card, longest


def random_game(seed: int, players: int, play_chance: float, limit: int) -> tuple[dict, list[dict]]:
    from companion import random_tables

    game = random_tables.run_out(random_tables.jack_change_it(seed, players, play_chance, limit, names=NAMES))
    return game.header, game.actions


SEED_ACTIONS = 60   # how far in the game each screen is measured on has run


def seed_log(wanted: int, seed: int):
    # Four players, the longest of a few deals.
    return max((random_game(seed * 100 + i, 4, 0.85, wanted * 2) for i in range(8)), key=lambda log: len(log[1]))


def long_log(actions: int, seed: int):
    def make(attempt):
        s = seed * 1000 + attempt
        header, log = random_game(s, players=10, play_chance=0.35, limit=actions)
        return header, log, f"random play with real cards, 10 players, seed {s}"

    return longest(make, actions)


def tap_steps(s):
    from companion.games.jack_change_it.rules import play_problem

    state = s.session.state
    watched = [s.ids.turn_label, s.ids.top_card, s.ids.seats]
    code = first_card(lambda code: code != "AH" and play_problem(state, [code]) is None)
    if code is None:   # nothing to play: the action button (draw, or take what is owed)
        return [([], s.ids.action_button, watched, s.action_text.lower())]
    picker = s.ids.picker
    return [([picker.rank_buttons[code[:-1]]], picker.suit_buttons[code[-1]], watched, f"play {code}")]

def play_by_touch(app, driver, rng):
    """Ann plays Hearts that are no trick cards, Ben lifts, until Ann goes out.

    A generator: it yields once after each action has taken effect and its frame is drawn, so a
    caller (the kill tests) knows what a player has seen."""
    screen = driver.open_game({"game": "jack-change-it", "players": list(NAMES[:2]),
                               "options": {"queens_reverse": True, "jacks_wild": False}, "start": "7H"})
    hearts = ["3H", "4H", "6H", "9H", "10H", "KH"]
    rng.shuffle(hearts)
    for code in hearts * 2:
        if screen.session.game.finished:
            break
        driver.tap_card(screen.ids.picker, code)
        driver.pump(1)
        yield screen
        if screen.session.game.finished:
            break
        driver.tap(screen.ids.action_button)  # "Lift a card"
        driver.pump(1)
        yield screen
