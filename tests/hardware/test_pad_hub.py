"""The serial pad hub against a real pseudo-terminal pair, with a fake hub at the far end."""

from __future__ import annotations

import doctest
import time

import pytest
from pad_fakes import FakeHub, Recorder, wait_until

from companion.race import RaceJudge
from hardware import hub_clock, serial_ports
from hardware.device import CONNECTED, SEARCHING
from hardware.hub import PadHub
from hardware.hub_clock import HubClock
from hardware.hub_protocol import LineError, frame, unframe
from hardware.serial_ports import find_ports


@pytest.fixture
def connected(fake_hub):
    recorder = Recorder()
    statuses = []
    pad_hub = PadHub(fake_hub.finder, pads=4, on_press=recorder.press, on_release=recorder.release,
                     on_status=lambda status, text: statuses.append((status, text)), retry=0.05)
    assert wait_until(lambda: pad_hub.status == CONNECTED and pad_hub.clock.synced)
    yield pad_hub, recorder, statuses
    pad_hub.close()


def test_presses_arrive_on_the_host_clock_and_rank_by_the_hubs_timestamps(connected, fake_hub):
    pad_hub, recorder, _ = connected
    t = time.monotonic()
    # Sent in this order, but pad 0 pressed 1 ms before pad 2.
    fake_hub.press(2, t - 0.009)
    fake_hub.press(0, t - 0.010)
    events = recorder.wait_for(2)
    assert [(kind, pad) for kind, pad, _ in events] == [("press", 2), ("press", 0)]
    # The clock mapping puts the hub's timestamps where they happened on the host's clock;
    # a pseudo-terminal round trip is well under a millisecond, so 5 ms is generous.
    assert events[1][2] == pytest.approx(t - 0.010, abs=0.005)
    assert events[0][2] - events[1][2] == pytest.approx(0.001, abs=2e-6)
    judge = RaceJudge(window=0.015)
    for _, pad, at in events:
        judge.press(pad, at, now=t)
    assert judge.close(now=t + 0.1).ranking == (0, 2)


def test_the_clock_mapping_trusts_the_quickest_round_trip():
    clock = HubClock(keep=4)
    clock.sent(1, host=10.000)
    clock.pong(1, hub_us=2_000_000, host=10.020)       # 20 ms round trip: offset 8.010 +- 10 ms
    clock.sent(2, host=11.000)
    clock.pong(2, hub_us=3_000_000, host=11.0002)      # 0.2 ms: offset 8.0001
    clock.sent(3, host=12.000)
    clock.pong(3, hub_us=4_004_000, host=12.010)       # slow again
    assert clock.best_rtt == pytest.approx(0.0002)
    assert clock.to_host(5_000_000) == pytest.approx(13.0001)
    clock.pong(99, hub_us=1, host=13.0)                # a pong nobody asked for: ignored
    assert clock.offset == pytest.approx(8.0001)


def test_before_the_first_pong_the_first_arrival_stands_in():
    clock = HubClock()
    assert clock.to_host(1_000_000, arrived=50.001) == pytest.approx(50.001)
    assert clock.to_host(1_002_000) == pytest.approx(50.003)


def test_unreadable_lines_are_counted_and_never_stop_the_hub(connected, fake_hub):
    pad_hub, recorder, _ = connected
    junk = [b"garbage\n", b"\xff\xfe\x00\x81\n", b"P 1 123 *00\n", frame("P", 9, 5).rstrip() + b"\n",
            frame("P", "x", 5), frame("WHAT", 1), b"x" * 500 + b"\n"]
    for line in junk:
        fake_hub.write(line)
    fake_hub.press(1, time.monotonic())
    assert recorder.wait_for(1)[0][:2] == ("press", 1)
    assert wait_until(lambda: pad_hub.noise >= len(junk))
    assert pad_hub.status == CONNECTED


def test_a_hub_that_vanishes_mid_line_is_found_again(connected, fake_hub):
    pad_hub, recorder, statuses = connected
    fake_hub.write(b"P 1 12")                            # the cable comes out mid-line
    time.sleep(0.05)
    fake_hub.unplug()
    assert wait_until(lambda: pad_hub.status == SEARCHING)
    assert statuses[-1] == (SEARCHING, "Pad hub unplugged: looking for it\u2026")
    noise_before = pad_hub.noise
    unplugged = time.monotonic()
    fake_hub.plug()                                      # back, under another name
    assert wait_until(lambda: pad_hub.status == CONNECTED and pad_hub.clock.synced)
    assert time.monotonic() - unplugged < 2.0 + 1.0      # the 2 s rule, with room for a busy CI
    assert pad_hub.link.port == fake_hub.path
    assert noise_before >= 1                             # the cut-off line was counted, not parsed
    assert any(note.startswith("cut off") for note in pad_hub.recent_noise)
    fake_hub.press(3, time.monotonic())
    assert recorder.wait_for(1) == [("press", 3, pytest.approx(time.monotonic(), abs=0.5))]


def test_lights_are_sent_to_the_hub(connected, fake_hub):
    pad_hub, _, _ = connected
    pad_hub.lights.show_turner(2)
    pad_hub.lights.blink_wrong(1)
    expected = [["L", "0", "0"], ["L", "1", "0"], ["L", "2", "1"], ["L", "3", "0"], ["L", "1", "B", "250", "250", "3"]]
    assert wait_until(lambda: fake_hub.commands("L")[:5] == expected)


def test_held_pads_and_stuck_pads_from_the_hub(connected, fake_hub):
    pad_hub, recorder, _ = connected
    t = time.monotonic()
    fake_hub.press(1, t)
    recorder.wait_for(1)
    assert pad_hub.held_pads() == [1]
    assert pad_hub.stuck_pads(now=t + 0.5) == []
    assert pad_hub.stuck_pads(now=t + 3.0) == [1]
    fake_hub.release(1, t + 0.2)
    recorder.wait_for(2)
    assert pad_hub.held_pads() == []


def test_a_hub_speaking_another_protocol_is_not_used():
    fake = FakeHub(version=2)
    try:
        pad_hub = PadHub(fake.finder, pads=4, retry=0.05)
        try:
            assert wait_until(lambda: "update its firmware" in pad_hub.status_text)
            assert pad_hub.status == SEARCHING
        finally:
            pad_hub.close()
    finally:
        fake.close()


def test_a_device_that_never_answers_is_skipped():
    import os

    master, slave = os.openpty()       # something on a serial port, but not a hub
    try:
        pad_hub = PadHub(lambda: [os.ttyname(slave)], pads=4, hello_timeout=0.2, retry=0.05)
        try:
            assert wait_until(lambda: "does not answer like a pad hub" in pad_hub.status_text)
            assert pad_hub.status == SEARCHING
        finally:
            pad_hub.close()
    finally:
        os.close(master)
        os.close(slave)


def test_frames_round_trip_and_checksums_are_checked():
    assert unframe(frame("P", 3, 1234567).decode().strip()) == ["P", "3", "1234567"]
    with pytest.raises(LineError):
        unframe("P 3 1234568 *" + frame("P", 3, 1234567).decode().strip()[-2:])


def test_find_ports(monkeypatch, tmp_path):
    class Port:
        def __init__(self, device, vid, pid):
            self.device, self.vid, self.pid = device, vid, pid

    monkeypatch.setattr(serial_ports.list_ports, "comports",
                        lambda: [Port("/dev/ttyACM3", 0x2E8A, 0x0005), Port("/dev/ttyUSB0", 0x1A86, 0x7523)])
    monkeypatch.setattr(serial_ports, "BY_ID_DIR", str(tmp_path))
    assert find_ports("auto", ["2E8A:0005"]) == ["/dev/ttyACM3"]
    assert find_ports("usb:1a86:7523") == ["/dev/ttyUSB0"]
    assert find_ports("") == []
    assert find_ports("/dev/no-such-port") == []
    assert find_ports("loop://") == ["loop://"]
    (tmp_path / "usb-Scanner_Co_Barcode-if00").touch()
    assert find_ports("by-id:barcode") == [str(tmp_path / "usb-Scanner_Co_Barcode-if00")]


def test_docstring_examples():
    result = doctest.testmod(hub_clock)
    assert result.attempted > 0, "the clock's worked example is in hardware/hub_clock.py"
    assert result.failed == 0
