"""`replay --json` prints what it printed before the typed outcome came in, byte for byte.

The files in tests/golden/ were written from tests/logs/ before ``outcome()`` existed; a
log that is refused must still be refused with the same line.
"""

import argparse
from pathlib import Path

import pytest

from companion.cli import cmd_replay

LOGS = sorted((Path(__file__).parent / "logs").glob("*.jsonl"))
GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_replay_json_is_unchanged(log, capsys):
    code = cmd_replay(argparse.Namespace(file=str(log), json=True))
    out, err = capsys.readouterr()
    printed = GOLDEN / f"{log.stem}.replay.json"
    refused = GOLDEN / f"{log.stem}.replay.err"
    assert out == (printed.read_text(encoding="utf-8") if printed.exists() else "")
    assert err == (refused.read_text(encoding="utf-8") if refused.exists() else "")
    assert (code == 0) == printed.exists()
