"""One-Eyed Jack's rules, each test quoting the line of docs/rules.md ("One-Eyed Jack") it holds.

Long on purpose: one test per rule of the section, each quoting it, and the board's rows checked
against a full scan.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion import random_tables
from companion.cards import RANKS, SUITS
from companion.engine import Game
from companion.errors import IllegalAction, LogError
from companion.games import rules_for
from companion.games.one_eyed_jack.rules import (HAND_SIZES, OneEyedJackRules, OneEyedJackState, all_copies_out, can_play,
                                           cards_for_space, find_rows, is_dead, new_game, removable, targets)
from tests.one_eyed_jack_fill import rowless_plays
from companion.games.one_eyed_jack.board import CORNERS, LAYOUT, LINES, card_at, picture, spaces_of

NAMES = ["Ann", "Ben", "Cat", "Dan"]
RULES = OneEyedJackRules()


def header(players: int) -> dict:
    return {"game": "one-eyed-jack", "players": NAMES[:players], "options": {}}


def put(row: int, col: int, card: str | None = None) -> dict:
    """Play the card a space shows (or ``card``) onto it."""
    return {"type": "play", "card": card or card_at(row, col), "at": [row, col]}


def take(row: int, col: int, card: str = "JS") -> dict:
    return {"type": "play", "card": card, "remove": [row, col]}


def turns(*per_side: list[tuple[int, int]]) -> list[dict]:
    """Plays in seating order, side by side (with 4 players the sides alternate too); the
    last round stops where the lists run out, so earlier sides may have one play more."""
    actions = []
    for i in range(max(len(spaces) for spaces in per_side)):
        for spaces in per_side:
            if i < len(spaces):
                actions.append(put(*spaces[i]))
    return actions


def board_with(chips: dict[tuple[int, int], int]) -> tuple[int | None, ...]:
    board = [None] * 100
    for (r, c), side in chips.items():
        board[r * 10 + c] = side
    return tuple(board)


def state_with(players: int, chips: dict[tuple[int, int], int], **fields) -> OneEyedJackState:
    """A position set up directly: the state is a plain value, so tests may build one."""
    start = new_game(NAMES[:players])
    board = board_with(chips)
    return dataclasses.replace(start, board=board, row_lines=find_rows(board, start.sides), **fields)


def refused(state: OneEyedJackState, action: dict) -> str:
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, action)
    return str(info.value)


def rows_of(chips: dict[tuple[int, int], int], sides: int = 2) -> dict[int, int]:
    counts = Counter()
    for line in find_rows(board_with(chips), sides):
        counts[line.side] += line.count
    return dict(counts)


# Side 1 chips spread so that they never make a row: used as the other player's moves.
HARMLESS = [(8, 1), (8, 3), (8, 5), (8, 7), (6, 2), (6, 8), (1, 8), (3, 8), (9, 5), (7, 6)]


# --- the board -----------------------------------------------------------------------------

def test_layout_every_card_twice_once_per_half_on_opposite_sides():
    # RULES: "Every card but the Jacks shows twice, once in each half, on opposite sides."
    shown = Counter(card for row in LAYOUT for card in row if card)
    non_jacks = {r + s for s in SUITS for r in RANKS if r != "J"}
    assert set(shown) == non_jacks and set(shown.values()) == {2}
    for card in non_jacks:
        (top, bottom) = spaces_of(card)
        assert top[0] < 5 <= bottom[0], card
        assert (top[1] < 5) != (bottom[1] < 5), card  # left in one half, right in the other


def test_layout_corners_are_free_and_nothing_else_is():
    # RULES: "Board: 10x10; the four corners are free."
    assert CORNERS == {(0, 0), (0, 9), (9, 0), (9, 9)}
    assert [(r, c) for r in range(10) for c in range(10) if LAYOUT[r][c] is None] == sorted(CORNERS)
    assert spaces_of("JS") == () and spaces_of("JC") == ()


@pytest.mark.parametrize("space, card", [
    # Worked out by hand from docs/rules.md's words, not from the code:
    # top left, left to right from (0,1): AS 2S 3S 4S / 5S..9S / 10S QS KS AH 2H / 3H..7H / 8H 9H 10H QH KH
    ((0, 1), "AS"), ((0, 4), "4S"), ((1, 0), "5S"), ((2, 1), "QS"), ((2, 3), "AH"), ((4, 4), "KH"),
    # top right, right to left from (0,8): AC 2C 3C 4C / 5C at (1,9) ... / 10C QC KC AD 2D from (2,9)
    ((0, 8), "AC"), ((0, 5), "4C"), ((1, 9), "5C"), ((2, 7), "KC"), ((2, 6), "AD"), ((4, 5), "KD"),
    # bottom left, right to left from (5,4): AC..5C / 6C..10C / QC KC AD 2D 3D / 4D..8D / 9D 10D QD KD, corner last
    ((5, 4), "AC"), ((5, 0), "5C"), ((7, 4), "QC"), ((7, 2), "AD"), ((9, 4), "9D"), ((9, 1), "KD"),
    # bottom right, left to right from (5,5): AS..5S / 6S..10S / QS KS AH 2H 3H / 4H..8H / 9H 10H QH KH, corner last
    ((5, 5), "AS"), ((6, 9), "10S"), ((7, 6), "KS"), ((7, 7), "AH"), ((8, 5), "4H"), ((9, 8), "KH"),
])
def test_layout_spot_checks(space, card):
    # RULES: "Four 5x5 blocks, each filled in rows from the top, skipping its board corner ..."
    assert card_at(*space) == card
    assert space in spaces_of(card)


def test_each_block_holds_two_whole_suits():
    # RULES: "... with one suit A..K (no J) then a second suit: top-left S then H; top-right C then D; ..."
    def block(top, left):
        return Counter(LAYOUT[r][c][-1] for r in range(top, top + 5) for c in range(left, left + 5) if LAYOUT[r][c])

    assert block(0, 0) == {"S": 12, "H": 12}
    assert block(0, 5) == {"C": 12, "D": 12}
    assert block(5, 0) == {"C": 12, "D": 12}
    assert block(5, 5) == {"S": 12, "H": 12}


def test_lines_cover_all_four_directions():
    # RULES: "A row: 5 of your side's chips in a straight line (across, down, diagonal)"
    # 10 across, 10 down, and 11 diagonals of 5 or more each way.
    assert Counter(len(line) for line in LINES) == {10: 22, 9: 4, 8: 4, 7: 4, 6: 4, 5: 4}


def test_picture_shows_every_card_and_the_corners():
    text = picture()
    assert text.count("**") == 4 and text.count("AS") == 2 and text.count("10D") == 2


# --- rows ----------------------------------------------------------------------------------

@pytest.mark.parametrize("direction, five", [
    ("across", [(3, c) for c in range(2, 7)]),
    ("down", [(r, 7) for r in range(2, 7)]),
    ("diagonal down-right", [(2 + i, 3 + i) for i in range(5)]),
    ("diagonal down-left", [(2 + i, 7 - i) for i in range(5)]),
])
def test_five_in_a_line_is_a_row_in_every_direction(direction, five):
    # RULES: "A row: 5 of your side's chips in a straight line (across, down, diagonal)"
    assert rows_of({s: 0 for s in five}) == {0: 1}, direction
    assert rows_of({s: 0 for s in five[:4]}) == {}, direction
    # a gap breaks the line
    assert rows_of({s: 0 for s in five[:2] + five[3:]}) == {}, direction


def test_a_row_made_in_play_is_counted_and_locked():
    # RULES: "Every chip of a line that counts as a row is locked"
    row = [(3, c) for c in range(2, 7)]
    game = Game.from_actions(header(2), turns(row, HARMLESS[:4]))
    summary = game.summary()
    assert summary["rows"] == {"0": 1, "1": 0}
    assert summary["locked"] == [list(s) for s in row]
    assert summary["row_lines"] == [{"side": 0, "spaces": [list(s) for s in row], "count": 1}]
    assert summary["board"][3] == "..00000..."
    assert summary["turn"] == "Ben" and not summary["finished"]


def test_corner_counts_for_every_side():
    # RULES: "a corner counts for every side"
    chips = {(0, c): 0 for c in range(1, 5)}  # 4 chips + the corner (0,0) across
    chips.update({(r, 0): 1 for r in range(1, 5)})  # 4 chips + the same corner down
    assert rows_of(chips) == {0: 1, 1: 1}
    state = state_with(2, chips)
    assert (0, 0) in state.row_lines[0].spaces  # the line is drawn through the corner ...
    assert (0, 0) not in state.locked  # ... but a corner is not a chip
    assert RULES.summary(state)["board"][0] == "*0000....*"


def test_six_and_nine_in_a_line_are_one_row_and_all_locked():
    # RULES: "A line of 5 to 9 is 1 row ... (all 7 of a line of 7)"
    for length in (6, 7, 9):
        chips = {(5, c): 0 for c in range(length)}
        assert rows_of(chips) == {0: 1}, length
        assert state_with(2, chips).locked == set(chips), length


def test_full_line_of_ten_is_two_rows_and_wins():
    # RULES: "a full line of 10 is 2 rows" / "2 players or two teams: first side to 2 rows"
    assert rows_of({(4, c): 0 for c in range(10)}) == {0: 2}
    # a full edge line counts its two corners: 8 chips make a line of 10
    assert rows_of({(0, c): 1 for c in range(1, 9)}) == {1: 2}
    # the long diagonal runs corner to corner too
    assert rows_of({(i, i): 0 for i in range(1, 9)}) == {0: 2}
    # 9 of 10 across is still 1 row; the 10th chip makes it 2 and wins the game
    nine = {(4, c): 0 for c in range(9)}
    state = state_with(2, nine)
    assert state.row_counts == {0: 1, 1: 0}
    after = RULES.apply(state, put(4, 9))
    assert after.row_counts == {0: 2, 1: 0} and after.winner == 0
    assert RULES.summary(after)["winning_rows"] == [{"side": 0, "spaces": [[4, c] for c in range(10)], "count": 2}]


def test_lengthening_a_row_keeps_it_one_row():
    # RULES: "A line of 5 to 9 is 1 row" -- a 6th chip on a row of 5 does not make a second row
    row = [(3, c) for c in range(2, 7)]
    game = Game.from_actions(header(2), turns(row + [(3, 7)], HARMLESS[:6]))
    assert game.summary()["rows"] == {"0": 1, "1": 0}
    assert len(game.summary()["locked"]) == 6 and not game.finished


def test_two_crossing_rows_share_one_chip_and_win():
    # RULES: "Two rows that cross may share one space." / "first side to 2 rows"
    across = [(4, c) for c in (2, 3, 5, 6)]
    down = [(r, 4) for r in (2, 3, 5, 6)]
    game = Game.from_actions(header(2), turns(across + down + [(4, 4)], HARMLESS[:8]))
    summary = game.summary()
    assert summary["rows"] == {"0": 2, "1": 0}
    assert summary["finished"] and summary["winner"] == 0 and summary["winners"] == ["Ann"]
    assert summary["turn"] is None
    lines = [set(map(tuple, line["spaces"])) for line in summary["winning_rows"]]
    assert len(lines) == 2 and lines[0] & lines[1] == {(4, 4)}
    with pytest.raises(IllegalAction, match="The game is over"):
        game.push(put(8, 8))


def test_separate_rows_of_one_side_add_up():
    # RULES: "first side to 2 rows": two rows apart from each other count 2
    chips = {(1, c): 0 for c in range(1, 6)}
    chips.update({(r, 8): 0 for r in range(4, 9)})
    assert rows_of(chips) == {0: 2}


# --- sides and winning ---------------------------------------------------------------------

def test_three_players_win_with_one_row():
    # RULES: "3 players: first to 1 row."
    row = [(r, 3) for r in range(3, 8)]
    third = [(1, 5), (1, 7), (3, 5), (3, 7), (5, 8)]
    game = Game.from_actions(header(3), turns(HARMLESS[:5], third, row))
    summary = game.summary()
    assert summary["rows"] == {"0": 0, "1": 0, "2": 1}
    assert summary["winner"] == 2 and summary["winners"] == ["Cat"] and summary["rows_to_win"] == 1
    assert summary["board"][5] == "...2....1."


def test_two_players_do_not_win_with_one_row():
    # RULES: "2 players or two teams: first side to 2 rows"
    game = Game.from_actions(header(2), turns([(3, c) for c in range(2, 7)], HARMLESS[:4]))
    assert game.summary()["rows"]["0"] == 1 and not game.finished


def test_teams_share_chips_and_rows():
    # RULES: "4 in two teams of partners opposite" -- players 0 and 2 one side, 1 and 3 the other
    game = Game(header(4))
    summary = game.summary()
    assert summary["sides"] == [["Ann", "Cat"], ["Ben", "Dan"]]
    assert summary["player_sides"] == {"Ann": 0, "Ben": 1, "Cat": 0, "Dan": 1}
    # Ann, Ben, Cat, Dan in turn: Ann and Cat together lay one row across, Ben and Dan one down
    across = [(2, c) for c in range(1, 6)]
    down = [(r, 8) for r in range(3, 8)]
    for action in turns(across, down)[:9]:
        game.push(action)
    summary = game.summary()
    assert summary["rows"] == {"0": 1, "1": 0}
    assert summary["board"][2] == ".00000...."
    assert summary["turn"] == "Ben" and summary["turn_side"] == 1


def test_a_team_wins_with_two_rows():
    # RULES: "Win: 2 players or two teams: first side to 2 rows"
    chips = {(2, c): 0 for c in range(1, 6)}
    chips.update({(r, 8): 0 for r in range(4, 8)})
    state = state_with(4, chips, turn=2)  # Cat, Ann's partner, lays the 5th chip down
    after = RULES.apply(state, put(8, 8))
    assert after.winner == 0 and RULES.summary(after)["winners"] == ["Ann", "Cat"]


# --- Jacks -----------------------------------------------------------------------------------

def test_two_eyed_jack_goes_on_any_open_space_but_a_corner():
    # RULES: "JC, JD (two-eyed): wild, any open space that is not a corner."
    state = state_with(2, {(5, 5): 1})
    assert RULES.apply(state, put(3, 3, "JC")).chip((3, 3)) == 0
    assert refused(state, put(0, 0, "JD")) == "Corners are free spaces: nobody plays on them"
    assert refused(state, put(5, 5, "JD")) == "That space is taken"
    assert len(targets(state, "JD")) == 95


def test_card_goes_only_on_its_own_open_spaces():
    # RULES: "put your chip on an open space showing it"
    state = state_with(2, {(1, 2): 1})
    assert refused(state, put(3, 3, "7S")) == "7S goes on a space showing 7S; that space shows 6H"
    assert refused(state, put(1, 2, "7S")) == "That space is taken"
    assert refused(state, put(9, 9, "7S")) == "Corners are free spaces: nobody plays on them"
    assert targets(state, "7S") == [(6, 6)] and targets(state, "7s") == [(6, 6)]
    assert RULES.apply(state, put(6, 6, "7S")).chip((6, 6)) == 0


def test_one_eyed_jack_removes_an_opposing_chip():
    # RULES: "JS, JH (one-eyed): remove one opposing chip not in a row; no chip placed"
    state = state_with(2, {(5, 5): 1, (6, 6): 0})
    after = RULES.apply(state, take(5, 5, "JH"))
    assert after.chip((5, 5)) is None and after.chip((6, 6)) == 0
    assert after.stock == state.stock - 1 and after.turn == 1
    assert targets(state, "JS") == [(5, 5)]


def test_one_eyed_jack_refused_on_a_locked_chip():
    # RULES: "remove one opposing chip not in a row" / "Every chip of a line that counts as a row is locked"
    chips = {(3, c): 1 for c in range(2, 7)}
    chips[(8, 8)] = 1
    state = state_with(2, chips)
    assert refused(state, take(3, 4)) == "You can't remove a chip that is part of a row"
    assert removable(state) == [(8, 8)]
    # the same row, made by playing, stays whole after a one-eyed Jack
    game = Game.from_actions(header(2), turns(HARMLESS[:6], [(1, 1)] + [(3, c) for c in range(2, 7)]))
    for space in ([3, 2], [3, 6]):
        with pytest.raises(IllegalAction, match="part of a row"):
            game.push({"type": "play", "card": "JS", "remove": space})
    assert game.summary()["rows"]["1"] == 1
    game.push(take(1, 1))  # Ben's loose chip is fair game


def test_one_eyed_jack_refused_on_a_partners_chip_and_your_own():
    # RULES: "never a partner's"
    state = state_with(4, {(5, 5): 0, (6, 6): 1}, turn=2)  # Cat's turn; (5,5) is Ann's side
    assert refused(state, take(5, 5)).startswith("You can't remove your partner's chip")
    assert RULES.apply(state, take(6, 6)).chip((6, 6)) is None
    two = state_with(2, {(5, 5): 0, (6, 6): 1})
    assert refused(two, take(5, 5)) == "You can't remove your own chip"


def test_one_eyed_jack_refused_on_empty_space_and_corner():
    state = state_with(2, {(6, 6): 1})
    assert refused(state, take(5, 5)) == "There is no chip on that space to remove"
    assert refused(state, take(9, 0)) == "Corners are free spaces: there is no chip on them to remove"
    assert refused(state, put(6, 6, "JS")).startswith("JS is a one-eyed Jack: it places no chip")
    assert refused(state, take(6, 6, "7S")).startswith("Only a one-eyed Jack (JS or JH) removes a chip")


def test_one_eyed_jack_not_playable_without_a_chip_to_take_and_not_dead():
    # RULES: "not playable when no chip can be removed (and then not a dead card)"
    state = state_with(2, {(5, 5): 0, **{(3, c): 1 for c in range(2, 7)}})
    assert refused(state, take(3, 3)) == "JS can't be played: there is no chip it can remove"
    assert not can_play(state, "JH") and not is_dead(state, "JH")
    assert refused(state, {"type": "swap", "card": "JH"}).startswith("You can only swap a dead card")


# --- dead cards and swaps ------------------------------------------------------------------

def test_dead_card_swap():
    # RULES: "optionally swap one dead card (both its spaces hold chips: discard, draw). Then play"
    # One 7S and a two-eyed Jack fill both 7S spaces: Ann may still hold the other 7S.
    game = Game.from_actions(header(2), [put(1, 2), put(6, 6, "JC")])
    assert is_dead(game.state, "7S") and not can_play(game.state, "7S")
    stock = game.summary()["stock"]
    game.push({"type": "swap", "card": "7S"})
    summary = game.summary()
    assert summary["stock"] == stock - 1 and summary["discards"] == 3
    assert summary["turn"] == "Ann" and summary["swapped_this_turn"]
    with pytest.raises(IllegalAction, match="^Only one swap a turn$"):
        game.push({"type": "swap", "card": "7S"})
    game.push(put(0, 1))
    summary = game.summary()
    assert summary["turn"] == "Ben" and not summary["swapped_this_turn"] and summary["stock"] == stock - 2


def test_swap_refused_for_a_live_card_and_a_jack():
    # RULES: "swap one dead card (both its spaces hold chips)"
    state = state_with(2, {(1, 2): 1})
    assert refused(state, {"type": "swap", "card": "7S"}) == (
        "You can only swap a dead card (both its spaces have chips): 7S still has an open space")
    assert "a Jack has no spaces" in refused(state, {"type": "swap", "card": "JC"})


def test_playing_a_dead_card_says_it_may_be_swapped():
    state = state_with(2, {(1, 2): 1, (6, 6): 0})
    assert refused(state, put(1, 2, "7S")) == (
        "That space is taken (both 7S spaces have chips, so 7S is a dead card: you may swap it)")


def test_cards_for_space_and_card_at():
    state = state_with(2, {(6, 6): 1, (5, 5): 0, **{(3, c): 1 for c in range(2, 7)}})
    assert cards_for_space(state, 0, 1) == ["AS", "JC", "JD"]
    assert cards_for_space(state, 6, 6) == ["JS", "JH"]  # Ben's loose chip, and it is Ann's turn
    assert cards_for_space(state, 5, 5) == []  # Ann's own chip
    assert cards_for_space(state, 3, 4) == []  # locked
    assert cards_for_space(state, 0, 0) == [] and card_at(0, 0) is None


# --- the stock -----------------------------------------------------------------------------

@pytest.mark.parametrize("players, stock", [(2, 90), (3, 86), (4, 84)])
def test_stock_after_the_deal(players, stock):
    # RULES: "Deal 7 each (2 players), 6 (3 players), 5 (4 players)" from 104 cards
    summary = Game(header(players)).summary()
    assert summary["stock"] == stock and summary["hand_size"] == HAND_SIZES[players]


def _near_the_end_of_the_stock(stock: int, rebuilt: bool = False) -> OneEyedJackState:
    """Ann to play, ``stock`` cards left and the rest of the deck on the discard pile, two copies
    of each card (no chips on the board, as if each of those chips had been taken again); the
    cards shown in column 2 of rows 1 to 4 are not among them, so they can still be played."""
    dealt = 2 * HAND_SIZES[2]
    kept = {card_at(r, 2) for r in range(1, 5)}
    cards = sorted({c for row in LAYOUT for c in row if c and c not in kept})
    discarded = tuple(card for card in cards for _ in range(2))[:104 - dealt - stock]
    return state_with(2, {}, stock=stock, discards=len(discarded), discarded=discarded, rebuilt=rebuilt)


def test_stock_runs_out_twice_rebuild_then_draw():
    # RULES: "The stock runs out when its last card is drawn. The first time, the discards become
    # the new stock; the second time, the game is a draw at once."
    # 89 chips laid by the two players in turn, no row made: one card is left in the stock.
    game = Game.from_actions(header(2), rowless_plays(89, last=((1, 2), (2, 2))))
    assert game.summary()["stock"] == 1 and game.summary()["discards"] == 89
    game.push(put(2, 2))     # Ben draws the stock's last card
    summary = game.summary()
    assert summary["reshuffle"] and summary["stock_rebuilt"]
    assert summary["stock"] == 90 and summary["discards"] == 0 and not summary["finished"]
    assert "shuffle the discards into a new stock" in "\n".join(RULES.describe(game.state))
    game.push(put(1, 2))
    assert not game.summary()["reshuffle"] and game.summary()["stock"] == 89
    # The new stock is the old discards: both copies of every card can be played again.
    assert not all_copies_out(game.state, card_at(0, 1))

    # The second run-out, set up directly (the board is too full for 90 more legal cards).
    state = _near_the_end_of_the_stock(2, rebuilt=True)
    game_state = RULES.apply(RULES.apply(state, put(1, 2)), put(2, 2))
    summary = RULES.summary(game_state)
    assert summary["finished"] and summary["draw"] and summary["draw_reason"] == "stock"
    assert summary["winner"] is None and summary["turn"] is None and summary["stock"] == 0
    assert refused(game_state, {"type": "pass"}).startswith("The game is over")


def test_stock_counts_down_one_card_an_action_through_a_real_game():
    # RULES: "play a card and put your chip on an open space showing it, then draw"
    game = Game(header(2))
    for row in (1, 2, 3, 4):
        for col in (2, 7):
            game.push(put(row, col))
    summary = game.summary()
    assert summary["stock"] == 90 - 8 and summary["discards"] == 8


def test_a_swap_can_take_the_stocks_last_card():
    # RULES: "The stock runs out when its last card is drawn" -- a swap draws too
    state = state_with(2, {(1, 2): 1, (6, 6): 0}, stock=1, discards=40)
    after = RULES.apply(state, {"type": "swap", "card": "7S"})
    assert after.reshuffle and after.stock == 41 and after.discards == 0 and after.turn == 0
    second = dataclasses.replace(state, rebuilt=True)
    assert RULES.apply(second, {"type": "swap", "card": "7S"}).draw == "stock"


def test_a_win_on_the_last_card_is_a_win_not_a_draw():
    # Ruling: the game ends as the winning chip goes down, before the card is drawn.
    state = state_with(2, {(4, c): 0 for c in range(9)}, stock=1, rebuilt=True)
    after = RULES.apply(state, put(4, 9))
    assert after.winner == 0 and after.draw is None and after.stock == 1


# --- passing -------------------------------------------------------------------------------

def test_every_player_passing_in_a_row_is_a_draw():
    # RULES: "You must play if you can; otherwise pass. Every player passing in a row is a draw."
    game = Game.from_actions(header(3), [{"type": "pass"}] * 2)
    assert game.summary()["passes_in_row"] == 2 and not game.finished
    assert game.summary()["stock"] == 86  # a pass draws no card
    game.push({"type": "pass"})
    summary = game.summary()
    assert summary["draw"] and summary["draw_reason"] == "passes" and summary["finished"]


def test_a_play_breaks_the_run_of_passes():
    game = Game.from_actions(header(3), [{"type": "pass"}, {"type": "pass"}, put(0, 1),
                                         {"type": "pass"}, {"type": "pass"}])
    assert game.summary()["passes_in_row"] == 2 and not game.finished


def test_a_swap_then_pass_still_counts_as_a_pass():
    # Ruling: only a play breaks a run of passes; a swap changes a hand, not the board.
    state = state_with(2, {(1, 2): 1, (6, 6): 0}, passes=1, turn=1)
    after = RULES.apply(RULES.apply(state, {"type": "swap", "card": "7S"}), {"type": "pass"})
    assert after.draw == "passes"


# --- the header and bad logs ---------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    # RULES: "2 players, 3 players, or 4 in two teams"
    names = ["A", "B", "C", "D", "E"][:players]
    with pytest.raises(LogError, match="^line 1: One-Eyed Jack is played by 2 or 3 players"):
        Game.from_text(json.dumps({"game": "one-eyed-jack", "players": names}))


def test_options_are_refused():
    with pytest.raises(LogError, match="^line 1: unknown option 'target'"):
        Game.from_text(json.dumps({"game": "one-eyed-jack", "players": ["A", "B"], "options": {"target": 3}}))


def test_bad_log_names_the_line_and_the_rule():
    lines = [json.dumps(header(2)), json.dumps(put(1, 2)), "", json.dumps(put(3, 3, "7S"))]
    with pytest.raises(LogError) as info:
        Game.from_text("\n".join(lines))
    assert str(info.value) == "line 4: 7S goes on a space showing 7S; that space shows 6H"
    lines = [json.dumps(header(2)), json.dumps(put(1, 2)), json.dumps(put(0, 1)), json.dumps(take(5, 5))]
    with pytest.raises(LogError, match="^line 4: There is no chip on that space to remove$"):
        Game.from_text("\n".join(lines))
    lines = [json.dumps(header(2)), json.dumps(put(1, 2)), json.dumps(take(1, 2, "JH")), json.dumps(take(1, 2))]
    with pytest.raises(LogError, match="^line 4: JS can't be played: there is no chip it can remove$"):
        Game.from_text("\n".join(lines))
    lines = [json.dumps(header(2)), json.dumps({"type": "swap", "card": "7S"})]
    with pytest.raises(LogError, match=r"^line 2: You can only swap a dead card \(both its spaces have chips\)"):
        Game.from_text("\n".join(lines))
    lines = [json.dumps(header(2)), json.dumps({"type": "play", "card": "7S", "at": [1, 10]})]
    with pytest.raises(LogError, match=r'^line 2: "at" must be \[row, column\]'):
        Game.from_text("\n".join(lines))
    lines = [json.dumps(header(2)), json.dumps({"type": "play", "card": "1S", "at": [1, 2]})]
    with pytest.raises(LogError, match="^line 2: '1S' is not a card"):
        Game.from_text("\n".join(lines))
    lines = [json.dumps(header(2)), json.dumps({"type": "round"})]
    with pytest.raises(LogError, match='^line 2: One-Eyed Jack has the actions "play", "swap" and "pass"'):
        Game.from_text("\n".join(lines))


def test_an_illegal_action_changes_nothing():
    game = Game.from_actions(header(2), [put(1, 2)])
    before = game.summary()
    with pytest.raises(IllegalAction):
        game.push(put(1, 2, "JC"))
    assert game.summary() == before and len(game.actions) == 1


def test_registered_under_its_log_name():
    assert isinstance(rules_for("one-eyed-jack"), OneEyedJackRules)


# --- a whole random game, undone back to the start -----------------------------------------

def play_random_game(players: int, seed: int) -> tuple[Game, list[str]]:
    """Real cards: a shuffled double deck, real hands, a real stock; every move a legal one
    (companion/random_tables.py).

    Checks on the way that the companion's stock count is the real stock's size and that it
    asks for the reshuffle exactly when the real stock runs out. Returns the game and what happened.
    """
    game = table = None
    for game, table in random_tables.one_eyed_jack(seed, players, names=NAMES):
        if table.drew:
            assert game.summary()["reshuffle"] == table.just_rebuilt
            assert game.summary()["stock"] == len(table.stock)
    return game, table.events


def check_locks_never_break(game: Game) -> None:
    """RULES: "Every chip of a line that counts as a row is locked": once locked, always there."""
    seen: dict[tuple[int, int], int] = {}
    rows_before = None
    for count in range(len(game.actions) + 1):
        state = game.state_after(count)
        for space, side in seen.items():
            assert state.chip(space) == side and space in state.locked
        seen.update({s: state.chip(s) for s in state.locked})
        rows = state.row_counts
        if rows_before:
            assert all(rows[s] >= rows_before[s] for s in rows)
        rows_before = rows


# Between them these games win, rebuild the stock, pass, and draw by passing (2 players and 4).
SEEDS = [(2, 1), (2, 4), (3, 1), (3, 2), (4, 1), (4, 13)]


@pytest.mark.parametrize("players, seed", SEEDS)
def test_random_game_to_the_end_keeps_its_locks_and_replays(players, seed):
    # ARCHITECTURE: "a random-play test undoes every game back to the start and checks each state"
    game, events = play_random_game(players, seed)
    assert game.finished and len(game.actions) > 20
    check_locks_never_break(game)
    json.dumps(game.summary())  # replay --json must be able to print every state
    text = game.to_jsonl()
    assert Game.from_text(text).state == game.state
    # Undo back to the start is checked for every game at once, in tests/test_undo.py.


@pytest.mark.parametrize("players, seed", SEEDS)
def test_rows_found_after_each_action_are_the_whole_boards_rows(players, seed):
    # docs/rules.md, "One-Eyed Jack": a row is five or more in a line, anywhere on the board. The
    # rules look only at the lines through the chip just placed or taken; every state's rows must
    # still be exactly those a scan of the whole board finds, in the same order.
    game, _ = play_random_game(players, seed)
    for count in range(len(game.actions) + 1):
        state = game.state_after(count)
        assert state.row_lines == find_rows(state.board, state.sides)


def test_random_games_reach_every_ending():
    # The seeds are not all alike: the test above covers wins, rebuilds, passes and pass draws.
    events = Counter()
    for players, seed in SEEDS:
        events.update(play_random_game(players, seed)[1])
    assert events["win"] >= 1 and events["rebuild"] >= 1 and events["pass"] >= 1 and events["draw:passes"] >= 1


# --- replay on the command line ------------------------------------------------------------

def jack_companion(*args: str) -> subprocess.CompletedProcess:
    command = Path(sys.executable).with_name("jack-companion")
    assert command.exists(), "the package is not installed beside this Python"
    return subprocess.run([str(command), *args], capture_output=True, text=True, timeout=60)


def test_replay_json(tmp_path):
    across = [(4, c) for c in (2, 3, 5, 6)]
    down = [(r, 4) for r in (2, 3, 5, 6)]
    actions = turns(across + down + [(4, 4)], HARMLESS[:8])
    log = tmp_path / "one-eyed.jsonl"
    log.write_text(Game.from_actions(header(2), actions).to_jsonl(), encoding="utf-8")
    done = jack_companion("replay", "--json", str(log))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["game"] == "one-eyed-jack" and summary["turn"] is None
    assert summary["board"][4] == "..00000..." and summary["board"][0] == "*........*"
    assert summary["board"][8] == ".1.1.1.1.."
    assert len(summary["board"]) == 10 and all(len(row) == 10 for row in summary["board"])
    assert sorted(map(tuple, summary["locked"])) == sorted(set(across + down + [(4, 4)]))
    assert summary["rows"] == {"0": 2, "1": 0}
    assert summary["stock"] == 90 - 16  # Ann's winning play draws no card
    assert summary["finished"] and summary["winner"] == 0 and summary["draw"] is False
    # the plain replay says who won
    done = jack_companion("replay", str(log))
    assert done.returncode == 0 and "Game over: Ann wins with 2 rows" in done.stdout


def test_replay_of_a_bad_log_names_the_line(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in [header(2), put(1, 2), put(0, 0, "JD")]) + "\n")
    done = jack_companion("replay", "--json", str(log))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "line 3: Corners are free spaces: nobody plays on them"


def test_the_winning_play_draws_no_card():
    """docs/rules.md, "One-Eyed Jack", Win: the winning play ends the game at once: the
    winner draws no card."""
    chips = {(2, c): 0 for c in range(1, 5)}
    chips.update({(r, 8): 0 for r in range(4, 9)})
    state = state_with(2, chips, turn=0)
    after = RULES.apply(state, put(2, 5))
    assert after.winner == 0 and RULES.summary(after)["stock"] == RULES.summary(state)["stock"]
