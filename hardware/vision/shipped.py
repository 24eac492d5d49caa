"""A shipped model, loaded once for the process the first time it is asked for."""

from __future__ import annotations

import threading

from hardware.vision.network import ModelUnreadable


def loaded_once(present, load):
    """A function giving ``load()`` the first time it is called, and the same thing after; None
    when ``present()`` says there is no model file, or it cannot be read (a damaged file: the
    readers that need no model are used instead). Under a lock: the app's read-ahead thread and
    a camera game's feed may ask at once (ui/camera_link.py)."""
    lock, made = threading.Lock(), []

    def get():
        with lock:
            if not made:
                try:
                    made.append(load() if present() else None)
                except ModelUnreadable:
                    made.append(None)
            return made[0]

    return get
