"""Jack Change It on the bench: random play with real hands from a shuffled double deck, every
play one the engine allows (``play_problem``); and a card played, or the action button."""

import random

from . import NAMES, first_card, longest


def random_game(seed: int, players: int, play_chance: float, limit: int) -> tuple[dict, list[dict]]:
    from companion.cards import double_deck
    from companion.engine import Game
    from companion.games.jack_change_it import play_problem

    rng = random.Random(seed)
    queens_reverse, jacks_wild = rng.random() < 0.7, rng.random() < 0.3
    deck = [str(c) for c in double_deck()]
    rng.shuffle(deck)
    hands = [deck[7 * i:7 * i + 7] for i in range(players)]
    pile, stock = [deck[7 * players]], deck[7 * players + 1:]
    game = Game({"game": "jack-change-it", "players": list(NAMES[:players]), "start": pile[0],
                 "options": {"queens_reverse": queens_reverse, "jacks_wild": jacks_wild}})

    def turn_over():
        nonlocal stock, pile
        if not stock and len(pile) > 1:
            stock, pile = pile[:-1], pile[-1:]
            rng.shuffle(stock)

    for _ in range(limit):
        state, s = game.state, game.summary()
        if s["finished"]:
            break
        hand = hands[state.turn]
        choices = [[c] for c in sorted(set(hand))] + ([["AH", "2H"]] if "AH" in hand and "2H" in hand else [])
        legal = []
        for cards in choices:
            suit = rng.choice([x for x in "SHDC" if x != s["suit"]]) if cards[-1][:-1] == "J" else None
            if play_problem(state, cards, suit) is None:
                legal.append((cards, suit))
        if legal and rng.random() < play_chance:
            cards, suit = rng.choice(legal)
            game.push({"type": "play", "cards": cards, **({"suit": suit} if suit else {})})
            for c in cards:
                hand.remove(c)
            pile.extend(cards)
        else:
            game.push({"type": "pickup" if s["owed"] else "lift"})
            for _ in range(s["owed"]["count"] if s["owed"] else 1):
                turn_over()
                if stock:
                    hand.append(stock.pop())
            turn_over()
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
    from companion.games.jack_change_it import play_problem

    state = s.session.state
    watched = [s.ids.turn_label, s.ids.top_card, s.ids.seats]
    code = first_card(lambda code: code != "AH" and play_problem(state, [code]) is None)
    if code is None:   # nothing to play: the action button (draw, or take what is owed)
        return [([], s.ids.action_button, watched, s.action_text.lower())]
    picker = s.ids.picker
    return [([picker.rank_buttons[code[:-1]]], picker.suit_buttons[code[-1]], watched, f"play {code}")]
