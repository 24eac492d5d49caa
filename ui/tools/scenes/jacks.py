"""Jacks: set-up, a round being tapped in, the rounds list, the chart, and the game over."""

from companion.session import Session

from . import DEMO_PLAYERS

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
    playing = _game(app, 75)  # the newest open game: the one home offers to resume

    def round_being_entered():
        screen = app.open_session(Session.resume(app.store, playing.game_id))
        for jack, name in (("JS", "Dan"), ("JH", "Ann"), ("JC", "Ann")):
            driver.tap(screen.choice_buttons[(jack, name)])

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
        ("jacks-rounds", rounds_list),
        ("jacks-chart", chart),
        ("jacks-over", lambda: app.open_session(Session.resume(app.store, finished.game_id))),
    ]
