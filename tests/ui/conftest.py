"""A real Kivy window for the UI tests (on the display that tests/conftest.py provides)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def driver(display):
    """The app, built once for the session (Kivy has one window per process)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-ui-"))
    from ui.launcher import prepare_kivy

    prepare_kivy(folder, "800x480", max_fps=0)
    from companion import config as settings
    from ui.app import CompanionApp
    from ui.driver import AppDriver

    app = CompanionApp(data_dir=folder, config=settings.defaults())
    drv = AppDriver(app)
    drv.data_dir = folder
    yield drv
    drv.close()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def app(driver):
    """Each test starts on the home screen at 800x480 with no modal open."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss(animation=False)
    driver.resize(800, 480)
    driver.app.clear_notice()
    driver.app.show("home")
    driver.pump(3)
    return driver.app


def find(root, cls=None, text=None):
    """Every widget under ``root`` (a widget, or the window) of class ``cls`` whose text is ``text``."""
    found = []
    tops = [root] if hasattr(root, "walk") else list(root.children)
    for widget in (w for top in tops for w in top.walk(restrict=True)):
        if cls is not None and not isinstance(widget, cls):
            continue
        if text is not None and getattr(widget, "text", None) != text:
            continue
        found.append(widget)
    return found


def visible(widget) -> bool:
    """On screen as a player sees it: inside the window, not hidden, not greyed out."""
    from kivy.core.window import Window

    x, y = widget.to_window(*widget.center)
    w = widget
    while w is not None and w is not w.parent:
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent
    return 0 <= x <= Window.width and 0 <= y <= Window.height and not widget.disabled
