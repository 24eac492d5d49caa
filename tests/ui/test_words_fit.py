"""Every word on the four game screens, Home, History, Players, Settings and the set-ups fits, at
both sizes, with long names (12 letters) and as many players as each game seats, nothing excused;
and what a player needs to read is at least 20 px high at 800x480 (issue: "Gran w...ith 31!",
"LAST CARD" at 9 px)."""

from __future__ import annotations

import pytest

from tests.ui.text_fit import labels, problem

# The layout is measured, no pixel read; the long names leave the roster after each test.
pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("undrawn", "players_leave")]

LONG = ("Christabelle", "Konstantinos", "Maximilienne", "Bartholomeus", "Wilhelminaaa",
        "Evangelineee", "Gwendolynnee", "Florentinaaa", "Sebastiannoo", "Alexandrinaa")
assert all(len(name) == 12 for name in LONG)
SIZES = ((800, 480), (720, 1280))
SMALLEST_PX = 20


def _roster(app):
    present = {p.name for p in app.store.players()}
    for name in LONG:
        if name not in present:
            app.store.add_player(name)


def _jacks(app, driver, state):
    from companion.session import Session

    session = Session.start(app.store, {"game": "jacks", "players": list(LONG[:4]), "options": {"target": 40}})
    rounds = [{"JS": LONG[0], "JH": LONG[1], "JC": LONG[2], "JD": LONG[3]},
              {"JS": LONG[1], "JH": LONG[1], "JC": LONG[3], "JD": LONG[0]}]
    if state == "over":
        rounds.append({j: LONG[2] for j in ("JS", "JH", "JC", "JD")})
    for jacks in rounds:
        session.play({"type": "round", "jacks": jacks})
    screen = app.open_session(session)
    driver.pump(2)
    if state == "editing":
        screen.start_edit(1)
    elif state == "rounds":
        screen.open_history()
    elif state == "chart":
        screen.open_chart()
    else:
        driver.tap(screen.choice_buttons[("JS", LONG[3])])
    return screen


def _jack_change_it(app, driver, players, state):
    from companion.session import Session

    session = Session.start(app.store, {"game": "jack-change-it", "players": list(LONG[:players]),
                                        "options": {"queens_reverse": True, "jacks_wild": False}, "start": "7H"})
    plays = [{"type": "play", "cards": ["7C"]}, {"type": "lift"}, {"type": "play", "cards": ["9C"]}]
    if state == "owed":
        plays += [{"type": "play", "cards": ["2C"]}]
    if state == "last":  # six cards each, no trick card, each on the one before: everybody on a last card
        ring = [f"{rank}{suit}" for suit, ends in (("C", "7K"), ("D", "K7"), ("S", "7K"), ("H", "K7"))
                for rank in (ends[0], "3", "4", "5", "6", "9", "10", ends[1])]  # 32 cards, 7C first
        plays = [{"type": "play", "cards": [ring[i % len(ring)]]} for i in range(6 * players)]
    for action in plays:
        try:
            session.play(action)
        except Exception:
            session.play({"type": "lift"})
    return app.open_session(session)


def _one_eyed_jack(app, driver, players, state):
    from companion.games.one_eyed_jack.board import card_at
    from companion.session import Session

    from ui.games.one_eyed_jack.scenes import WON, alternate

    session = Session.start(app.store, {"game": "one-eyed-jack", "players": list(LONG[:players]), "options": {}})
    spaces = [(3, 2), (4, 4), (3, 3), (5, 5), (3, 4), (6, 6), (3, 5), (4, 3)]
    if state == "won":   # two crossing rows for a side of two; three players need one row
        plays = WON if players != 3 else alternate([(3, 2), (3, 3), (3, 4), (3, 5), (3, 6)],
                                                   [(8, 1), (8, 3), (8, 5), (8, 7)], [(6, 2), (6, 8), (1, 8), (9, 5)])
    else:
        plays = [{"type": "play", "card": card_at(row, col), "at": [row, col]} for row, col in spaces]
    for action in plays:
        session.play(action)
    assert session.game.finished == (state == "won")
    if state == "took":  # a one-eyed Jack takes a chip of the side that played (4, 4)
        session.play({"type": "play", "card": "JS", "remove": [4, 4]})
    screen = app.open_session(session)
    driver.pump(2)
    if state == "card":
        driver.tap(screen.rank_buttons["5"])
        driver.tap(screen.suit_buttons["D"])
    return screen


def _slapjack(app, driver, players, state):
    """The Slapjack table: a screen deck's race open on a Jack, a real deck waiting for the next
    card, the judge's race waiting for its verdict, a game's results, or the stats over the set-up
    (after that game)."""
    from companion.games.slapjack.rules import screen_deck_header
    from companion.session import Session
    from ui.games.slapjack.scenes import STILL, stacked_deck

    names = list(LONG[:players])
    if state in ("race", "stats", "over"):
        turned = ["7H", "4C", "QS", "9D", "2S", "3H", "8C", "5D", "JH"]
        header = screen_deck_header(names, seed=11, options={"queens_too": False, "end_after": 300},
                                    deck=stacked_deck(turned, players))
        header["pace_s"] = STILL  # nothing moves while the words are measured
        header["computers"] = {names[-1]: 350}  # a computer's line says so: "computer · 350 ms"
        session = Session.start(app.store, header)
        for i, _ in enumerate(turned):
            session.play(session.game.rules.turn_action(session.state, 50.0 + 1.8 * i))
        session.play({"type": "slap", "player": names[0], "t": 50.0 + 1.8 * (len(turned) - 1) + 0.3})
        if state in ("stats", "over"):   # the game finished: its results, and a stats row for each person
            session.play(session.game.rules.turn_action(session.state, 50.0 + 1.8 * len(turned)))
            session.play({"type": "end"})
            assert session.game.finished
    elif state == "card":
        session = Session.start(app.store, {"game": "slapjack", "players": names, "options": {}, "feed": "pad"})
        for card in ("7H", "JD", "KC"):
            session.play({"type": "turn", "card": card})
            if card == "JD":
                session.play({"type": "slap", "player": names[0], "t": 20.31})
    else:
        session = Session.start(app.store, {"game": "slapjack", "players": names, "options": {}, "feed": "none"})
        session.play({"type": "race", "slaps": [{"player": names[0], "t": 8.2}]})
        session.play({"type": "verdict", "good": True})
        session.play({"type": "race", "slaps": [{"player": name, "t": 31.44 + 0.02 * i}
                                                 for i, name in enumerate(names)]})
    if state == "stats":
        from ui.widgets.slapjack_stats import open_stats

        app.show("slapjack-setup")
        driver.pump(2)
        return open_stats()
    screen = app.open_session(session)
    driver.pump(2)
    return screen


CASES = ([("jacks", 4, state) for state in ("round", "editing", "rounds", "chart", "over")]
         + [("jack-change-it", n, state) for n in (4, 7, 10) for state in ("turn", "owed", "last")]
         + [("one-eyed-jack", n, state) for n in (2, 3, 4) for state in ("turn", "card", "took", "won")]
         + [("slapjack", n, state) for n in (2, 4, 8) for state in ("race", "card", "judge", "over", "stats")])


def check(found: list, what: str) -> None:
    """``found``: why each label that does not fit fails; none may."""
    assert not found, what + ":\n  " + "\n  ".join(found)


def open_case(app, driver, game, players, state):
    _roster(app)
    if game == "jacks":
        return _jacks(app, driver, state)
    if game == "jack-change-it":
        return _jack_change_it(app, driver, players, state)
    if game == "slapjack":
        return _slapjack(app, driver, players, state)
    return _one_eyed_jack(app, driver, players, state)


def show_case(app, driver, size, game, players, state):
    """The case opened at ``size`` and laid out: its screen (or the stats over the set-up)."""
    driver.resize(*size)
    screen = open_case(app, driver, game, players, state)
    driver.pump(4)
    return screen


def _px(label) -> float:
    """The type's size on the glass: Kivy's font_size is in pixels once the kv's sp() is applied."""
    return float(label.font_size)


def too_small(screen, game: str) -> list[str]:
    """What a player needs to read at 800x480 and is under SMALLEST_PX (buttons say it by their size)."""
    from kivy.uix.behaviors import ButtonBehavior

    small = [f"{label.text!r} at {_px(label):.0f} px" for label in labels(screen)
             if not isinstance(label, ButtonBehavior) and _px(label) < SMALLEST_PX]
    if game == "one-eyed-jack" and screen.ids.board.label_px < SMALLEST_PX:
        small.append(f"the cards printed on the board at {screen.ids.board.label_px:.0f} px")
    return small


# One opening of each case at each size: at 800x480 it is also where the type is measured.
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game,players,state", CASES, ids=lambda v: str(v))
def test_every_word_fits_and_the_game_state_is_large_enough(driver, app, size, game, players, state):
    from kivy.core.window import Window

    screen = show_case(app, driver, size, game, players, state)
    what = f"{game} ({players} players, {state}) at {size[0]}x{size[1]}"
    found = [why for why in map(problem, labels(Window)) if why]
    if size == (800, 480):
        found += [f"under {SMALLEST_PX} px: {small}" for small in too_small(screen, game)]
    check(found, what=what)


def test_message_bar_names_cards_in_their_suit_colour(driver, app):
    """A message naming a card ("5♦", as a card prints itself) shows the suit in its colour, and a
    name with a bracket in it stays as typed rather than being read as markup."""
    from ui import theme

    driver.resize(800, 480)
    app.show("home")
    app.notify("Ann [the 2nd] played 5\u2666 and 10C")
    driver.pump(2)
    bar = app.root.ids.notice
    assert bar.markup
    assert f"5[color={theme.text_suit_hex('D', app.four_colour)}]\u2666[/color]" in bar.text, bar.text
    assert f"10[color={theme.text_suit_hex('C', app.four_colour)}]\u2663[/color]" in bar.text, bar.text
    assert "Ann &bl;the 2nd&br; played" in bar.text, bar.text
    assert problem(bar) is None, problem(bar)


def _unfinished_games(app):
    """Two games left unfinished with long names: Home lists them to carry on."""
    from companion.session import Session

    Session.start(app.store, {"game": "jacks", "players": list(LONG[:4]), "options": {"target": 40}})
    Session.start(app.store, {"game": "jack-change-it", "players": list(LONG[:8]),
                              "options": {"queens_reverse": True, "jacks_wild": False}, "start": "7H"})


# Each set-up offers the last table of its game again: the biggest it seats, with long names
# (One-Eyed Jack's biggest is two teams of two).
LAST_TABLES = {  # a header, and a first action: a game with none is not a table that played
    "jacks-setup": ({"game": "jacks", "players": list(LONG[:4]), "options": {"target": 40}},
                    {"type": "round", "jacks": {"JS": LONG[0], "JH": LONG[1], "JC": LONG[2], "JD": LONG[3]}}),
    "jack-change-it-setup": ({"game": "jack-change-it", "players": list(LONG[:10]),
                              "options": {"queens_reverse": True, "jacks_wild": False}, "start": "7H"},
                             {"type": "lift"}),
    "one-eyed-jack-setup": ({"game": "one-eyed-jack", "players": list(LONG[:4]), "options": {}},
                            {"type": "play", "card": "4H", "at": [3, 1]}),
}
SCREENS_AROUND = ("home", "history", "players", "settings", "jacks-setup", "slapjack-setup",
                  "jack-change-it-setup", "one-eyed-jack-setup")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", SCREENS_AROUND)
def test_every_word_fits_around_the_games(driver, app, size, name):
    from kivy.core.window import Window

    driver.resize(*size)
    _roster(app)
    _unfinished_games(app)
    if name in LAST_TABLES:
        from companion.session import Session

        header, action = LAST_TABLES[name]
        Session.start(app.store, header).play(action)
        app.new_game(header["game"])
    else:
        app.show(name)
    driver.pump(4)
    found = [problem(label) for label in labels(Window)]
    left = [why for why in found if why]
    assert not left, f"{name} at {size[0]}x{size[1]}:\n  " + "\n  ".join(left)
