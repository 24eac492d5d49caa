"""``jack-companion screenshots DIR`` with a folder it cannot make says so in one line and exits
with status 2, before any window opens."""

from __future__ import annotations

from ui.launcher import main


def test_a_folder_that_cannot_be_made_is_named(tmp_path, capsys):
    taken = tmp_path / "notes.txt"
    taken.write_text("a file where the folder would go")
    assert main(["screenshots", str(taken / "shots")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"screenshots: cannot make the folder {taken / 'shots'}: Not a directory", err
    assert taken.read_text() == "a file where the folder would go"
