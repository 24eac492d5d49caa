"""Jack Change It: set-up, a game with a pick-up owed, the Jack's suit chooser, and a game won."""

from companion.session import Session

from ui.tools.scenes import DEMO_PLAYERS


def _play(*cards, suit=None):
    action = {"type": "play", "cards": list(cards)}
    if suit:
        action["suit"] = suit
    return action


LIFT = {"type": "lift"}
PICKUP = {"type": "pickup"}

# Four players: a Queen turns play round, then two 2s leave Ben to pick up 4.
MIDWAY = (_play("7C"), LIFT, _play("9C"), _play("9D"), _play("QD"), _play("2D"), _play("2S"))
# Three players down to Ann's last card, and out.
WON = (_play("8C"), _play("8D"), LIFT, _play("JD", suit="S"), _play("6S"), LIFT, _play("6H"), _play("AH"),
       _play("5H"), _play("5C"), _play("3C"), LIFT, _play("3D"), _play("KD"), LIFT, _play("KS"), _play("4S"),
       LIFT, _play("9S"))


def _game(app, players, start, actions) -> Session:
    session = Session.start(app.store, {"game": "jack-change-it", "players": list(players),
                                        "options": {"queens_reverse": True, "jacks_wild": False}, "start": start})
    for action in actions:
        session.play(action)
    return session


def scenes(app, driver):
    won = _game(app, ("Eve", "Finn", "Ann"), "5C", WON)
    # Ben has taken the 4: Ann is next, on the 2 of Spades, and plays a Jack.
    jack = _game(app, DEMO_PLAYERS[:4], "7H", MIDWAY + (PICKUP,))
    midway = _game(app, DEMO_PLAYERS[:4], "7H", MIDWAY)

    def setup():
        screen = app.show("jack-change-it-setup")
        screen.chosen = []
        screen.prepare()
        driver.pump(2)
        for name in DEMO_PLAYERS[:4]:
            driver.tap(screen.roster_buttons[name])
        driver.tap(screen.dealer_buttons[DEMO_PLAYERS[3]])
        driver.tap(screen.ids.card_button)
        driver.tap(screen.card_view.ids.picker.rank_buttons["7"])
        driver.tap(screen.card_view.ids.picker.suit_buttons["H"])

    def owed():
        app.open_session(Session.resume(app.store, midway.game_id))

    def jack_chooser():
        screen = app.open_session(Session.resume(app.store, jack.game_id))
        driver.pump(2)
        picker = screen.ids.picker
        driver.tap(picker.rank_buttons["J"])
        driver.tap(picker.suit_buttons["S"])

    return [
        ("jack-change-it-setup", setup),
        ("jack-change-it-owed", owed),
        ("jack-change-it-jack", jack_chooser),
        ("jack-change-it-won", lambda: app.open_session(Session.resume(app.store, won.game_id))),
    ]
