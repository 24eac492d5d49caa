"""Jack Change It at the table: its screens, its screenshots and its bench recipe."""

from ui.games.registry import GameUI, register

UI = register(GameUI(
    name="jack-change-it",
    setup="ui.games.jack_change_it.setup:JackChangeItSetupScreen",
    play="ui.games.jack_change_it.screen:JackChangeItScreen",
    scenes="ui.games.jack_change_it.scenes",
    bench="ui.games.jack_change_it.bench",
))
