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
    chosen = override or os.environ.get(DATA_DIR_ENV) or default_data_dir()
    path = Path(chosen).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def store_path(folder: Path) -> Path:
    return folder / "companion.sqlite3"


def config_path(folder: Path) -> Path:
    return folder / "config.toml"


def shown(path: Path) -> str:
    """A path as a screen names it: the home folder as ``~``.

    >>> shown(Path.home() / ".local" / "share" / "jack-companion" / "config.toml")
    '~/.local/share/jack-companion/config.toml'
    """
    try:
        return "~/" + str(Path(path).relative_to(Path.home()))
    except ValueError:
        return str(path)


def default_data_dir() -> Path:
    """The platform's data folder for the companion, not made (``data_dir`` makes the one used)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
