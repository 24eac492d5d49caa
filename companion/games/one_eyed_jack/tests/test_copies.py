"""One-Eyed Jack is played with two decks (docs/rules.md, "One-Eyed Jack": 104 cards, every
card twice): once both copies of a card are played or discarded nobody holds it, so it is never
offered as a play, and the rules refuse it, as a play or as a dead card's swap, naming the rule."""

import pytest

from companion.engine import Game
from companion.errors import IllegalAction, LogError
from companion.games.one_eyed_jack.rules import all_copies_out, can_play, cards_for_space, copies_out_reason, targets
from companion.games.one_eyed_jack.board import card_at, spaces_of

HEADER = {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}}


def test_a_card_whose_two_copies_are_played_is_never_offered():
    card = card_at(0, 1)
    first, second = spaces_of(card)
    g = Game(HEADER)
    g.push({"type": "play", "card": card, "at": list(first)})          # Ann: the first copy
    g.push({"type": "play", "card": "JC", "at": [4, 4]})                # Ben: a two-eyed Jack
    g.push({"type": "play", "card": "JS", "remove": [4, 4]})            # Ann takes Ben's chip
    g.push({"type": "play", "card": "JS", "remove": list(first)})       # Ben: the second JS takes Ann's
    # Both JS are gone: neither is offered, and the words say why.
    assert not can_play(g.state, "JS") and targets(g.state, "JS") == []
    assert copies_out_reason("JS") == ("JS can't be played: both copies of JS are already played or "
                                       "discarded (two decks hold every card twice)")
    g.push({"type": "play", "card": card, "at": list(second)})          # Ann: the second copy
    g.push({"type": "play", "card": "JD", "at": list(first)})           # Ben puts a chip on the first space again
    assert can_play(g.state, "JD")                                        # one JD still out there
    assert not can_play(g.state, card) and all_copies_out(g.state, card)


def test_a_card_with_one_copy_left_is_still_offered():
    card = card_at(0, 1)
    first, second = spaces_of(card)
    g = Game(HEADER)
    g.push({"type": "play", "card": card, "at": list(first)})
    assert card in cards_for_space(g.state, *second) and can_play(g.state, card)


def test_a_space_does_not_offer_a_two_eyed_jack_whose_copies_are_both_played():
    g = Game(HEADER)
    g.push({"type": "play", "card": "JC", "at": [4, 4]})
    g.push({"type": "play", "card": "JC", "at": [4, 5]})
    assert cards_for_space(g.state, 5, 5) == [card_at(5, 5), "JD"]


def _both_copies_of_7s_played() -> Game:
    g = Game(HEADER)
    g.push({"type": "play", "card": "7S", "at": [1, 2]})   # Ann: the first 7S
    g.push({"type": "play", "card": "7S", "at": [6, 6]})   # Ben: the second
    g.push({"type": "play", "card": "JS", "remove": [6, 6]})   # Ann takes Ben's chip: (6, 6) is open again
    return g


def test_the_rules_refuse_a_third_copy_of_a_card_and_say_why():
    g = _both_copies_of_7s_played()
    before = g.state
    with pytest.raises(IllegalAction) as refused:
        g.push({"type": "play", "card": "7S", "at": [6, 6]})
    assert str(refused.value) == ("7S can't be played: both copies of 7S are already played or "
                                  "discarded (two decks hold every card twice)")
    assert g.state is before and len(g.actions) == 3
    g.push({"type": "play", "card": "JC", "at": [6, 6]})   # the space itself is still open to a wild Jack


def test_a_dead_card_whose_two_copies_are_out_cannot_be_swapped():
    g = Game(HEADER)
    g.push({"type": "play", "card": "7S", "at": [1, 2]})
    g.push({"type": "play", "card": "7S", "at": [6, 6]})    # 7S is dead, and nobody holds one
    with pytest.raises(IllegalAction, match="^7S can't be swapped: both copies of 7S are already played"):
        g.push({"type": "swap", "card": "7S"})


def test_a_stored_log_with_a_third_copy_names_its_line():
    g = _both_copies_of_7s_played()
    text = g.to_jsonl() + '{"type": "play", "card": "7S", "at": [6, 6]}\n'
    with pytest.raises(LogError) as refused:
        Game.from_text(text)
    assert str(refused.value).startswith("line 5: 7S can't be played: both copies of 7S")
