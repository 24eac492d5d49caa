"""``jack-companion screenshots DIR``: every screen, in a representative state, at both sizes.

The pictures come from the real app on a throwaway table, driven as a player would.
"""

from __future__ import annotations

from pathlib import Path

SIZES = ((800, 480), (720, 1280))

DEMO_PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Finn")
DEMO_ROUNDS = (
    {"JS": "Ann", "JH": "Ben", "JC": "Cat", "JD": "Dan"},
    {"JS": "Ben", "JH": "Ben", "JC": "Dan", "JD": "Ann"},
    {"JS": "Cat", "JH": "Cat", "JC": "Cat", "JD": "Cat"},
)


def demo_table(app) -> None:
    """Players and a game part-way through, as a family's table would have them."""
    from companion.session import Session

    for name in DEMO_PLAYERS:
        app.store.add_player(name)
    session = Session.start(app.store, {"game": "jacks", "players": list(DEMO_PLAYERS[:4]), "options": {"target": 75}})
    for jacks in DEMO_ROUNDS:
        session.play({"type": "round", "jacks": jacks})
    return session


def scenes(app, driver, session):
    """(file name, a function that puts the app in that state) for every screen."""
    from companion.session import Session

    def jacks_round():
        screen = app.open_session(Session.resume(app.store, session.game_id))
        for jack, name in (("JS", "Dan"), ("JH", "Ann"), ("JC", "Ann")):
            driver.tap(screen.choice_buttons[(jack, name)])

    def jacks_over():
        finished = Session.start(app.store, {"game": "jacks", "players": list(DEMO_PLAYERS[:4]),
                                             "options": {"target": 40}})
        for jacks in DEMO_ROUNDS:
            finished.play({"type": "round", "jacks": jacks})
        app.open_session(finished)

    def jacks_rounds():
        screen = app.open_session(Session.resume(app.store, session.game_id))
        screen.open_history()

    def jacks_chart():
        screen = app.open_session(Session.resume(app.store, session.game_id))
        screen.open_chart()

    def jacks_setup():
        screen = app.show("jacks-setup")
        for button in reversed(screen.ids.roster.children[-4:]):
            driver.tap(button)

    return [
        ("home", lambda: app.show("home")),
        ("players", lambda: app.show("players")),
        ("settings", lambda: app.show("settings")),
        ("jacks-setup", jacks_setup),
        ("jacks-round", jacks_round),
        ("jacks-rounds", jacks_rounds),
        ("jacks-chart", jacks_chart),
        ("jacks-over", jacks_over),
        ("history", lambda: app.show("history")),
    ]


def close_modals() -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss(animation=False)


def render_all(out: Path, data_dir: Path) -> list[Path]:
    from companion import config as settings

    from .app import CompanionApp
    from .driver import AppDriver

    app = CompanionApp(data_dir=data_dir, config=settings.defaults())
    driver = AppDriver(app)
    made = []
    try:
        session = demo_table(app)
        for width, height in SIZES:
            driver.resize(width, height)
            for name, scene in scenes(app, driver, session):
                close_modals()
                app.clear_notice()
                driver.pump(2)
                scene()
                driver.pump(4)
                made.append(driver.screenshot(out / f"{name}-{width}x{height}"))
            close_modals()
    finally:
        driver.close()
    return made
