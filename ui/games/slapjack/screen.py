"""Slapjack at the table: every stack round the table, whose turn (their pad lit), the top card
big, and who slapped first the moment it is known ("Ann! Ben +23 ms, Cat +140 ms").

The table's logic is :class:`companion.games.slapjack.table.SlapjackTable`'s: dealing, races, the card pad's
waiting presses, the judge, the slap-off, undo, the lights and the words. This screen draws
its :meth:`~companion.games.slapjack.table.SlapjackTable.view` and forwards taps, pad presses and cards to it,
with Kivy's clock as its scheduler (a test may hand it another: :attr:`SlapjackScreen.clock`).
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.games.slapjack.table import SlapjackTable
from companion.games.slapjack.ways import JUDGE, pads_for
from companion.games.slapjack.view import card_words

from ui import sound, theme
from ui.camera_link import camera_for
from ui.kivy_setup import frame_now
from ui.pads_link import link_for
from ui.widgets.basics import ChoiceButton, TableButton
from ui.widgets.card_picker import CardPicker
from ui.widgets.slapjack_stats import SlapjackStatsView, SlapResultRow, name_column, open_stats  # noqa: F401

LIGHT_COLOURS = {"turner": theme.PRIMARY, "winner": theme.rgba("#4FD18B"), "wrong": theme.DANGER,
                 "on": theme.TEXT}


def held_to_frame(fn):
    """``fn`` with what it stores held to the frame that shows it (``CompanionApp.hold_writes``)."""
    app = App.get_running_app()
    return app.hold_writes(fn) if hasattr(app, "hold_writes") else fn


class KivyClock:
    """The table's clock: the pads' (every press, card and planned computer press is on it),
    and Kivy's Clock as the scheduler ("free" events: the loop wakes for them on time)."""

    def __init__(self, link):
        self.link = link

    def now(self) -> float:
        return self.link.now()

    def schedule(self, delay: float, fn):
        # What a timer stores (a race's window closing: its presses and its verdict) is
        # committed just before the frame that shows it, the card's wait overlapping the drawing.
        fn = held_to_frame(fn)
        if delay <= 0:
            # Due already (a race window that closed while the main thread was drawing, as it
            # often has on a Pi by the time a press is handed over): before this pass's frame,
            # so that frame shows it, instead of after it (one frame later).
            return Clock.schedule_once(lambda dt: fn(), -1)

        def timer(dt):
            fn()
            frame_now()   # its frame at once, before the pass's per-frame work (ui/kivy_setup.py)

        return Clock.schedule_once_free(timer, delay)


class SlapSeat(BoxLayout):
    """One player round the table: name on their colour, their stack, their pad and its light."""

    name = StringProperty("")
    fill = ColorProperty(theme.PANEL_LIGHT)
    count_text = StringProperty("")
    caption = StringProperty("")      # "pad 1 · key 1", "computer · 350 ms", "no pad"
    status = StringProperty("")       # "LAST CHANCE", "OUT", "" ...
    current = BooleanProperty(False)  # their turn
    out = BooleanProperty(False)
    light = StringProperty("")        # a mock pad's light: "", "off", "turner", "winner", "wrong", "on"
    stacked = BooleanProperty(False)  # the pad line under the stack, not beside it (the .kv decides)


class SlapCardPad(CardPicker):
    """The card pad of a real-deck game (screen.kv)."""

    screen = ObjectProperty(None)


class SlapCarryOn(TableButton):
    """Calm mode's "Carry on" (screen.kv)."""

    screen = ObjectProperty(None)


class ScreenPart(BoxLayout):
    """A part of the Slapjack screen that only some games show (screen.kv)."""

    screen = ObjectProperty(None)


class SlapHeldButtons(ScreenPart):
    """Real deck: which card presses waiting for their card were on, or not a slap."""


class SlapJudgeButtons(ScreenPart):
    """Judge slaps only: good, wrong, or set aside."""


class SlapResultsPart(ScreenPart):
    """After the game: how it ended, and everyone's slaps and reaction times."""


class SlapjackScreen(Screen):
    session = ObjectProperty(None, allownone=True)
    mode = StringProperty("screen")         # "screen", "real" or "judge"
    four_colour = BooleanProperty(False)
    top = StringProperty("")
    card_dim = BooleanProperty(False)
    pile_text = StringProperty("")
    turn_text = StringProperty("")
    turn_fill = ColorProperty(theme.PANEL)
    verdict_text = StringProperty("")
    verdict_kind = StringProperty("")       # "win", "wrong", "tie", ""
    notice_text = StringProperty("")
    aside_text = StringProperty("")         # the table's own notes: false starts, undone cards
    count_text = StringProperty("")
    go_text = StringProperty("")            # slap-off: "Get ready…" then "Go!"
    held_text = StringProperty("")          # card pad: presses waiting for their card
    landing_text = StringProperty("")       # camera: who slapped first, while it names the card
    slapped_card_text = StringProperty("")
    unsure_cards = ListProperty([])         # "which card?": the cards to choose from (not "unsure": on_unsure is the feed's)
    finished = BooleanProperty(False)
    winner_text = StringProperty("")
    can_undo = BooleanProperty(False)
    paused = BooleanProperty(False)
    calm = BooleanProperty(False)
    calm_waiting = BooleanProperty(False)
    verdict_waiting = BooleanProperty(False)   # judge only: Good or Wrong?
    status_text = StringProperty("")
    warning_text = StringProperty("")
    seat_count = NumericProperty(2)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.table: SlapjackTable | None = None
        self.seats: dict[str, SlapSeat] = {}
        self.clock = None        # None: the pads' clock and Kivy's (a test may set its own)
        self._link = None
        self._camera = None      # the camera link, when this game's cards come from the camera
        self._active = False
        self._shown_results = None
        self._heard = ("", False, False)

    # -- what the rest of the app (and its tests) ask ------------------------------------------------

    @property
    def link(self):
        if self._link is None:
            self._link = link_for(App.get_running_app())
        return self._link

    @property
    def state(self):
        return self.session.state

    @property
    def players(self) -> list[str]:
        return self.session.game.players

    @property
    def models(self) -> dict:
        return self.table.models

    @property
    def pads(self) -> dict[str, int]:
        return self.table.pads

    @property
    def live_reader(self) -> bool:
        return self.table is not None and self.table.live_reader

    def now(self) -> float:
        return self._clock().now()

    def _window(self) -> float:
        return App.get_running_app().settings["pads"].get("race_window_ms", 15) / 1000.0

    def _clock(self):
        return self.clock or KivyClock(self.link)

    # -- set-up ---------------------------------------------------------------------------------------

    def prepare(self, session=None, **_):
        app = App.get_running_app()
        self.four_colour = app.four_colour
        if session is not None:
            self._stop()
            self.session = session
            self._setup_game(app)
            if self.manager is not None and self.manager.current == self.name:
                self._begin()   # already showing (a new game straight after one): on_enter will not come
        self.refresh()

    def _setup_game(self, app):
        link = self.link
        link.open()
        header = self.session.game.header
        computers = header.get("computers") or {}
        reader = header.get("feed") == "reader" and link.open_reader() is not None
        self._camera = None
        if header.get("feed") == "camera":
            camera = camera_for(app)
            if camera.open() is not None:
                self._camera = camera
                reader = camera.feed.seeing is not False   # until it says otherwise, it sees
            else:
                app.notify(f"{camera.problem}: tap each card on the card pad", "error", seconds=10)
        board = link.board
        clock = self._clock()
        self.table = SlapjackTable(
            self.session, now=clock.now, schedule=clock.schedule, window_s=self._window(),
            pads=pads_for(self.players, computers, link.count),
            lights=board.lights if board is not None else None,
            held_pads=board.held_pads if board is not None else None,
            notify=lambda text: app.notify(text, "error"), on_change=self.refresh, live_reader=reader,
            landing_since=self._camera.changing_since if self._camera is not None else None)
        self.mode = self.table.mode
        self._build_parts()
        if "card_pad" in self.ids:
            self.ids.card_pad.clear()
        self._shown_results = None
        self._heard = ("", False, False)
        self._build_seats(computers)

    def _build_parts(self) -> None:
        """Build the parts of the screen this game shows that no game before it on this screen
        has: most games show one of the card pad, the judge's buttons and calm mode's, and a
        resumed game's first frame comes sooner without the others (they are kept once built)."""
        ids = self.ids
        if self.mode == "real" and "card_pad" not in ids:
            pad = SlapCardPad(screen=self)
            pad.bind(on_card=lambda pad, code: self.picked(code))
            held = SlapHeldButtons(screen=self)
            self._add_part(ids.real_box, pad, card_pad=pad.proxy_ref)
            self._add_part(ids.real_box, held, **held.ids)
        if self.mode == "judge" and "good_button" not in ids:
            buttons = SlapJudgeButtons(screen=self)
            self._add_part(ids.judge_box, buttons, **buttons.ids)
        if self.mode == "screen" and self.calm and "carry_on_button" not in ids:
            button = SlapCarryOn(screen=self)
            self._add_part(ids.calm_box, button, carry_on_button=button.proxy_ref)
        if self.finished and "results" not in ids:
            results = SlapResultsPart(screen=self)
            self._add_part(ids.results_area, results, **results.ids)

    def _add_part(self, box, part, **named) -> None:
        """``part`` last in ``box``, its widgets named among the screen's ids as if written in its rule."""
        box.add_widget(part)
        self.ids.update(named)

    def colour_of(self, name: str):
        app = App.get_running_app()
        computers = self.table.computers if self.table is not None else {}
        return app.seat_colour(name, computers)

    def _build_seats(self, computers: dict):
        grid = self.ids.seats
        grid.clear_widgets()
        self.seats = {}
        keys = self.link.keys if self.link.is_mock else []
        for name in self.players:
            if name in computers:
                caption = f"computer \u00b7 {computers[name]:.0f} ms"
            elif name in self.pads:
                pad = self.pads[name]
                caption = f"pad {pad + 1}" + (f" \u00b7 key {keys[pad]}" if pad < len(keys) else "")
            else:
                caption = "no pad"
            tile = SlapSeat(name=name, fill=self.colour_of(name), caption=caption)
            self.seats[name] = tile
            grid.add_widget(tile)
        self.seat_count = len(self.players)

    # -- coming and going -----------------------------------------------------------------------------

    def on_enter(self, *_):
        if self.session is not None:
            self._begin()

    def on_leave(self, *_):
        self._stop()

    def _begin(self):
        self._active = True
        link = self.link
        link.listen(self)
        link.bind(light_modes=self._show_lights, summary_text=self._show_status, warning=self._show_status,
                  stuck_text=self._show_status, reader_text=self._show_status)
        if self._camera is not None:
            self._camera.listen(self)
            self._camera.bind(seeing=self._camera_seeing, status_text=self._show_status)
        self._show_status()
        self._show_lights()
        self.table.start()

    def _stop(self):
        if not self._active:
            return
        self._active = False
        self.table.stop()
        link = self.link
        link.unbind(light_modes=self._show_lights, summary_text=self._show_status, warning=self._show_status,
                    stuck_text=self._show_status, reader_text=self._show_status)
        link.stop_listening(self)
        if self._camera is not None:
            self._camera.unbind(seeing=self._camera_seeing, status_text=self._show_status)
            self._camera.stop_listening(self)

    # -- pads and card feeds: straight to the table ---------------------------------------------------
    # What a press or a card stores (a slap after the race's window, a card landing) is held to
    # the frame that shows it, as a timer's is (KivyClock.schedule): its commit runs while that
    # frame is laid out and drawn, instead of holding the main thread before it.

    def on_pad_press(self, pad: int, t: float, arrived: float | None = None) -> None:
        if not self._active:
            return
        app = App.get_running_app()
        if app.store is not None and app.store.committing and self.table.decided():
            # A press just after a race's verdict, while the verdict is still being saved: it is
            # handled once the verdict's frame is on screen, so that frame waits for one save,
            # not for two in a row (a late slap counts by its edge time, whenever it is logged).
            app.after_the_frame(lambda: self._press(pad, t, arrived))
            return
        self._press(pad, t, arrived)

    def _press(self, pad: int, t: float, arrived: float | None) -> None:
        if self._active:
            held_to_frame(self.table.press)(pad, t, arrived)

    def on_pad_release(self, pad: int, t: float) -> None:
        if self._active:
            self.table.release(pad, t)

    def on_card(self, code: str, t: float) -> None:
        """A card from the serial card reader (the time its line arrived) or the camera (the
        time it landed)."""
        if self._active:
            held_to_frame(self.table.on_card)(code, t)

    def on_unsure(self, candidates, t: float | None) -> None:
        if self._active:
            held_to_frame(self.table.on_unsure)(candidates, t)

    def picked(self, code: str) -> None:
        """The turner tapped the card that landed (when is not known)."""
        if self.table is not None:
            self.table.on_card(code, None)

    # -- the table's buttons --------------------------------------------------------------------------

    def choose(self, code: str) -> None:
        self.table.choose(code)

    def on_the_top_card(self) -> None:
        self.table.on_the_top_card()

    def ignore_held(self) -> None:
        self.table.not_a_slap()

    def judge(self, good: bool) -> None:
        self.table.judge(good)

    def dismiss_race(self) -> None:
        self.table.dismiss()

    def carry_on(self) -> None:
        self.table.carry_on()

    def toggle_pause(self) -> None:
        self.table.toggle_pause()

    def undo(self) -> None:
        self.table.undo()

    def confirm_end(self) -> None:
        if self.session is not None and not self.table.finished:
            EndGameView(screen=self).open(animation=False)

    def end_game(self, winners: list[str] | None = None) -> None:
        if self.table is not None:
            self.table.end_game(winners)

    def new_game(self) -> None:
        App.get_running_app().new_game("slapjack")

    def open_stats(self) -> None:
        open_stats()

    # -- drawing --------------------------------------------------------------------------------------

    def _show_lights(self, *_) -> None:
        modes = self.link.light_modes if self.link.is_mock else []
        for name, tile in self.seats.items():
            pad = self.pads.get(name)
            tile.light = (modes[pad] or "off") if pad is not None and pad < len(modes) else ""

    def _camera_seeing(self, camera, seeing) -> None:
        """The camera lost or back: the card pad's words say whether to tap cards in."""
        if self.table is not None and self._active:
            self.table.live_reader = bool(seeing) and self.table.mode == "real"
            self.refresh()
        self._show_status()

    def _show_status(self, *_) -> None:
        link = self.link
        camera = self._camera
        feed = camera.feed if camera is not None else None
        lost = feed is not None and feed.seeing is False
        if feed is not None:   # lost, the warning says so; the camera is looked for again meanwhile
            device = "looking for the camera again" if lost else camera.status_text
        else:
            device = link.reader_text if self.live_reader else ""
        self.status_text = " \u00b7 ".join(part for part in (link.summary_text, device) if part)
        self.warning_text = " \u00b7 ".join(w for w in (camera.status_text if lost else "",
                                                         link.stuck_text or link.warning) if w)

    def refresh(self) -> None:
        if self.table is None:
            return
        v = self.table.view()
        for seat in v.seats:
            tile = self.seats.get(seat.name)
            if tile is not None:
                tile.count_text, tile.status = seat.count_text, seat.status
                tile.current, tile.out = seat.current, seat.out
        for name in ("top", "card_dim", "pile_text", "count_text", "turn_text", "verdict_text", "verdict_kind",
                     "notice_text", "aside_text", "held_text", "landing_text", "slapped_card_text", "go_text", "finished",
                     "can_undo", "paused", "calm", "calm_waiting", "verdict_waiting", "winner_text"):
            setattr(self, name, getattr(v, name))
        self.unsure_cards = list(v.unsure)
        self._build_parts()   # calm mode, or the game over
        self._sound_for(v)
        self.turn_fill = (theme.PRIMARY if v.turn_go else
                          self.colour_of(v.turn_player) if v.turn_player else theme.PANEL_LIGHT)
        self._show_unsure(v.unsure)
        if v.finished and v.results != self._shown_results:
            self._show_results(v.results)

    def _sound_for(self, v) -> None:
        """One sound per new verdict, Jack in calm mode, or end of game; played after the frame."""
        heard = (v.verdict_text, v.calm_waiting, v.finished)
        if heard == self._heard:
            return
        before, self._heard = self._heard, heard
        if v.finished and not before[2]:
            sound.play("game-over")
        elif v.verdict_text and v.verdict_text != before[0] and v.verdict_kind in ("win", "wrong"):
            sound.play("slap-good" if v.verdict_kind == "win" else "slap-wrong")
        elif v.calm_waiting and not before[1]:
            sound.play("jack")

    def _show_unsure(self, cards) -> None:
        box = self.ids.unsure_box
        if [b.card for b in box.children[::-1]] == list(cards):
            return
        box.clear_widgets()
        for code in cards:
            button = TableButton(text=card_words(code), primary=True, font_size="34sp")
            button.card = code
            button.bind(on_release=lambda btn: self.choose(btn.card))
            box.add_widget(button)

    def _show_results(self, results) -> None:
        self._shown_results = results
        rows = self.ids.results
        rows.clear_widgets()
        width = name_column(row.name for row in results)
        rows.add_widget(SlapResultRow(header=True, name_width=width, cells=["slaps won", "wrong", "average", "best"]))
        for row in results:
            rows.add_widget(SlapResultRow(name=row.name, fill=self.colour_of(row.name), cells=list(row.cells),
                                          counts=list(row.counts), name_width=width))


class EndGameView(ModalView):
    """Ending a game early needs a second tap; the judge also asks who won."""

    def __init__(self, screen: SlapjackScreen, **kwargs):
        super().__init__(**kwargs)
        self.screen = screen
        box = self.ids.choices
        if screen.mode == JUDGE:
            self.ids.title.text = "Who won?"
            for name in screen.players:
                button = ChoiceButton(text=name, chosen_colour=screen.colour_of(name))
                button.state = "down"
                button.bind(on_release=lambda btn, n=name: self.done([n]))
                box.add_widget(button)
            nobody = TableButton(text="Nobody yet")
            nobody.bind(on_release=lambda btn: self.done([]))
            box.add_widget(nobody)
        else:
            self.ids.title.text = "End the game now? Most cards wins."
            yes = TableButton(text="End the game", primary=True)
            yes.bind(on_release=lambda btn: self.done(None))
            box.add_widget(yes)

    def done(self, winners) -> None:
        self.dismiss(animation=False)
        self.screen.end_game(winners)
