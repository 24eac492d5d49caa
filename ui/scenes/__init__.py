"""The states each screen is pictured in by ``jack-companion screenshots``.

One module per game (and one for the screens every game shares), each with
``scenes(app, driver) -> [(file name, function that puts the app in that state)]``.
"""

MODULES = ("ui.scenes.common", "ui.scenes.jacks", "ui.scenes.slapjack", "ui.scenes.jack_change_it",
           "ui.scenes.one_eyed_jack")

DEMO_PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Finn")
