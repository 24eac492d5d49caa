"""A short Jack Change It game tapped through the real window, read back off the widgets.

Every expected value is worked out by hand from docs/rules.md ("Jack Change It"): 7 cards each,
stock 104 - 7 x players - 1; a 2 makes the next player pick up 2 unless they add a 2 (2 more
each); an 8 skips the next player; a Jack names one of the other three suits; a Queen reverses
play with 3 or more players; AH + 2H is one play and makes the next player pick up 7, which a
2 cannot pass on; nobody may finish on a trick card; the first player out of cards wins.
"""

from __future__ import annotations

import pytest

from tests.ui.conftest import find, visible, tap_text, ensure_players

pytestmark = pytest.mark.ui

ROSTER = ["Ann", "Ben", "Cat", "Dan"]  # the names the other UI tests use too, in the same order
SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
HOME_TILE = "[size=30sp]Jack Change It[/size]\nShed your cards; twos, eights and Jacks"


def tap_card(driver, screen, code):
    """Two taps on the picker: the rank, then the suit."""
    picker = screen.ids.picker
    driver.tap(picker.rank_buttons[code[:-1]])
    driver.tap(picker.suit_buttons[code[-1]])


def stored(app, screen) -> int:
    return len(app.store.log(screen.session.game_id)[1])


def counts(screen) -> dict:
    """Each player's cards as the seat tiles show them."""
    return {name: int(tile.ids.count.text) for name, tile in screen.seats.items()}


def current_seat(screen) -> list[str]:
    return [name for name, tile in screen.seats.items() if tile.current]


def check(screen, turn, suit, counts_now, owed=None, stock=None, direction="clockwise"):
    """Whose turn, the suit, what is owed and every count, as the table reads them."""
    ids = screen.ids
    assert ids.turn_label.text == turn
    assert current_seat(screen) == [turn]
    assert ids.suit_label.text == SYMBOLS[suit]
    assert counts(screen) == counts_now
    assert ids.direction_label.text == ("\u21bb" if direction == "clockwise" else "\u21ba")
    if owed:
        who, number = owed
        assert ids.prompt_label.text.startswith(f"{who}: pick up {number}")
        assert ids.action_button.text == f"Pick up {number}"
    else:
        assert "pick up" not in ids.prompt_label.text
        assert ids.action_button.text == "Lift a card"
    if stock is not None:
        assert ids.stock_label.text.startswith(f"Stock {stock} ")
    # Whatever else happens, the table's cards always add up to the two decks.
    total = sum(counts_now.values()) + int(ids.stock_label.text.split()[1]) + int(ids.stock_label.text.split()[-1])
    assert total == 104


def refused(app, screen, before: int, *words):
    """The refusal is on screen in words, and nothing went into the store."""
    assert app.root.notice_kind == "error" and app.root.notice, "a refusal shows its reason"
    for word in words:
        assert word in app.root.notice, (word, app.root.notice)
    assert stored(app, screen) == before


def test_short_game_by_touch(driver, app):
    from kivy.core.window import Window

    ensure_players(driver, app, ROSTER)
    app.show("home")
    driver.pump(2)
    tap_text(driver, HOME_TILE)
    setup = app.manager.current_screen
    assert setup.name == "jack-change-it-setup"

    # The set-up offers the last table played (whichever test left one): clear it by tapping.
    for name in list(setup.chosen):
        driver.tap(setup.roster_buttons[name])
    assert list(setup.chosen) == []
    # Seats clockwise: Ann, Ben, Cat. Ann deals, so Ben (on her left) starts.
    for name in ("Ann", "Ben", "Cat"):
        driver.tap(setup.roster_buttons[name])
    assert [setup.roster_buttons[n].text for n in ("Ann", "Ben", "Cat")] == ["1. Ann", "2. Ben", "3. Cat"]
    assert setup.ids.start_button.text == "Who deals?"
    driver.tap(setup.ids.start_button)
    assert app.root.notice_kind == "error" and "deals" in app.root.notice
    assert sorted(setup.dealer_buttons) == ["Ann", "Ben", "Cat"]
    driver.tap(setup.dealer_buttons["Ann"])
    assert "Ben starts" in setup.ids.guide.text
    assert setup.ids.queens_button.state == "down" and setup.ids.jacks_button.state == "normal"

    # The first card with the same picker as the game: 7, then hearts.
    driver.tap(setup.ids.card_button)
    picker = setup.card_view.ids.picker
    driver.tap(picker.rank_buttons["7"])
    driver.tap(picker.suit_buttons["H"])
    assert setup.card_view is None and not [w for w in Window.children if w.__class__.__name__ == "FirstCardView"]
    assert setup.start_card == "7H"
    assert setup.ids.start_button.text == "Start"
    driver.tap(setup.ids.start_button)

    screen = app.manager.current_screen
    assert screen.name == "jack-change-it"
    header, actions = app.store.log(screen.session.game_id)
    assert header == {"game": "jack-change-it", "players": ["Ben", "Cat", "Ann"],
                      "options": {"queens_reverse": True, "jacks_wild": False}, "start": "7H"}
    assert actions == []
    # 104 - 3 x 7 - 1 = 82 in the stock; the 7H alone on the pile.
    check(screen, "Ben", "H", {"Ben": 7, "Cat": 7, "Ann": 7}, stock=82)
    assert screen.ids.top_card.code == "7H"

    # Ben 2H: Cat must pick up 2 or add a 2.
    tap_card(driver, screen, "2H")
    check(screen, "Cat", "H", {"Ben": 6, "Cat": 7, "Ann": 7}, owed=("Cat", 2), stock=82)
    assert screen.ids.top_card.code == "2H"

    # Cat taps 9H: refused, with the reason, and nothing changes anywhere.
    tap_card(driver, screen, "9H")
    refused(app, screen, 1, "pick up 2", "2")
    check(screen, "Cat", "H", {"Ben": 6, "Cat": 7, "Ann": 7}, owed=("Cat", 2), stock=82)

    # Lifting one card is not an answer to a 2 either: the button says what is owed.
    assert screen.ids.action_button.text == "Pick up 2"

    # Cat adds 2S: Ann now owes 4, and the suit is spades.
    tap_card(driver, screen, "2S")
    check(screen, "Ann", "S", {"Ben": 6, "Cat": 6, "Ann": 7}, owed=("Ann", 4), stock=82)

    # Ann picks up 4: 11 cards, stock 78, Ben next on the 2S as an ordinary card.
    driver.tap(screen.ids.action_button)
    check(screen, "Ben", "S", {"Ben": 6, "Cat": 6, "Ann": 11}, stock=78)

    # Ben 8S: Cat misses her turn, so Ann plays next.
    tap_card(driver, screen, "8S")
    check(screen, "Ann", "S", {"Ben": 5, "Cat": 6, "Ann": 11}, stock=78)

    # Ann JS: the chooser offers the three suits other than spades, and nothing is entered yet.
    tap_card(driver, screen, "JS")
    assert sorted(screen.chooser_buttons) == ["C", "D", "H"]
    shown = [w for w in find(screen.chooser, cls=type(screen.ids.picker.suit_buttons["S"])) if visible(w)]
    assert sorted(b.suit for b in shown) == ["C", "D", "H"]
    assert stored(app, screen) == 4
    driver.tap(screen.chooser_buttons["D"])
    assert screen.chooser is None
    check(screen, "Ben", "D", {"Ben": 5, "Cat": 6, "Ann": 10}, stock=78)
    assert "named by a Jack" in screen.ids.suit_caption.text
    assert app.store.log(screen.session.game_id)[1][-1] == {"type": "play", "cards": ["JS"], "suit": "D"}

    # Ben 5D (diamonds, as the Jack said), then Cat QD: play turns round, back to Ben.
    tap_card(driver, screen, "5D")
    check(screen, "Cat", "D", {"Ben": 4, "Cat": 6, "Ann": 10}, stock=78)
    assert "named by a Jack" not in screen.ids.suit_caption.text
    tap_card(driver, screen, "QD")
    check(screen, "Ben", "D", {"Ben": 4, "Cat": 5, "Ann": 10}, stock=78, direction="anticlockwise")

    # A lift by mistake, undone in one tap: everything back as it was, in the store too.
    driver.tap(screen.ids.action_button)
    check(screen, "Ann", "D", {"Ben": 5, "Cat": 5, "Ann": 10}, stock=77, direction="anticlockwise")
    driver.tap(screen.ids.undo_button)
    check(screen, "Ben", "D", {"Ben": 4, "Cat": 5, "Ann": 10}, stock=78, direction="anticlockwise")
    assert stored(app, screen) == 7
    assert "Ben lifted a card" in screen.ids.last_label.text  # says what was taken back

    # Ben KD; anticlockwise, Ann is next and lifts; then Cat KH turns the suit to hearts.
    tap_card(driver, screen, "KD")
    check(screen, "Ann", "D", {"Ben": 3, "Cat": 5, "Ann": 10}, stock=78, direction="anticlockwise")
    driver.tap(screen.ids.action_button)
    check(screen, "Cat", "D", {"Ben": 3, "Cat": 5, "Ann": 11}, stock=77, direction="anticlockwise")
    tap_card(driver, screen, "KH")
    check(screen, "Ben", "H", {"Ben": 3, "Cat": 4, "Ann": 11}, stock=77, direction="anticlockwise")

    # Ben AH with 2H on top, as one play: Ann owes 7 and Ben is down to his last card.
    tap_card(driver, screen, "AH")
    assert sorted(screen.chooser_buttons) == ["AH", "AH 2H"]
    assert "7" in screen.chooser_buttons["AH 2H"].text and "5" in screen.chooser_buttons["AH"].text
    driver.tap(screen.chooser_buttons["AH 2H"])
    check(screen, "Ann", "H", {"Ben": 1, "Cat": 4, "Ann": 11}, owed=("Ann", 7), stock=77,
          direction="anticlockwise")
    assert screen.seats["Ben"].last_card and not screen.seats["Cat"].last_card
    assert app.store.log(screen.session.game_id)[1][-1] == {"type": "play", "cards": ["AH", "2H"]}

    # A 2 cannot pass on the Ace: refused. Ann picks up the 7.
    before = stored(app, screen)
    tap_card(driver, screen, "2D")
    refused(app, screen, before, "Ace of Hearts", "pick up 7")
    driver.tap(screen.ids.action_button)
    check(screen, "Cat", "H", {"Ben": 1, "Cat": 4, "Ann": 18}, stock=70, direction="anticlockwise")

    # Cat 9H. Ben may not go out on a trick card (8H): refused, told to lift instead.
    tap_card(driver, screen, "9H")
    check(screen, "Ben", "H", {"Ben": 1, "Cat": 3, "Ann": 18}, stock=70, direction="anticlockwise")
    before = stored(app, screen)
    tap_card(driver, screen, "8H")
    refused(app, screen, before, "trick card", "lift")
    check(screen, "Ben", "H", {"Ben": 1, "Cat": 3, "Ann": 18}, stock=70, direction="anticlockwise")

    # Ben's last card, the other 9H: Ben wins, announced big; the picker is put away.
    tap_card(driver, screen, "9H")
    assert screen.finished
    assert screen.ids.turn_label.text == "Ben wins!"
    assert "Game over" in screen.ids.winner_label.text and visible(screen.ids.winner_label)
    assert counts(screen) == {"Ben": 0, "Cat": 3, "Ann": 18}
    assert not visible(screen.ids.picker.rank_buttons["A"])
    assert screen.ids.action_button.text == "New game"
    record = app.store.record(screen.session.game_id)
    assert record.status == "finished" and record.result["winner"] == "Ben"

    # New game goes back to the set-up with the same table, the deal moved on from Ann to Ben
    # (seated from Ann's left, as the game was), waiting for the next first card.
    driver.tap(screen.ids.action_button)
    setup = app.manager.current_screen
    assert setup.name == "jack-change-it-setup"
    assert list(setup.chosen) == ["Ben", "Cat", "Ann"] and setup.dealer == "Ben" and setup.start_card == ""


def test_jack_that_does_not_go_opens_nothing(driver, app):
    """A Jack that does not match is refused before any suit is asked for."""
    from companion.session import Session

    session = Session.start(app.store, {"game": "jack-change-it", "players": ["Ann", "Ben"], "start": "7H"})
    screen = app.open_session(session)
    driver.pump(2)
    tap_card(driver, screen, "JS")  # a spade on the 7 of hearts, jacks not wild
    assert screen.chooser is None
    refused(app, screen, 0, "doesn't go")
    # The Jack of hearts does go, and may name any suit but hearts.
    tap_card(driver, screen, "JH")
    assert sorted(screen.chooser_buttons) == ["C", "D", "S"]
    driver.tap(screen.chooser.ids.cancel)
    assert stored(app, screen) == 0
    session.abandon()


def _inside(widget, width, height) -> bool:
    x, y = widget.to_window(*widget.pos)
    return x >= -0.5 and y >= -0.5 and x + widget.width <= width + 0.5 and y + widget.height <= height + 0.5


def _controls(root):
    from kivy.uix.behaviors import ButtonBehavior

    return [w for w in find(root) if isinstance(w, ButtonBehavior) and visible(w)]


def test_both_sizes_keep_every_control_on_screen(driver, app):
    from kivy.core.window import Window

    from companion.session import Session

    extra = ["Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
    ensure_players(driver, app, ROSTER)
    added = []
    for name in extra:
        if name not in {p.name for p in app.store.players()}:
            added.append(app.store.add_player(name))
    ten = ROSTER + extra
    try:
        for width, height in ((800, 480), (720, 1280)):
            driver.resize(width, height)

            # The set-up with the most players it takes: 10 seats, 10 possible dealers.
            setup = app.show("jack-change-it-setup")
            setup.prepare()
            setup.chosen = ten  # set directly: other tests' players may push some below the fold
            setup.dealer = ""   # (the set-up keeps the last deal it was given)
            setup.refresh()
            driver.pump(2)
            driver.tap(setup.dealer_buttons["Lou"])
            assert setup.dealer == "Lou"
            fixed = [setup.ids.back_button, setup.ids.queens_button, setup.ids.jacks_button, setup.ids.card_button,
                     setup.ids.start_button, *setup.dealer_buttons.values()]
            for widget in fixed:
                assert _inside(widget, width, height), (width, widget)
                assert widget.height >= 48 and widget.width >= 48, (width, widget, widget.size)
            setup.open_card_picker()
            driver.pump(2)
            picker = setup.card_view.ids.picker
            for button in [*picker.rank_buttons.values(), *picker.suit_buttons.values(), setup.card_view.ids.cancel]:
                assert _inside(button, width, height) and min(button.size) >= 64, (width, button, button.size)
            setup.card_view.dismiss(animation=False)

            # A game of ten: every seat, and every control of a turn, on screen and big enough.
            session = Session.start(app.store, {"game": "jack-change-it", "players": ten, "start": "7H"})
            screen = app.open_session(session)
            driver.pump(3)
            for tile in screen.seats.values():
                assert _inside(tile, width, height), (width, tile.name)
            for widget in [screen.ids.turn_label, screen.ids.suit_label, screen.ids.top_card,
                           screen.ids.prompt_label, screen.ids.stock_label, screen.ids.direction_label]:
                assert _inside(widget, width, height), (width, widget)
            assert screen.ids.turn_label.font_size >= 60 and screen.ids.suit_label.font_size >= 60
            controls = _controls(screen)
            assert len(controls) == 13 + 4 + 2  # ranks, suits, lift, home (undo is greyed: nothing to undo)
            for widget in [*controls, screen.ids.undo_button]:
                assert _inside(widget, width, height), (width, widget)
                assert min(widget.size) >= 48, (width, widget, widget.size)
            for button in [*screen.ids.picker.rank_buttons.values(), *screen.ids.picker.suit_buttons.values(),
                           screen.ids.action_button]:
                assert min(button.size) >= 64, (width, button.text, button.size)

            # The Jack's suit chooser and the A♥ question, both with big targets.
            tap_card(driver, screen, "JH")
            for button in [*screen.chooser_buttons.values(), screen.chooser.ids.cancel]:
                assert _inside(button, width, height) and min(button.size) >= 64, (width, button.size)
            driver.tap(screen.chooser.ids.cancel)
            tap_card(driver, screen, "AH")
            for button in [*screen.chooser_buttons.values(), screen.chooser.ids.cancel]:
                assert _inside(button, width, height) and min(button.size) >= 64, (width, button.size)
            screen.close_chooser()
            assert not [w for w in Window.children if w.__class__.__name__ == "ChooserView"]
            session.abandon()
    finally:
        for player in added:
            app.store.remove_player(player.id)
