"""One-Eyed Jack on the bench: random play with real hands and a real stock, every move one the
engine allows (companion/random_tables.py); and a card chosen and put on the board."""

from ui.tools.recipes import NAMES, first_card, longest


def random_game(players: int, seed: int, limit: int) -> tuple[dict, list[dict]]:
    from companion import random_tables

    game = random_tables.run_out(random_tables.one_eyed_jack(seed, players, limit, names=NAMES))
    return game.header, game.actions


SEED_ACTIONS = 40   # how far in the game each screen is measured on has run


def seed_log(wanted: int, seed: int):
    return random_game(2, seed, wanted * 2)


def long_log(actions: int, seed: int):
    def make(attempt):
        s, players = seed * 1000 + attempt, 2 + attempt % 3
        header, log = random_game(players, s, actions)
        return header, log, f"random play with real cards, {players} players, seed {s}"

    return longest(make, actions)


class Area:
    """A board space, watched like a widget."""

    def __init__(self, board, row, col):
        x, y = board.cell_window_centre(row, col)
        side = getattr(board, "cell", None) or board.width / 10
        self.x, self.y, self.right, self.top = x - side / 2, y - side / 2, x + side / 2, y + side / 2

    def to_window(self, x, y):
        return x, y


def tap_steps(s):
    from companion.games.one_eyed_jack.rules import targets

    state = s.session.state
    board = s.ids.board
    code = first_card(lambda code: bool(targets(state, code)))
    if code is None:
        raise RuntimeError("no card can be played on this board")
    row, col = targets(state, code)[0]
    return [([s.rank_buttons[code[:-1]], s.suit_buttons[code[-1]]], board.cell_window_centre(row, col),
             [s.ids.turn_label, Area(board, row, col)], f"play {code}")]

def play_by_touch(app, driver, rng):
    """Two players put chips on the spaces of cards drawn at random, by the picker and the board.

    A generator: it yields once after each action has taken effect and its frame is drawn, so a
    caller (the kill tests) knows what a player has seen."""
    from companion.cards import RANKS, SUITS
    from companion.games.one_eyed_jack.board import spaces_of

    screen = driver.open_game({"game": "one-eyed-jack", "players": list(NAMES[:2]), "options": {}})
    cards = [r + s for r in RANKS if r != "J" for s in SUITS]
    rng.shuffle(cards)
    for code in cards[:24]:
        if screen.session.game.finished:
            break
        driver.tap(screen.rank_buttons[code[:-1]])
        driver.tap(screen.suit_buttons[code[-1]])
        row, col = spaces_of(code)[rng.randrange(2)]
        driver.tap_at(*screen.ids.board.cell_window_centre(row, col))
        driver.pump(1)
        yield screen
