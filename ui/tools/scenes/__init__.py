"""The states each screen is pictured in by ``jack-companion screenshots``.

One module per game (named by the game's declaration in ``ui/games/``), and ``common`` for the
screens every game shares, each with ``scenes(app, driver) -> [(file name, function that puts the
app in that state)]``.
"""

DEMO_PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Finn")
