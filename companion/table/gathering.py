"""A race as the table gathers it: its first presses held for the race window by a
:class:`companion.race.RaceRunner`, so the first verdict shown is already the earliest press."""

from __future__ import annotations

from ..race import RaceJudge, RaceRunner


class Gathering:
    """One race's first presses, gathered for the race window by a RaceRunner. Seats, not pads,
    are the judge's "pads" (computer players have none)."""

    def __init__(self, table, number, landed: float | None, on_verdict, held=()):
        self.number = number              # cards turned (races, for the judge) when it opened
        self.landed = landed              # None: when the card landed is not known
        self.by_hand = False              # closed by the table moving on, not by its timer
        self.pressed = False              # somebody pressed on this card
        self.pushed: dict[int, float] = {}   # seat -> the press already logged
        judge = RaceJudge(table.window, opened_at=landed, held=held, held_at=table.now())
        self.runner = RaceRunner(judge, now=table.now,
                                 schedule=table.schedule, on_verdict=lambda verdict: on_verdict(self, verdict))

    @property
    def live(self) -> bool:
        return self.landed is not None

    @property
    def closed(self) -> bool:
        return self.runner.closed


class SlapOff:
    """A tie settled by the tied players racing to their pads on "Go!"."""

    def __init__(self, tied: list[str]):
        self.tied = tied
        self.runner: RaceRunner | None = None   # made on "Go!"
