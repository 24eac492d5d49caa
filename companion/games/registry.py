"""Where each game declares itself once: its name, its words, its rules.

A game is a folder, ``companion/games/<game>/``, whose ``__init__.py`` makes one
``register_game(GameInfo(...))`` call; ``companion/games/__init__.py`` imports every such folder
it finds, so no file lists the games (docs/adding-a-game.md). A folder that fails to import
fails loudly there: nothing guesses that a game is "coming soon".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Union

from ..rules import Rules


@dataclass(frozen=True)
class GameInfo:
    name: str  # as in a log's header
    title: str  # as on screen
    blurb: str  # one line under the title on the home screen
    rules: type[Rules]
    # Where its tile stands on the home screen (and its place in every list of games), lowest first.
    order: int = 100
    # For a game whose header picks one of several rules classes (Slapjack's judge-only
    # feed); without it every header gets ``rules``.
    choose: Optional[Callable[[Mapping], type[Rules]]] = None
    # The rules classes other than ``rules`` that ``choose`` may pick, so that what is checked
    # for every game (its legal actions, the one random player, undo) reaches them too.
    variants: tuple[type[Rules], ...] = ()

    @property
    def folder(self) -> str:
        """The game's folder in the repository: the package its rules class lives in."""
        return "/".join(self.rules.__module__.split(".")[:-1])

    @property
    def log_doc(self) -> str:
        """The log format, for a reader of the repository: ``log.md`` beside the rules."""
        return f"{self.folder}/log.md"

    @property
    def every_rules(self) -> tuple[type[Rules], ...]:
        """``rules`` and its variants: every rules class a header of this game may be played by."""
        return (self.rules, *self.variants)

    def rules_for(self, header: Mapping | None = None) -> Rules:
        cls = self.choose(header) if self.choose is not None and header is not None else self.rules
        return cls()


GAMES: dict[str, GameInfo] = {}


def register_game(info: GameInfo) -> GameInfo:
    """Add a game to :data:`GAMES`; registering the same game twice is harmless, two games
    under one name is a mistake and says so."""
    known = GAMES.get(info.name)
    if known is not None and known != info:
        raise ValueError(f"two games are registered as {info.name!r}: {known.title} and {info.title}")
    GAMES[info.name] = info
    in_order = sorted(GAMES.values(), key=lambda game: game.order)   # stable: equal orders keep theirs
    GAMES.clear()
    GAMES.update((game.name, game) for game in in_order)
    return info


def unregister_game(name: str) -> None:
    """Take a game back out (for tests that register a game of their own)."""
    GAMES.pop(name, None)


def rules_for(name_or_header: Union[str, Mapping]) -> Rules:
    """The rules of a game, by its name or by a log's header (which may choose among the
    game's rules classes); KeyError for a game the companion does not know."""
    header = name_or_header if isinstance(name_or_header, Mapping) else None
    name = header.get("game") if header is not None else name_or_header
    info = GAMES.get(name)
    if info is None:
        raise KeyError(name)
    return info.rules_for(header)
