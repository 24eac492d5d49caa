"""The base every game's live part at the table stands on (a game's own ``table.py``).

A controller holds the game's session, is handed the table's clock (``now()``) and a scheduler
(``schedule(delay, fn)`` returning a handle with ``cancel()``), takes cards from the card feeds
(the card pad, the serial card reader, the camera) and the table's taps, and answers what the
screen draws. It never touches Kivy or a device, so tests drive it with a fake clock
(tests/fake_clock.py) and no window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

MOST_GUESSES = 3   # an unsure card: the feed's best guesses, offered side by side


@dataclass(frozen=True)
class Offer:
    """A card a feed saw, offered to the table until it answers: one card the feed is sure of,
    or the guesses for one it is not (best first)."""

    cards: tuple[str, ...]
    sure: bool
    player: Optional[str]       # whose play it would be
    until: Optional[float] = None   # when a sure card becomes the play by itself (None: it waits for a tap)


class TableController:
    def __init__(self, session, *, now: Callable[[], float], schedule):
        self.session = session
        self.now = now
        self.schedule = schedule

    # -- what the engine says ------------------------------------------------------------------

    @property
    def game(self):
        return self.session.game

    @property
    def state(self):
        return self.session.game.state

    @property
    def players(self) -> list[str]:
        return self.session.game.players

    @property
    def rules(self):
        return self.session.game.rules

    @property
    def finished(self) -> bool:
        return self.session.game.finished

    def game_view(self):
        """The engine's typed view of where the game stands (the game's ``View``)."""
        return self.session.view()

    # -- the card feeds, all alike ---------------------------------------------------------------

    def on_card(self, card: str, landed_at: float | None = None) -> None:
        """A card landed: ``landed_at`` on the table's clock, or None when nobody knows."""
        raise NotImplementedError

    def on_unsure(self, candidates: Sequence[str], landed_at: float | None = None) -> None:
        """A card landed that the feed could not tell for sure: the table is asked which of
        ``candidates`` it is, and its tap comes back as :meth:`choose`."""
        raise NotImplementedError

    def on_cleared(self, at: float | None = None) -> None:
        """The camera sees the pile (or the middle) empty: the cards were gathered."""

    def choose(self, card: str) -> None:
        """The table's tap on one of an unsure card's guesses."""
        raise NotImplementedError

    # -- the table's buttons -----------------------------------------------------------------------

    def undo(self) -> None:
        """One tap takes back the last thing the table told the companion."""
        raise NotImplementedError

    def close(self) -> None:
        """The table is left: nothing it scheduled may run after this."""
