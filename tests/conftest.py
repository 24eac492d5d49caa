"""What many tests share: a display for the real Kivy window (Xvfb when none is set)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest

# High Card (tests/games/high_card/) registers itself on import; only the tests that ask for it
# may import it (pytest's doctest collection would otherwise leave it on every screen's list of
# games, and its own tests run in tests/test_a_new_game.py's copy, where it is a game folder).
collect_ignore_glob = ["games/*"]


# hardware/vision/kept.py's CACHE_ENV (not imported here: the controller needs no OpenCV).
DRAWN_CACHE_ENV = "JACK_COMPANION_DRAWN_CACHE"


def pytest_configure(config):
    """The synthetic game videos and the drawn glyphs are made once for the run, not by every test
    (and bench or app process) that uses them: kept in a folder of the run's own, which the xdist
    workers and the processes they start inherit. A run with the variable already set uses that
    folder and leaves it."""
    if hasattr(config, "workerinput") or os.environ.get(DRAWN_CACHE_ENV):
        return
    config.drawn_cache = tempfile.mkdtemp(prefix="jack-companion-drawn-")
    os.environ[DRAWN_CACHE_ENV] = config.drawn_cache


def pytest_unconfigure(config):
    folder = getattr(config, "drawn_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(DRAWN_CACHE_ENV, None)


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml's addopts): one worker more than the cores this run may use,
    so that while one waits on real time (the bench's timers, an app process starting) another
    keeps its core busy."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.fixture(scope="session")
def display():
    """A display for Kivy windows, the tests' own and those of app processes they start.

    Under `xvfb-run` (as `bash .ci/setup test` runs them) this is that display; otherwise
    a private Xvfb big enough for both screen sizes is started for the session.
    """
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    if not shutil.which("Xvfb"):
        pytest.skip("this test needs a display: install Xvfb (apt-get install xvfb)")
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
    yield os.environ["DISPLAY"]
    proc.terminate()
    proc.wait(timeout=10)


def pytest_collection_finish(session):
    """Kivy opens its window on the first import of kivy.core.window, with the config it has
    then: a test module that imports it at the top would open it before the display and the
    app's config exist. Import Kivy inside the tests (or fixtures) instead."""
    import sys

    if "kivy.core.window" in sys.modules and not os.environ.get("DISPLAY"):
        raise pytest.UsageError("a test module imported kivy.core.window at collection; import it inside the test")
