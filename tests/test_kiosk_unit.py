"""The kiosk unit and its installer: verified by systemd, idempotent, and undone cleanly."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
INSTALL = REPO / "systemd" / "install.sh"
UNIT = "etc/systemd/system/jack-companion.service"

needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed (bash .ci/setup test installs it)")


def unit_settings(path: Path) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")) and "=" in line:
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def run_install(root: Path, *args: str) -> str:
    done = subprocess.run(["bash", str(INSTALL), "--root", str(root), *args], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def tree_digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts
            and ".dist-info" not in str(p) and not p.name.endswith(".pyc")}


@needs_systemd
@pytest.mark.slow
def test_install_is_idempotent_verified_and_undone(tmp_path):
    first = run_install(tmp_path)
    unit = tmp_path / UNIT
    assert unit.exists() and "writing" in first
    assert (tmp_path / "opt/jack-companion/venv/bin/jack-companion").exists()
    before = tree_digest(tmp_path / "etc")
    second = run_install(tmp_path)
    assert "unit unchanged" in second and "app unchanged" in second   # nothing installed twice
    assert tree_digest(tmp_path / "etc") == before
    # The installed app runs: its replay works from the kiosk's own environment.
    log = REPO / "tests" / "logs" / "jacks-basic.jsonl"
    done = subprocess.run([str(tmp_path / "opt/jack-companion/venv/bin/jack-companion"), "replay", "--json", str(log)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and '"game": "jacks"' in done.stdout
    # The screens' layouts travel with the installed app, not only in a checkout.
    installed = subprocess.run([str(tmp_path / "opt/jack-companion/venv/bin/python"), "-c",
                                "import pathlib, ui; print(pathlib.Path(ui.__file__).parent)"],
                               capture_output=True, text=True, timeout=60).stdout.strip()
    missing = [str(kv.relative_to(REPO / "ui")) for kv in (REPO / "ui").rglob("*.kv")
               if not (Path(installed) / kv.relative_to(REPO / "ui")).exists()]
    assert installed and not missing, f"not installed: {missing}"
    run_install(tmp_path, "--uninstall")
    assert not unit.exists()
    assert not (tmp_path / "opt/jack-companion").exists()


@needs_systemd
def test_unit_verifies(tmp_path):
    """systemd-analyze accepts the unit as the installer fills it in."""
    text = (REPO / "systemd" / "jack-companion.service").read_text()
    exe = shutil.which("true")
    fake_venv = tmp_path / "venv" / "bin"
    fake_venv.mkdir(parents=True)
    (fake_venv / "jack-companion").symlink_to(exe)
    unit = tmp_path / "jack-companion.service"
    unit.write_text(text.replace("@USER@", "jack-companion").replace("@VENV@", str(tmp_path / "venv"))
                    .replace("@APP_DIR@", str(tmp_path)))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_unit_is_a_hardened_kiosk_that_keeps_the_devices():
    settings = unit_settings(REPO / "systemd" / "jack-companion.service")
    assert set(settings["SupplementaryGroups"][0].split()) == {"gpio", "input", "video", "render", "dialout"}
    assert settings["Restart"] == ["on-failure"]
    assert settings["StartLimitBurst"] and settings["StartLimitIntervalSec"]
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "PrivateNetwork"):
        assert settings[key] == ["yes"], key
    assert settings["ProtectSystem"] == ["strict"]
    # The screen, the touch input, the GPIO chips and the serial ports are devices: keep them.
    assert "PrivateDevices" not in settings
    # lgpio's notify file and Kivy's home must land somewhere writable.
    env = dict(v.split("=", 1) for v in settings["Environment"])
    assert settings["WorkingDirectory"] == ["/var/lib/jack-companion"]
    assert env["LG_WD"] == "/var/lib/jack-companion" and env["KIVY_HOME"].startswith("/var/lib/jack-companion")
    assert settings["StateDirectory"] == ["jack-companion"]
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert "--fullscreen" in settings["ExecStart"][0]
