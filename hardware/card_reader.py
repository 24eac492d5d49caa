"""An optional serial card feed: any device that sends one card code per line.

A barcode scanner in serial mode, an RFID reader or a camera recognizer on another board
sends ``JS``, ``10H``, ``qd``... ended by CR, LF or both. Each line becomes
``on_card(card, arrived)``: the :class:`companion.cards.Card` and the host monotonic time its
line arrived (a card landing can open a Slapjack race at that time). A line that is text
but not a card goes to ``on_unknown(text, arrived)``, for the screen to show, and is
otherwise ignored; bytes that are not text are noise, logged and counted.

The device is read, and found again after an unplug, by :class:`hardware.serial_link.SerialLink`:
``[card_reader] port`` is a port, ``usb:VID:PID``, ``by-id:TEXT`` or a pyserial URL
(:func:`hardware.serial_ports.find_ports`). The reader fills the device contract
(:class:`hardware.device.Device`): ``status``, ``status_text``, ``on_status``, ``close()``.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Callable, Mapping

from companion.cards import Card, CardError, parse_card

from .device import CONNECTED, SEARCHING, Device, StatusCallback
from .serial_link import SerialLink
from .serial_ports import Finder, as_finder

log = logging.getLogger(__name__)


class CardReader(Device):
    """Reads cards from a serial device until :meth:`close`. ``status`` is CONNECTED or
    SEARCHING, ``status_text`` says it for the screen; ``on_status(status, text)`` on change."""

    closed_text = "Card reader closed"

    def __init__(self, port: str | Finder, *, on_card: Callable[[Card, float], None],
                 on_unknown: Callable[[str, float], None] | None = None,
                 on_status: StatusCallback | None = None, baud: int = 9600,
                 retry: float = 0.25, start: bool = True):
        super().__init__(on_status=on_status, status=SEARCHING, status_text="Looking for the card reader\u2026")
        self.on_card, self.on_unknown = on_card, on_unknown
        self.cards = 0
        self.unknown = 0
        self.noise = 0
        self.recent_unknown: deque[str] = deque(maxlen=20)
        self.link = SerialLink(as_finder(port), name="card reader", baud=baud, on_line=self._line,
                               on_noise=self._noise, on_connect=self._connected, on_lost=self._lost,
                               retry=retry)
        if start:
            self.link.start()

    def _release(self) -> None:
        self.link.close()

    def _connected(self, port: str) -> None:
        self._set_status(CONNECTED, f"Card reader connected on {port}")

    def _lost(self, port: str) -> None:
        self._set_status(SEARCHING, "Card reader unplugged: looking for it\u2026")

    def _noise(self, raw: bytes, why: str) -> None:
        self.noise += 1

    def _line(self, text: str, arrived: float) -> None:
        code = text.strip()
        if not code:
            return
        if not code.isprintable():
            self._noise(code.encode("utf-8", "replace"), "control characters")
            log.info("card reader: noise %r", code[:40])
            return
        try:
            card = parse_card(code)
        except CardError as exc:
            self.unknown += 1
            self.recent_unknown.append(code[:40])
            log.info("card reader: %s", exc)
            if self.on_unknown is not None:
                self.on_unknown(code, arrived)
            return
        self.cards += 1
        self.on_card(card, arrived)


def open_card_reader(config: Mapping, *, on_card, on_unknown=None, on_status=None) -> CardReader | None:
    """The reader named by ``[card_reader] port``, or None when there is none."""
    section = config.get("card_reader", config)
    port = section.get("port", "")
    if not port:
        return None
    return CardReader(port, on_card=on_card, on_unknown=on_unknown, on_status=on_status,
                      baud=section.get("baud", 9600))
