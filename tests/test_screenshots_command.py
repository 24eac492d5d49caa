"""``jack-companion screenshots DIR``: a folder it cannot make is named in one line (exit status
2, before any window opens), and the pictures are the same from one run to the next."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ui.launcher import main


def test_a_folder_that_cannot_be_made_is_named(tmp_path, capsys):
    taken = tmp_path / "notes.txt"
    taken.write_text("a file where the folder would go")
    assert main(["screenshots", str(taken / "shots")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"screenshots: cannot make the folder {taken / 'shots'}: Not a directory", err
    assert taken.read_text() == "a file where the folder would go"


@pytest.mark.ui
def test_the_pictures_are_the_same_run_after_run(display, tmp_path):
    """The README's pictures change only when a screen does: the games on the pictured table are
    stamped by a fixed clock (so "left today at 18:30" every time), and Settings names the table's
    own folder ("~/.local/share/jack-companion"), not the throwaway one the pictures were made in."""
    runs = []
    for run in ("first", "second"):
        out = tmp_path / run
        for scene in ("home", "history", "settings"):
            done = subprocess.run([sys.executable, "-m", "ui.launcher", "screenshots", str(out), "--only", scene],
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr[-2000:]
        runs.append({p.name: p.read_bytes() for p in sorted(out.glob("*.png"))})
    assert len(runs[0]) == 6 and runs[0].keys() == runs[1].keys()
    changed = [name for name in runs[0] if runs[0][name] != runs[1][name]]
    assert not changed, f"these pictures changed between two runs: {changed}"


@pytest.mark.ui
def test_the_throwaway_table_is_gone_after_the_run(display, tmp_path):
    """The pictures are made on a throwaway table in the temporary folder; a run leaves none
    behind (a kiosk making its pictures now and then would otherwise fill its card)."""
    import os

    temporary = tmp_path / "tmp"
    temporary.mkdir()
    done = subprocess.run([sys.executable, "-m", "ui.launcher", "screenshots", str(tmp_path / "shots"), "--only", "home"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "TMPDIR": str(temporary)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p.name for p in (tmp_path / "shots").glob("*.png")) == ["home-720x1280.png", "home-800x480.png"]
    assert list(temporary.iterdir()) == [], "the throwaway table was left behind"
