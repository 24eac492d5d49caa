"""``jack-companion screenshots DIR``: every screen, in a representative state, at both sizes.

The pictures come from the real app on a throwaway table, driven as a player would.
Each game's states are in the scenes module its declaration names (``ui/games/``).
"""

from __future__ import annotations

import importlib
import time
import traceback
from pathlib import Path

from .scenes import DEMO_PLAYERS

SIZES = ((800, 480), (720, 1280))
PICTURED_AT = (2026, 12, 2, 18, 30)   # the local time the pictures show, whenever they are made


class PicturedClock:
    """The wall clock of the pictured table: it reads PICTURED_AT as the run starts and runs a
    hundred times slower than real time, so every game is stamped in the order it was played and
    every picture shows the same times, run after run (no picture changes unless a screen did)."""

    def __init__(self):
        self.start = time.mktime((*PICTURED_AT, 0, 0, 0, -1))
        self.began = time.monotonic()

    def __call__(self) -> float:
        return self.start + (time.monotonic() - self.began) / 100


def close_modals() -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss(animation=False)


def all_scenes(app, driver) -> list:
    from ui.games import GAME_UIS

    modules = ["ui.tools.scenes.common", *(ui.scenes for ui in GAME_UIS.values())]
    return [scene for name in modules for scene in importlib.import_module(name).scenes(app, driver)]


def render_all(out: Path, data_dir: Path, only: str | None = None) -> list[Path]:
    from companion import config as settings
    from companion import paths

    from ui.app import CompanionApp

    from .driver import AppDriver

    app = CompanionApp(data_dir=data_dir, config=settings.defaults(), mock=True, clock=PicturedClock())
    app.shown_data_dir = paths.default_data_dir()   # the table's own folder, not the throwaway one
    driver = AppDriver(app)
    made, failed = [], []
    try:
        for name in DEMO_PLAYERS:
            app.store.add_player(name)
        scenes = all_scenes(app, driver)
        for width, height in SIZES:
            driver.resize(width, height)
            for name, scene in scenes:
                if only and not name.startswith(only):
                    continue
                close_modals()
                app.clear_notice()
                driver.pump(2)
                try:
                    scene()
                except Exception:  # a broken scene must say which one, then the others still render
                    failed.append(f"{name} at {width}x{height}:\n{traceback.format_exc()}")
                    continue
                driver.pump(4)
                made.append(driver.screenshot(out / f"{name}-{width}x{height}"))
            close_modals()
    finally:
        driver.close()
    if failed:
        raise SceneError("these screens could not be pictured:\n" + "\n".join(failed))
    return made


class SceneError(Exception):
    pass
