"""Slapjack: set-up, a screen-deck race just won, a wrong slap at a real deck, slaps waiting for
the turner to tap the card in, the race judge waiting for its verdict, a game over with
everyone's reaction times, and the stats."""

import random

from companion.cards import full_deck
from companion.games.slapjack.rules import screen_deck_header
from companion.games.slapjack.bots import ReactionModel, plan_presses
from companion.session import Session

from ui.tools.scenes import DEMO_PLAYERS

STILL = 600.0   # seconds between screen-deck cards: nothing moves while the picture is taken


def stacked_deck(turned: list[str], players: int) -> list[str]:
    """The deal that makes a screen deck turn ``turned`` first (every player still has cards)."""
    order = [None] * 52
    for i, card in enumerate(turned):
        seat, round_ = i % players, i // players
        dealt = len(range(seat, 52, players))   # the last card dealt to a seat is its first turned
        order[seat + players * (dealt - 1 - round_)] = card
    rest = iter(c for c in (str(c) for c in full_deck()) if c not in turned)
    return [c if c is not None else next(rest) for c in order]


def _won_race(app) -> Session:
    players = ["Ann", "Robo", "Ben", "Cat"]
    turned = ["7H", "4C", "QS", "9D", "2S", "JH"]
    header = screen_deck_header(players, seed=11, options={"queens_too": False, "end_after": 300},
                                deck=stacked_deck(turned, len(players)))
    header["computers"] = {"Robo": 350}
    header["pace_s"] = STILL
    session = Session.start(app.store, header)
    t = 50.0
    for _ in turned:
        t += 1.8
        session.play(session.game.rules.turn_action(session.state, t))
    for name, ms in (("Ann", 247.0), ("Ben", 270.0), ("Robo", 387.0)):
        session.play({"type": "slap", "player": name, "t": t + ms / 1000})
    return session


def _wrong_slap(app) -> Session:
    session = Session.start(app.store, {"game": "slapjack", "players": ["Ann", "Ben", "Cat"],
                                        "options": {}, "feed": "pad"})
    for card in ("7H", "KD"):
        session.play({"type": "turn", "card": card})
    session.play({"type": "slap", "player": "Cat", "t": 20.31})
    return session


def _turned(app) -> Session:
    session = Session.start(app.store, {"game": "slapjack", "players": ["Ann", "Ben", "Cat"],
                                        "options": {}, "feed": "pad"})
    session.play({"type": "turn", "card": "7H"})
    return session


def _judge(app) -> Session:
    session = Session.start(app.store, {"game": "slapjack", "players": list(DEMO_PLAYERS[:4]),
                                        "options": {}, "feed": "none"})
    session.play({"type": "race", "slaps": [{"player": "Dan", "t": 8.2}]})
    session.play({"type": "verdict", "good": True})
    session.play({"type": "race", "slaps": [{"player": "Ben", "t": 31.4412}, {"player": "Ann", "t": 31.4646}]})
    session.play({"type": "slap", "player": "Cat", "t": 31.5811})
    return session


def _finished(app) -> Session:
    """Ann and Ben against Robo until 120 cards, their presses drawn like a family's."""
    players = ["Ann", "Ben", "Robo"]
    header = screen_deck_header(players, seed=5, options={"end_after": 120})
    header["computers"] = {"Robo": 400}
    header["pace_s"] = STILL
    session = Session.start(app.store, header)
    models = {"Ann": ReactionModel.at_level(330), "Ben": ReactionModel.at_level(420),
              "Robo": ReactionModel.at_level(400)}
    rng = random.Random(3)
    t = 10.0
    while not session.game.finished:
        state = session.state
        if state.pending == "end":
            session.play({"type": "end"})
            break
        if state.turn is None:
            session.play({"type": "end"})
            break
        session.play(session.game.rules.turn_action(state, t))
        for press in plan_presses(session.state, models, rng, t):
            if not session.game.finished:
                session.play(press.action())
        t += 2.0
    return session


def scenes(app, driver):
    finished = _finished(app)
    won = _won_race(app)
    wrong = _wrong_slap(app)
    judge = _judge(app)
    turned = _turned(app)

    def setup():
        screen = app.show("slapjack-setup")
        screen.chosen = []
        screen.computers = {}
        screen.mode = "screen"
        screen.queens_too = False
        screen.tie_window_ms = 0
        screen.prepare()
        driver.pump(2)
        driver.tap(screen.roster_buttons["Ann"])
        driver.tap(screen.roster_buttons["Ben"])
        driver.tap(screen.ids.add_computer)
        driver.tap(screen.ids.queens_button)
        for _ in range(2):
            driver.tap(screen.ids.tie_up)

    def held():
        """Ben has turned a Jack; Ann and Cat slap it before he taps it in."""
        from ui.pads_link import link_for

        app.open_session(Session.resume(app.store, turned.game_id))
        driver.pump(2)
        board = link_for(app).board
        t = board.mock.back_from_now(0.4)   # after the last scene's edges, or they would be bounce
        board.mock.deliver([(2, True, t + 0.031), (0, True, t), (0, False, t + 0.1), (2, False, t + 0.12)])
        driver.pump(2)

    def stats():
        from ui.games.slapjack.screen import open_stats

        app.show("slapjack-setup")
        open_stats()

    return [
        ("slapjack-setup", setup),
        ("slapjack-verdict", lambda: app.open_session(Session.resume(app.store, won.game_id))),
        ("slapjack-wrong", lambda: app.open_session(Session.resume(app.store, wrong.game_id))),
        ("slapjack-held", held),
        ("slapjack-judge", lambda: app.open_session(Session.resume(app.store, judge.game_id))),
        ("slapjack-over", lambda: app.open_session(Session.resume(app.store, finished.game_id))),
        ("slapjack-stats", stats),
    ]
