"""Slapjack at the table: every stack round the table, whose turn (their pad lit), the top card
big, and who slapped first the moment it is known ("Ann! Ben +23 ms, Cat +140 ms").

The rules are the engine's (``companion.games.slapjack``); this screen only decides *when*
things reach it. Presses come from the pads with their own edge timestamps
(``ui.pads_link``); the first few milliseconds of a race are gathered by a
:class:`companion.race.RaceJudge`, so the first verdict on screen already belongs to the
earliest press, and are then logged earliest first. Later presses are logged as they come:
the engine ranks by timestamp, so a press that arrives late but was earlier still wins.

How the cards arrive decides how presses are matched to cards:

* Screen deck and the card reader: the card's landing time is known, so a press belongs to the
  card on top when it was pressed (earlier: a false start, shown and not counted).
* The on-screen card pad: the turner taps the card in *after* turning it, usually after the
  slaps, so presses wait ("Slap heard: tap the card") and go with the next card tapped in, or
  with the card already showing when the turner taps "On the ...".
* Judge only: presses make a race; the table taps Good or Wrong.
"""

from __future__ import annotations

import random
import re

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.cards import SUIT_SYMBOLS
from companion.errors import GameError, IllegalAction
from companion.games.slapjack_bots import ReactionModel, calm_press, grab_presses, plan_presses, plan_slapoff
from companion.race import COUNTED, FALSE_START, HELD, RaceJudge, ms
from companion.stats import bin_label, histogram, slapjack_stats

from .. import theme
from ..pads_link import link_for
from ..widgets.basics import ChoiceButton, TableButton
from ..widgets.card_picker import CardPicker  # noqa: F401  (the card pad in the .kv)
from .slapjack_setup import pads_for

DEFAULT_PACE_S = 1.75
START_DELAY_S = 1.5       # before the first card (and after a pause): time to put hands down
SETTLE_S = 0.3            # after the last planned computer press, before the next card lands
END_GRACE_S = 2.5         # after the last card: late slaps on it still count, then the game ends
JOIN_S = 2.0              # judge only: a press this soon after a race's first press joins it
GO_DELAY_S = (1.5, 3.5)   # slap-off: "Go!" comes after a random wait, so nobody can anticipate it
COMPUTER_COLOURS = ("#8E9AA6", "#B39B74", "#9C8CC0", "#7FA39A", "#B58C9E", "#8FA36E", "#A0A0A0", "#7F95B8")
LIGHT_COLOURS = {"turner": theme.PRIMARY, "winner": theme.rgba("#4FD18B"), "wrong": theme.DANGER,
                 "on": theme.TEXT}
_CARD_CODE = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")


def with_symbols(text: str) -> str:
    """Card codes in the engine's words shown with their suit symbols: "JH covered" -> "J♥ covered"."""
    return _CARD_CODE.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text)


def card_words(code: str | None) -> str:
    return with_symbols(code) if code else ""


# -- widgets ------------------------------------------------------------------------------------------

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


class ReactionBars(Widget):
    """A small histogram of reaction times (bins from ``companion.stats``)."""

    counts = ListProperty([])
    fill = ColorProperty(theme.PRIMARY)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, counts=self._draw, fill=self._draw)

    def _draw(self, *_):
        self.canvas.clear()
        counts = list(self.counts)
        if not counts:
            return
        top = max(counts) or 1
        width = self.width / len(counts)
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Rectangle(pos=(self.x, self.y), size=(self.width, dp(2)))
            Color(*self.fill)
            for i, count in enumerate(counts):
                if count:
                    height = max(dp(3), (self.height - dp(2)) * count / top)
                    Rectangle(pos=(self.x + i * width + 1, self.y + dp(2)), size=(max(1, width - 2), height))


class SlapResultRow(BoxLayout):
    """One player's line after a game, or across games in the stats: their name, a few
    figures, and the histogram of their reaction times (a header row names the columns)."""

    name = StringProperty("")
    fill = ColorProperty(theme.PANEL_LIGHT)
    counts = ListProperty([])
    header = BooleanProperty(False)

    def __init__(self, cells=(), **kwargs):
        super().__init__(**kwargs)
        for text in cells:
            cell = SlapResultCell(text=text, header=self.header)
            self.ids.cells.add_widget(cell)


class SlapResultCell(Label):
    header = BooleanProperty(False)


class SlapjackStatsView(ModalView):
    """Every person's Slapjack across finished games: slaps won, wrong slaps, reaction times."""

    title = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        app = App.get_running_app()
        records = app.store.games(game="slapjack", status="finished", limit=100_000)
        stats = slapjack_stats(r.result for r in records)
        played = sum(1 for r in records if r.result)
        self.title = f"Slapjack across {played} finished game{'s' if played != 1 else ''}"
        rows = self.ids.rows
        rows.add_widget(SlapResultRow(header=True, cells=["games", "wins", "slaps won", "wrong", "avg ms",
                                                          "best ms"]))
        for name, player in sorted(stats.items(), key=lambda item: item[0].lower()):
            timed = bool(player.reactions_ms)
            rows.add_widget(SlapResultRow(name=name, fill=app.player_colour(name),
                                          cells=[str(player.games), str(player.wins), str(player.slaps_won),
                                                 str(player.wrong_slaps),
                                                 f"{player.average_ms:.0f}" if timed else "\u2014",
                                                 f"{player.best_ms:.0f}" if timed else "\u2014"],
                                          counts=player.histogram if timed else []))
        if not stats:
            self.ids.empty.text = "No finished Slapjack games yet: the stats fill in as you play."
        self.ids.scale.text = (f"Reaction times from {bin_label(0)} ms on the left to "
                               f"{bin_label(len(histogram([])) - 1)} ms on the right, in steps of 50 ms")


def open_stats() -> SlapjackStatsView:
    App.get_running_app().screen("slapjack")   # its look lives in slapjack.kv
    view = SlapjackStatsView()
    view.open(animation=False)
    return view


# -- a race as the screen gathers it -------------------------------------------------------------------

class CardRace:
    """The top card's race. Until the window after the first press closes, presses wait in the
    judge, so the verdict shown first is already the earliest press; after that each press goes
    to the engine as it comes. Seats, not pads, are the judge's "pads" (computers have no pad)."""

    def __init__(self, number: int, landed: float | None, window: float, held=()):
        self.number = number            # cards turned when it landed
        self.landed = landed            # None: the card came from the card pad, its time unknown
        self.judge = RaceJudge(window, opened_at=landed, held=held)
        self.closed = False
        self.pressed = False                 # somebody pressed on this card
        self.pushed: dict[int, float] = {}   # seat -> the press already logged

    @property
    def live(self) -> bool:
        return self.landed is not None


class SlapOff:
    """A tie settled by the tied players racing to their pads on "Go!"."""

    def __init__(self, tied: list[str]):
        self.tied = tied
        self.judge: RaceJudge | None = None   # made on "Go!"


# -- the screen ---------------------------------------------------------------------------------------

class SlapjackScreen(Screen):
    session = ObjectProperty(None, allownone=True)
    mode = StringProperty("screen")         # "screen", "real" or "judge"
    four_colour = BooleanProperty(False)
    top = StringProperty("")
    card_dim = BooleanProperty(False)       # the card shown was won: it is no longer on the pile
    pile_text = StringProperty("")
    turn_text = StringProperty("")
    turn_fill = ColorProperty(theme.PANEL)
    verdict_text = StringProperty("")
    verdict_kind = StringProperty("")       # "win", "wrong", "tie", "held", ""
    notice_text = StringProperty("")
    aside_text = StringProperty("")         # the screen's own notes: false starts, undone cards
    count_text = StringProperty("")
    go_text = StringProperty("")            # slap-off: "Get ready…" then "Go!"
    held_text = StringProperty("")          # card pad: presses waiting for their card
    slapped_card_text = StringProperty("")
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
        self.seats: dict[str, SlapSeat] = {}
        self.models: dict[str, ReactionModel] = {}
        self.pads: dict[str, int] = {}        # person -> pad
        self.pad_players: dict[int, str] = {}
        self.rng = random.Random()
        self.pace = DEFAULT_PACE_S
        self.live_reader = False
        self._active = False
        self._events: dict[str, object] = {}
        self._press_events: list = []
        self._race: CardRace | None = None
        self._gather: CardRace | None = None   # judge only: presses before the race is logged
        self._held: list[tuple[int, float]] = []   # card pad: presses waiting for their card
        self._slapoff: SlapOff | None = None
        self._next_at = 0.0
        self._carried = False
        self._grabbed_for = -1
        self._lit_turner: object = object()
        self._link = None
        self.ids.card_pad.bind(on_card=lambda pad, code: self.picked(code))

    # -- set-up ---------------------------------------------------------------------------------------

    @property
    def link(self):
        if self._link is None:
            self._link = link_for(App.get_running_app())
        return self._link

    @property
    def state(self):
        return self.session.state

    @property
    def rules(self):
        return self.session.game.rules

    @property
    def players(self) -> list[str]:
        return self.session.game.players

    def now(self) -> float:
        return self.link.now()

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
        header = self.session.game.header
        summary = self.session.summary()
        self.mode = "judge" if summary.get("feed") == "none" else ("screen" if summary["screen_deck"] else "real")
        computers = summary.get("computers") or {}
        self.models = {name: ReactionModel.at_level(level) for name, level in computers.items()}
        self.calm = bool(summary["options"].get("calm"))
        pace = header.get("pace_s", DEFAULT_PACE_S)
        self.pace = float(pace) if isinstance(pace, (int, float)) and 0.05 <= pace <= 60 else DEFAULT_PACE_S
        self.rng = random.Random()
        link = self.link
        link.open()
        self.live_reader = self.mode == "real" and summary.get("feed") == "reader" and link.open_reader() is not None
        self.pads = pads_for(self.players, computers, link.count)
        self.pad_players = {pad: name for name, pad in self.pads.items()}
        self._race = self._gather = self._slapoff = None
        self._held = []
        self._carried, self._grabbed_for = False, -1
        self._lit_turner = object()
        self.paused = False
        self.aside_text = self.held_text = self.go_text = ""
        self.ids.card_pad.clear()
        self._build_seats(app, computers)

    def colour_of(self, name: str):
        app = App.get_running_app()
        if name in self.models and app.store.colour_of(name) is None:
            return theme.rgba(COMPUTER_COLOURS[list(self.models).index(name) % len(COMPUTER_COLOURS)])
        return app.player_colour(name)

    def _build_seats(self, app, computers: dict):
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
        link.bind(light_modes=self._show_lights, status_text=self._show_status, warning=self._show_status,
                  stuck_text=self._show_status, reader_text=self._show_status)
        self._show_status()
        self._show_lights()
        self._lit_turner = object()
        self._light_turner()
        state = self.state
        if self._race is None and self.mode != "judge" and state.top is not None:
            # Back on a card already showing: presses on it still count (its landing time is gone).
            self._race = CardRace(state.cards_turned, None, self._window())
        self.refresh()
        if self.mode == "screen" and not state.finished:
            self._next_at = self.now() + max(START_DELAY_S, self.pace)
        self._advance()

    def _stop(self):
        if not self._active:
            return
        # Presses already gathered are logged now: leaving the screen must not lose a slap.
        self._close_race()
        if self._gather is not None and not self._gather.closed:
            self._judge_window_closed()
        self._active = False
        for event in list(self._events.values()) + self._press_events:
            event.cancel()
        self._events.clear()
        self._press_events.clear()
        if self._slapoff is not None:   # a slap-off starts afresh when the game is shown again
            self._slapoff = None
            self.go_text = ""
        link = self.link
        link.unbind(light_modes=self._show_lights, status_text=self._show_status, warning=self._show_status,
                    stuck_text=self._show_status, reader_text=self._show_status)
        link.stop_listening(self)
        if link.board is not None and link.board.lights is not None:
            link.board.lights.all_off()

    def _schedule(self, name: str, fn, delay: float) -> None:
        old = self._events.pop(name, None)
        if old is not None:
            old.cancel()
        self._events[name] = Clock.schedule_once_free(lambda dt: self._fire(name, fn), max(0.0, delay))

    def _fire(self, name: str, fn) -> None:
        self._events.pop(name, None)
        if self._active and self.session is not None:
            fn()

    def _cancel(self, name: str) -> None:
        event = self._events.pop(name, None)
        if event is not None:
            event.cancel()

    def _press_later(self, seat: int, t: float, slapoff: bool = False) -> None:
        """A computer player's planned press, delivered when its time comes, like a pad's."""
        def fire(dt):
            if event in self._press_events:
                self._press_events.remove(event)
            if self._active and self.session is not None:
                if slapoff:
                    self._slapoff_press(seat, t, self.now())
                else:
                    self._press(seat, t, self.now())
                self._after_change()
        event = Clock.schedule_once_free(fire, max(0.0, t - self.now()))
        self._press_events.append(event)

    # -- what happens next ----------------------------------------------------------------------------

    def _advance(self) -> None:
        """After anything changes: schedule whatever the game waits for."""
        if not self._active or self.session is None:
            return
        state = self.state
        if state.finished:
            self._cancel("deal")
            self._cancel("end")
            self.refresh()
            return
        pending = state.pending
        if pending == "slapoff":
            self._start_slapoff()
            return
        if self.mode == "judge":
            return
        if pending == "end":
            self._cancel("deal")
            if "end" not in self._events:
                self._schedule("end", self._end_by_count, END_GRACE_S)
            return
        if self.mode != "screen" or self.paused:
            return
        if pending == "slap":
            self._grab()
            return
        if self._calm_waits():
            self.refresh()
            return
        self._schedule("deal", self._deal, self._next_at - self.now())

    def _calm_waits(self) -> bool:
        race = self._race
        waiting = bool(self.calm and race is not None and race.number == self.state.cards_turned
                       and not self._carried and not race.pressed)
        self.calm_waiting = waiting
        return waiting

    def _deal(self) -> None:
        state = self.state
        if state.turn is None or self.paused:
            self._advance()
            return
        self._close_race()
        if self.state.turn is None:   # the presses just logged changed what comes next
            self._advance()
            return
        t = self.now()
        if not self._play(self.rules.turn_action(self.state, t)):
            return
        self._open_race(landed=t)
        presses = plan_presses(self.state, self.models, self.rng, landed=t)
        seats = self.state.setup.seats
        for press in presses:
            self._press_later(seats[press.player], press.t)
        self._next_at = max(t + self.pace, (presses[-1].t + SETTLE_S) if presses else 0.0)
        self._carried = False
        self._after_change()

    def _grab(self) -> None:
        """Nobody can turn and a slap card shows: the computers go for it (once per card)."""
        state = self.state
        if self._grabbed_for == state.cards_turned:
            return
        self._grabbed_for = state.cards_turned
        seats = state.setup.seats
        for press in grab_presses(state, self.models, self.rng, self.now()):
            self._press_later(seats[press.player], press.t)

    def carry_on(self) -> None:
        """Calm mode: nobody slapped; a computer player takes a slap card the people let pass."""
        if not self.calm or self.session is None or self.state.finished:
            return
        self._carried = True
        self.calm_waiting = False
        press = calm_press(self.state, self.models, self.rng, self.now())
        if press is not None:
            self._press_later(self.state.setup.seats[press.player], press.t)
            self._next_at = press.t + SETTLE_S + 0.7   # time to see who took it
        else:
            self._next_at = self.now() + 0.2
        self._advance()

    def toggle_pause(self) -> None:
        if self.mode != "screen" or self.session is None or self.state.finished:
            return
        self.paused = not self.paused
        if self.paused:
            self._cancel("deal")
        else:
            self._next_at = self.now() + START_DELAY_S
            self._advance()
        self.refresh()

    def _end_by_count(self) -> None:
        self._close_race()
        if self.state.finished or self.state.pending != "end":
            self._advance()
            return
        self._play({"type": "end"})
        self._after_change()

    # -- the race on the top card ---------------------------------------------------------------------

    def _window(self) -> float:
        return App.get_running_app().settings["pads"].get("race_window_ms", 15) / 1000.0

    def _held_seats(self) -> list[int]:
        board = self.link.board
        if board is None:
            return []
        return [self.state.setup.seats[self.pad_players[p]] for p in board.held_pads() if p in self.pad_players]

    def _open_race(self, landed: float | None) -> None:
        self._race = CardRace(self.state.cards_turned, landed, self._window(), held=self._held_seats())

    def _close_race(self) -> None:
        """Log what the open window gathered, earliest first."""
        race = self._race
        if race is None or race.closed:
            return
        self._cancel("race")
        race.closed = True
        verdict = race.judge.close(self.now())
        for placing in verdict.placings:
            self._slap(placing.pad, placing.at)

    def _press(self, seat: int, t: float, arrived: float) -> None:
        """A press on the top card of a timed race (screen deck, card reader, or nobody can turn).
        ``arrived``: when it reached the app (see :meth:`on_pad_press`)."""
        race = self._race
        state = self.state
        name = self.players[seat]
        if race is None or race.number != state.cards_turned:
            if race is None and state.cards_turned and state.pending in ("slap", "end"):
                self._open_race(landed=None)
                race = self._race
            else:
                return   # no card yet
        if race.closed:
            if race.landed is not None and t < race.landed:
                self._note(f"{name} pressed before the {card_words(state.top)} landed: not counted")
            elif seat not in race.pushed or t < race.pushed[seat]:
                race.pressed = True
                self._slap(seat, t)
            return
        outcome = race.judge.press(seat, t, arrived)
        if outcome == FALSE_START:
            self._note(f"{name} pressed before the {card_words(state.top)} landed: not counted")
        elif outcome == HELD:
            self._note(f"{name}'s pad was already down: let go and press again")
        elif outcome == COUNTED:
            race.pressed = True
            wait = race.judge.seconds_until_close(self.now())
            if wait is not None:
                self._schedule("race", self._race_window_closed, wait)
            self.calm_waiting = False

    def _race_window_closed(self) -> None:
        self._close_race()
        if self.calm:   # calm: however long the card waited, the verdict gets its time on screen
            self._next_at = max(self._next_at, self.now() + self.pace)
        self._after_change()

    def _slap(self, seat: int, t: float) -> bool:
        """Log one press; the engine settles the race. Refusals (a player already out, a press
        after the game was decided) change nothing and need no words."""
        before = self.state
        name = self.players[seat]
        try:
            self.session.play({"type": "slap", "player": name, "t": t})
        except IllegalAction:
            return False
        except GameError as exc:
            App.get_running_app().notify(str(exc), "error")
            return False
        if self._race is not None:
            self._race.pushed[seat] = min(t, self._race.pushed.get(seat, t))
        self._lights_after(before)
        return True

    # -- pads -----------------------------------------------------------------------------------------

    def on_pad_press(self, pad: int, t: float, arrived: float | None = None) -> None:
        """A pad's press with its edge time ``t``, and the time it reached the app's device
        thread: a race's window opens then, so a frame being drawn when the press came does not
        hold the verdict back by its own length."""
        if not self._active or self.session is None:
            return
        arrived = self.now() if arrived is None else arrived
        name = self.pad_players.get(pad)
        if name is None:
            self._note(f"Pad {pad + 1} is nobody's in this game")
            return
        seat = self.state.setup.seats[name]
        if self._slapoff is not None:
            self._slapoff_press(seat, t, arrived)
        elif self.state.finished:
            self._slap(seat, t)   # a late press that beat the deciding one still counts
            self.refresh()
        elif self.mode == "judge":
            self._judge_press(seat, t, arrived)
        elif self.mode == "real" and not self._timed_for_now():
            self._hold(seat, t)
        else:
            self._press(seat, t, arrived)
        self.refresh()

    def on_pad_release(self, pad: int, t: float) -> None:
        name = self.pad_players.get(pad)
        if name is None or self.session is None:
            return
        seat = self.state.setup.seats[name]
        for judge in (getattr(self._race, "judge", None), getattr(self._slapoff, "judge", None),
                      getattr(self._gather, "judge", None)):
            if judge is not None:
                judge.release(seat, t, self.now())

    def _timed_for_now(self) -> bool:
        """Real deck: does a press belong to the card showing? Yes when the reader timed it, or
        when no other card can come (nobody can turn, or the last card of end-after)."""
        race = self._race
        if self.state.pending in ("slap", "end"):
            return True
        return race is not None and race.live and race.number == self.state.cards_turned

    # -- real deck: the card pad and the card reader --------------------------------------------------

    def _hold(self, seat: int, t: float) -> None:
        self._held.append((seat, t))
        self._show_held()

    def _held_order(self):
        """The waiting presses ranked as the race judge ranks any race."""
        judge = RaceJudge(self._window())
        for seat, t in self._held:
            judge.press(seat, t, 0.0)
        return judge.close(0.0).placings

    def _show_held(self) -> None:
        if not self._held:
            self.held_text = ""
            return
        placings = self._held_order()
        rest = [f"{self.players[p.pad]} +{ms(p.behind)}" for p in placings[1:]]
        self.held_text = f"Slap! {self.players[placings[0].pad]} first" + (", " + ", ".join(rest) if rest else "")

    def _release_held(self) -> None:
        """The waiting presses go with the card now on top, earliest first."""
        held = sorted(self._held, key=lambda p: p[1])
        self._held = []
        self.held_text = ""
        for seat, t in held:
            self._slap(seat, t)

    def picked(self, code: str) -> None:
        """The turner tapped the card that landed."""
        if self.mode != "real" or self.session is None or self.state.finished:
            return
        self._enter_card({"type": "turn", "card": code}, landed=None)

    def on_card(self, code: str, t: float) -> None:
        """A card from the serial card reader, with the time its line arrived."""
        if not self._active or self.mode != "real" or self.session is None or self.state.finished:
            return
        self._enter_card({"type": "turn", "card": code, "t": t}, landed=t)

    def _enter_card(self, action: dict, landed: float | None) -> None:
        self._close_race()
        if not self._play(action):
            return
        self._open_race(landed=landed)
        self._release_held()
        self.aside_text = ""
        self._after_change()

    def on_the_top_card(self) -> None:
        """The waiting presses were on the card already showing."""
        if self.session is None or not self._held or self.state.top is None:
            return
        self._release_held()
        self._after_change()

    def ignore_held(self) -> None:
        self._held = []
        self.held_text = ""
        self.refresh()

    # -- judge only -----------------------------------------------------------------------------------

    def _judge_press(self, seat: int, t: float, arrived: float) -> None:
        gather = self._gather
        if gather is not None and not gather.closed:
            if gather.judge.press(seat, t, arrived) == COUNTED:
                wait = gather.judge.seconds_until_close(self.now())
                if wait is not None:
                    self._schedule("gather", self._judge_window_closed, wait)
            return
        state = self.state
        race = state.race
        if (race is not None and race.verdict is None and state.pending == "verdict"
                and t - race.ranked()[0][1] < JOIN_S):
            earlier = [at for s, at in race.slaps if s == seat]
            if not earlier or t < min(earlier):   # a second press of the same pad changes nothing
                self._play({"type": "slap", "player": self.players[seat], "t": t})
            return
        self._gather = CardRace(state.races, None, self._window())
        self._judge_press(seat, t, arrived)

    def _judge_window_closed(self) -> None:
        gather = self._gather
        if gather is None or gather.closed:
            return
        gather.closed = True
        verdict = gather.judge.close(self.now())
        slaps = [{"player": self.players[p.pad], "t": p.at} for p in verdict.placings]
        if slaps:
            self._play({"type": "race", "slaps": slaps})
        self._after_change()

    def judge(self, good: bool) -> None:
        """The table's one tap: the slap was good (pile to the winner) or wrong (penalty)."""
        if self.mode != "judge" or self.session is None or self.state.pending != "verdict":
            return
        before = self.state
        if self._play({"type": "verdict", "good": bool(good)}):
            self._lights_after(before)
        self._after_change()

    # -- slap-off -------------------------------------------------------------------------------------

    def _tied(self) -> list[str]:
        state = self.state
        seats = state.tie() if self.mode == "judge" else state.verdict.tie
        return [self.players[i] for i in seats]

    def _start_slapoff(self) -> None:
        if self._slapoff is not None:
            return
        self._cancel("deal")
        self._slapoff = SlapOff(self._tied())
        self.go_text = "Get ready\u2026"
        self._schedule("go", self._go, self.rng.uniform(*GO_DELAY_S))
        self.refresh()

    def _go(self) -> None:
        slapoff = self._slapoff
        if slapoff is None:
            return
        go = self.now()
        seats = self.state.setup.seats
        held = [s for s in self._held_seats() if self.players[s] in slapoff.tied]
        slapoff.judge = RaceJudge(self._window(), opened_at=go, held=held)
        self.go_text = "Go!"
        for press in plan_slapoff(slapoff.tied, self.models, self.rng, go):
            self._press_later(seats[press.player], press.t, slapoff=True)
        self.refresh()

    def _slapoff_press(self, seat: int, t: float, arrived: float) -> None:
        slapoff = self._slapoff
        name = self.players[seat]
        if slapoff is None or name not in slapoff.tied:
            return
        if slapoff.judge is None:
            self._note(f"{name} pressed before Go!: wait for it")
            return
        outcome = slapoff.judge.press(seat, t, arrived)
        if outcome == FALSE_START:
            self._note(f"{name} pressed before Go!: wait for it")
        elif outcome == COUNTED:
            wait = slapoff.judge.seconds_until_close(self.now())
            if wait is not None:
                self._schedule("slapoff", self._slapoff_done, wait)

    def _slapoff_done(self) -> None:
        slapoff = self._slapoff
        if slapoff is None or slapoff.judge is None:
            return
        verdict = slapoff.judge.close(self.now())
        if verdict.winner is None:
            return
        self._slapoff = None
        self.go_text = ""
        for event in list(self._press_events):   # the slap-off is over: its other presses are moot
            event.cancel()
        self._press_events.clear()
        before = self.state
        if self._play({"type": "slapoff", "winner": self.players[verdict.winner]}):
            self._lights_after(before)
        self._next_at = max(self._next_at, self.now() + self.pace)
        self._after_change()

    # -- the table's buttons --------------------------------------------------------------------------

    def _play(self, action: dict) -> bool:
        try:
            self.session.play(action)
        except GameError as exc:
            App.get_running_app().notify(with_symbols(str(exc)), "error")
            return False
        return True

    def undo(self) -> None:
        """One tap takes back the last thing the table told the companion: a card tapped in (with
        the slaps that went with it, which wait again for the right card), a verdict, or the end."""
        app = App.get_running_app()
        if self.session is None or not self.session.can_undo or self.mode == "screen":
            return
        actions = self.session.game.actions
        last = actions[-1]["type"]
        try:
            if self.mode == "judge" or last == "end":
                undone = self.session.undo()
                if undone["type"] == "slapoff":
                    self.session.undo()   # and the verdict that led to it: judge again
                words = {"race": "The last race was taken back", "slap": "The last press was taken back",
                         "verdict": "The verdict was taken back: judge the race again",
                         "slapoff": "The slap-off was taken back: judge the race again",
                         "end": "The end of the game was taken back"}[undone["type"]]
            else:
                slaps = []
                while actions and actions[-1]["type"] != "turn":
                    undone = self.session.undo()
                    if undone["type"] == "slap":
                        slaps.append((self.state.setup.seats[undone["player"]], undone["t"]))
                if not actions:
                    return
                card = self.session.undo()["card"]
                self._held = sorted(slaps, key=lambda p: p[1])
                self._show_held()
                words = f"The {card_words(card)} was taken back" + (
                    ": its slaps wait for the right card" if slaps else ": tap the right card")
        except GameError as exc:
            app.notify(str(exc), "error")
            return
        self._race = None
        self._gather = None
        self._slapoff = None
        self.go_text = ""
        for name in ("end", "go", "slapoff"):
            self._cancel(name)
        self.aside_text = words
        self._lit_turner = object()
        self._after_change()

    def confirm_end(self) -> None:
        if self.session is None or self.state.finished:
            return
        EndGameView(screen=self).open(animation=False)

    def end_game(self, winners: list[str] | None = None) -> None:
        """The table ends the game: most cards wins (the judge has no cards: the table names the winner)."""
        if self.session is None or self.state.finished:
            return
        self._close_race()
        action = {"type": "end"}
        if self.mode == "judge":
            action["winners"] = list(winners or [])
        self._play(action)
        self._after_change()

    def new_game(self) -> None:
        App.get_running_app().new_game("slapjack")

    def open_stats(self) -> None:
        open_stats()

    # -- lights ---------------------------------------------------------------------------------------

    @property
    def lights(self):
        board = self.link.board
        return board.lights if board is not None else None

    def _turn_key(self):
        state = self.state
        return (state.turn, state.cards_turned, state.finished)

    def _light_turner(self) -> None:
        """The turner's pad lit steady, relit whenever the turn or the card changes."""
        lights = self.lights
        if lights is None or self.session is None:
            return
        key = self._turn_key()
        if key == self._lit_turner:
            return
        self._lit_turner = key
        if self.state.finished:
            lights.all_off()
        else:
            lights.show_turner(self.pads.get(self.state.turn))

    def _relight(self) -> None:
        self._lit_turner = object()
        self._light_turner()

    def _lights_after(self, before) -> None:
        """A race just changed: the winner's pad flashes, a wrong slapper's blinks."""
        lights = self.lights
        if lights is None:
            return
        summary = self.rules.race_summary(self.state) or {}
        old = self.rules.race_summary(before) or {}
        same_race = old.get("card") == summary.get("card") and old.get("number") == summary.get("number")
        winner = summary.get("winner")
        if winner and (not same_race or old.get("winner") != winner) and winner in self.pads:
            lights.flash_winner(self.pads[winner])
            # The flash runs its course (or until the next card), then the turner is lit again.
            self._lit_turner = self._turn_key()
            self._schedule("relight", self._relight, lights.FLASH_FOR + 0.05)
        for name in summary.get("wrong", []):
            if name in self.pads and (not same_race or name not in old.get("wrong", [])):
                lights.blink_wrong(self.pads[name])

    def _show_lights(self, *_) -> None:
        modes = self.link.light_modes if self.link.is_mock else []
        for name, tile in self.seats.items():
            pad = self.pads.get(name)
            tile.light = (modes[pad] or "off") if pad is not None and pad < len(modes) else ""

    def _show_status(self, *_) -> None:
        link = self.link
        self.status_text = link.status_text + (f" \u00b7 {link.reader_text}" if self.live_reader else "")
        self.warning_text = link.stuck_text or link.warning

    # -- what the table sees --------------------------------------------------------------------------

    def _note(self, text: str) -> None:
        self.aside_text = text

    def _after_change(self) -> None:
        self._light_turner()
        self.refresh()
        self._advance()

    def refresh(self) -> None:
        if self.session is None:
            return
        s = self.session.summary()
        state = self.state
        self.finished = s["finished"]
        self.can_undo = self.session.can_undo and self.mode != "screen"
        tallies = s["tallies"]
        for name, tile in self.seats.items():
            if self.mode == "judge":
                tile.count_text = f"{tallies[name]['slaps_won']} won"
                tile.status = f"{tallies[name]['wrong_slaps']} wrong" if tallies[name]["wrong_slaps"] else ""
            else:
                tile.count_text = str(s["stacks"][name])
                tile.status = "OUT" if name in s["out"] else ("LAST CHANCE" if name in s["waiting"] else "")
            tile.out = name in s["out"]
            tile.current = name == s["turn"] or (self.finished and name in s["winners"])
        race = s["race"] or {}
        # After a pile is won the Jack stays in view, dimmed, until the next card covers the table.
        self.top = s["top"] or race.get("card") or ""
        self.card_dim = not s["top"] and bool(self.top)
        if self.mode == "judge":
            self.pile_text = f"Race {s['races']}" if s["races"] else ""
            self.count_text = f"{s['races']} race{'' if s['races'] == 1 else 's'} \u00b7 {s['judged']} judged"
        else:
            under = f" ({s['under']} under)" if s["under"] else ""
            self.pile_text = f"Pile {s['pile']}{under}"
            left = f" \u00b7 {s['cards_left']} to go" if s["cards_left"] is not None else ""
            self.count_text = f"{s['cards_turned']} card{'' if s['cards_turned'] == 1 else 's'} turned{left}"
        self.verdict_text = with_symbols(race.get("text", ""))
        self.verdict_kind = ("tie" if race.get("tie") and not race.get("winner") else "win" if race.get("winner")
                             else "wrong" if race.get("wrong") else "")
        self.notice_text = with_symbols("\n".join(s["notices"]))
        self.verdict_waiting = self.mode == "judge" and s["pending"] == "verdict"
        held = bool(self._held) and not self.finished
        self.slapped_card_text = (f"On the {card_words(s['top'])}" if held and s["top"] else "")
        if self.mode == "screen":
            self._calm_waits()
        self._turn_words(s, state)
        if self.finished:
            self._show_results(s)

    def _turn_words(self, s: dict, state) -> None:
        names = s["winners"]
        if self.finished:
            if names:
                self.turn_text = f"{' and '.join(names)} {'share the win' if len(names) > 1 else 'wins'}!"
                self.turn_fill = self.colour_of(names[0])
            else:
                self.turn_text = "Game over"
                self.turn_fill = theme.PANEL_LIGHT
            return
        self.turn_fill = theme.PANEL_LIGHT
        pending = s["pending"]
        if self._slapoff is not None or pending == "slapoff":
            self.turn_text = "Slap-off: " + " and ".join(self._tied()) + (f" \u2014 {self.go_text}" if self.go_text else "")
            self.turn_fill = theme.PRIMARY if self.go_text == "Go!" else theme.PANEL_LIGHT
        elif self.mode == "judge":
            self.turn_text = "Good slap or wrong?" if pending == "verdict" else "Slap a Jack!"
        elif pending == "slap":
            self.turn_text = f"Nobody has a card: slap the {card_words(s['top'])}!"
        elif pending == "end":
            self.turn_text = "Last card: slaps still count"
        elif s["turn"] is not None:
            turner = s["turn"]
            self.turn_fill = self.colour_of(turner)
            if self.mode == "screen":
                self.turn_text = "Paused" if self.paused else (
                    "Slap it or Carry on" if self.calm_waiting else f"{turner}'s card next")
            elif self.held_text:
                self.turn_text = f"{turner}: tap the card that was slapped"
            else:
                self.turn_text = f"{turner} turns a card" + ("" if self.live_reader else ": tap it in")

    def _show_results(self, s: dict) -> None:
        rows = self.ids.results
        rows.clear_widgets()
        rows.add_widget(SlapResultRow(header=True, cells=["slaps won", "wrong", "average", "best"]))
        for name in self.players:
            tally = s["tallies"][name]
            times = tally["reactions_ms"]
            rows.add_widget(SlapResultRow(
                name=name, fill=self.colour_of(name),
                cells=[str(tally["slaps_won"]), str(tally["wrong_slaps"]),
                       f"{tally['average_ms']:.0f} ms" if times else "\u2014",
                       f"{tally['best_ms']:.0f} ms" if times else "\u2014"],
                counts=histogram(times) if times else []))
        how = {"card count": f"most cards after {s['cards_turned']} cards", "table": "the table ended the game",
               "last player in": "the last player in, holding all 52 cards"}.get(s["ended"] or "", "")
        self.winner_text = how


class EndGameView(ModalView):
    """Ending a game early needs a second tap; the judge also asks who won."""

    def __init__(self, screen: SlapjackScreen, **kwargs):
        super().__init__(**kwargs)
        self.screen = screen
        box = self.ids.choices
        if screen.mode == "judge":
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
