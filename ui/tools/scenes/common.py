"""Home, players, settings and history, on a table with a few players and games."""


def scenes(app, driver):
    return [
        ("home", lambda: app.show("home")),
        ("players", lambda: app.show("players")),
        ("settings", lambda: app.show("settings")),
        ("history", lambda: app.show("history")),
    ]
