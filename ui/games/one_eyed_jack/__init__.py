"""One Eyed Jack at the table: its screens, its screenshots and its bench recipe."""

from ui.games.registry import GameUI, register

UI = register(GameUI(
    name="one-eyed-jack",
    setup="ui.games.one_eyed_jack.setup:OneEyedJackSetupScreen",
    play="ui.games.one_eyed_jack.screen:OneEyedJackScreen",
    scenes="ui.games.one_eyed_jack.scenes",
    bench="ui.games.one_eyed_jack.bench",
))
