"""The bench's children and what it reads from outside them: each child is a probe process that
reports JSON events on stdout and takes commands on stdin; its CPU time is read from /proc."""

from __future__ import annotations

import datetime
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


class BenchError(RuntimeError):
    pass


# -- helpers --------------------------------------------------------------------------------------------

def stats(values: list[float]) -> dict:
    """min, median, p99 (nearest rank) and max of a sample."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, max(0, -(-99 * len(ordered) // 100) - 1))]
    return {"n": len(ordered), "min": ordered[0], "median": statistics.median(ordered), "p99": p99,
            "max": ordered[-1]}


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system, every thread) a process has used, from /proc; None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine(renderer: str | None = None) -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read().splitlines()
        for key in ("model name", "Model", "Hardware", "cpu model"):
            found = [line.split(":", 1)[1].strip() for line in info if line.split(":")[0].strip() == key]
            if found:
                cpu = found[0]
                break
    except OSError:
        pass
    memory = None
    try:
        with open("/proc/meminfo") as f:
            memory = round(int(f.readline().split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    try:
        from importlib.metadata import version

        kivy = version("kivy")
    except Exception:
        kivy = "?"
    return {
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "arch": platform.machine(), "cpu": cpu, "cores": os.cpu_count(), "memory_gib": memory,
        "os": platform.platform(), "python": platform.python_version(), "kivy": kivy,
        "display": "Xvfb (virtual)" if os.environ.get("JACK_COMPANION_XVFB") else (os.environ.get("DISPLAY")
                                                                               or os.environ.get("WAYLAND_DISPLAY")
                                                                               or "KMS/DRM"),
        "gl_renderer": renderer,
        "audio": "SDL's dummy driver (no sound device)" if no_sound_device() else os.environ.get("SDL_AUDIODRIVER",
                                                                                              "the sound device"),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
    }


def no_sound_device() -> bool:
    """Whether this Linux machine has no sound card for SDL to open (elsewhere: assume it has)."""
    return sys.platform.startswith("linux") and not Path("/dev/snd").exists()


APP_ROOT = Path(__file__).resolve().parents[2]   # the checkout: companion/, hardware/, ui/ and tools/


def same_code_env() -> dict:
    """The environment for a child that runs the code this bench runs. A child starts in a folder
    of its own, where Python would otherwise find whichever copy of the app is installed, not the
    tree this bench came from (two checkouts measured in turn would measure the same code)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(APP_ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


class Child:
    """A probe process: reports come in as JSON events, commands go out on its stdin."""

    def __init__(self, argv: list[str], cwd: Path, pycache: Path | None = None, preexec=None):
        env = same_code_env()
        if pycache is not None:
            # Bytecode compiled once and kept, as a pip-installed app has it (the kiosk's venv),
            # in a cache of the bench's own: nothing is written into the source tree, and an
            # environment that turns bytecode off (PYTHONDONTWRITEBYTECODE) does not make every
            # start compile the app's modules while Kivy's come precompiled.
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(pycache)
        if "SDL_AUDIODRIVER" not in env and no_sound_device():
            # No sound card (a server, a container): SDL's mixer plays to no speaker, as in the
            # tests, so that a sound's cost (loading, mixing) is still paid where it is measured.
            env["SDL_AUDIODRIVER"] = "dummy"
        self.events: queue.Queue = queue.Queue()
        self.stderr: list[str] = []
        self.started = time.monotonic()    # just before the spawn: the start of every start-up figure
        self.proc = subprocess.Popen([sys.executable, *argv], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, env=env,
                                     preexec_fn=preexec)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("@bench "):
                event = json.loads(line[7:])
                event["received"] = time.monotonic()
                self.events.put(event)
        self.events.put({"event": "exit"})

    def _drain(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)
            del self.stderr[:-40]

    def expect(self, name: str, timeout: float = 120) -> dict:
        end = time.monotonic() + timeout
        while True:
            try:
                event = self.events.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise BenchError(f"no {name!r} from the probe within {timeout:.0f} s") from None
            if event["event"] == name:
                return event
            if event["event"] == "error":
                raise BenchError(event["message"] + ("\n" + event["trace"] if event.get("trace") else ""))
            if event["event"] == "exit":
                self.proc.wait(timeout=10)
                raise BenchError(f"the probe exited ({self.proc.returncode}) before {name!r}: "
                                 + "".join(self.stderr[-8:]).strip())

    def send(self, **command) -> None:
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()

    def cpu(self) -> float:
        seconds = cpu_seconds(self.proc.pid)
        if seconds is None:                         # not Linux: the probe reports its own process time
            self.send(cmd="cpu")
            seconds = self.expect("cpu")["seconds"]
        return seconds

    def ms_since_start(self, event: dict) -> float:
        return (event["t"] - self.started) * 1000

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send(cmd="quit")
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
