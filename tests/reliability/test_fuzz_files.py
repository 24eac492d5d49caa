"""`replay` and import fuzzed with damaged logs of every game: always `line N: reason`,
exit status 2, never a traceback, and nothing half-imported into the store."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from companion.engine import UNREADABLE, Game
from companion.errors import LogError
from companion.store import Store

from .mutations import good_logs, mutate

MUTATIONS_PER_LOG = 400  # x 8 logs: 3,200 damaged files in-process
CLI_SAMPLES = 24


@pytest.mark.parametrize("name", sorted(good_logs()))
def test_damaged_logs_are_refused_with_a_line_number_and_nothing_is_half_imported(name, tmp_path):
    good = good_logs()[name]
    Game.from_bytes(good)  # the seed itself is a good game
    rng = random.Random(name)
    store = Store(tmp_path / "store.sqlite3")
    refused = 0
    for _ in range(MUTATIONS_PER_LOG):
        damaged = mutate(good, rng)
        before = len(store.games())
        try:
            store.import_bytes(damaged)
        except LogError as exc:
            refused += 1
            assert str(exc).startswith(f"line {exc.line}: ") and exc.line >= 1
            assert exc.reason and "\n" not in exc.reason and "Traceback" not in exc.reason
            # The engine's safety net must not be what answered: every rule names the problem.
            assert not exc.reason.startswith(UNREADABLE), f"{exc} for {damaged[:300]!r}"
            assert len(store.games()) == before, "a refused file must leave nothing in the store"
        else:
            # Some damage leaves a legal game (a dropped last line): then it is stored whole.
            game_id = store.games()[0].id
            assert store.export_text(game_id) == Game.from_bytes(damaged).to_jsonl()
    assert refused > MUTATIONS_PER_LOG // 3


def test_the_replay_command_answers_damaged_files_in_one_line(tmp_path):
    rng = random.Random(7)
    logs = good_logs()
    names = sorted(logs)
    for sample in range(CLI_SAMPLES):
        damaged = mutate(logs[names[sample % len(names)]], rng)
        path = tmp_path / f"damaged-{sample}.jsonl"
        path.write_bytes(damaged)
        done = subprocess.run([sys.executable, "-m", "ui.launcher", "replay", "--json", str(path)],
                              capture_output=True, text=True, timeout=60)
        assert "Traceback" not in done.stderr
        if done.returncode == 0:
            continue  # the damage left a legal game
        assert done.returncode == 2
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("line "), done.stderr
