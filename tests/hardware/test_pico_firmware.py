"""The Pico firmware's logic, run on CPython with fake pins, read back by the host's parser."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from hardware.hub_protocol import PROTOCOL_VERSION, frame, unframe

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware" / "pico_hub.py"


@pytest.fixture(scope="module")
def firmware():
    spec = importlib.util.spec_from_file_location("pico_hub", FIRMWARE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)   # no hardware touched: main() only runs on the Pico
    return module


class FakePin:
    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


@pytest.fixture
def hub(firmware):
    lines = []
    hub = firmware.Hub([FakePin() for _ in range(4)], [FakePin(0) for _ in range(4)], lines.append)
    hub.sent = lines
    return hub


def parsed(hub):
    out = [unframe(line.rstrip("\n")) for line in hub.sent]   # the host's parser must accept every line
    hub.sent.clear()
    return out


def command(hub, *fields, now=0):
    for ch in frame(*fields).decode():
        hub.feed(ch, now)


def test_hello_says_the_protocol_and_which_pads_are_down(hub):
    hub.buttons[2].level = 0
    hub.down[2] = True
    command(hub, "HELLO")
    hello, state = parsed(hub)
    assert hello[:3] == ["HUB", str(PROTOCOL_VERSION), "4"]
    assert state[:2] == ["S", "4"]


def test_ping_gets_a_pong_with_the_hub_time(hub):
    command(hub, "PING", 17, now=123456789)
    assert parsed(hub) == [["PONG", "17", "123456789"]]


def test_a_bouncing_press_sends_one_line_with_the_first_edge(hub, firmware):
    base = hub.base_raw
    for offset, level in [(0, 0), (300, 1), (700, 0), (1500, 1), (1900, 0)]:
        hub.irq(1, level, (base + offset) & 0x3FFFFFFF)
    hub.buttons[1].level = 0
    hub.drain()
    (press,) = parsed(hub)
    assert press[:2] == ["P", "1"]
    first = int(press[2])
    hub.base_us += firmware.DEBOUNCE_US   # time passes; the button lets go
    hub.irq(1, 1, (hub.base_raw + firmware.DEBOUNCE_US) & 0x3FFFFFFF)
    hub.drain()
    (release,) = parsed(hub)
    assert release[:2] == ["R", "1"] and int(release[2]) - first >= firmware.DEBOUNCE_US


def test_lights_on_off_and_blink(hub):
    command(hub, "L", 2, 1)
    assert hub.lights[2].level == 1
    command(hub, "L", 2, "B", 100, 100, 2, now=0)
    levels = []
    for now in range(0, 500_000, 10_000):
        hub.blink(now)
        levels.append(hub.lights[2].level)
    assert levels[0] == 1 and levels[-1] == 0              # two blinks, then dark
    changes = sum(1 for a, b in zip(levels, levels[1:]) if a != b)
    assert changes == 3                                    # on-off-on-off


def test_bad_lines_get_an_error_not_a_crash(hub):
    for ch in "PING 1 *00\n":
        hub.feed(ch, 0)
    command(hub, "L", 9, 1)
    command(hub, "FLY")
    assert parsed(hub) == [["ERR", "bad-line"], ["ERR", "bad-arguments"], ["ERR", "unknown-command"]]
