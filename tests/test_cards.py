"""Reading and writing cards the way the table writes them: rank then suit (10H, JS, AH)."""

import pytest

from companion.cards import Card, CardError, card_code, parse_card

# Written out here rather than taken from the module, so a mistake there shows up.
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}  # spades hearts diamonds clubs


@pytest.mark.parametrize(
    "text, rank, suit",
    [
        ("10H", "10", "H"),
        ("JS", "J", "S"),
        ("AH", "A", "H"),
        ("2C", "2", "C"),
        ("KD", "K", "D"),
        # suit symbols
        ("J\u2660", "J", "S"),
        ("Q\u2665", "Q", "H"),
        ("10\u2666", "10", "D"),
        ("A\u2663", "A", "C"),
        # lower case, in either part
        ("js", "J", "S"),
        ("10h", "10", "H"),
        ("aH", "A", "H"),
        ("Qd", "Q", "D"),
        ("k\u2663", "K", "C"),
        # T for ten
        ("TH", "10", "H"),
        ("th", "10", "H"),
        ("T\u2660", "10", "S"),
        # surrounding spaces
        ("  JS", "J", "S"),
        ("10H  ", "10", "H"),
        ("\t qd \n", "Q", "D"),
    ],
)
def test_reads_every_accepted_spelling(text, rank, suit):
    card = parse_card(text)
    assert card == Card(rank, suit)
    assert (card.rank, card.suit) == (rank, suit)
    # Writing is always the plain form, so logs compare equal however a card was typed.
    assert str(card) == rank + suit
    assert card_code(text) == rank + suit


def test_the_same_card_however_it_is_typed_is_equal():
    spellings = ["10H", "10h", "TH", "th", " 10\u2665 ", "t\u2665"]
    assert {parse_card(s) for s in spellings} == {Card("10", "H")}


@pytest.mark.parametrize(
    "junk, problem",
    [
        ("11H", "rank"),  # no such rank
        ("1H", "rank"),  # an ace is A, not 1
        ("0H", "rank"),
        ("ZS", "rank"),
        ("JJS", "rank"),
        ("JX", "suit"),  # no such suit
        ("10", "suit"),  # a rank and no suit: the 0 is read where the suit should be
        ("J 5", "suit"),
        ("", None),
        ("   ", None),
        ("\u2660", None),  # a suit and no rank
        ("J", None),
    ],
)
def test_rejects_junk_text_with_a_message_naming_the_problem(junk, problem):
    with pytest.raises(CardError) as caught:
        parse_card(junk)
    message = str(caught.value)
    # The message quotes what was typed, so a person can see which card is meant.
    assert repr(junk) in message
    assert "not a card" in message
    if problem is not None:
        assert f"the {problem} must be" in message
    else:
        # Too short to tell rank from suit: the message shows how a card is written.
        assert "10H" in message


@pytest.mark.parametrize("junk", [None, 5, 10.0, ["J", "S"], b"JS"])
def test_rejects_things_that_are_not_text(junk):
    with pytest.raises(CardError) as caught:
        parse_card(junk)
    assert repr(junk) in str(caught.value)
    assert "not a card" in str(caught.value)


def test_card_error_is_a_value_error():
    # Callers that only know ValueError still catch a bad card.
    with pytest.raises(ValueError):
        parse_card("XX")


def test_rank_message_lists_every_rank_and_suit_message_every_suit():
    rank_message = str(pytest.raises(CardError, parse_card, "11H").value)
    for rank in RANKS:
        assert f" {rank}" in rank_message
    suit_message = str(pytest.raises(CardError, parse_card, "JX").value)
    for letter, symbol in SUITS.items():
        assert letter in suit_message and symbol in suit_message


def test_all_52_cards_round_trip_in_every_spelling():
    seen = set()
    for suit, symbol in SUITS.items():
        for rank in RANKS:
            code = rank + suit
            card = parse_card(code)
            assert str(card) == code
            assert parse_card(str(card)) == card
            assert parse_card(code.lower()) == card
            assert parse_card(rank + symbol) == card
            assert parse_card(f" {code} ") == card
            assert card.symbol == rank + symbol
            seen.add(card)
    assert len(seen) == 52


def test_red_suits_are_hearts_and_diamonds():
    assert parse_card("JH").is_red and parse_card("JD").is_red
    assert not parse_card("JS").is_red and not parse_card("JC").is_red
