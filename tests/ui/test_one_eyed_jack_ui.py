"""One-Eyed Jack played by touch through the real window, the board read off its widget.

The board as docs/rules.md builds it (row 0 at the top, column 0 at the left), the rows used here:

      0   1   2   3   4   5   6   7   8   9
 1   5S  6S  7S  8S  9S  9C  8C  7C  6C  5C
 3   3H  4H  5H  6H  7H  7D  6D  5D  4D  3D
 4   8H  9H 10H  QH  KH  KD  QD 10D  9D  8D
 5   5C  4C  3C  2C  AC  AS  2S  3S  4S  5S
 6  10C  9C  8C  7C  6C  6S  7S  8S  9S 10S
 8   8D  7D  6D  5D  4D  4H  5H  6H  7H  8H
 9   **  KD  QD 10D  9D  9H 10H  QH  KH  **

So 7S shows at (1, 2) and (6, 6), KH at (4, 4) and (9, 8), 5H at (3, 2) and (8, 6), 6D at
(3, 6) and (8, 2). Two players: 7 cards each, a stock of 104 - 14 = 90, one card drawn per play
or swap; 2 rows win. Every expectation below is worked out by hand from those lines.
"""

from __future__ import annotations

import pytest

from tests.ui.conftest import ensure_players, tap_text, visible

pytestmark = pytest.mark.ui

CORNERS = {(0, 0), (0, 9), (9, 0), (9, 9)}
EVERY_SPACE = {(r, c) for r in range(10) for c in range(10)}


# -- reading and touching the screen ---------------------------------------------------------

def tap_cell(driver, screen, row, col):
    """A finger on the board's space (row, col), where it shows on the glass."""
    driver.tap_at(*screen.ids.board.cell_window_centre(row, col))


def pick(driver, screen, rank, suit):
    driver.tap(screen.rank_buttons[rank])
    driver.tap(screen.suit_buttons[suit])


def chips(screen) -> dict:
    """What the board shows: each space holding a chip, and whose."""
    return {divmod(i, 10): side for i, side in enumerate(screen.ids.board.chips) if side is not None}


def lit(screen) -> set:
    return {tuple(s) for s in screen.ids.board.highlighted}


def rows_drawn(screen) -> list:
    return [(side, [tuple(s) for s in spaces], count) for side, spaces, count in screen.ids.board.row_lines]


def stored(app, screen) -> list:
    return app.store.log(screen.session.game_id)[1]


def refused(app, screen, before: int, words: str):
    assert app.root.notice_kind == "error" and words in app.root.notice, app.root.notice
    assert len(stored(app, screen)) == before, "a refused tap stores nothing"


def roster_button(setup, name):
    return next(b for b in setup.ids.roster.children if b.player_name == name)


def open_setup(driver, app):
    app.show("home")
    driver.pump(2)
    tap_text(driver, "[size=30sp]One-Eyed Jack[/size]\nRows of five on the board")
    setup = app.manager.current_screen
    assert setup.name == "one-eyed-jack-setup"
    for name in list(setup.chosen):   # the last game's table is offered: these tests seat their own
        driver.tap(roster_button(setup, name))
    return setup


def new_session(app, players):
    from companion.session import Session

    return Session.start(app.store, {"game": "one-eyed-jack", "players": list(players), "options": {}})


# -- the tests ---------------------------------------------------------------------------------

def test_four_players_sit_in_two_teams_and_the_first_player_leads(driver, app):
    ensure_players(driver, app, ["Ann", "Ben", "Cat", "Dan"])
    setup = open_setup(driver, app)
    tap_text(driver, "4 in two teams", setup)
    assert "Deal 5 cards each" in setup.ids.deal_label.text and "84 in the stock" in setup.ids.deal_label.text
    for name in ["Ann", "Ben", "Cat", "Dan"]:
        driver.tap(roster_button(setup, name))
    # The companion draws the first player as soon as the four are chosen.
    assert setup.first in {"Ann", "Ben", "Cat", "Dan"} and "drawn at random" in setup.ids.first_label.text
    tap_text(driver, "Cat", setup.ids.first_row)
    assert setup.ids.first_label.text == "Cat goes first."
    # Partners sit opposite: seats 1 & 3 (Ann, Cat) against 2 & 4 (Ben, Dan).
    assert "Ann & Cat" not in setup.sides_text and "Cat & Ann" in setup.sides_text
    assert "Dan & Ben" in setup.sides_text
    driver.tap(setup.ids.start_button)

    screen = app.manager.current_screen
    assert screen.name == "one-eyed-jack"
    header, actions = app.store.log(screen.session.game_id)
    # Turned so Cat leads, still clockwise: Cat, Dan, Ann, Ben; sides 0 = Cat & Ann, 1 = Dan & Ben.
    assert header == {"game": "one-eyed-jack", "players": ["Cat", "Dan", "Ann", "Ben"], "options": {}}
    assert actions == []
    assert screen.ids.turn_label.text == "Cat's turn"
    assert [(t.side, t.names, t.rows) for t in screen.side_tiles] == [(0, "Cat & Ann", 0), (1, "Dan & Ben", 0)]
    assert screen.stock_text == "Stock\n84"


def test_turned_to_portrait_the_roster_shows_its_second_row_and_takes_its_taps(driver, app, players_leave):
    """A landscape set-up turned to portrait: three names a row, so Dan is on the second row,
    which must be on screen and answer a tap (it kept landscape's one-row height before)."""
    ensure_players(driver, app, ["Ann", "Ben", "Cat", "Dan", "Eve", "Finn"])
    setup = open_setup(driver, app)
    driver.resize(720, 1280)
    tap_text(driver, "4 in two teams", setup)
    for name in ["Ann", "Ben", "Cat", "Dan"]:
        driver.tap(roster_button(setup, name))
    assert setup.chosen == ["Ann", "Ben", "Cat", "Dan"]
    dan = roster_button(setup, "Dan")
    scroll = setup.ids.roster.parent
    assert scroll.height >= setup.ids.roster.height, "every row of the roster in sight"
    assert dan.y >= 0 and dan.top <= setup.ids.roster.height


def test_a_side_in_the_set_up_changes_colour_with_its_first_player(driver, app):
    """Each side shows in its first player's colour, as its chips will on the board: a player
    given another colour on the Players screen brings their side the new colour."""
    from kivy.utils import get_hex_from_color

    from ui.widgets.board import SIDE_SYMBOLS

    ensure_players(driver, app, ["Ann", "Ben"])
    setup = open_setup(driver, app)
    tap_text(driver, "2 players", setup)
    for name in ["Ann", "Ben"]:
        driver.tap(roster_button(setup, name))
    tap_text(driver, "Ann", setup.ids.first_row)   # Ann leads: side 0 is Ann's
    before = app.player_colour("Ann")
    assert list(setup.side_colours[0]) == list(before)
    assert list(roster_button(setup, "Ann").chosen_colour) == list(before)

    players = app.show("players")
    driver.pump(2)
    players.next_colour(next(p.id for p in app.store.players() if p.name == "Ann"))
    after = app.player_colour("Ann")
    assert list(after) != list(before)

    app.show("one-eyed-jack-setup")
    driver.pump(2)
    assert setup.chosen == ["Ann", "Ben"] and setup.first == "Ann"
    assert list(setup.side_colours[0]) == list(after)
    assert list(roster_button(setup, "Ann").chosen_colour) == list(after)
    assert f"[color={get_hex_from_color(after)}]{SIDE_SYMBOLS[0]}[/color] Ann" in setup.sides_text
    assert list(setup.side_colours[1]) == list(app.player_colour("Ben"))   # Ben's side is as it was


def test_a_two_player_game_by_touch(driver, app):
    ensure_players(driver, app, ["Ann", "Ben"])
    setup = open_setup(driver, app)
    tap_text(driver, "2 players", setup)
    assert "Deal 7 cards each" in setup.ids.deal_label.text and "90 in the stock" in setup.ids.deal_label.text
    driver.tap(roster_button(setup, "Ann"))
    driver.tap(roster_button(setup, "Ben"))
    tap_text(driver, "Ann", setup.ids.first_row)
    driver.tap(setup.ids.start_button)

    screen = app.manager.current_screen
    assert screen.name == "one-eyed-jack"
    assert app.store.log(screen.session.game_id)[0]["players"] == ["Ann", "Ben"]
    assert screen.ids.turn_label.text == "Ann's turn" and chips(screen) == {}

    # 1. Ann plays 7S with the picker: both 7S spaces light, and a tap puts her chip on one.
    pick(driver, screen, "7", "S")
    assert lit(screen) == {(1, 2), (6, 6)}
    tap_cell(driver, screen, 1, 2)
    assert chips(screen) == {(1, 2): 0}
    assert screen.ids.turn_label.text == "Ben's turn" and screen.stock_text == "Stock\n89"
    assert lit(screen) == set() and len(stored(app, screen)) == 1

    # 2. Ben taps a space straight away: it shows KH, so KH is chosen and its two spaces light.
    #    Tapped near the cell's corner: the whole cell is the target.
    board = screen.ids.board
    x, y, w, h = board.cell_rect(4, 4)
    driver.tap_at(*board.to_window(x + 3, y + h - 3))
    assert (screen.rank, screen.suit) == ("K", "H")
    assert lit(screen) == {(4, 4), (9, 8)}
    tap_cell(driver, screen, 4, 4)
    assert chips(screen) == {(1, 2): 0, (4, 4): 1}

    # 3. Ann: 5H, picked from its space.
    tap_cell(driver, screen, 3, 2)
    assert lit(screen) == {(3, 2), (8, 6)}
    tap_cell(driver, screen, 3, 2)

    # 4. Ben: a one-eyed Jack lights Ann's chips (none is in a row yet) and takes one off.
    pick(driver, screen, "J", "S")
    assert lit(screen) == {(1, 2), (3, 2)}
    tap_cell(driver, screen, 1, 2)
    assert chips(screen) == {(3, 2): 0, (4, 4): 1}
    assert stored(app, screen)[-1] == {"type": "play", "card": "JS", "remove": [1, 2]}

    # 5. Ann: a two-eyed Jack lights every open space but the corners. A tap on Ben's chip is
    #    refused with the rules' reason, and nothing is stored.
    pick(driver, screen, "J", "D")
    assert lit(screen) == EVERY_SPACE - CORNERS - {(3, 2), (4, 4)}
    before = len(stored(app, screen))
    tap_cell(driver, screen, 4, 4)
    refused(app, screen, before, "That space is taken")
    assert chips(screen) == {(3, 2): 0, (4, 4): 1} and screen.ids.turn_label.text == "Ann's turn"
    tap_cell(driver, screen, 3, 3)
    assert chips(screen) == {(3, 2): 0, (3, 3): 0, (4, 4): 1}
    assert stored(app, screen)[-1] == {"type": "play", "card": "JD", "at": [3, 3]}

    # 6. Ben puts a two-eyed Jack on the other KH space: KH is now a dead card, and the second
    #    KH is still in someone's hand (two decks hold every card twice).
    pick(driver, screen, "J", "C")
    tap_cell(driver, screen, 9, 8)
    assert stored(app, screen)[-1] == {"type": "play", "card": "JC", "at": [9, 8]}
    assert chips(screen)[(9, 8)] == 1
    stock = screen.session.view().stock
    assert screen.stock_text == f"Stock\n{stock}" and stock == 90 - 6

    # 7. Ann holds a KH: shown dead, swapped once (the stock gives a card, the turn stays), and
    #    a second swap in the same turn is refused.
    pick(driver, screen, "K", "H")
    assert screen.dead and lit(screen) == set()
    assert screen.suit_buttons["H"].note == "dead" and "dead" in screen.ids.status_label.text
    assert screen.ids.swap_button.primary
    driver.tap(screen.ids.swap_button)
    assert stored(app, screen)[-1] == {"type": "swap", "card": "KH"}
    assert screen.stock_text == f"Stock\n{stock - 1}" and screen.ids.turn_label.text == "Ann's turn"
    pick(driver, screen, "K", "H")
    before = len(stored(app, screen))
    driver.tap(screen.ids.swap_button)
    refused(app, screen, before, "Only one swap a turn")
    driver.tap(screen.rank_buttons["K"])  # a second tap takes the choice back
    assert screen.card == ""
    tap_cell(driver, screen, 3, 4)  # 7H, picked from its space
    assert (screen.rank, screen.suit) == ("7", "H")
    tap_cell(driver, screen, 3, 4)

    # 8. Ben: AS. 9. Ann: 7D. 10. Ben passes (he says he cannot play).
    tap_cell(driver, screen, 5, 5)
    tap_cell(driver, screen, 5, 5)
    tap_cell(driver, screen, 3, 5)
    tap_cell(driver, screen, 3, 5)
    driver.tap(screen.ids.pass_button)
    assert stored(app, screen)[-1] == {"type": "pass"}
    assert screen.ids.turn_label.text == "Ann's turn"
    assert chips(screen) == {(3, 2): 0, (3, 3): 0, (3, 4): 0, (3, 5): 0, (4, 4): 1, (5, 5): 1, (9, 8): 1}
    assert rows_drawn(screen) == []

    # 11. Ann's 6D completes five in a line across row 3: a row, drawn and locked.
    row3 = [(3, 2), (3, 3), (3, 4), (3, 5), (3, 6)]
    tap_cell(driver, screen, 3, 6)
    tap_cell(driver, screen, 3, 6)
    assert rows_drawn(screen) == [(0, row3, 1)]
    assert sorted(tuple(s) for s in screen.ids.board.locked) == row3
    assert [t.rows for t in screen.side_tiles] == [1, 0]
    assert "A row for Ann" in app.root.notice

    # Undo in one tap: the row goes, the chip goes, and 6D comes back chosen with its spaces lit.
    count = len(stored(app, screen))
    driver.tap(screen.ids.undo_button)
    assert len(stored(app, screen)) == count - 1
    assert rows_drawn(screen) == [] and list(screen.ids.board.locked) == []
    assert (3, 6) not in chips(screen) and screen.ids.turn_label.text == "Ann's turn"
    assert (screen.rank, screen.suit) == ("6", "D") and lit(screen) == {(3, 6), (8, 2)}
    tap_cell(driver, screen, 3, 6)
    assert rows_drawn(screen) == [(0, row3, 1)] and screen.ids.turn_label.text == "Ben's turn"

    # 12. Ben: 5C. 13. Ann: 7S at (6, 6), a chip outside her row.
    tap_cell(driver, screen, 5, 0)
    tap_cell(driver, screen, 5, 0)
    pick(driver, screen, "7", "S")
    assert lit(screen) == {(1, 2), (6, 6)}
    tap_cell(driver, screen, 6, 6)

    # 14. Ben's one-eyed Jack lights only Ann's chip outside the row; a chip in the row is refused.
    pick(driver, screen, "J", "H")
    assert lit(screen) == {(6, 6)}
    before = len(stored(app, screen))
    tap_cell(driver, screen, 3, 3)
    refused(app, screen, before, "You can't remove a chip that is part of a row")
    assert chips(screen)[(3, 3)] == 0
    tap_cell(driver, screen, 6, 6)
    assert (6, 6) not in chips(screen)
    assert chips(screen) == {**{s: 0 for s in row3}, (4, 4): 1, (5, 0): 1, (5, 5): 1, (9, 8): 1}
    assert screen.ids.turn_label.text == "Ann's turn"

    # The log holds exactly what the table did, in order.
    assert [a.get("at") or a.get("remove") or a["type"] for a in stored(app, screen)] == [
        [1, 2], [4, 4], [3, 2], [1, 2], [3, 3], [9, 8], "swap", [3, 4], [5, 5], [3, 5], "pass",
        [3, 6], [5, 0], [6, 6], [6, 6]]


def test_a_win_shows_the_winning_rows(driver, app):
    """Ann's second row crosses her first at (3, 4): two rows win, both drawn in gold."""
    from ui.games.one_eyed_jack.scenes import WON

    session = new_session(app, ["Ann", "Ben"])
    for action in WON[:-1]:
        session.play(action)
    screen = app.open_session(session)
    driver.pump(3)
    # Ann's last chip goes on (5, 4), which shows AC: picked from its space, then placed.
    tap_cell(driver, screen, 5, 4)
    assert (screen.rank, screen.suit) == ("A", "C")
    tap_cell(driver, screen, 5, 4)
    across = [(3, 2), (3, 3), (3, 4), (3, 5), (3, 6)]
    down = [(1, 4), (2, 4), (3, 4), (4, 4), (5, 4)]
    assert sorted(rows_drawn(screen)) == sorted([(0, across, 1), (0, down, 1)])
    winning = [(side, [tuple(s) for s in spaces], n) for side, spaces, n in screen.ids.board.winning]
    assert sorted(winning) == sorted([(0, across, 1), (0, down, 1)])
    assert screen.ids.turn_label.text == "Ann wins!"
    assert "2 rows" in screen.ids.result_label.text
    assert visible(screen.ids.new_game_button) and not visible(screen.rank_buttons["A"])
    assert app.store.record(session.game_id).status == "finished"
    # A tap on the board now plays nothing.
    before = len(stored(app, screen))
    tap_cell(driver, screen, 7, 7)
    assert app.root.notice_kind == "error" and len(stored(app, screen)) == before
    driver.tap(screen.ids.undo_button)
    assert screen.ids.turn_label.text == "Ann's turn" and not screen.finished


def test_every_player_passing_is_a_draw(driver, app):
    session = new_session(app, ["Ann", "Ben", "Cat"])
    screen = app.open_session(session)
    driver.pump(3)
    assert [t.names for t in screen.side_tiles] == ["Ann", "Ben", "Cat"]
    for name in ["Ann", "Ben", "Cat"]:
        assert screen.ids.turn_label.text == f"{name}'s turn"
        driver.tap(screen.ids.pass_button)
    assert screen.ids.turn_label.text == "A draw"
    assert "Every player passed" in screen.ids.result_label.text
    assert screen.ids.pass_button.disabled


def test_the_table_is_told_to_reshuffle(driver, app):
    """90 cards drawn (90 chips laid, no row made) empty the stock."""
    from tests.one_eyed_jack_fill import rowless_plays

    session = new_session(app, ["Ann", "Ben"])
    for action in rowless_plays(90, last=((1, 2),)):
        session.play(action)
    screen = app.open_session(session)
    driver.pump(3)
    assert screen.reshuffle
    assert "shuffle the discards into a new stock" in screen.ids.status_label.text
    assert screen.stock_text == "Stock\n90"
    tap_cell(driver, screen, 1, 2)
    tap_cell(driver, screen, 1, 2)
    assert not screen.reshuffle and "shuffle" not in screen.ids.status_label.text


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_board_fills_both_screens(driver, app, size):
    width, height = size
    session = new_session(app, ["Ann", "Ben"])
    driver.resize(width, height)
    screen = app.open_session(session)
    driver.pump(4)
    board = screen.ids.board

    def inside(x, y, w, h):
        return x >= 0 and y >= 0 and x + w <= width + 1 and y + h <= height + 1

    for row in range(10):
        for col in range(10):
            x, y, w, h = board.cell_rect(row, col)
            wx, wy = board.to_window(x, y)
            assert inside(wx, wy, w, h), (row, col)
            assert board.space_at(x + w / 2, y + h / 2) == (row, col)
    cell = board.cell_rect(0, 0)[2]
    assert cell >= (44 if width > height else 68)
    controls = [*screen.rank_buttons.values(), *screen.suit_buttons.values(), screen.ids.undo_button,
                screen.ids.pass_button, screen.ids.swap_button, screen.ids.home_button]
    for widget in controls:
        x, y = widget.to_window(*widget.pos)
        assert inside(x, y, widget.width, widget.height), widget
        assert widget.height >= 48 and widget.width >= 48, widget
    # The panel never covers the board.
    bx, by = board.to_window(*board.pos)
    for widget in [screen.ids.turn_label, *controls]:
        x, y = widget.to_window(*widget.pos)
        if width > height:
            assert x >= bx + board.width
        else:
            assert y + widget.height <= by
    assert screen.ids.turn_label.height >= 56
    driver.resize(800, 480)
