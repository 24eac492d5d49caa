"""The app listens on no network port (nor has any inet socket open at all)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .killing import REPO, _env

pytestmark = [pytest.mark.ui, pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")]


def socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def inet_sockets() -> dict[str, str]:
    """inode -> 'tcp LISTEN' etc., for every inet socket on the machine."""
    found = {}
    for table in ("tcp", "tcp6", "udp", "udp6"):
        path = Path("/proc/net") / table
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            found[fields[9]] = f"{table} state {fields[3]} local {fields[1]}"
    return found


def test_the_app_opens_no_inet_socket(tmp_path, display):
    child = subprocess.Popen([sys.executable, "-m", "tests.reliability.scripted_app", "hold", str(tmp_path)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             cwd=REPO, env=_env())
    try:
        assert child.stdout.readline().strip() == "ready"
        mine = socket_inodes(child.pid)
        inet = inet_sockets()
        assert not {inode: inet[inode] for inode in mine if inode in inet}
    finally:
        child.stdin.close()
        child.wait(timeout=30)
