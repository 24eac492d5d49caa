"""Random tables with real cards: a shuffled double deck, real hands and a real stock beside a
game, every move one the engine allows. The rules tests check the engine against the real cards
at every step; the bench wants long, realistic logs. One player per game serves both.

Each is a generator: it yields ``(game, cards)`` after every action, where ``cards`` is the real
table (:class:`RealCards`), so a caller checks whatever it likes at each step, or just runs it out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from companion.cards import double_deck
from companion.engine import Game
from companion.games.jack_change_it.rules import play_problem
from companion.games.one_eyed_jack.rules import HAND_SIZES, is_dead, targets

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


@dataclass
class RealCards:
    """What lies on the real table: each seat's hand, the stock, and the pile (Jack Change It's
    pile, One-Eyed Jack's discards)."""

    hands: list[list[str]]
    stock: list[str]
    pile: list[str]
    rebuilt: bool = False        # One-Eyed Jack: the discards became the stock (once a game)
    just_rebuilt: bool = False   # ... on the action just yielded
    drew: bool = False           # the action just yielded drew a card into a hand
    events: list[str] = field(default_factory=list)   # "pass", "rebuild", at the end "win"/"draw:<reason>"


def _shuffled(rng: random.Random) -> list[str]:
    deck = [str(c) for c in double_deck()]
    rng.shuffle(deck)
    return deck


def jack_change_it(seed: int, players: int | None = None, play_chance: float = 0.85, limit: int = 3000,
                   names: Sequence[str] = NAMES,
                   judge: Callable[[Game, dict, list[str], int, bool], None] | None = None
                   ) -> Iterator[tuple[Game, RealCards]]:
    """Jack Change It (docs/rules.md): seven cards each, one turned up to start; a legal play is
    made with ``play_chance``, else a lift (or the pick-up owed). ``judge(game, summary, cards,
    hand_size, allowed)`` hears the engine's answer for every play the current player could try."""
    rng = random.Random(seed)
    players = players or rng.randint(2, 10)
    queens_reverse, jacks_wild = rng.random() < 0.7, rng.random() < 0.3
    deck = _shuffled(rng)
    table = RealCards(hands=[deck[7 * i:7 * i + 7] for i in range(players)],
                      stock=deck[7 * players + 1:], pile=[deck[7 * players]])
    game = Game({"game": "jack-change-it", "players": list(names[:players]), "start": table.pile[0],
                 "options": {"queens_reverse": queens_reverse, "jacks_wild": jacks_wild}})

    def turn_over() -> None:
        # docs/rules.md Jack Change It: an empty stock is made again from the pile but its top card.
        if not table.stock and len(table.pile) > 1:
            table.stock, table.pile = table.pile[:-1], table.pile[-1:]
            rng.shuffle(table.stock)

    for _ in range(limit):
        state, s = game.state, game.summary()
        if s["finished"]:
            return
        hand = table.hands[state.turn]
        choices = [[c] for c in sorted(set(hand))] + ([["AH", "2H"]] if "AH" in hand and "2H" in hand else [])
        legal = []
        for cards in choices:
            suit = rng.choice([x for x in "SHDC" if x != s["suit"]]) if cards[-1][:-1] == "J" else None
            allowed = play_problem(state, cards, suit) is None
            if judge is not None:
                judge(game, s, cards, len(hand), allowed)
            if allowed:
                legal.append((cards, suit))
        if legal and rng.random() < play_chance:
            cards, suit = rng.choice(legal)
            game.push({"type": "play", "cards": cards, **({"suit": suit} if suit else {})})
            for c in cards:
                hand.remove(c)
            table.pile.extend(cards)
        else:
            game.push({"type": "pickup" if s["owed"] else "lift"})
            for _ in range(s["owed"]["count"] if s["owed"] else 1):
                turn_over()
                if table.stock:
                    hand.append(table.stock.pop())
            turn_over()
        yield game, table


def one_eyed_jack(seed: int, players: int, limit: int | None = None, names: Sequence[str] = NAMES
                  ) -> Iterator[tuple[Game, RealCards]]:
    """One-Eyed Jack (docs/rules.md): real hands and a real stock; a dead card is swapped (most of
    the time), else a random legal move, else a pass. Runs to the end, or to ``limit`` actions."""
    rng = random.Random(seed)
    deck = _shuffled(rng)
    hands = [[deck.pop() for _ in range(HAND_SIZES[players])] for _ in range(players)]
    table = RealCards(hands=hands, stock=deck, pile=[])
    game = Game({"game": "one-eyed-jack", "players": list(names[:players]), "options": {}})

    def discard_and_draw(hand: list[str], card: str) -> None:
        hand.remove(card)
        table.pile.append(card)
        if game.state.winner is not None:   # the winner draws no card (docs/rules.md)
            return
        hand.append(table.stock.pop())
        table.drew = True
        if not table.stock and not table.rebuilt:
            table.stock, table.pile, table.rebuilt, table.just_rebuilt = table.pile, [], True, True
            rng.shuffle(table.stock)
            table.events.append("rebuild")

    while not game.finished and (limit is None or len(game.actions) < limit):
        table.drew = table.just_rebuilt = False
        state = game.state
        hand = table.hands[state.turn]
        dead = sorted(c for c in set(hand) if is_dead(state, c))
        if dead and not state.swapped and rng.random() < 0.8:
            card = rng.choice(dead)
            game.push({"type": "swap", "card": card})
            discard_and_draw(hand, card)
        else:
            moves = [(c, t) for c in sorted(set(hand)) for t in targets(state, c)]
            if not moves:   # you must play if you can; otherwise pass
                game.push({"type": "pass"})
                table.events.append("pass")
            else:
                card, space = rng.choice(moves)
                game.push({"type": "play", "card": card, ("remove" if card in ("JS", "JH") else "at"): list(space)})
                discard_and_draw(hand, card)
        if game.finished:
            summary = game.summary()
            table.events.append("win" if summary["winner"] is not None else "draw:" + summary["draw_reason"])
        yield game, table


def run_out(steps: Iterator[tuple[Game, RealCards]]) -> Game | None:
    """Play a random table to its end; the game (None if it made no move)."""
    game = None
    for game, _ in steps:
        pass
    return game
