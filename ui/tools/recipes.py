"""What each game's bench recipe shares. A recipe is ``ui/games/<game>/bench.py``, named by the
game's declaration, and read by the bench (``python -m tools.bench``). A recipe module has:

``SEED_ACTIONS`` and ``seed_log(wanted, seed) -> (header, actions)``
    a game in progress, about ``wanted`` (SEED_ACTIONS) actions in, for the app bench to resume
    and tap on;
``long_log(actions, seed) -> (header, actions, how)``
    a long legal log for the engine bench (random play with real cards), and how it was made;
``tap_steps(screen) -> [(setup taps, the measured tap, watched widgets, name)]``
    the game action a tap makes on the game's screen (the probe times it, then its Undo).

The log makers import no Kivy; ``tap_steps`` runs inside the probe, in the app's process.
"""

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo")


def first_card(fits) -> str | None:
    """The first card, Jacks aside (each game treats them specially), in rank then suit order,
    that ``fits``; None if none does."""
    from companion.cards import RANKS, SUITS

    return next((rank + suit for rank in RANKS if rank != "J" for suit in SUITS if fits(rank + suit)), None)


def longest(make, actions: int, attempts: int = 200):
    """``make(attempt)`` until a log of ``actions`` actions comes out (cut to that), else the longest."""
    best = None
    for attempt in range(attempts):
        header, log, how = make(attempt)
        if best is None or len(log) > len(best[1]):
            best = (header, log, how)
        if len(log) >= actions:
            return header, log[:actions], how
    header, log, how = best
    return header, log, f"the longest of {attempts} random games ({len(log)} actions; {how})"
