"""Slapjack on the bench: computer-only games (``companion.simulation``), and a card tapped in."""

from ui.tools.recipes import NAMES, first_card


def slapjack_game(seed: int, players: int = 4, feed: str | None = None) -> tuple[dict, list[dict]]:
    """A computer-only screen-deck game, its seats given names. With ``feed="pad"`` the same
    cards as a real deck whose turner taps each card in."""
    from companion.simulation import play_game

    game = play_game(players, seed).game
    names = dict(zip(game.header["players"], NAMES))
    header = dict(game.header, players=[names[p] for p in game.header["players"]])
    if feed is not None:
        header = {"game": "slapjack", "players": header["players"], "options": header.get("options", {}),
                  "feed": feed}
    actions = []
    for action in game.actions:
        action = dict(action)
        for key in ("player", "winner"):
            if key in action:
                action[key] = names[action[key]]
        if feed is not None and action["type"] == "turn":
            action.pop("t", None)   # a card tapped in has no landing time
        actions.append(action)
    return header, actions


SEED_ACTIONS = 60   # how far in the game each screen is measured on has run


def seed_log(wanted: int, seed: int):
    # A real deck with the card pad: nothing happens on screen until somebody taps.
    header, actions = slapjack_game(seed, feed="pad")
    cut = max(i for i, a in enumerate(actions[:wanted + 1]) if a["type"] == "turn")
    return header, actions[:cut]


def long_log(actions: int, seed: int):
    from ui.tools.recipes import longest

    def make(attempt):
        s = seed * 1000 + attempt
        header, log = slapjack_game(s)
        return header, log, f"computer-only play, {len(header['players'])} players, seed {s}"

    return longest(make, actions)


def tap_steps(s):
    from companion.errors import GameError

    pad = s.ids.card_pad

    def can_turn(code):
        try:
            s.session.game.check({"type": "turn", "card": code})
        except GameError:
            return False
        return True

    code = first_card(can_turn)
    if code is None:
        raise RuntimeError("no card can be turned now")
    return [([pad.rank_buttons[code[:-1]]], pad.suit_buttons[code[-1]],
             [s.ids.top_card, s.ids.pile_label, s.ids.turn_label], f"turn {code}")]

def play_by_touch(app, driver, rng):
    """A real deck on the card pad: each card the turner taps is stored before it shows.

    A generator: it yields once after each action has taken effect and its frame is drawn, so a
    caller (the kill tests) knows what a player has seen."""
    from companion.cards import RANKS, SUITS

    screen = driver.open_game({"game": "slapjack", "players": list(NAMES[:2]), "options": {}, "feed": "pad"})
    cards = [r + s for r in RANKS if r != "J" for s in SUITS]
    rng.shuffle(cards)
    for code in cards[:20]:
        driver.tap_card(screen.ids.card_pad, code)
        driver.pump(1)
        yield screen
