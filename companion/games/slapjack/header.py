"""What a Slapjack header fixes for the whole game, read once for both ways to play:
the card game (companion/games/slapjack/rules.py) and the race judge (slapjack_judge.py).
The header's fields are in companion/games/slapjack/log.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from companion.cards import CardError, parse_card
from companion.errors import BadHeader

MIN_PLAYERS, MAX_PLAYERS = 2, 8
DECK_SIZE = 52
MAX_END_AFTER = 100_000
MAX_TIE_WINDOW_MS = 1000
MAX_SEED = 2**63
FEEDS = ("pad", "reader", "camera", "none")   # how the cards reach the companion; "none": it judges slaps only
MIN_LEVEL_MS, MAX_LEVEL_MS = 100, 5000
DEFAULTS = {
    "queens_too": False,
    "doubles_too": False,
    "penalty_under_pile": False,
    "out_on_wrong_slap": True,
    "end_after": None,
    "tie_window_ms": 0,
    "calm": False,
}
BOOLEAN_OPTIONS = ("queens_too", "doubles_too", "penalty_under_pile", "out_on_wrong_slap", "calm")

@dataclass(frozen=True, slots=True)
class Options:
    queens_too: bool = False
    doubles_too: bool = False
    penalty_under_pile: bool = False
    out_on_wrong_slap: bool = True
    end_after: int | None = None
    tie_window_ms: float = 0
    calm: bool = False

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in DEFAULTS}


class Seated:
    """What both Slapjack states (the card game's and the judge's) answer alike, in names, so a
    screen can ask either."""

    __slots__ = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    def names(self, seats) -> list[str]:
        return [self.setup.players[i] for i in seats]


@dataclass(frozen=True, slots=True)
class Setup:
    """What the header fixed for the whole game."""

    players: tuple[str, ...]
    options: Options
    seed: int | None = None           # set for a screen deck
    deck: tuple[str, ...] | None = None
    seats: dict = field(default_factory=dict, compare=False, hash=False)
    feed: str | None = None            # "pad", "reader", "camera" (real deck), "none" (race judge only)
    computers: tuple[tuple[str, float], ...] = ()  # screen deck: (name, reaction level in ms)

    @property
    def screen(self) -> bool:
        return self.seed is not None

    @property
    def slap_word(self) -> str:
        """What the screen calls a card worth slapping."""
        o = self.options
        return "Jack" if not (o.queens_too or o.doubles_too) else "slap card"


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's record over the game, for the stats screen."""

    slaps_won: int = 0
    cards_won: int = 0
    wrong_slaps: int = 0
    cards_paid: int = 0
    reactions_ms: tuple[float, ...] = ()  # slaps on slappable cards whose landing time is known


def read_setup(header: dict) -> Setup:
    """The setup a header gives, or BadHeader naming the field at fault."""
    players = tuple(header["players"])
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise BadHeader(f"Slapjack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; "
                        f"this game has {len(players)}")
    options = read_options(header.get("options") or {})
    seed, deck = read_screen_deck(header)
    if options.calm and seed is None:
        raise BadHeader('calm mode is for the screen deck only: the header needs a "seed"')
    feed = _read_feed(header, seed)
    computers = _read_computers(header, players, seed)
    seats = {p: i for i, p in enumerate(players)}
    return Setup(players, options, seed, deck, seats, feed, computers)


def _read_feed(header: dict, seed: int | None) -> str | None:
    feed = header.get("feed")
    if feed is None:
        return None
    if seed is not None:
        raise BadHeader('a screen deck deals its own cards: its header has no "feed"')
    if feed not in FEEDS:
        raise BadHeader(f'"feed" must be one of {", ".join(FEEDS)}, not {feed!r}')
    return feed

def _read_computers(header: dict, players: tuple[str, ...], seed: int | None) -> tuple:
    computers = header.get("computers")
    if computers is None:
        return ()
    if seed is None:
        raise BadHeader('computer players need the screen deck: the header needs a "seed"')
    if not isinstance(computers, dict):
        raise BadHeader('"computers" must map each computer player to its reaction level in ms, '
                        'e.g. {"Robo": 350}')
    for name, level in computers.items():
        if name not in players:
            raise BadHeader(f'the computer player {name!r} is not one of the players')
        if (isinstance(level, bool) or not isinstance(level, (int, float)) or not math.isfinite(level)
                or not MIN_LEVEL_MS <= level <= MAX_LEVEL_MS):
            raise BadHeader(f"{name}'s reaction level must be {MIN_LEVEL_MS} to {MAX_LEVEL_MS} ms, not {level!r}")
    return tuple((name, float(computers[name])) for name in players if name in computers)

def read_options(given: dict) -> Options:
    unknown = sorted(set(given) - set(DEFAULTS))
    if unknown:
        raise BadHeader(f"unknown option {unknown[0]!r} for Slapjack (its options are {', '.join(DEFAULTS)})")
    values = {**DEFAULTS, **given}
    for name in BOOLEAN_OPTIONS:
        if not isinstance(values[name], bool):
            raise BadHeader(f'the option "{name}" must be true or false, not {values[name]!r}')
    end_after = values["end_after"]
    if end_after is not None and (isinstance(end_after, bool) or not isinstance(end_after, int)
                                  or not 1 <= end_after <= MAX_END_AFTER):
        raise BadHeader(f'"end_after" must be null (play to the end) or a whole number of cards '
                        f'from 1 to {MAX_END_AFTER}, not {end_after!r}')
    window = values["tie_window_ms"]
    if (isinstance(window, bool) or not isinstance(window, (int, float)) or not math.isfinite(window)
            or not 0 <= window <= MAX_TIE_WINDOW_MS):
        raise BadHeader(f'"tie_window_ms" must be a number of milliseconds from 0 (off) to '
                        f'{MAX_TIE_WINDOW_MS}, not {window!r}')
    return Options(**values)

def read_screen_deck(header: dict) -> tuple[int | None, tuple[str, ...] | None]:
    seed = header.get("seed")
    deck = header.get("deck")
    if seed is None:
        if deck is not None:
            raise BadHeader('a screen deck needs a "seed" as well as its "deck" (the seed shuffles the won piles)')
        return None, None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise BadHeader(f'"seed" must be a whole number from 0 to 2^63 - 1, not {seed!r}')
    if deck is None:
        return seed, None
    if not isinstance(deck, list) or len(deck) != DECK_SIZE:
        raise BadHeader(f'"deck" must list all {DECK_SIZE} cards in the order they are dealt')
    codes = []
    for code in deck:
        try:
            codes.append(str(parse_card(code)))
        except CardError as exc:
            raise BadHeader(f'"deck": {exc}') from None
    seen = set()
    for code in codes:
        if code in seen:
            raise BadHeader(f'"deck" has {code} twice: it must hold each of the 52 cards once')
        seen.add(code)
    return seed, tuple(codes)
