"""One Eyed Jack at the table: its screens, its screenshots and its bench recipe."""

from ui.games.registry import GameUI, register

UI = register(GameUI.in_folder(__name__, "one-eyed-jack", setup="OneEyedJackSetupScreen", play="OneEyedJackScreen"))
