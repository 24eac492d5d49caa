"""One Eyed Jack at the table: its screens, its screenshots and its bench recipe."""

from .registry import GameUI, register

UI = register(GameUI(
    name="one-eyed-jack",
    setup="ui.screens.one_eyed_jack_setup:OneEyedJackSetupScreen",
    play="ui.screens.one_eyed_jack:OneEyedJackScreen",
    scenes="ui.tools.scenes.one_eyed_jack",
    bench="ui.tools.bench.recipes.one_eyed_jack",
))
