"""High Card's set-up: the least its declaration needs, an example of the folder a game is."""

from kivy.uix.screenmanager import Screen


class HighCardSetupScreen(Screen):
    def prepare(self, **_):
        pass
