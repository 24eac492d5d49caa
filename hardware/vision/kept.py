"""Drawn things kept for a run: the synthetic game videos and the drawn glyphs' classifier take
seconds to make and are the same every time, so a test run names a folder
(``JACK_COMPANION_DRAWN_CACHE``) where the first process to make one keeps it and every other
(the test workers, the bench and app processes they start) reads it back, byte for byte.

Without the variable nothing is kept: the app and the tools make their own, as ever.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

CACHE_ENV = "JACK_COMPANION_DRAWN_CACHE"
HERE = Path(__file__).resolve().parent


def kept(name: str, how, sources, make, save, load):
    """``make()``, or with ``CACHE_ENV`` set, what was kept there for the same ``name`` and
    arguments ``how`` by this code: ``sources`` are the files (beside this one) whose change makes
    it another thing. ``save(file, made)`` writes it to a binary file, ``load(file)`` reads it
    back. Processes making the same thing side by side take turns on a lock (one makes it, the
    others read it), and a file appears whole or not at all (written aside, then renamed)."""
    folder = os.environ.get(CACHE_ENV)
    if not folder:
        return make()
    import cv2
    import numpy as np

    digest = hashlib.sha256(f"{name} {how!r} {np.__version__} {cv2.__version__}".encode())
    for source in sources:
        digest.update((HERE / source).read_bytes())
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{digest.hexdigest()[:24]}.kept"
    with open(path.with_suffix(".lock"), "w") as lock:
        try:
            import fcntl
            fcntl.flock(lock, fcntl.LOCK_EX)
        except ImportError:   # no advisory locks: two processes may both make it, harmlessly
            pass
        if not path.exists():
            made = make()
            aside = path.with_name(f"{path.name}.{os.getpid()}.part")
            with open(aside, "wb") as f:
                save(f, made)
            os.replace(aside, path)
            return made
    with open(path, "rb") as f:
        return load(f)
