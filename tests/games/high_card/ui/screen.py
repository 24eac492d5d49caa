"""High Card's game screen: the least its declaration needs, an example of the folder a game is."""

from kivy.uix.screenmanager import Screen


class HighCardScreen(Screen):
    def prepare(self, session=None, **_):
        self.session = session
