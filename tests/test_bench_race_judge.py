"""The bench's race-judge part scores each race on its own presses, even when the device thread
that delivers them is held up past the race's planned end (as on a loaded machine)."""

from __future__ import annotations

import argparse

from hardware.mock import LateDelivery
from tools.bench import race_judge


class HeldUpDelivery(LateDelivery):
    """Every seventh edge is delivered 0.3 s late: a device thread stalled by a busy machine. A
    stalled thread delivers in order, so what is handed to it after the held-up edge (that pad's
    release among it) waits for the stall to end too; a release overtaking its press would leave
    the pad down, and the table's next press on it would be no edge at all."""

    def __init__(self):
        super().__init__()
        self.count = 0
        self.stalled_until = 0.0

    def later(self, run_at, fn):
        self.count += 1
        if self.count % 7 == 0:
            run_at += 0.3
            self.stalled_until = max(self.stalled_until, run_at)
        super().later(max(run_at, self.stalled_until), fn)


class DroppedDelivery(LateDelivery):
    """A device thread that never delivers anything: no race ever gets a press."""

    def later(self, run_at, fn):
        pass


def test_presses_held_up_past_the_planned_end_count_in_their_own_race(monkeypatch):
    monkeypatch.setattr(race_judge, "LateDelivery", HeldUpDelivery)
    args = argparse.Namespace(races=16, tables=4, max_delay_ms=5.0, delivery="independent", window_ms=15.0,
                              settle_ms=0.0, busy_ms=1.0, seed=3)
    results = race_judge.run(args)
    assert results.races == 16
    assert results.stray == 0, "a press reached a table whose race had already been scored"
    # A press held up 0.3 s comes long after its race's 15 ms window: it is a late press of that
    # race (not ranked), never a press of the next one.
    assert results.missed >= 1
    assert results.winner_right + results.missed >= results.races


def test_races_that_never_get_a_press_are_counted_lost_rather_than_hanging_the_bench(monkeypatch):
    monkeypatch.setattr(race_judge, "LateDelivery", DroppedDelivery)
    monkeypatch.setattr(race_judge, "GIVE_UP", 0.2)
    args = argparse.Namespace(races=4, tables=2, max_delay_ms=5.0, delivery="independent", window_ms=15.0,
                              settle_ms=0.0, busy_ms=1.0, seed=3)
    results = race_judge.run(args)
    assert (results.races, results.lost) == (0, 4)
