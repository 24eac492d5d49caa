"""Slapjack at the table: its screens, its screenshots and its bench recipe."""

from ui.games.registry import GameUI, register

UI = register(GameUI(
    name="slapjack",
    setup="ui.games.slapjack.setup:SlapjackSetupScreen",
    play="ui.games.slapjack.screen:SlapjackScreen",
    scenes="ui.games.slapjack.scenes",
    bench="ui.games.slapjack.bench",
))
