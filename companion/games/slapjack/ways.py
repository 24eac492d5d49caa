"""The three ways to play Slapjack, and the one place that maps each to its header's ``feed``
(companion/games/slapjack/log.md): the set-up asks which header a way makes, the table which way a
header is.

* ``"real"``: a real deck; each card reaches the companion from the camera over the pile when
  the table chose it (feed ``"camera"``), from the serial card reader when one is configured
  (feed ``"reader"``), else from the on-screen card pad (feed ``"pad"``). The camera and the
  reader time their cards (:func:`timed_feed`); the card pad stays a tap away with either.
* ``"judge"``: slaps only (feed ``"none"``): no cards at all; the table judges each race.
* ``"screen"``: the screen deck: the header carries a ``"seed"`` and no feed.
"""

from __future__ import annotations

REAL, JUDGE, SCREEN = "real", "judge", "screen"
MODES = (REAL, JUDGE, SCREEN)
TIMED_FEEDS = ("camera", "reader")   # feeds that know when each card landed


def feed_for(mode: str, reader: bool = False, camera: bool = False) -> str | None:
    """The header's ``feed`` for a way to play (None: the screen deck has no feed). The camera,
    when chosen, comes before the card reader.

    >>> feed_for("real", camera=True), feed_for("real", reader=True), feed_for("real")
    ('camera', 'reader', 'pad')
    >>> feed_for("judge", camera=True), feed_for("screen")
    ('none', None)
    """
    if mode not in MODES:
        raise ValueError(f"no way to play called {mode!r} (there are {', '.join(MODES)})")
    if mode == SCREEN:
        return None
    if mode == JUDGE:
        return "none"
    return "camera" if camera else "reader" if reader else "pad"


def timed_feed(header: dict) -> str | None:
    """The device a real-deck game's cards come from, timed ("camera", "reader"), or None (the
    card pad, the judge, the screen deck).

    >>> timed_feed({"feed": "camera"}), timed_feed({"feed": "pad"}), timed_feed({"seed": 3})
    ('camera', None, None)
    """
    feed = header.get("feed")
    return feed if mode_of(header) == REAL and feed in TIMED_FEEDS else None


def mode_of(header: dict) -> str:
    """The way to play a header describes: the inverse of :func:`feed_for`.

    >>> mode_of({"seed": 7}), mode_of({"feed": "none"}), mode_of({"feed": "camera"}), mode_of({})
    ('screen', 'judge', 'real', 'real')
    """
    if header.get("seed") is not None:
        return SCREEN
    return JUDGE if header.get("feed") == "none" else REAL


def header_for(mode: str, players: list[str], options: dict, *, reader: bool = False, camera: bool = False,
               seed: int | None = None, computers: dict | None = None, pace_s: float | None = None) -> dict:
    """The header a way to play starts: the screen deck with its seed, computers and pace."""
    if mode == SCREEN:
        header: dict = {"game": "slapjack", "players": list(players), "options": dict(options), "seed": seed}
        if computers:
            header["computers"] = dict(computers)
        if pace_s is not None:
            header["pace_s"] = float(pace_s)   # the app's own: the rules never read it
        return header
    return {"game": "slapjack", "players": list(players), "options": dict(options), "feed": feed_for(mode, reader, camera)}


def pads_for(players: list[str], computers, pads: int) -> dict[str, int]:
    """Each person's pad (0-based): their place among the people, in seating order; people
    beyond the last pad have none.

    >>> pads_for(["Ann", "Robo", "Ben", "Cat"], {"Robo"}, pads=2)
    {'Ann': 0, 'Ben': 1}
    """
    people = [name for name in players if name not in computers]
    return {name: i for i, name in enumerate(people) if i < pads}
