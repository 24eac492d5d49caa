"""The UI registry: for each game the engine knows, the parts its table is shown with.

Each game declares itself once, in ``ui/games/<game>/__init__.py``, with one :func:`register` call; the
app, the screenshots and the bench read :data:`GAME_UIS` and nothing else. The engine's own
registry (``companion.games.GAMES``) says which games exist; :func:`check` holds the two lists
to each other, loudly: a registered game without its screens is an error, not "Coming soon".
See docs/adding-a-game.md.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass


@dataclass(frozen=True)
class GameUI:
    """A game's screens and tools, named as ``"module:Class"`` (screens) or a module (tools),
    so that nothing is imported before it is shown or run."""

    name: str           # the game's name in companion.games.GAMES and in a log's header
    setup: str          # the set-up screen, "module:Class"
    play: str           # the screen a game in progress shows, "module:Class"
    scenes: str         # the screenshots' scenes: a module with scenes(app, driver)
    bench: str          # the bench's recipe: a module with seed_log, long_log and tap_steps

    @classmethod
    def in_folder(cls, package: str, name: str, setup: str, play: str) -> "GameUI":
        """A game's folder laid out as docs/adding-a-game.md says: its set-up screen class
        ``setup`` in setup.py, ``play`` in screen.py, its scenes.py and bench.py; ``package`` is
        the folder's ``__name__``, so no module path is typed by hand."""
        return cls(name, f"{package}.setup:{setup}", f"{package}.screen:{play}", f"{package}.scenes",
                   f"{package}.bench")

    @property
    def screen_names(self) -> tuple[str, str]:
        """The names the screen manager knows the two screens by."""
        return f"{self.name}-setup", self.name

    @property
    def play_screen(self) -> str:
        return self.name

    @property
    def screens(self) -> dict[str, str]:
        return dict(zip(self.screen_names, (self.setup, self.play)))


GAME_UIS: dict[str, GameUI] = {}


class GameUIError(LookupError):
    """A game and its UI declaration do not match: said in words a developer can act on."""


def register(ui: GameUI) -> GameUI:
    if ui.name in GAME_UIS:
        raise GameUIError(f"the UI of {ui.name!r} is declared twice")
    GAME_UIS[ui.name] = ui
    return ui


def ui_for(name: str) -> GameUI:
    try:
        return GAME_UIS[name]
    except KeyError:
        raise GameUIError(f"no UI is declared for the game {name!r}: add ui/games/{name.replace('-', '_')}/__init__.py "
                          "(docs/adding-a-game.md)") from None


def check(games) -> None:
    """Every game of ``games`` (the engine's registry) has a UI, every UI a game, and every
    screen a module that exists; else :class:`GameUIError` naming each problem."""
    problems = [f"{name!r} is a registered game but no UI is declared for it (ui/games/{name.replace('-', '_')}/__init__.py)"
                for name in games if name not in GAME_UIS]
    problems += [f"the UI of {name!r} is declared but no such game is registered in companion.games"
                 for name in GAME_UIS if name not in games]
    for ui in GAME_UIS.values():
        for target in (ui.setup, ui.play):
            module = target.split(":")[0]
            if importlib.util.find_spec(module) is None:
                problems.append(f"{ui.name}: its screen module {module} does not exist")
    if problems:
        raise GameUIError("; ".join(problems))
