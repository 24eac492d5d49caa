"""Pi-like conditions for the bench's children (``bench --pi``, ``--cpu-share``, ``--commit-delay-ms``).

The CPU: one core, capped through the kernel's cgroup CPU controller (v2 ``cpu.max`` or v1
``cpu.cfs_quota_us``, whichever this machine has) with a 5 ms period, so that the cap bites
within a frame instead of in 100 ms bursts; every child (the app and bare Kivy alike) joins the
cgroup before it starts and is pinned to one CPU. Where no cgroup can be made (not Linux, not
allowed) the run says so and measures on the whole machine.

The SD card: every durable commit of the store takes at least N ms (``companion.store.slow_commits``,
passed by the probe to the app's Store; the app itself never asks for it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

PERIOD_US = 5000
PI_CPU_SHARE = 0.4       # a Pi 4 core is about a third of this machine's, a Pi 5's half to two thirds
PI_COMMIT_MS = 20.0      # one durable commit on an SD card: 10 to 50 ms


@dataclass
class Conditions:
    cpu_share: float | None = None      # of one core; None: the machine as it is
    commit_delay_ms: float = 0.0
    cpu: int | None = None              # the CPU every child is pinned to
    cgroup: Path | None = None
    how: str = "none"                   # how the cap was set, or why it was not
    joined: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.cpu_share is not None or self.commit_delay_ms > 0

    def describe(self) -> dict:
        return {"cpu_share": self.cpu_share, "period_ms": PERIOD_US / 1000 if self.cgroup else None,
                "cpu": self.cpu, "cap": self.how, "commit_delay_ms": self.commit_delay_ms}

    def preexec(self):
        """What a child runs between fork and exec: join the cgroup, keep to one CPU."""
        if self.cgroup is None and self.cpu is None:
            return None
        procs = self.cgroup / "cgroup.procs" if self.cgroup else None
        cpu = self.cpu

        def enter():
            if procs is not None:
                with open(procs, "w") as f:
                    f.write(str(os.getpid()))
            if cpu is not None:
                os.sched_setaffinity(0, {cpu})

        return enter

    def close(self) -> None:
        if self.cgroup is not None:
            try:
                self.cgroup.rmdir()
            except OSError:
                pass
            self.cgroup = None


def v2_root() -> Path | None:
    for root in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")):
        controllers = root / "cgroup.controllers"
        if controllers.exists() and "cpu" in controllers.read_text().split():
            return root
    return None


def v1_root() -> Path | None:
    for root in (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup/cpu,cpuacct")):
        if (root / "cpu.cfs_quota_us").exists():
            return root
    return None


def make_cgroup(share: float) -> tuple[Path | None, str]:
    """A cgroup holding its processes to ``share`` of one CPU, and how it was set (or why not)."""
    name = f"jack-companion-bench-{os.getpid()}"
    quota = max(1000, round(share * PERIOD_US))    # the kernel's floor is 1 ms
    tried = []
    root = v2_root()
    if root is not None:
        group = root / name
        try:
            subtree = root / "cgroup.subtree_control"
            if "cpu" not in subtree.read_text().split():
                subtree.write_text("+cpu")
            group.mkdir()
            (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            return group, f"cgroup v2 cpu.max {quota} {PERIOD_US}"
        except OSError as exc:
            tried.append(f"cgroup v2 at {root}: {exc.strerror or exc}")
            _remove(group)
    root = v1_root()
    if root is not None:
        group = root / name
        try:
            group.mkdir()
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
            return group, f"cgroup v1 cpu.cfs_quota_us {quota} per cpu.cfs_period_us {PERIOD_US}"
        except OSError as exc:
            tried.append(f"cgroup v1 at {root}: {exc.strerror or exc}")
            _remove(group)
    if not tried:
        tried.append("no cgroup CPU controller on this machine")
    return None, "not capped (" + "; ".join(tried) + ")"


def _remove(group: Path) -> None:
    try:
        group.rmdir()
    except OSError:
        pass


def conditions(pi: bool, cpu_share: float | None, commit_delay_ms: float | None) -> Conditions:
    share = cpu_share if cpu_share is not None else (PI_CPU_SHARE if pi else None)
    delay = commit_delay_ms if commit_delay_ms is not None else (PI_COMMIT_MS if pi else 0.0)
    found = Conditions(cpu_share=share, commit_delay_ms=delay)
    if share is not None:
        if hasattr(os, "sched_getaffinity"):
            found.cpu = max(os.sched_getaffinity(0))
        found.cgroup, found.how = make_cgroup(share)
    return found
