"""Slapjack at the table: its screens, its screenshots and its bench recipe."""

from .registry import GameUI, register

UI = register(GameUI(
    name="slapjack",
    setup="ui.screens.slapjack_setup:SlapjackSetupScreen",
    play="ui.screens.slapjack:SlapjackScreen",
    scenes="ui.tools.scenes.slapjack",
    bench="ui.tools.bench.recipes.slapjack",
))
