"""High Card's own rules (tests/games/high_card/README.md): the highest rank wins, equal highest
draw, and a card is turned once."""

import pytest

from companion.engine import Game
from companion.errors import IllegalAction


def turned(*cards, players=("Ann", "Ben", "Cat")):
    game = Game({"game": "high-card", "players": list(players[: max(2, len(cards))])})
    for player, card in zip(game.players, cards):
        game.push({"type": "turn", "player": player, "card": card})
    return game


def test_the_highest_rank_wins_aces_high():
    assert turned("KS", "AH", "10D").outcome.winners == ("Ben",)


def test_equal_highest_share_a_draw():
    outcome = turned("QS", "QH", "2C").outcome
    assert outcome.winners == ("Ann", "Ben") and outcome.draw


def test_a_card_is_turned_once_and_in_seating_order():
    game = turned("QS", players=("Ann", "Ben"))
    with pytest.raises(IllegalAction, match="already turned"):
        game.push({"type": "turn", "player": "Ben", "card": "QS"})
    with pytest.raises(IllegalAction, match="Ben's turn"):
        game.push({"type": "turn", "player": "Ann", "card": "2S"})
