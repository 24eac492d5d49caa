"""Jacks at the table: its screens, its screenshots and its bench recipe."""

from ui.games.registry import GameUI, register

UI = register(GameUI(
    name="jacks",
    setup="ui.games.jacks.setup:JacksSetupScreen",
    play="ui.games.jacks.screen:JacksScreen",
    scenes="ui.games.jacks.scenes",
    bench="ui.games.jacks.bench",
))
