"""What Slapjack's card game and its race judge share: how a race is ranked, what a tie is,
what a press time is, and how a race is said (docs/rules.md, "Slapjack").

Both rules classes (companion/games/slapjack/rules.py and slapjack_judge.py) settle races through
these functions, so the two ways to play cannot drift apart.
"""

from __future__ import annotations

import math

from companion.errors import IllegalAction


def is_time(value: object) -> bool:
    """A time is a finite number of seconds; an int too big for a float, or a number past
    1e15 s (thirty million years), is no time either."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and abs(value) < 1e15 and math.isfinite(value))


def press_time(t: object, name: str) -> float:
    """A slap's press time, or IllegalAction saying what a press time looks like."""
    if not is_time(t):
        given = "" if t is None else f", not {t!r}"
        raise IllegalAction(f'a slap needs "t", the press time in seconds, e.g. '
                            f'{{"type": "slap", "player": "{name}", "t": 12.3456}}{given}')
    return float(t)


def ranked(slaps: tuple[tuple[int, float], ...]) -> tuple[tuple[int, float], ...]:
    """Each slapper's earliest press, earliest first; equal times go to the one logged first.

    Whatever order the presses were logged in, the same presses rank the same
    (docs/rules.md, "Slapjack": the first slap is the earliest press). One entry per player:
    a player pays at most one card per card turned, however many times they pressed.
    """
    best: dict[int, tuple[float, int]] = {}
    for index, (seat, t) in enumerate(slaps):
        known = best.get(seat)
        if known is None or t < known[0]:
            best[seat] = (t, index)
    return tuple((seat, t) for seat, (t, _) in sorted(best.items(), key=lambda item: item[1]))


def gap_ms(t: float, first: float) -> float:
    return (t - first) * 1000.0


def tie(order: tuple[tuple[int, float], ...], window_ms: float) -> tuple[int, ...]:
    """The seats tied with the first press: every press within ``window_ms`` of the earliest
    (measured from the earliest press, not from press to press: docs/rules.md, "Slapjack"
    options). () when the window is off or nobody is that close."""
    if window_ms <= 0 or not order:
        return ()
    first = order[0][1]
    tied = tuple(seat for seat, t in order if round(gap_ms(t, first), 3) < window_ms)
    return tied if len(tied) > 1 else ()



def and_words(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def ms_text(value: float) -> str:
    return f"{value:.1f}" if abs(value) < 10 else f"{value:.0f}"
