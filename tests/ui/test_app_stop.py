"""The app stops cleanly with a notice still on screen: the notice's timer goes with the app
rather than firing after it, when its layout can no longer ask the app for its colours."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys, time
from pathlib import Path
from tests.reliability.scripted_app import start_app
app, driver = start_app(Path(sys.argv[1]))
app.notify("Ann joined the table", seconds=0.05)
driver.pump(2)
time.sleep(0.1)   # the notice's time is up: its timer is due at the next frame
driver.close()
print("stopped")
"""

def test_the_app_stops_with_a_notice_showing(display, tmp_path):
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("stopped"), \
        f"exit status {done.returncode}: {done.stdout[-500:]}{done.stderr[-2000:]}"
