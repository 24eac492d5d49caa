"""Finding a serial device, and finding it again: ``ttyACM0`` unplugged may come back as
``ttyACM1``, so a device is named by what stays the same (its USB id, its
``/dev/serial/by-id`` name) and looked up afresh each time it is opened.
"""

from __future__ import annotations

import glob
import os
from typing import Callable, Iterable, Sequence

from serial.tools import list_ports

BY_ID_DIR = "/dev/serial/by-id"


def parse_usb_id(text: str) -> tuple[int, int]:
    vid, _, pid = text.partition(":")
    return int(vid, 16), int(pid, 16)


def find_ports(spec: str, usb_ids: Iterable[str] = ()) -> list[str]:
    """Serial ports matching ``spec``, best first:

    * ``""``: none; ``"auto"``: by the ``usb_ids`` given (``"2E8A:0005"``);
    * ``"usb:VID:PID"``: that USB id; ``"by-id:TEXT"``: ``/dev/serial/by-id`` names containing TEXT;
    * anything else: a port name or a pyserial URL (``loop://``), used as it is if it exists.

    Stable ``/dev/serial/by-id`` names come first, since ``ttyACM0`` may return as ``ttyACM1``.
    """
    spec = spec.strip()
    if not spec:
        return []
    if spec == "auto" or spec.startswith("usb:"):
        ids = [parse_usb_id(spec[4:])] if spec.startswith("usb:") else [parse_usb_id(u) for u in usb_ids]
        devices = [p.device for p in list_ports.comports() if (p.vid, p.pid) in ids]
        by_id = [link for link in sorted(glob.glob(os.path.join(BY_ID_DIR, "*")))
                 if os.path.realpath(link) in {os.path.realpath(d) for d in devices}]
        covered = {os.path.realpath(link) for link in by_id}
        return by_id + [d for d in sorted(devices) if os.path.realpath(d) not in covered]
    if spec.startswith("by-id:"):
        text = spec[6:].lower()
        links = sorted(glob.glob(os.path.join(BY_ID_DIR, "*")))
        return [link for link in links if text in os.path.basename(link).lower()]
    if "://" in spec or os.path.exists(spec) or os.name == "nt":
        return [spec]
    return []


Finder = Callable[[], Sequence[str]]


def as_finder(port: str | Finder, usb_ids: Iterable[str] = ()) -> Finder:
    if callable(port):
        return port
    ids = tuple(usb_ids)
    return lambda: find_ports(port, ids)
