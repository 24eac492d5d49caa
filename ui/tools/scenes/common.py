"""Home, players, settings and history, on a table with a few players and games; the camera's
screens (ui/tools/scenes/camera.py)."""


def scenes(app, driver):
    from . import camera

    return [
        ("home", lambda: app.show("home")),
        ("players", lambda: app.show("players")),
        ("settings", lambda: app.show("settings")),
        ("history", lambda: app.show("history")),
        *camera.scenes(app, driver),
    ]
