"""One-Eyed Jack is played with two decks (docs/rules.md, "One-Eyed Jack": 104 cards, every
card twice): once both copies of a card are played or discarded nobody holds it, so it is never
offered as a play; the screen refuses it naming the rule (the log itself still takes it, so
games stored before this replay as they were)."""

from companion.engine import Game
from companion.games.one_eyed_jack import all_copies_out, can_play, cards_for_space, copies_out_reason, targets
from companion.games.one_eyed_jack_board import card_at, spaces_of

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
