"""Jack Change It at the table: its screens, its screenshots and its bench recipe."""

from .registry import GameUI, register

UI = register(GameUI(
    name="jack-change-it",
    setup="ui.screens.jack_change_it_setup:JackChangeItSetupScreen",
    play="ui.screens.jack_change_it:JackChangeItScreen",
    scenes="ui.tools.scenes.jack_change_it",
    bench="ui.tools.bench.recipes.jack_change_it",
))
