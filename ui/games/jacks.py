"""Jacks at the table: its screens, its screenshots and its bench recipe."""

from .registry import GameUI, register

UI = register(GameUI(
    name="jacks",
    setup="ui.screens.jacks_setup:JacksSetupScreen",
    play="ui.screens.jacks:JacksScreen",
    scenes="ui.tools.scenes.jacks",
    bench="ui.tools.bench.recipes.jacks",
))
