"""Slapjack at the table, without a window: the controller a screen draws and forwards to.

It owns the game's :class:`companion.session.Session` (each action is stored before anything
shows it), decides *when* things reach the engine, and says what the table should see
(:meth:`SlapjackTable.view`) and what the pads' lights should show. The rules stay the
engine's (``companion.games.slapjack.rules``); this module only times them:

* A race on a card whose landing time is known (the screen deck, the card reader, a camera)
  gathers its first presses for the race window in a :class:`companion.race.RaceRunner`, so
  the first verdict shown is already the earliest press; later presses are logged as they
  come, and the engine ranks by timestamp.
* What differs between the ways to play (dealing, the card pad's waiting presses, the judge's
  races) is a small strategy each, in :mod:`companion.games.slapjack.strategies`.

Presses come in by pad with their edge time ``t`` and the time they reached the app
(``arrived``); cards come in through :meth:`on_card` and :meth:`on_unsure`, the one interface
every card feed uses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from companion.errors import GameError, IllegalAction
from companion.games.slapjack.bots import ReactionModel, plan_slapoff
from companion.race import COUNTED, FALSE_START, HELD, RaceJudge, RaceRunner
from companion.table.gathering import Gathering, SlapOff
from companion.games.slapjack.view import SlapjackView, build_view, card_words, with_symbols
from companion.games.slapjack.strategies import WAYS
from companion.table.controller import TableController
from companion.table.timers import Timers
from companion.games.slapjack.ways import JUDGE, REAL, mode_of

DEFAULT_PACE_S = 1.75
GO_DELAY_S = (1.5, 3.5)   # slap-off: "Go!" comes after a random wait, so nobody can anticipate it
RELIGHT_S = 0.05          # after a winner's flash, the turner is lit again


@dataclass(frozen=True)
class Note:
    """A line of the table's own (a false start, a card taken back), with the card it is about:
    it shows only while that card is on top (every message belongs to the card on top)."""

    text: str
    card: int | None


class SlapjackTable(TableController):
    """The live part of one Slapjack game.

    ``now()`` reads the table's clock (the pads' clock); ``schedule(delay, fn)`` calls ``fn()``
    later and returns a handle with ``cancel()``. ``pads`` maps each person to their pad;
    ``lights`` (optional) has ``show_turner(pad)``, ``flash_winner(pad)``, ``blink_wrong(pad)``,
    ``all_off()`` and ``FLASH_FOR``; ``held_pads()`` lists pads already down; ``notify(text)``
    tells the table of a refusal; ``on_change()`` asks the screen to draw :meth:`view` again.
    ``landing_since()`` (a camera) is when the pile began to change, while the camera has not yet
    decided whether a card landed, or None: presses made since that would be wrong or late slaps
    on the card showing wait for its decision.
    """

    def __init__(self, session, *, now: Callable[[], float], schedule, window_s: float = 0.015,
                 pads: dict[str, int] | None = None, lights=None, held_pads: Callable[[], Sequence[int]] | None = None,
                 notify: Callable[[str], None] | None = None, on_change: Callable[[], None] | None = None,
                 rng: random.Random | None = None, live_reader: bool = False,
                 landing_since: Callable[[], float | None] | None = None):
        super().__init__(session, now=now, schedule=schedule)
        self.window = window_s
        self.pads = dict(pads or {})
        self.pad_players = {pad: name for name, pad in self.pads.items()}
        self.lights = lights
        self._held_pads = held_pads or (lambda: [])
        self.notify = notify or (lambda text: None)
        self.on_change = on_change or (lambda: None)
        self.rng = rng or random.Random()
        self._view_of: tuple | None = None
        header = session.game.header
        self.mode = mode_of(header)
        self.live_reader = bool(live_reader) and self.mode == REAL
        self.landing_since = landing_since or (lambda: None)
        s = self.game_view()
        self.computers = {} if self.mode == JUDGE else dict(s.computers)
        self.models = {name: ReactionModel.at_level(level) for name, level in self.computers.items()}
        self.calm = bool(s.options.get("calm"))
        pace = header.get("pace_s", DEFAULT_PACE_S)
        self.pace = float(pace) if isinstance(pace, (int, float)) and 0.05 <= pace <= 60 else DEFAULT_PACE_S
        self.active = False
        self.timers = Timers(schedule, lambda: self.active)
        self.race: Gathering | None = None
        self.slapoff: SlapOff | None = None
        self.go_text = ""                 # slap-off: "Get ready…" then "Go!"
        self.note: Note | None = None
        self.hidden_card: int | None = None   # the table moved past this card: its verdict is over
        self._lit_turner: object = object()
        self.way = WAYS[self.mode](self)

    # -- what the engine says --------------------------------------------------------------------

    def seat(self, name: str) -> int:
        return self.players.index(name)

    def game_view(self):
        """The engine's typed view of where the game stands (game_view.py), made once per state."""
        state = self.session.game.state
        if self._view_of is None or self._view_of[0] is not state:
            self._view_of = (state, self.session.view())
        return self._view_of[1]

    @property
    def finished(self) -> bool:
        return bool(self.game_view().finished)

    def card_key(self) -> int | None:
        """The card on top, as a number: cards turned (races, for the judge, who sees no cards)."""
        s = self.game_view()
        return s.races if self.mode == JUDGE else s.cards_turned

    def view(self) -> SlapjackView:
        return build_view(self)

    # -- coming and going -----------------------------------------------------------------------

    def start(self) -> None:
        """The table is showing: light the turner, and schedule whatever the game waits for."""
        self.active = True
        self._lit_turner = object()
        self._light_turner()
        self.way.begin()
        self.on_change()
        self.advance()

    def close(self) -> None:
        self.stop()

    def stop(self) -> None:
        """The table is leaving: presses already gathered are logged (leaving must not lose a
        slap), every timer is cancelled, and a slap-off starts afresh when the game comes back."""
        if not self.active:
            return
        self.way.stop()
        self.close_race()
        self.active = False
        self.timers.cancel_all()
        if self.slapoff is not None:
            self._drop_slapoff()
        if self.lights is not None:
            self.lights.all_off()

    # -- what happens next ----------------------------------------------------------------------

    def after_change(self) -> None:
        self._light_turner()
        self.on_change()
        self.advance()

    def advance(self) -> None:
        """After anything changes: schedule whatever the game waits for."""
        if not self.active:
            return
        s = self.game_view()
        if s.finished:
            self.timers.cancel("deal")
            self.timers.cancel("end")
            return
        if s.pending == "slapoff":
            self._start_slapoff()
            return
        self.way.advance(s.pending)

    # -- presses --------------------------------------------------------------------------------

    def press(self, pad: int, t: float, arrived: float | None = None) -> None:
        """A pad's press with its edge time ``t`` and the time it reached the app: a race's
        window opens then, so a busy screen does not hold the verdict back by its own length."""
        if not self.active:
            return
        arrived = self.now() if arrived is None else arrived
        name = self.pad_players.get(pad)
        if name is None:
            self.say(f"Pad {pad + 1} is nobody's in this game")
            self.on_change()
            return
        self.press_seat(self.seat(name), t, arrived)

    def press_seat(self, seat: int, t: float, arrived: float, advance: bool = False) -> None:
        """One press, by seat. A pad's press only redraws: what comes next waits for its race's
        window (a calm-mode card must not be dealt over the slap that was just heard)."""
        if self.slapoff is not None:
            self._slapoff_press(seat, t, arrived)
        elif self.finished:
            self.slap(seat, t)   # a late press that beat the deciding one still counts
        else:
            self.way.press(seat, t, arrived)
        if advance:
            self.after_change()
        else:
            self._light_turner()
            self.on_change()

    def release(self, pad: int, t: float) -> None:
        name = self.pad_players.get(pad)
        if name is None:
            return
        seat = self.seat(name)
        for runner in (getattr(self.race, "runner", None), getattr(self.slapoff, "runner", None),
                       self.way.gathering_runner()):
            if runner is not None:
                runner.release(seat, t)

    def press_later(self, seat: int, t: float, slapoff: bool = False) -> None:
        """A computer player's planned press, delivered when its time comes, like a pad's."""
        def fire():
            if slapoff:
                self._slapoff_press(seat, t, self.now())
                self.on_change()
            else:
                self.press_seat(seat, t, self.now(), advance=True)
        self.timers.later(t - self.now(), fire)

    # -- the race on the top card ---------------------------------------------------------------

    def held_seats(self) -> list[int]:
        return [self.seat(self.pad_players[p]) for p in self._held_pads() if p in self.pad_players]

    def open_race(self, landed: float | None) -> None:
        self.drop_race()
        self.race = Gathering(self, self.game_view().cards_turned, landed, self._race_closed, held=self.held_seats())

    def decided(self) -> bool:
        """Whether a press now could only add a late slap to a race already decided: handled a
        frame later, it counts the same (the first slap is the earliest edge, docs/rules.md)."""
        if self.slapoff is not None:
            return False
        return self.finished or self.way.decided()

    def drop_race(self) -> None:
        """Forget the race without logging it (it was taken back)."""
        race, self.race = self.race, None
        if race is not None and not race.closed:
            race.runner.cancel()

    def close_race(self) -> None:
        """Log what the open window gathered, earliest first (the table moved on)."""
        race = self.race
        if race is None or race.closed:
            return
        race.by_hand = True
        race.runner.close()

    def _race_closed(self, race: Gathering, verdict) -> None:
        for placing in verdict.placings:
            self.slap(placing.pad, placing.at)
        self.session.save_soon()   # the verdict's writes are all made: the card starts on them now
        if not race.by_hand:
            self.way.race_window_closed()
            self.after_change()

    def timed_press(self, seat: int, t: float, arrived: float) -> None:
        """A press on the top card of a timed race (screen deck, card reader, nobody can turn)."""
        race = self.race
        s = self.game_view()
        name = self.players[seat]
        if race is None or race.number != s.cards_turned:
            if race is None and s.cards_turned and s.pending in ("slap", "end"):
                self.open_race(landed=None)
                race = self.race
            else:
                return   # no card yet
        top = card_words(s.top or (s.race.card if s.race else None))
        if race.closed:
            if race.landed is not None and t < race.landed:
                self.say(f"{name} pressed before the {top} landed: not counted")
            elif seat not in race.pushed or t < race.pushed[seat]:
                race.pressed = True
                self.slap(seat, t)
            return
        outcome = race.runner.press(seat, t, arrived)
        if outcome == FALSE_START:
            self.say(f"{name} pressed before the {top} landed: not counted")
        elif outcome == HELD:
            self.say(f"{name}'s pad was already down: let go and press again")
        elif outcome == COUNTED:
            race.pressed = True
            self.way.pressed()

    def slap(self, seat: int, t: float) -> bool:
        """Log one press; the engine settles the race. Refusals (a player already out, a press
        after the game was decided) change nothing and need no words."""
        before = self.state
        try:
            self.session.play({"type": "slap", "player": self.players[seat], "t": t})
        except IllegalAction:
            return False
        except GameError as exc:
            self.notify(str(exc))
            return False
        if self.race is not None:
            self.race.pushed[seat] = min(t, self.race.pushed.get(seat, t))
        self.hidden_card = None   # a slap heard on the card on top: its verdict is news again
        self.lights_after(before)
        return True

    def play(self, action: dict) -> bool:
        try:
            self.session.play(action)
        except GameError as exc:
            self.notify(with_symbols(str(exc)))
            return False
        return True

    # -- the table's words ----------------------------------------------------------------------

    def say(self, text: str) -> None:
        """A note about the card on top (it goes when another card comes)."""
        self.note = Note(text, self.card_key())

    def unsay(self) -> None:
        self.note = None

    def aside_text(self) -> str:
        note = self.note
        return note.text if note is not None and note.card == self.card_key() else ""

    # -- card feeds: the card pad, the card reader, a camera -------------------------------------

    def on_card(self, card: str, landed_at: float | None = None) -> None:
        """A card landed: ``landed_at`` on the table's clock, or None when nobody knows (the
        turner tapped it in afterwards)."""
        if self.active and not self.finished:
            self.way.on_card(card, landed_at)

    def on_unsure(self, candidates: Sequence[str], landed_at: float | None = None) -> None:
        """A card landed that the feed could not tell for sure: the table taps which of
        ``candidates`` it is (:meth:`choose`); presses meanwhile wait for that tap."""
        if self.active and not self.finished:
            self.way.on_unsure(list(candidates), landed_at)

    def choose(self, card: str) -> None:
        """The table's tap on one of the cards an unsure feed offered."""
        self.way.choose(card)

    # -- the table's buttons --------------------------------------------------------------------

    def undo(self) -> None:
        """One tap takes back the last thing the table told the companion (each way says what)."""
        if not self.session.can_undo or not self.way.can_undo():
            return
        try:
            words = self.way.undo()
        except GameError as exc:
            self.notify(str(exc))
            return
        if words is None:
            return
        self.drop_race()
        self.way.after_undo()
        if self.slapoff is not None:
            self._drop_slapoff()
        for name in ("end", "go"):
            self.timers.cancel(name)
        self.say(words)
        self._lit_turner = object()
        self.after_change()

    def carry_on(self) -> None:
        """Calm mode: nobody slapped this card (a computer may take a slap card passed by)."""
        self.way.carry_on()

    def toggle_pause(self) -> None:
        self.way.toggle_pause()

    def on_the_top_card(self) -> None:
        """Real deck: the waiting presses were on the card already showing."""
        self.way.on_the_top_card()

    def not_a_slap(self) -> None:
        """Real deck: the waiting presses were no slap."""
        self.way.not_a_slap()

    def judge(self, good: bool) -> None:
        """Judge only: the table's one tap, good slap (pile to the winner) or wrong (penalty)."""
        if not self.finished:
            self.way.judge(good)

    def dismiss(self) -> None:
        """Judge only: set the race waiting for its verdict aside."""
        self.way.dismiss()

    def end_game(self, winners: list[str] | None = None) -> None:
        """The table ends the game: most cards wins (the judge has no cards: the table names the winner)."""
        if self.finished:
            return
        self.close_race()
        self.way.stop()
        action: dict = {"type": "end"}
        if self.mode == JUDGE:
            action["winners"] = list(winners or [])
        self.play(action)
        self.after_change()

    # -- slap-off -------------------------------------------------------------------------------

    def tied(self) -> list[str]:
        race = self.game_view().race
        return list(race.tie) if race else []

    def _start_slapoff(self) -> None:
        if self.slapoff is not None:
            return
        self.timers.cancel("deal")
        self.slapoff = SlapOff(self.tied())
        self.go_text = "Get ready\u2026"
        self.timers.set("go", self.rng.uniform(*GO_DELAY_S), self._go)
        self.on_change()

    def _go(self) -> None:
        slapoff = self.slapoff
        if slapoff is None:
            return
        go = self.now()
        held = [s for s in self.held_seats() if self.players[s] in slapoff.tied]
        slapoff.runner = RaceRunner(RaceJudge(self.window, opened_at=go, held=held), now=self.now,
                                    schedule=self.schedule, on_verdict=self._slapoff_done)
        self.go_text = "Go!"
        for press in plan_slapoff(slapoff.tied, self.models, self.rng, go):
            self.press_later(self.seat(press.player), press.t, slapoff=True)
        self.on_change()

    def _slapoff_press(self, seat: int, t: float, arrived: float) -> None:
        slapoff = self.slapoff
        name = self.players[seat]
        if slapoff is None or name not in slapoff.tied:
            return
        if slapoff.runner is None or slapoff.runner.press(seat, t, arrived) == FALSE_START:
            self.say(f"{name} pressed before Go!: wait for it")

    def _slapoff_done(self, verdict) -> None:
        if self.slapoff is None or verdict.winner is None or not self.active:
            return
        self._drop_slapoff()
        self.timers.drop_loose()   # the slap-off is over: its other presses are moot
        before = self.state
        if self.play({"type": "slapoff", "winner": self.players[verdict.winner]}):
            self.session.save_soon()   # the card starts on it before the screen's update
            self.lights_after(before)
        self.way.slapoff_done()
        self.after_change()

    def _drop_slapoff(self) -> None:
        slapoff, self.slapoff = self.slapoff, None
        self.go_text = ""
        self.timers.cancel("go")
        if slapoff is not None and slapoff.runner is not None and not slapoff.runner.closed:
            slapoff.runner.cancel()

    # -- lights ---------------------------------------------------------------------------------

    def _turn_key(self):
        s = self.game_view()
        return (s.turn, s.cards_turned, s.finished)

    def _light_turner(self) -> None:
        """The turner's pad lit steady, relit whenever the turn or the card changes."""
        if self.lights is None:
            return
        key = self._turn_key()
        if key == self._lit_turner:
            return
        self._lit_turner = key
        s = self.game_view()
        if s.finished:
            self.lights.all_off()
        else:
            self.lights.show_turner(self.pads.get(s.turn))

    def _relight(self) -> None:
        self._lit_turner = object()
        self._light_turner()

    def lights_after(self, before) -> None:
        """A race just changed: the winner's pad flashes, a wrong slapper's blinks."""
        lights = self.lights
        if lights is None:
            return
        rules = self.game.rules
        now, old = rules.race_view(self.state), rules.race_view(before)
        same_race = (now is None) == (old is None) and (now is None or (old.card, old.number) == (now.card, now.number))
        winner = now.winner if now else None
        if winner and (not same_race or old.winner != winner) and winner in self.pads:
            lights.flash_winner(self.pads[winner])
            # The flash runs its course (or until the next card), then the turner is lit again.
            self._lit_turner = self._turn_key()
            self.timers.set("relight", lights.FLASH_FOR + RELIGHT_S, self._relight)
        for name in now.wrong if now else ():
            if name in self.pads and (not same_race or name not in old.wrong):
                lights.blink_wrong(self.pads[name])
