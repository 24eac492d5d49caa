"""A real table's round of Jacks for tests: a shuffled deck dealt 13 each, every player following
suit when they can with their lowest card (docs/rules.md, "Jacks"), worked out here on its own so
the engine's answers are checked against a second reckoning."""

from __future__ import annotations

import random

from companion.cards import HIGH_ORDER, full_deck

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def low(card: str) -> int:
    return HIGH_ORDER[card[:-1]]


def deal(seed: int) -> dict[str, list[str]]:
    deck = [str(c) for c in full_deck()]
    random.Random(seed).shuffle(deck)
    return {p: sorted(deck[i * 13:(i + 1) * 13], key=low) for i, p in enumerate(PLAYERS)}


def play_round(seed: int):
    """(holder of 3H, the 52 cards in the order they land, {jack: taker}) for a careful table."""
    hands = deal(seed)
    leader = next(p for p, cards in hands.items() if "3H" in cards)
    first, order, jacks = leader, [], {}
    for number in range(1, 14):
        start = PLAYERS.index(leader)
        trick = []
        for i in range(4):
            player = PLAYERS[(start + i) % 4]
            hand = hands[player]
            if number == 1 and i == 0:
                card = "3H"
            else:
                follow = [c for c in hand if trick and c[-1] == trick[0][1][-1]] or hand
                safe = [c for c in follow if not (number == 1 and c[0] == "J")] or follow
                card = safe[0]
            hand.remove(card)
            trick.append((player, card))
            order.append(card)
        led = trick[0][1][-1]
        leader = max((pc for pc in trick if pc[1][-1] == led), key=lambda pc: low(pc[1]))[0]
        jacks.update({c: leader for _, c in trick if c[0] == "J"})
    return first, order, jacks
