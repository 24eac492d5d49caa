"""Jacks: set-up, a round being tapped in, a trick refereed from the camera, the rounds list,
the chart, and the game over."""

from companion.session import Session

from ui.tools.scenes import DEMO_PLAYERS

DEMO_ROUNDS = (
    {"JS": "Ann", "JH": "Ben", "JC": "Cat", "JD": "Dan"},
    {"JS": "Ben", "JH": "Ben", "JC": "Dan", "JD": "Ann"},
    {"JS": "Cat", "JH": "Cat", "JC": "Cat", "JD": "Cat"},
)


def _game(app, target: int) -> Session:
    session = Session.start(app.store, {"game": "jacks", "players": list(DEMO_PLAYERS[:4]),
                                        "options": {"target": target}})
    for jacks in DEMO_ROUNDS:
        session.play({"type": "round", "jacks": jacks})
    return session


def scenes(app, driver):
    finished = _game(app, 40)
    refereed = _game(app, 75)  # its own game, so the other scenes' game shows no trick
    playing = _game(app, 75)  # the newest open game: the one home offers to resume

    def round_being_entered():
        screen = app.open_session(Session.resume(app.store, playing.game_id))
        for jack, name in (("JS", "Dan"), ("JH", "Ann"), ("JC", "Ann")):
            driver.tap(screen.choice_buttons[(jack, name)])

    def trick_being_played():
        # Round 4 played from the camera: trick 1 taken by Dan, trick 2 half played.
        session = Session.resume(app.store, refereed.game_id)
        while session.game.actions[-1]["type"] in ("lead", "play"):   # the same trick at every size
            session.undo()
        session.play({"type": "lead", "player": "Ann"})
        screen = app.open_session(session)
        for card in ("3H", "9H", "6H", "QH", "4C", "KC"):
            screen.on_card(card)
        return screen

    def rounds_list():
        app.open_session(Session.resume(app.store, playing.game_id)).open_history()

    def chart():
        app.open_session(Session.resume(app.store, playing.game_id)).open_chart()

    def setup():
        screen = app.show("jacks-setup")
        screen.chosen = []
        screen.prepare()
        driver.pump(2)
        for button in reversed(screen.ids.roster.children[-4:]):
            driver.tap(button)

    return [
        ("jacks-setup", setup),
        ("jacks-round", round_being_entered),
        ("jacks-trick", trick_being_played),
        ("jacks-rounds", rounds_list),
        ("jacks-chart", chart),
        ("jacks-over", lambda: app.open_session(Session.resume(app.store, finished.game_id))),
    ]
