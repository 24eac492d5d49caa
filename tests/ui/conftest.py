"""A real Kivy window for the UI tests: under Xvfb, started here when no display is set."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest


def _start_xvfb():
    """Start a private Xvfb big enough for both screen sizes; returns the process or None."""
    if os.environ.get("DISPLAY"):
        return None
    if not shutil.which("Xvfb"):
        pytest.skip("UI tests need a display: install Xvfb (apt-get install xvfb)", allow_module_level=True)
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1280x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        proc.kill()
        pytest.fail("Xvfb did not start")
    os.environ["DISPLAY"] = f":{number}"
    return proc


@pytest.fixture(scope="session")
def driver():
    """The app, built once for the session (Kivy has one window per process)."""
    xvfb = _start_xvfb()
    folder = Path(tempfile.mkdtemp(prefix="companion-ui-"))
    from ui.launcher import prepare_kivy

    prepare_kivy(folder, "800x480")
    from companion import config as settings
    from ui.app import CompanionApp
    from ui.driver import AppDriver

    app = CompanionApp(data_dir=folder, config=settings.defaults())
    drv = AppDriver(app)
    drv.data_dir = folder
    yield drv
    drv.close()
    if xvfb is not None:
        xvfb.terminate()
        xvfb.wait(timeout=10)
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
