"""The table's few sounds: ``play("slap-good")`` and the like, at the volume in Settings.

The sounds are made here, not downloaded: each is a handful of short tones written as a small
WAV file (8-bit, 11 kHz, a few kB) into the data folder the first time it is wanted, then
played by Kivy's SoundLoader on SDL2's mixer. A sound never delays what the screen shows:
``play`` only schedules it for the next frame, after the verdict or the move is drawn, and a
sound that cannot be made or played is skipped in silence (the game goes on without it).
"""

from __future__ import annotations

import array
import hashlib
import logging
import math
import sys
import wave
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 11025  # samples a second: enough for tones up to 2 kHz, and files of a few kB
DEFAULT_VOLUME = 70  # percent; config.toml [sound] volume, 0 is off
VOLUME_STEPS = (0, 25, 50, 70, 100)

# Each sound as notes: (frequency in Hz, seconds, loudness 0..1, shape). 0 Hz is a rest.
# Good news goes up and rings; a mistake is low, rough and falls.
SOUNDS: dict[str, tuple[tuple[float, float, float, str], ...]] = {
    "slap-good": ((880, 0.07, 0.8, "bell"), (1318.5, 0.16, 0.9, "bell")),
    "slap-wrong": ((196, 0.14, 0.7, "buzz"), (146.8, 0.22, 0.7, "buzz")),
    "jack": ((1046.5, 0.32, 0.9, "bell"),),
    "pick-up": ((659.3, 0.07, 0.7, "blip"), (0, 0.03, 0, "blip"), (523.3, 0.07, 0.7, "blip"),
                (0, 0.03, 0, "blip"), (392, 0.12, 0.7, "blip")),
    "row": ((523.3, 0.09, 0.8, "bell"), (659.3, 0.09, 0.8, "bell"), (784, 0.22, 0.9, "bell")),
    "game-over": ((523.3, 0.12, 0.8, "bell"), (659.3, 0.12, 0.8, "bell"), (784, 0.12, 0.8, "bell"),
                  (1046.5, 0.4, 0.9, "bell")),
}
NAMES = tuple(SOUNDS)


def _wave(shape: str, phase: float) -> float:
    if shape == "buzz":  # a soft square: rough, for a mistake
        return max(-1.0, min(1.0, 3 * math.sin(phase))) * 0.6
    return math.sin(phase) + (0.25 * math.sin(2 * phase) if shape == "bell" else 0)


def samples(name: str) -> array.array:
    """The sound ``name`` as unsigned 8-bit samples (a WAV file's own format at 8 bits)."""
    out = array.array("B")
    for freq, seconds, loud, shape in SOUNDS[name]:
        count = int(seconds * RATE)
        for i in range(count):
            t = i / RATE
            # a quick rise (no click), then a fall: a bell rings away, a blip stops short
            attack = min(1.0, t / 0.004)
            decay = math.exp(-t * (9 if shape == "bell" else 4)) if shape != "blip" else 1 - i / count
            value = loud * attack * decay * _wave(shape, 2 * math.pi * freq * t) * 0.8 if freq else 0.0
            out.append(max(0, min(255, int(128 + 127 * value))))
    return out


def recipe_tag(name: str) -> str:
    """A short tag of the sound's recipe, in its file name: a changed sound is made anew."""
    return hashlib.sha1(repr((RATE, SOUNDS[name])).encode()).hexdigest()[:8]


def write_wav(name: str, folder: Path) -> Path:
    """The WAV file for ``name`` in ``folder``, made if it is not there yet."""
    path = Path(folder) / f"{name}-{recipe_tag(name)}.wav"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(".part")
        with wave.open(str(part), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(1)
            out.setframerate(RATE)
            out.writeframes(samples(name).tobytes())
        part.replace(path)
    return path


def volume_of(settings: dict | None) -> int:
    """The volume in percent from the app's settings (0: off)."""
    try:
        value = int((settings or {}).get("sound", {}).get("volume", DEFAULT_VOLUME))
    except (TypeError, ValueError):
        return DEFAULT_VOLUME
    return max(0, min(100, value))


class Sounds:
    """The loaded sounds of one app, each loaded the first time it plays."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.loaded: dict[str, object] = {}
        self.played: list[str] = []  # every sound played, in order: what the tests listen to

    def load(self, name: str):
        if name not in self.loaded:
            self.loaded[name] = None
            try:
                import kivy

                if "kivy.core.audio" not in sys.modules:
                    kivy.kivy_options["audio"] = ["sdl2"]  # SDL2's mixer, which Kivy's wheel carries
                from kivy.core.audio import SoundLoader

                self.loaded[name] = SoundLoader.load(str(write_wav(name, self.folder)))
            except Exception as exc:  # no audio device, a read-only folder: the table plays on in silence
                log.warning("sound %s cannot be played: %s", name, exc)
        return self.loaded[name]

    def play_now(self, name: str, volume: int) -> bool:
        if volume <= 0:
            return False
        sound = self.load(name)
        if sound is None:
            return False
        try:
            sound.volume = volume / 100
            if sound.state == "play":
                sound.stop()
            sound.play()
        except Exception as exc:   # a mixer gone away: the table plays on in silence
            log.warning("sound %s cannot be played: %s", name, exc)
            return False
        self.played.append(name)
        return True


def play(name: str) -> None:
    """Play the sound ``name`` (one of NAMES) at the table's volume, after this frame is drawn.

    Never blocks and never raises: the caller (a verdict, a move) goes straight on."""
    if name not in SOUNDS:
        log.warning("no sound called %s", name)
        return
    from kivy.app import App
    from kivy.clock import Clock

    app = App.get_running_app()
    if app is None:
        return
    sounds = getattr(app, "sounds", None)
    if sounds is None:
        data = getattr(app, "data_dir", None)
        if data is None:
            return
        sounds = app.sounds = Sounds(Path(data) / "sounds")
    volume = volume_of(getattr(app, "settings", None))
    if volume <= 0:
        return
    Clock.schedule_once(lambda _dt: sounds.play_now(name, volume_of(getattr(app, "settings", None))), 0)
