"""The race judge's rules, with timestamps and "now" given by hand."""

from __future__ import annotations

import pytest

from companion.race import COUNTED, FALSE_START, HELD, LATE, REPEAT, EdgeFilter, RaceJudge, RaceRunner


def test_earlier_edge_wins_even_when_its_callback_arrives_later():
    judge = RaceJudge(window=0.015, opened_at=0.0)
    assert judge.press(1, at=0.2010, now=0.2020) == COUNTED
    assert judge.press(0, at=0.2000, now=0.2100) == COUNTED   # 10 ms late, still inside the window
    verdict = judge.poll(now=0.2180)
    assert verdict.ranking == (0, 1)
    assert verdict.describe() == ["Pad 1 first (reaction 200 ms)", "Pad 2 +1.0 ms"]


def test_equal_timestamps_go_to_the_first_to_arrive():
    judge = RaceJudge(window=0.015)
    judge.press(3, at=5.0, now=5.001)
    judge.press(1, at=5.0, now=5.002)
    assert judge.close(now=5.1).ranking == (3, 1)


def test_window_counts_from_the_first_arrival_and_later_presses_are_late():
    judge = RaceJudge(window=0.015)
    judge.press(0, at=1.000, now=1.001)
    assert judge.poll(now=1.0159) is None
    verdict = judge.poll(now=1.016)
    assert verdict.winner == 0
    # A callback so late that the verdict was out: kept for diagnostics, never re-ranked.
    assert judge.press(2, at=0.999, now=1.030) == LATE
    assert judge.verdict.winner == 0
    assert judge.late_winner().pad == 2


def test_false_starts_are_flagged_and_never_ranked():
    judge = RaceJudge(window=0.015, opened_at=10.0)
    assert judge.press(2, at=9.96, now=10.001) == FALSE_START
    assert judge.press(0, at=10.25, now=10.251) == COUNTED
    verdict = judge.poll(now=10.3)
    assert verdict.winner == 0
    assert [p.pad for p in verdict.false_starts] == [2]
    assert "Pad 3 false start (40.0 ms early)" in verdict.describe()


def test_a_pad_held_at_the_opening_cannot_win_without_a_fresh_press():
    judge = RaceJudge(window=0.015, opened_at=0.0, held=[1])
    # Pad 1 is leaning on its button: a press it reports now (e.g. after a missed release
    # on a noisy line) does not count until it has been let go.
    assert judge.press(1, at=0.100, now=0.101) == HELD
    assert judge.press(0, at=0.300, now=0.301) == COUNTED
    verdict = judge.poll(now=0.4)
    assert verdict.winner == 0
    assert verdict.held == (1,)
    assert "Pad 2 was held down: release it and press again" in verdict.describe()


def test_a_pad_pressed_after_a_card_told_late_landed_is_no_held_pad():
    # A camera tells the card 60 ms after it landed: the race opens then, at 0.0 for the judge,
    # and pad 1 is seen down at 0.060. Its press at 0.050 came after the landing: it is why the
    # pad was down, not a hold from before (it was lost, as "held down", in the camera's races).
    judge = RaceJudge(window=0.015, opened_at=0.0, held=[1], held_at=0.060)
    assert judge.press(1, at=0.050, now=0.065) == COUNTED
    judge.press(0, at=0.055, now=0.066)
    verdict = judge.poll(now=0.2)
    assert verdict.winner == 1 and verdict.held == ()
    # A press reported after the pads were seen is still that held pad's, as above.
    judge = RaceJudge(window=0.015, opened_at=0.0, held=[1], held_at=0.060)
    assert judge.press(1, at=0.100, now=0.101) == HELD


def test_a_held_pad_that_lets_go_and_presses_again_can_win():
    judge = RaceJudge(window=0.015, opened_at=0.0, held=[1])
    judge.release(1, at=0.150, now=0.151)
    assert judge.press(1, at=0.200, now=0.201) == COUNTED
    judge.press(0, at=0.205, now=0.206)
    verdict = judge.poll(now=0.3)
    assert verdict.winner == 1
    assert verdict.held == ()


def test_a_second_press_of_the_same_pad_keeps_its_first():
    judge = RaceJudge(window=0.015)
    judge.press(0, at=1.000, now=1.001)
    assert judge.press(0, at=1.005, now=1.006) == REPEAT
    judge.press(1, at=1.002, now=1.003)
    assert judge.close(now=1.1).ranking == (0, 1)


def test_without_an_opening_there_are_no_reactions_or_false_starts():
    judge = RaceJudge(window=0.015)
    judge.press(0, at=-5.0, now=0.0)
    verdict = judge.close(now=1.0)
    assert verdict.false_starts == ()
    assert verdict.placings[0].reaction is None
    assert verdict.describe() == ["Pad 1 first"]


def test_nobody_slapped():
    assert RaceJudge().close(now=3.0).describe() == ["Nobody slapped"]
    assert RaceJudge().close(now=3.0).winner is None


def test_settle_waits_for_late_callbacks_after_the_earliest_edge():
    judge = RaceJudge(window=0.015, settle=0.050)
    judge.press(1, at=1.000, now=1.001)
    assert judge.deadline == pytest.approx(1.050)
    judge.press(0, at=0.9995, now=1.040)          # 40 ms late: still in
    assert judge.deadline == pytest.approx(1.0495)
    assert judge.poll(now=1.0494) is None
    assert judge.poll(now=1.0496).ranking == (0, 1)


def test_names_and_long_gaps():
    judge = RaceJudge(window=1.0, opened_at=0.0)
    judge.press(0, at=0.5, now=0.5)
    judge.press(1, at=0.75, now=0.75)
    assert judge.close(now=2.0).describe(["Ann", "Ben"]) == ["Ann first (reaction 500 ms)", "Ben +250 ms"]


def test_runner_announces_the_verdict_once_when_its_timer_fires():
    clock = [100.0]
    timers = []
    verdicts = []
    runner = RaceRunner(RaceJudge(window=0.015, opened_at=99.8), now=lambda: clock[0],
                        schedule=lambda delay, fn: timers.append((clock[0] + delay, fn)), on_verdict=verdicts.append)
    runner.press(2, at=99.9990)
    clock[0] = 100.004
    runner.press(1, at=99.9985)                  # earlier edge, later callback
    assert len(timers) == 1 and timers[0][0] == pytest.approx(100.015)
    clock[0] = 100.015
    timers[0][1]()
    assert [v.ranking for v in verdicts] == [(1, 2)]
    assert runner.close() is verdicts[0]          # closing again announces nothing new
    assert len(verdicts) == 1


def test_runner_counts_the_window_from_the_device_threads_arrival_not_the_ui_threads():
    # The UI thread was drawing a 20 ms frame when the press reached the device thread: by the
    # time it hears of it, the 15 ms window is already over, so the timer is due at once.
    clock, timers, verdicts = [200.020], [], []
    runner = RaceRunner(RaceJudge(window=0.015), now=lambda: clock[0],
                        schedule=lambda delay, fn: timers.append(delay), on_verdict=verdicts.append)
    runner.press(0, at=199.9995, arrived=200.000)
    assert timers == [0.0]
    assert runner.judge.verdict is None and runner.judge.deadline == pytest.approx(200.015)


def test_runner_close_announces_a_race_nobody_slapped():
    verdicts = []
    runner = RaceRunner(RaceJudge(), now=lambda: 5.0, schedule=lambda d, fn: None, on_verdict=verdicts.append)
    runner.close()
    assert verdicts[0].winner is None


def test_edge_filter_keeps_the_first_edge_of_a_bouncing_press():
    f = EdgeFilter(pads=2, debounce=0.040)
    out = []
    for at, pressed in [(1.0000, True), (1.0003, False), (1.0007, True), (1.0012, False), (1.0015, True)]:
        out += f.edge(0, at, pressed)
    assert out == [("press", 1.0)]
    assert f.ignored[0] == 4
    assert f.edge(1, 1.0010, True) == [("press", 1.001)]   # other pads are not held up


def test_edge_filter_reports_a_tap_shorter_than_the_debounce():
    f = EdgeFilter(pads=1, debounce=0.040)
    assert f.edge(0, 2.000, True) == [("press", 2.0)]
    assert f.edge(0, 2.020, False) == []                     # inside the debounce gap
    # Had nobody settled it, the next press would still come through, after a release:
    assert f.edge(0, 2.500, True) == [("release", 2.5), ("press", 2.5)]


def test_negative_window_is_refused():
    with pytest.raises(ValueError):
        RaceJudge(window=-1)
