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


def play_round(seed: int, slips: dict[int, str] | None = None):
    """(holder of 3H, the 52 cards in the order they land, {jack: taker}) for a careful table,
    except in the tricks of ``slips``, where the second player plays a Jack ("jack") or a card
    off the led suit though they hold it ("revoke") when their hand allows."""
    slips = slips or {}
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
                slip = slips.get(number) if i == 1 else None
                if slip == "jack" and any(c[0] == "J" for c in hand):
                    card = next(c for c in hand if c[0] == "J")
                elif slip == "revoke" and card[-1] == trick[0][1][-1]:
                    card = next((c for c in hand if c[-1] != card[-1]), card)
            hand.remove(card)
            trick.append((player, card))
            order.append(card)
        led = trick[0][1][-1]
        leader = max((pc for pc in trick if pc[1][-1] == led), key=lambda pc: low(pc[1]))[0]
        jacks.update({c: leader for _, c in trick if c[0] == "J"})
    return first, order, jacks
