"""Drawn things kept: the synthetic game videos and the drawn glyphs' classifier take seconds to
make and are the same every time, so a test run names a folder (``JACK_COMPANION_DRAWN_CACHE``)
where the first process to make one keeps it and every other (the test workers, the bench and
app processes they start) reads it back, byte for byte.

The app keeps them in its data folder (:func:`keep_in`): the drawn glyphs took 3.5 s of a core
here (several on a Pi's) the first time each start of the app opened the camera, and the camera
named no card meanwhile; read back, 10 ms. Without either, nothing is kept: the tools make their
own, as ever.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

CACHE_ENV = "JACK_COMPANION_DRAWN_CACHE"
HERE = Path(__file__).resolve().parent
_folder: Path | None = None   # where to keep them without CACHE_ENV (the app's data folder)


def keep_in(folder) -> None:
    """Keep what is drawn in ``folder`` from now on, unless ``CACHE_ENV`` names another."""
    global _folder
    _folder = Path(folder) if folder is not None else None


def kept(name: str, how, sources, make, save, load):
    """``make()``, or where ``CACHE_ENV`` or :func:`keep_in` say, what was kept there for the
    same ``name`` and arguments ``how`` by this code: ``sources`` are the files (beside this one)
    whose change makes it another thing. ``save(file, made)`` writes it to a binary file,
    ``load(file)`` reads it back. Processes making the same thing side by side take turns on a
    lock (one makes it, the others read it), and a file appears whole or not at all (written
    aside, then renamed). In the app's folder a new one replaces what an older version kept."""
    shared = os.environ.get(CACHE_ENV)
    folder = shared or _folder
    if not folder:
        return make()
    import cv2
    import numpy as np

    digest = hashlib.sha256(f"{name} {how!r} {np.__version__} {cv2.__version__}".encode())
    for source in sources:
        digest.update((HERE / source).read_bytes())
    folder = Path(folder)
    path = folder / f"{name}-{digest.hexdigest()[:24]}.kept"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_suffix(".lock"), "w")
    except OSError:   # nowhere to keep it: made, as without a folder
        return make()
    with lock:
        try:
            import fcntl
            fcntl.flock(lock, fcntl.LOCK_EX)
        except ImportError:   # no advisory locks: two processes may both make it, harmlessly
            pass
        if path.exists():
            try:
                with open(path, "rb") as f:
                    return load(f)
            except Exception:   # damaged (a card pulled mid-write, a bad sector): made again
                pass
        made = make()
        aside = path.with_name(f"{path.name}.{os.getpid()}.part")
        try:
            with open(aside, "wb") as f:
                save(f, made)
            os.replace(aside, path)
            if not shared:   # the app keeps one of each: what older code or libraries made is no use now
                for old in folder.glob(f"{name}-*.kept"):
                    if old != path:
                        old.unlink(missing_ok=True)
                        old.with_suffix(".lock").unlink(missing_ok=True)
        except OSError:   # a full or read-only card: used now, made again next time
            aside.unlink(missing_ok=True)
        return made
