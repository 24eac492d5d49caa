"""Settings: what the table sets once and keeps, written to config.toml in the data folder."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion import paths

from .. import sound

TARGET_STEP = 5


class SettingsScreen(Screen):
    four_colour = BooleanProperty(False)
    target = NumericProperty(75)
    size_text = StringProperty("800x480")
    where = StringProperty("")
    volume = NumericProperty(sound.DEFAULT_VOLUME)

    def prepare(self, **_):
        app = App.get_running_app()
        self.four_colour = app.settings["display"]["four_colour"]
        self.target = app.settings["jacks"]["target"]
        self.size_text = app.settings["display"]["size"]
        self.volume = sound.volume_of(app.settings)
        self.where = f"Saved in {paths.shown(paths.config_path(app.shown_data_dir))}"

    def _save(self, message: str) -> None:
        app = App.get_running_app()
        try:
            app.save_settings()
        except OSError as exc:
            app.notify(f"The settings could not be saved: {exc.strerror or exc}", "error")
            return
        app.notify(message)

    def toggle_four_colour(self):
        app = App.get_running_app()
        self.four_colour = not self.four_colour
        app.settings["display"]["four_colour"] = self.four_colour
        self._save("Four-colour suits on: \u2660 black, \u2665 vermilion, \u2666 blue, \u2663 green."
                   if self.four_colour else "Suits in the usual red and black.")

    def change_target(self, step: int):
        app = App.get_running_app()
        self.target = max(TARGET_STEP, min(500, self.target + step))
        app.settings["jacks"]["target"] = int(self.target)
        self._save(f"New Jacks games play to {self.target}.")

    def choose_size(self, size: str):
        app = App.get_running_app()
        self.size_text = size
        app.settings["display"]["size"] = size
        self._save(f"The window opens at {size} from the next start.")

    @staticmethod
    def volume_words(volume) -> str:
        return f"{int(volume)}%" if volume else "Off"

    def step_volume(self, direction: int):
        """One step louder or quieter along VOLUME_STEPS; the quietest step is off."""
        app = App.get_running_app()
        steps = sound.VOLUME_STEPS
        here = min(range(len(steps)), key=lambda i: abs(steps[i] - self.volume))
        self.volume = steps[max(0, min(len(steps) - 1, here + direction))]
        app.settings.setdefault("sound", {})["volume"] = int(self.volume)
        self._save(f"Sounds at {int(self.volume)}%." if self.volume else "Sounds off.")
        sound.play("slap-good")   # the table hears the new volume at once
