"""GPIO pads on mock pins: the same code path as lgpio, edges driven with known timestamps."""

from __future__ import annotations

import gc
import sys

import pytest
from gpiozero.pins.mock import MockFactory
from pad_fakes import wait_until

from companion.race import COUNTED, FALSE_START, HELD, RaceJudge
from hardware import gpio_pads
from hardware.mock import LateDelivery, MockPads, StampedMockPin
from hardware.gpio_pads import PadBoard
from hardware.pad_device import PadError
from hardware.pads import open_pads


def judge_presses(board, recorder, judge, now):
    for pad, t in recorder.presses():
        judge.press(pad, t, now)


def test_a_press_with_the_earlier_edge_whose_callback_comes_later_still_wins(board, recorder):
    t = 500.0
    # Pad 3's callback runs first; pad 2's edge was 1.5 ms earlier but its callback came after.
    board.mock.deliver([(3, True, t + 0.0015), (2, True, t)])
    assert [pad for pad, _ in recorder.presses()] == [3, 2]        # arrival order
    judge = RaceJudge(window=0.015, opened_at=t - 0.3)
    for i, (pad, at) in enumerate(recorder.presses()):
        assert judge.press(pad, at, now=t + 0.002 + i * 0.003) == COUNTED
    verdict = judge.poll(now=t + 0.1)
    assert verdict.ranking == (2, 3)
    assert verdict.describe() == ["Pad 3 first (reaction 300 ms)", "Pad 4 +1.5 ms"]


def test_a_late_callback_on_another_thread_keeps_its_edge_timestamp(board, recorder):
    late = LateDelivery()
    try:
        now = board.now()
        late.drive(board.mock, 0, True, at=now, delay=0.030)          # earliest edge, callback 30 ms late
        late.drive(board.mock, 1, True, at=now + 0.004, delay=0.0)    # its callback runs first
        assert late.wait_idle()
        assert late.errors == []
    finally:
        late.close()
    assert [pad for pad, _ in recorder.presses()] == [1, 0]
    judge = RaceJudge(window=0.050)
    judge_presses(board, recorder, judge, now=now + 0.031)
    verdict = judge.close(now=now + 0.1)
    assert verdict.ranking == (0, 1)
    assert verdict.placings[0].at == now                           # the edge time, exactly


def test_bounce_chatter_gives_one_press_at_the_first_edge(board, recorder):
    board.mock.chatter(1, at=42.0, gaps=[0.0002, 0.0004, 0.0009, 0.0003, 0.0012])
    board.mock.release(1, at=42.3)
    assert recorder.events == [("press", 1, 42.0), ("release", 1, 42.3)]
    assert board.bounces_ignored()[1] >= 4


def test_presses_dated_back_by_the_mock_come_after_its_last_edge_and_the_debounce(board, recorder):
    t0 = board.now() + 0.2
    board.mock.press(2, at=t0)
    board.mock.release(2, at=t0 + 0.3)
    board.mock.press(0, at=t0 + 0.1)
    assert board.mock.last_edge() == t0 + 0.3, "the latest edge on any pad, not the last driven"
    back = board.mock.back_from_now(0.0)       # waits out the edges dated ahead, and the debounce
    assert back >= t0 + 0.3 + 2 * board.debounce
    assert recorder.events == [("press", 2, t0), ("release", 2, t0 + 0.3), ("press", 0, t0 + 0.1)]


def test_a_tap_shorter_than_the_debounce_is_still_released(board, recorder):
    board.mock.press(0, at=7.000)
    board.mock.release(0, at=7.010)            # inside the 40 ms debounce: dropped at first
    assert wait_until(lambda: len(recorder.events) == 2)
    assert recorder.events == [("press", 0, 7.0), ("release", 0, 7.01)]
    assert board.held_pads() == []


def test_a_pad_held_at_the_opening_cannot_win(board, recorder):
    board.mock.press(0, at=10.0)               # leaning on pad 1 before the card lands
    recorder.events.clear()                    # that press came and went before the race
    judge = RaceJudge(window=0.015, opened_at=11.0, held=board.held_pads())
    assert board.held_pads() == [0]
    board.mock.press(2, at=11.25)
    judge_presses(board, recorder, judge, now=11.26)
    verdict = judge.poll(now=11.3)
    assert verdict.winner == 2
    assert verdict.held == (0,)


def test_a_held_pad_needs_a_fresh_press(board, recorder):
    board.mock.press(0, at=10.0)
    judge = RaceJudge(window=0.015, opened_at=11.0, held=board.held_pads())
    board.mock.release(0, at=11.10)
    board.mock.press(0, at=11.20)
    board.mock.press(1, at=11.21)
    for kind, pad, t in recorder.events:
        (judge.press if kind == "press" else judge.release)(pad, t, 11.22)
    assert judge.poll(now=11.3).ranking == (0, 1)


def test_a_press_before_the_opening_is_a_false_start(board, recorder):
    board.mock.press(3, at=19.97)
    board.mock.press(1, at=20.21)
    judge = RaceJudge(window=0.015, opened_at=20.0)
    outcomes = [judge.press(pad, t, now=20.22) for pad, t in recorder.presses()]
    assert outcomes == [FALSE_START, COUNTED]
    verdict = judge.poll(now=20.3)
    assert verdict.winner == 1
    assert "Pad 4 false start (30.0 ms early)" in verdict.describe()


def test_a_held_press_from_a_pad_down_since_before_the_race(board, recorder):
    board.mock.press(1, at=30.0)
    judge = RaceJudge(window=0.015, opened_at=31.0, held=board.held_pads())
    assert judge.press(1, 30.0, now=31.001) == FALSE_START
    judge2 = RaceJudge(window=0.015, held=board.held_pads())          # no opening time known
    assert judge2.press(1, 30.0, now=31.001) == HELD


def test_a_pad_held_too_long_is_reported_stuck(board):
    board.mock.press(2, at=100.0)
    assert board.stuck_pads(now=101.0) == []
    assert board.stuck_pads(now=102.5) == [2]
    assert board.stuck_report(now=102.5) == [
        "Pad 3 (GPIO22) has been held down for 2.5 s: release it, or check its button and wiring"]
    board.mock.release(2, at=103.0)
    assert board.stuck_pads(now=110.0) == []


class ShortedPin(StampedMockPin):
    """GPIO23's cable is shorted to ground: the pull-up cannot lift it."""

    def _set_pull(self, value):
        super()._set_pull(value)
        if self.info.name == "GPIO23":
            self.drive_low()


def test_a_pad_down_when_the_board_opens_is_stuck_too(pads_config, recorder):
    factory = MockFactory(pin_class=ShortedPin)
    with PadBoard(pads_config, pin_factory=factory, on_press=recorder.press) as board:
        assert board.held_pads() == [3]
        assert board.stuck_pads(now=board.now() + 5) == [3]


def test_handlers_survive_garbage_collection(board, recorder):
    # gpiozero keeps only weak references to when_changed handlers.
    gc.collect()
    board.mock.press(1, at=1.0)
    assert recorder.presses() == [(1, 1.0)]


def test_keys_press_pads(board, recorder):
    assert board.mock.key_down("2", at=3.0)
    assert board.mock.key_down("2", at=3.05)      # key auto-repeat: still one press
    assert board.mock.key_up("2", at=3.2)
    assert not board.mock.key_down("9")           # no ninth pad at this table
    assert recorder.events == [("press", 1, 3.0), ("release", 1, 3.2)]


def test_lights(board):
    leds = board._leds
    board.lights.show_turner(1)
    assert [led.is_lit for led in leds] == [False, True, False, False]
    assert board.lights.modes() == ["off", "turner", "off", "off"]
    board.lights.flash_winner(3)
    assert board.lights.modes() == ["off", "off", "off", "winner"]
    assert leds[1].is_lit is False
    board.lights.all_off()
    assert not any(led.is_lit for led in leds)


def test_a_wrong_slap_blinks_then_the_turner_light_comes_back(board):
    board.lights.WRONG = 0.01          # keep the test short
    board.lights.show_turner(0)
    board.lights.blink_wrong(0)
    assert board.lights.modes()[0] == "wrong"
    assert wait_until(lambda: board.lights.modes()[0] == "turner")
    assert wait_until(lambda: board._leds[0].is_lit)


def test_pads_without_lights(factory, pads_config):
    pads_config["lights"] = ["GPIO5", "", "GPIO13"]
    with PadBoard(pads_config, pin_factory=factory) as board:
        assert [board.lights.has_light(i) for i in range(4)] == [True, False, True, False]
        board.lights.show_turner(1)       # no light to show: nothing breaks
        assert board.lights.modes() == ["off", None, "off", None]


@pytest.mark.parametrize("buttons", [["GPIO17"], [f"GPIO{n}" for n in (4, 5, 6, 12, 13, 16, 17, 18, 19)]])
def test_two_to_eight_pads(factory, pads_config, buttons):
    pads_config.update(buttons=buttons, lights=[])
    with pytest.raises(PadError, match="2 to 8"):
        PadBoard(pads_config, pin_factory=factory)


def test_a_pin_used_twice_is_refused(factory, pads_config):
    pads_config["lights"] = ["GPIO17", "", "", ""]
    with pytest.raises(PadError, match="GPIO17"):
        PadBoard(pads_config, pin_factory=factory)


def test_an_unknown_pin_is_refused_with_a_hint(factory, pads_config):
    pads_config["buttons"] = ["GPIO17", "GPIO99"]
    with pytest.raises(PadError, match="config.toml"):
        PadBoard(pads_config, pin_factory=factory)


def test_board_pin_names_work(factory, pads_config, recorder):
    pads_config.update(buttons=["BOARD11", "BOARD13"], lights=["BOARD29", ""])
    with PadBoard(pads_config, pin_factory=factory, on_press=recorder.press) as board:
        MockPads(board).press(1, at=2.0)
        assert recorder.presses() == [(1, 2.0)]


def test_without_gpio_the_app_falls_back_to_mock_pads_and_says_why(monkeypatch, pads_config):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)   # as on a laptop: no lgpio
    with open_pads({"pads": pads_config}, mock=None) as board:
        assert board.is_mock
        assert board.reason == "mock pads: no GPIO here (lgpio is not installed)"
        assert board.mock.key_down("1")
    with pytest.raises(PadError, match="lgpio is not installed"):
        open_pads({"pads": pads_config}, mock=False)


def test_mock_pads_report_edge_timestamps(board):
    assert board.timestamps_are_edge
    assert board.timing == "mock pads: edge timestamps as driven"


def test_a_factory_without_edge_timestamps_is_reported_and_timed_at_the_callback(board, recorder):
    kind, text = gpio_pads._factory_kind(object())
    assert kind == "callback" and "no edge timestamps" in text
    board._kind = kind                   # as on RPi.GPIO: the driven stamp is not to be had
    assert not board.timestamps_are_edge
    before = board.now()
    board.mock.press(0, at=1.0)
    (pad, t), = recorder.presses()
    assert t >= before


def test_lgpio_notify_file_goes_somewhere_writable(monkeypatch, tmp_path):
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setattr(gpio_pads.os, "access", lambda path, mode: str(path) == str(tmp_path))
    gpio_pads._ensure_lgpio_workdir(tmp_path)
    assert gpio_pads.os.environ["LG_WD"] == str(tmp_path)
