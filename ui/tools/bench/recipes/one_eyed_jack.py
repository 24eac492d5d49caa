"""One-Eyed Jack on the bench: random play with real hands and a real stock, every move one the
engine allows (``targets``, ``is_dead``); and a card chosen and put on the board."""

import random

from . import NAMES, first_card, longest


def random_game(players: int, seed: int, limit: int) -> tuple[dict, list[dict]]:
    from companion.cards import double_deck
    from companion.engine import Game
    from companion.games.one_eyed_jack import HAND_SIZES, is_dead, targets

    rng = random.Random(seed)
    deck = [str(c) for c in double_deck()]
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(HAND_SIZES[players])] for _ in range(players)]
    stock, discards, rebuilt = deck, [], False
    game = Game({"game": "one-eyed-jack", "players": list(NAMES[:players]), "options": {}})

    def discard_and_draw(hand: list[str], card: str) -> None:
        nonlocal stock, discards, rebuilt
        hand.remove(card)
        discards.append(card)
        if game.state.winner is not None:
            return
        hand.append(stock.pop())
        if not stock and not rebuilt:
            stock, discards, rebuilt = discards, [], True
            rng.shuffle(stock)

    while not game.finished and len(game.actions) < limit:
        state = game.state
        hand = hands[state.turn]
        dead = sorted(c for c in set(hand) if is_dead(state, c))
        if dead and not state.swapped and rng.random() < 0.8:
            card = rng.choice(dead)
            game.push({"type": "swap", "card": card})
            discard_and_draw(hand, card)
            continue
        moves = [(c, t) for c in sorted(set(hand)) for t in targets(state, c)]
        if not moves:   # you must play if you can; otherwise pass
            game.push({"type": "pass"})
            continue
        card, space = rng.choice(moves)
        game.push({"type": "play", "card": card, ("remove" if card in ("JS", "JH") else "at"): list(space)})
        discard_and_draw(hand, card)
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
    from companion.games.one_eyed_jack import targets

    state = s.session.state
    board = s.ids.board
    code = first_card(lambda code: bool(targets(state, code)))
    if code is None:
        raise RuntimeError("no card can be played on this board")
    row, col = targets(state, code)[0]
    return [([s.rank_buttons[code[:-1]], s.suit_buttons[code[-1]]], board.cell_window_centre(row, col),
             [s.ids.turn_label, Area(board, row, col)], f"play {code}")]
