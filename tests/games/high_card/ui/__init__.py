"""High Card at the table: its screens, its screenshots and its bench recipe."""

from ui.games.registry import GameUI, register

UI = register(GameUI(
    name="high-card",
    setup="ui.games.high_card.setup:HighCardSetupScreen",
    play="ui.games.high_card.screen:HighCardScreen",
    scenes="ui.games.high_card.scenes",
    bench="ui.games.high_card.bench",
))
