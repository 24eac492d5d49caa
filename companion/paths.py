"""Where the companion keeps its files: one data folder holds the store and the config."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "jack-companion"
DATA_DIR_ENV = "JACK_COMPANION_DATA"


def data_dir(override: str | os.PathLike | None = None) -> Path:
    """``--data-dir`` if given, else ``$JACK_COMPANION_DATA``, else the platform's data folder
    (``~/.local/share/jack-companion`` on Linux)."""
    chosen = override or os.environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir(APP_NAME, appauthor=False)
    path = Path(chosen).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def store_path(folder: Path) -> Path:
    return folder / "companion.sqlite3"


def config_path(folder: Path) -> Path:
    return folder / "config.toml"
