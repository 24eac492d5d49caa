"""One contract every device fills (hardware/device.py, hardware/pad_device.py): the screens
and the wiring check ask it, whichever board or reader is behind it."""

from __future__ import annotations

import threading
import time

import pytest
from pad_fakes import Recorder, wait_until

from hardware.card_reader import CardReader
from hardware.device import CLOSED, CONNECTED, SEARCHING, Device
from hardware.gpio_pads import PadBoard
from hardware.hub import PadHub
from hardware.lights import PadLights
from hardware.mock import MockPads
from hardware.pad_device import PadDevice


@pytest.fixture
def hub(fake_hub):
    recorder = Recorder()
    pad_hub = PadHub(fake_hub.finder, pads=4, on_press=recorder.press, retry=0.05)
    assert wait_until(lambda: pad_hub.status == CONNECTED)
    yield pad_hub, recorder
    pad_hub.close()


def test_gpio_pads_on_mock_pins_fill_the_pad_contract(board):
    assert isinstance(board, PadDevice) and isinstance(board, Device)
    assert (board.status, board.status_text, board.trouble) == (CONNECTED, None, False)
    assert board.is_mock and isinstance(board.mock, MockPads)
    assert isinstance(board.lights, PadLights)
    assert board.names == ["Pad 1", "Pad 2", "Pad 3", "Pad 4"]
    assert [board.button_pin(i) for i in range(4)] == ["GPIO17", "GPIO27", "GPIO22", "GPIO23"]
    assert [board.light_pin(i) for i in range(4)] == ["GPIO5", "GPIO6", "GPIO13", "GPIO19"]
    board.mock.press(1, at=50.0)
    assert board.held_pads() == [1]
    assert board.held_for(1, now=50.5) == pytest.approx(0.5)
    assert board.held_for(0, now=50.5) is None


def test_the_pad_hub_fills_the_same_contract(hub, fake_hub):
    pad_hub, recorder = hub
    assert isinstance(pad_hub, PadDevice)
    assert not pad_hub.is_mock and pad_hub.mock is None
    assert pad_hub.timestamps_are_edge
    assert isinstance(pad_hub.lights, PadLights)
    assert pad_hub.button_pin(0) is None and pad_hub.light_pin(0) is None   # the hub does not say
    assert pad_hub.status_text.startswith("Pad hub connected on ") and not pad_hub.trouble
    t = time.monotonic()
    fake_hub.press(1, t)
    recorder.wait_for(1)
    assert pad_hub.stuck_report(now=t + 3.0) == [
        "Pad 2 on the hub has been held down for 3.0 s: release it, or check its button and wiring"]
    assert pad_hub.bounces_ignored() == [0, 0, 0, 0]


def test_an_unplugged_hub_is_trouble_until_it_is_back(hub, fake_hub):
    pad_hub, _ = hub
    fake_hub.unplug()
    assert wait_until(lambda: pad_hub.trouble)
    assert pad_hub.status == SEARCHING
    fake_hub.plug()
    assert wait_until(lambda: not pad_hub.trouble)


def test_closing_twice_is_harmless_and_says_closed_once(factory, pads_config):
    heard = []
    board = PadBoard(pads_config, pin_factory=factory, on_status=lambda status, text: heard.append((status, text)))
    board.close()
    board.close()
    assert board.closed and board.status == CLOSED and not board.trouble
    assert heard == [(CLOSED, None)]


def test_a_card_reader_is_a_device_and_a_context_manager():
    with CardReader("loop://", on_card=lambda card, t: None, retry=0.05) as reader:
        assert isinstance(reader, Device)
        assert wait_until(lambda: reader.status == CONNECTED)
        assert reader.status_text == "Card reader connected on loop://"
    assert reader.closed
    assert (reader.status, reader.status_text) == (CLOSED, "Card reader closed")


class FakeCamera(Device):
    """What a camera will be: a device with a thread of its own that it stops on close."""

    closed_text = "Camera closed"

    def __init__(self, **kwargs):
        super().__init__(status=SEARCHING, status_text="Looking for the camera\u2026", **kwargs)
        self.releases = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self._set_status(CONNECTED, "Camera on /dev/video0")
        self._stop.wait()

    def _release(self) -> None:
        self.releases += 1
        self._stop.set()
        self._thread.join(timeout=2)


def test_a_camera_can_be_a_device():
    heard = []
    with FakeCamera(on_status=lambda status, text: heard.append((status, text))) as camera:
        assert wait_until(lambda: camera.status == CONNECTED)
    camera.close()
    assert camera.releases == 1 and not camera._thread.is_alive()
    assert heard == [(CONNECTED, "Camera on /dev/video0"), (CLOSED, "Camera closed")]


def test_a_failing_status_handler_does_not_stop_the_device():
    def broken(status, text):
        raise RuntimeError("a drawing bug")

    camera = FakeCamera(on_status=broken)
    assert wait_until(lambda: camera.status == CONNECTED)
    camera.close()
    assert camera.closed and camera.status == CLOSED
