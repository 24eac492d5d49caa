"""Slapjack across games: each player's reaction times, slaps won and wrong slaps.

Pure: it reads the summaries the store keeps for finished games (``GameRecord.result``),
so the stats never need a game refolded. Computer players (the summary's ``computers``)
are left out: the stats are about the people at the table.

>>> games = [{"game": "slapjack", "finished": True, "winners": ["Ann"], "computers": {"Robo": 400},
...           "tallies": {"Ann": {"slaps_won": 2, "wrong_slaps": 1, "reactions_ms": [310.0, 250.0]},
...                       "Robo": {"slaps_won": 1, "wrong_slaps": 0, "reactions_ms": [420.0]}}}]
>>> ann = slapjack_stats(games)["Ann"]
>>> ann.games, ann.wins, ann.slaps_won, ann.wrong_slaps, ann.average_ms, ann.best_ms
(1, 1, 2, 1, 280.0, 250.0)
>>> list(slapjack_stats(games))
['Ann']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .store import outcome_of

HISTOGRAM_FROM_MS = 100      # the first bin starts here (nobody reacts to a card much faster)
HISTOGRAM_STEP_MS = 50
HISTOGRAM_BINS = 12          # 100-150 ... 600-650, the last bin takes everything slower


def histogram(times_ms: Iterable[float], start: float = HISTOGRAM_FROM_MS, step: float = HISTOGRAM_STEP_MS,
              bins: int = HISTOGRAM_BINS) -> list[int]:
    """Counts of reaction times in ``bins`` bins of ``step`` ms from ``start``; the first bin
    also takes anything faster, the last anything slower.

    >>> histogram([120, 160, 170, 990], start=100, step=50, bins=4)
    [1, 2, 0, 1]
    """
    counts = [0] * bins
    for t in times_ms:
        counts[min(bins - 1, max(0, int((t - start) // step)))] += 1
    return counts


def bin_label(index: int, start: float = HISTOGRAM_FROM_MS, step: float = HISTOGRAM_STEP_MS,
              bins: int = HISTOGRAM_BINS) -> str:
    """The bin's name under its bar.

    >>> bin_label(0), bin_label(1), bin_label(11)
    ('<150', '150', '650+')
    """
    low = start + index * step
    if index == 0:
        return f"<{low + step:.0f}"
    if index == bins - 1:
        return f"{low:.0f}+"
    return f"{low:.0f}"


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0
    slaps_won: int = 0
    wrong_slaps: int = 0
    reactions_ms: list[float] = field(default_factory=list)

    @property
    def average_ms(self) -> float | None:
        times = self.reactions_ms
        return round(sum(times) / len(times), 1) if times else None

    @property
    def best_ms(self) -> float | None:
        return min(self.reactions_ms) if self.reactions_ms else None

    @property
    def histogram(self) -> list[int]:
        return histogram(self.reactions_ms)

    def as_json(self) -> dict:
        return {"games": self.games, "wins": self.wins, "slaps_won": self.slaps_won,
                "wrong_slaps": self.wrong_slaps, "reactions": len(self.reactions_ms),
                "average_ms": self.average_ms, "best_ms": self.best_ms, "histogram": self.histogram}


def slapjack_stats(summaries: Iterable[dict | None]) -> dict[str, PlayerStats]:
    """Per person, over the finished Slapjack games whose summaries these are (others are
    skipped), in the order players first appear."""
    stats: dict[str, PlayerStats] = {}
    for summary in summaries:
        if not summary or summary.get("game") != "slapjack" or not summary.get("finished"):
            continue
        computers = summary.get("computers") or {}
        outcome = outcome_of(summary)
        winners = outcome.winners if outcome is not None else ()
        for name, tally in (summary.get("tallies") or {}).items():
            if name in computers:
                continue
            player = stats.setdefault(name, PlayerStats(name))
            player.games += 1
            player.wins += name in winners
            player.slaps_won += tally.get("slaps_won", 0)
            player.wrong_slaps += tally.get("wrong_slaps", 0)
            player.reactions_ms.extend(tally.get("reactions_ms") or [])
    return stats


def measured_average(summaries: Iterable[dict | None], name: str) -> tuple[float | None, int]:
    """One player's average reaction over their finished games, and how many presses it rests on:
    what the set-up offers as a computer player's level."""
    player = slapjack_stats(summaries).get(name)
    if player is None or not player.reactions_ms:
        return None, 0
    return player.average_ms, len(player.reactions_ms)
