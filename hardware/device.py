"""What every device at the table answers, whatever it is: slap pads, the card reader, a camera.

One contract, as gpiozero gives every device ``close()``, ``closed`` and a context manager, so
that the screens call the contract instead of probing each device for what it may have::

    device.status        # CONNECTED, SEARCHING (plugged out, being looked for) or CLOSED
    device.status_text   # a sentence for the screen, or None when there is nothing to say
    device.trouble       # True while the device is not there (SEARCHING): warn the table
    device.on_status     # on_status(status, text) after each change, on whichever thread it came
    device.close()       # let go of the device; a second call does nothing
    device.closed        # True once closed
    with Device(...) as device: ...   # closed on leaving the block

A subclass lets go of what it holds in :meth:`Device._release` and reports changes with
:meth:`Device._set_status`; the pads add their own part in :mod:`hardware.pad_device`.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

log = logging.getLogger(__name__)

CONNECTED, SEARCHING, CLOSED = "connected", "searching", "closed"

StatusCallback = Callable[[str, str | None], None]


class Device:
    """The part of the contract every device fills. ``closed_text`` is what ``status_text``
    says once the device is closed."""

    closed_text: str | None = None

    def __init__(self, *, on_status: StatusCallback | None = None, status: str = CONNECTED,
                 status_text: str | None = None):
        self.status, self.status_text = status, status_text
        self.on_status = on_status
        self._status_lock = threading.Lock()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def trouble(self) -> bool:
        """The device is configured but not there right now (unplugged, or not answering)."""
        return self.status == SEARCHING

    def close(self) -> None:
        """Let go of the device (threads, ports, pins). Closing twice is harmless."""
        with self._status_lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._release()
        finally:
            self._set_status(CLOSED, self.closed_text)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- for subclasses ---------------------------------------------------------------------------

    def _release(self) -> None:
        """Stop threads and close what the device holds; called once, by :meth:`close`."""

    def _set_status(self, status: str, text: str | None) -> None:
        """Record a change and tell ``on_status`` once (a repeat of the same state is not news)."""
        with self._status_lock:
            if (status, text) == (self.status, self.status_text):
                return
            self.status, self.status_text = status, text
        if self.on_status is not None:
            try:
                self.on_status(status, text)
            except Exception:   # a drawing bug must not stop the device's thread
                log.exception("%s on_status handler failed", type(self).__name__)
