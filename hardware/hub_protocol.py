"""The pad hub's line format, version 1 (``hardware/PROTOCOL.md``): fields separated by one
space, then `` *`` and two hex digits of checksum (the XOR of the body's bytes), then ``\n``.

The host (:mod:`hardware.hub`), the firmware's tests and the fake hub in the tests all frame
and read lines through these.
"""

from __future__ import annotations

PROTOCOL_VERSION = 1
MAX_HUB_PADS = 16


def checksum(body: str) -> str:
    """Two hex digits: the XOR of the bytes of ``body``."""
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def frame(*fields: object) -> bytes:
    """One protocol line, ready to send: ``frame("PING", 7) == b"PING 7 *07\\n"``."""
    body = " ".join(str(f) for f in fields)
    return f"{body} *{checksum(body)}\n".encode("ascii")


class LineError(ValueError):
    """A line that is not a valid protocol line (noise)."""


def unframe(line: str) -> list[str]:
    """The fields of a protocol line, or :class:`LineError` if it is not one."""
    body, star, check = line.rpartition(" *")
    if not star or len(check) != 2:
        raise LineError("no checksum")
    if not body.isascii() or not body.isprintable():
        raise LineError("not printable ASCII")
    if checksum(body).upper() != check.upper():
        raise LineError("bad checksum")
    fields = body.split(" ")
    if not all(fields):
        raise LineError("empty field")
    return fields
