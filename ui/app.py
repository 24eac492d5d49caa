"""The touchscreen app: one window, a screen manager, screens built the first time they show
(and a game's dropped again once the table moves on to another game)."""

from __future__ import annotations

import gc
import importlib
import logging
import time
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.layout import Layout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion import config as settings
from companion import paths
from companion.games import GAMES
from companion.store import Store, StoreError

from . import theme
from .games import GAME_UIS, check, ui_for

log = logging.getLogger(__name__)

HERE = Path(__file__).parent

# The screens every table has, by name: "module:Class". Each game's come from its declaration
# (ui/games/). Each module has its .kv beside it, loaded on first use.
SCREENS = {
    "home": "ui.screens.home:HomeScreen",
    "players": "ui.screens.players:PlayersScreen",
    "settings": "ui.screens.settings:SettingsScreen",
    "history": "ui.screens.history:HistoryScreen",
    "camera": "ui.screens.camera:CameraScreen",
    "teach-deck": "ui.screens.teach_deck:TeachDeckScreen",
}


def game_of(screen_name: str | None) -> str | None:
    """The game a screen belongs to (its set-up or its game screen), or None (home, players...)."""
    return next((game for game, ui in GAME_UIS.items() if screen_name in ui.screen_names), None)


def screen_target(name: str) -> str:
    """Where the screen called ``name`` is written ("module:Class")."""
    if name in SCREENS:
        return SCREENS[name]
    game = game_of(name)
    if game is None:
        raise KeyError(f"no screen is called {name!r}")
    return GAME_UIS[game].screens[name]


def lay_out_now(screen, manager) -> None:
    """Lay a screen just built out at its real size now, top down, instead of in Kivy's passes
    before the frame. Its labels were made at Kivy's default size (100 x 100) and would
    otherwise render their text at it first, wrapped to 100 px, then again at the size the
    layout gives them (half a new screen's text rendering was thrown away)."""
    screen.size = manager.size
    screen.pos = manager.pos
    stack = [screen]
    while stack:
        widget = stack.pop()
        if isinstance(widget, Layout):
            widget.do_layout()
        stack.extend(widget.children)


class Root(FloatLayout):
    """The window's one child: the felt background, the screens, and the notice bar."""

    notice = StringProperty("")
    notice_kind = StringProperty("info")


class CompanionApp(App):
    title = "Jack Table Companion"

    def __init__(self, data_dir: Path, config: dict | None = None, config_problems=(), mock: bool = False,
                 clock=time.time, **kwargs):
        super().__init__(**kwargs)
        check(GAMES)   # a game without its screens is a mistake to fix, not a tile to grey out
        self.data_dir = Path(data_dir)
        self.shown_data_dir = self.data_dir   # the folder the screens name (the screenshots: the default one)
        self.clock = clock                    # the wall clock that stamps games (the screenshots fix it)
        self.settings = config or settings.defaults()
        self.config_problems = list(config_problems)
        self.mock = mock
        self.store: Store | None = None
        self._loaded_kv: set[str] = set()
        self._notice_event = None
        self._after_frame: list = []          # what waits for the next frame to be on screen
        self._after_frame_anyway = None       # ... and the timer that calls it if none comes
        self.swap_waited_s = 0.0              # how long swaps have waited for the card, all told (measured by the bench)
        self.camera_read_ahead = None         # the thread making the camera ready from home on, if one is set

    # -- building ----------------------------------------------------------------------------

    def build(self):
        theme.register_fonts()
        Builder.load_file(str(HERE / "widgets" / "basics.kv"))
        Builder.load_file(str(HERE / "widgets" / "card_picker.kv"))
        Builder.load_file(str(HERE / "app.kv"))
        self.store = Store(paths.store_path(self.data_dir), clock=self.clock)
        self.root = Root()
        self.manager: ScreenManager = self.root.ids.manager
        self.manager.transition = NoTransition()  # nothing animates on a Pi for nothing
        self.manager.transition.bind(on_complete=lambda *_: self.release_other_games())
        Window.clearcolor = theme.FELT   # the felt behind every screen (app.kv)
        self._commit_before_swap()
        self.show("home")
        self._ready_to_resume()
        self.after_the_frame(self._camera_read_ahead)
        problems = list(self.config_problems)
        if self.store.recovered_from is not None:
            problems.append(f"The saved games could not be read; a copy was kept as {self.store.recovered_from.name}"
                            " and the table starts afresh.")
        if problems:
            Clock.schedule_once(lambda dt: self.notify(" ".join(problems), "error", seconds=12), 0)
        return self.root

    def _ready_to_resume(self) -> None:
        """Home offers the newest unfinished game, and Resume is the likeliest first tap: its
        screen's code is read now, while the app starts, rather than after the tap (on a Pi
        core, importing a game's screen and reading its .kv is a third of what a resume adds;
        Slapjack's brings the pads' code, gpiozero with it, another third)."""
        newest = self.store.unfinished()
        if newest is not None and self.game_available(newest.game):
            self.screen_class(ui_for(newest.game).play_screen)

    def _camera_read_ahead(self) -> None:
        if not self.settings.get("camera", {}).get("source"):
            return   # no camera set: nothing read (this pass may be the one a tap on Resume waits for)
        from ui.camera_link import camera_for

        self.camera_read_ahead = camera_for(self).read_ahead()

    def screen(self, name: str):
        """The screen called ``name``, built the first time it is asked for."""
        if self.manager.has_screen(name):
            return self.manager.get_screen(name)
        screen = self.screen_class(name)(name=name)
        self.manager.add_widget(screen)
        return screen

    def screen_class(self, name: str):
        """The class of the screen called ``name``: its module imported and its .kv read, once."""
        module_name, class_name = screen_target(name).split(":")
        module = importlib.import_module(module_name)
        kv = Path(module.__file__).with_suffix(".kv")
        if kv.exists() and str(kv) not in self._loaded_kv:
            Builder.load_file(str(kv))
            self._loaded_kv.add(str(kv))
        return getattr(module, class_name)

    def show(self, name: str, **kwargs):
        # Building and filling a screen makes tens of thousands of objects that are kept: the
        # collector running in the middle of it only walks them again and again (on a slow core
        # a tenth of a resume). They are set aside for it instead (gc.freeze: never walked, until
        # a game's screens are dropped and everything is collected, release_other_games).
        collecting = gc.isenabled()
        gc.disable()
        try:
            built = not self.manager.has_screen(name)
            screen = self.screen(name)
            if hasattr(screen, "prepare"):
                screen.prepare(**kwargs)
            self.manager.current = name
            if built:
                lay_out_now(screen, self.manager)
        finally:
            if collecting:
                gc.freeze()
                gc.enable()
        # The screen stays lit while a game is open; elsewhere it may blank as the system likes.
        Window.allow_screensaver = not any(name == ui.play_screen for ui in GAME_UIS.values())
        return screen

    def release_other_games(self) -> None:
        """Drop the screens of every game but the one showing, once the table has moved on to
        another game: a game's screen holds a few MB (widgets, their textures and vertex
        buffers) and is rebuilt in about 100 ms if the table comes back to it. Going home and
        back to the same game keeps it."""
        showing = game_of(self.manager.current)
        if showing is None:
            return
        dropped = [name for game, ui in GAME_UIS.items() if game != showing
                   for name in ui.screen_names if self.manager.has_screen(name) and name != self.manager.current]
        for name in dropped:
            self.manager.remove_widget(self.manager.get_screen(name))
        if dropped:
            gc.unfreeze()  # what show() set aside is looked at again, with the dropped screens
            gc.collect()   # widget trees hold reference cycles: free them now, for the next screen to reuse

    # -- games ---------------------------------------------------------------------------------

    def game_available(self, game: str) -> bool:
        """Whether this version can show ``game`` (a log from elsewhere may name one it does not
        know). Every registered game can: :func:`ui.games.check` made sure at start."""
        return game in GAME_UIS

    def new_game(self, game: str):
        return self.show(ui_for(game).screen_names[0])

    def open_session(self, session):
        """Show a game in progress on its game's screen."""
        return self.show(ui_for(session.game.header["game"]).play_screen, session=session)

    def player_colour(self, name: str) -> list[float]:
        colour = self.store.colour_of(name) if self.store else None
        return theme.rgba(colour) if colour else theme.PANEL_LIGHT

    def seat_colour(self, name: str, computers) -> list[float]:
        """The colour of a seat at a table with these computer players (in seating order)."""
        if name in computers and (self.store is None or self.store.colour_of(name) is None):
            return theme.rgba(theme.COMPUTER_COLOURS[list(computers).index(name) % len(theme.COMPUTER_COLOURS)])
        return self.player_colour(name)

    @property
    def four_colour(self) -> bool:
        return bool(self.settings["display"]["four_colour"])

    def save_settings(self) -> None:
        settings.save(paths.config_path(self.data_dir), self.settings)

    # -- writes held to the frame that shows them ---------------------------------------------

    def _commit_before_swap(self) -> None:
        """Before each buffer swap, make durable what the frame about to go on screen shows
        (``Store.holding``); a failed commit keeps that frame off the screen.

        Held writes start their commit as soon as they are made (:meth:`hold_writes`), on the
        store's writer thread, and the swap waits for it. The card's wait (an fsync, which lets
        go of Python's lock) then overlaps laying out and drawing the frame instead of adding to
        them; the store keeps every other use of it waiting meanwhile, so the writes stay in
        order (``Store.start_commit``)."""
        swap = getattr(Window.flip, "swap", Window.flip)   # one wrapper, however many apps a process builds

        def flip():
            store = self.store
            if store is not None and (store.committing or store.held):
                from kivy.graphics.opengl import glFlush

                glFlush()       # the GPU draws while this thread waits for the card
                waiting_from = time.perf_counter()
                saved = self.commit_held()
                self.swap_waited_s += time.perf_counter() - waiting_from
                if not saved:
                    return          # this frame shows moves that were not saved: it is never shown
            flip.swap()
            if self._after_frame:
                Clock.schedule_once_free(lambda dt: self._run_after_frame(), 0)   # the next pass, at once

        flip.swap = swap
        Window.flip = flip

    def hold_writes(self, fn):
        """``fn`` with the actions it stores held for the next frame (``Store.holding``): for a
        timer that ends a slap race, or a press or card that Slapjack logs, so the commit starts
        at once and overlaps laying out and drawing the frame that shows it. The commit is
        settled (a failure told) after that frame, or soon if no frame is drawn."""
        def held(*args):
            store = self.store
            if store is None:
                return fn(*args)
            with store.holding():
                result = fn(*args)
            if store.held:
                store.start_commit()
                self.after_the_frame(self.commit_held)
            return result

        return held

    # A pass of Kivy's loop that drew nothing is over long before this.
    AFTER_FRAME_AT_MOST_S = 0.1

    def after_the_frame(self, fn) -> None:
        """Call ``fn`` in the pass after the one whose frame is being made, once that frame is on
        screen (a callback scheduled for "the next frame" may still run before it: Kivy runs the
        events due when its pass's events are run). If no frame is drawn, it is called soon all
        the same."""
        self._after_frame.append(fn)
        if self._after_frame_anyway is None:
            self._after_frame_anyway = Clock.schedule_once(lambda dt: self._run_after_frame(),
                                                           self.AFTER_FRAME_AT_MOST_S)

    def _run_after_frame(self) -> None:
        anyway, self._after_frame_anyway = self._after_frame_anyway, None
        if anyway is not None:
            anyway.cancel()
        waiting, self._after_frame = self._after_frame, []
        for fn in waiting:
            fn()

    def commit_held(self) -> bool:
        """Make held writes durable: the commit in flight, then any written since, on this
        thread; False if they were lost."""
        return self._saved(self.store.commit_held)

    def _saved(self, commit) -> bool:
        """Run ``commit``; if the held writes could not be saved, say so and show what was."""
        try:
            commit()
            return True
        except StoreError as exc:
            self._held_writes_lost(exc)
            return False

    def _held_writes_lost(self, exc: StoreError) -> None:
        """Say so, and show the game as it was stored (the held moves were rolled back)."""
        log.error("held writes lost: %s", exc)
        session = getattr(self.manager.current_screen, "session", None)
        if session is not None:
            from companion.session import Session

            self.open_session(Session.resume(self.store, session.game_id))
        self.notify(f"{str(exc).capitalize()}: the table is shown as it was saved.", "error", seconds=10)

    # -- notices ---------------------------------------------------------------------------------

    def notify(self, text: str, kind: str = "info", seconds: float = 5) -> None:
        """Say something at the foot of the screen: a refusal's reason, or what just happened."""
        self.root.notice = text
        self.root.notice_kind = kind
        if self._notice_event is not None:
            self._notice_event.cancel()
        self._notice_event = Clock.schedule_once(lambda dt: self.clear_notice(), seconds)

    def clear_notice(self) -> None:
        self.root.notice = ""

    def on_stop(self):
        # Kivy may run its clock once more after this (a stop asked for outside its loop is
        # itself scheduled): a notice's timer firing then would find no app for its layout.
        if self._notice_event is not None:
            self._notice_event.cancel()
        if self.store is not None:
            self.store.close()
