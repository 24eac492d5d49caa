"""Pads on gpiozero's MockFactory, and a fake pad hub on a real pseudo-terminal."""

from __future__ import annotations

import pytest
from pad_fakes import FakeHub, Recorder

from companion import config
from hardware.mock import MockPads, mock_factory
from hardware.gpio_pads import PadBoard


@pytest.fixture
def pads_config() -> dict:
    return config.defaults()["pads"]


@pytest.fixture
def factory():
    """A MockFactory whose pins take edge timestamps (hardware.mock.StampedMockPin)."""
    f = mock_factory()
    yield f
    f.reset()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def board(factory, pads_config, recorder):
    b = PadBoard(pads_config, pin_factory=factory, on_press=recorder.press, on_release=recorder.release)
    b.mock = MockPads(b, keys=pads_config["keys"])
    yield b
    b.close()


@pytest.fixture
def fake_hub():
    hub = FakeHub()
    yield hub
    hub.close()
