"""The three ways to play Slapjack at the table, one small strategy each, all driven by a
:class:`companion.games.slapjack.table.SlapjackTable` (its races, slaps, notes and timers):

* :class:`ScreenDeck`: the companion deals at its pace, computer players press on their own,
  calm mode stops after every card.
* :class:`RealDeck`: cards come from a card feed. The card pad is tapped *after* the card is
  turned, so presses wait ("Slap! Ann first") for the card they were on; a feed that times its
  cards (the card reader, a camera) makes a timed race instead.
* :class:`JudgeOnly`: no cards; presses make a race and the table taps Good or Wrong.
"""

from __future__ import annotations

from companion.games.slapjack.bots import calm_press, grab_presses, plan_presses
from companion.race import RaceJudge, ms
from companion.table.gathering import Gathering
from companion.games.slapjack.view import card_words
from companion.games.slapjack.ways import JUDGE, REAL, SCREEN

START_DELAY_S = 1.5   # before the first card (and after a pause): time to put hands down
SETTLE_S = 0.3        # after the last planned computer press, before the next card lands
END_GRACE_S = 2.5     # after the last card: late slaps on it still count, then the game ends
JOIN_S = 2.0          # judge only: a press this soon after a race's first press joins it
CALM_SEE_S = 0.7      # calm mode: time to see who took the card a computer slapped
# A camera names a card a moment after it landed (the pile must hold still first). A press made
# while the pile is changing waits for its decision, looked for this often and at most this long.
LANDING_POLL_S = 0.02
LANDING_WAIT_S = 1.0


class Way:
    """What every way to play answers; the defaults are "nothing to do"."""

    mode = ""

    def __init__(self, table):
        self.table = table

    def begin(self) -> None: ...
    def stop(self) -> None: ...
    def advance(self, pending: str | None) -> None: ...
    def pressed(self) -> None: ...
    def race_window_closed(self) -> None: ...
    def slapoff_done(self) -> None: ...
    def after_undo(self) -> None: ...
    def on_card(self, card: str, landed_at: float | None) -> None: ...
    def on_unsure(self, candidates: list[str], landed_at: float | None) -> None: ...
    def choose(self, card: str) -> None: ...
    # The table's taps that belong to one way to play; on another they do nothing.
    def carry_on(self) -> None: ...
    def toggle_pause(self) -> None: ...
    def on_the_top_card(self) -> None: ...
    def not_a_slap(self) -> None: ...
    def judge(self, good: bool) -> None: ...
    def dismiss(self) -> None: ...

    def gathering_runner(self):
        return None

    # -- its part of what the screen draws (companion/games/slapjack/view.py) ----------------------

    paused = False      # the screen deck's pause
    unsure = None       # a real deck's card the feed was unsure of: (candidates, landed at)

    def seat_words(self, s, name: str) -> tuple[str, str, bool]:
        """A seat's count, its status, and whether its player is out."""
        out = name in s.out
        return str(s.stacks[name]), "OUT" if out else ("LAST CHANCE" if name in s.waiting else ""), out

    def pile_words(self, s) -> tuple[str, str]:
        """The pile, and the count of cards turned."""
        under = f" ({s.under} under)" if s.under else ""
        left = f" \u00b7 {s.cards_left} to go" if s.cards_left is not None else ""
        return f"Pile {s.pile}{under}", f"{s.cards_turned} card{'' if s.cards_turned == 1 else 's'} turned{left}"

    def showing_current(self, s) -> bool:
        """Whether the race on screen is the top card's (the table may have moved past it)."""
        hidden = self.table.hidden_card
        return hidden is None or hidden != s.cards_turned

    def held_text(self) -> str:
        return ""

    def landing_text(self) -> str:
        return ""

    def calm_waiting(self) -> bool:
        return False

    def waiting_verdict(self) -> bool:
        return False

    def turn_words(self, s, held: str, calm_waiting: bool) -> tuple[str, str | None, bool]:
        """The turn line while the game goes on: its words, whose colour it wears, and whether
        it is the slap-off's "Go!"."""
        if s.pending == "slap":
            return f"Nobody has a card: slap the {card_words(s.top)}!", None, False
        if s.pending == "end":
            return "Last card: slaps still count", None, False
        if s.turn is None:
            return "", None, False
        return self.next_card_words(s.turn, held, calm_waiting), s.turn, False

    def next_card_words(self, turner: str, held: str, calm_waiting: bool) -> str:
        return f"{turner} turns a card"

    def decided(self) -> bool:
        """Whether the card on top has had its race decided, so that a press now only adds a
        late slap to it (counted by its edge time, whenever it is handled): its timed race has
        closed and its presses are logged."""
        race = self.table.race
        return race is not None and race.closed and race.number == self.table.card_key()

    def press(self, seat: int, t: float, arrived: float) -> None:
        self.table.timed_press(seat, t, arrived)

    def can_undo(self) -> bool:
        return True

    def undo(self) -> str | None:
        raise NotImplementedError

    def end_grace(self, pending: str | None) -> bool:
        """The last card of "end after N cards": late slaps count for a moment, then it ends."""
        table = self.table
        if pending != "end":
            return False
        table.timers.cancel("deal")
        if not table.timers.has("end"):
            table.timers.set("end", END_GRACE_S, self._end_by_count)
        return True

    def _end_by_count(self) -> None:
        table = self.table
        table.close_race()
        s = table.game_view()
        if not s.finished and s.pending == "end":
            table.play({"type": "end"})
        table.after_change()

    def pop_to_end(self) -> str:
        """Undo the last action as it is (the judge's actions, or the end of a game)."""
        session = self.table.session
        undone = session.undo()
        if undone["type"] == "slapoff":
            session.undo()   # and the verdict that led to it: judge again
        return {"race": "The last race was taken back", "slap": "The last press was taken back",
                "verdict": "The verdict was taken back: judge the race again",
                "slapoff": "The slap-off was taken back: judge the race again",
                "end": "The end of the game was taken back",
                "turn": f"The {card_words(undone.get('card'))} was taken back"}[undone["type"]]


class ScreenDeck(Way):
    mode = SCREEN

    def __init__(self, table):
        super().__init__(table)
        self.next_at = 0.0
        self.paused = False
        self.carried = False        # calm: the table pressed Carry on for this card
        self.grabbed_for = -1

    def begin(self) -> None:
        table = self.table
        s = table.game_view()
        if table.race is None and s.top is not None:
            # Back on a card already showing: presses on it still count (its landing time is gone).
            table.open_race(landed=None)
        if not s.finished:
            self.next_at = table.now() + max(START_DELAY_S, table.pace)

    def can_undo(self) -> bool:
        return False   # the companion dealt it: there is nothing the table told it to take back

    def next_card_words(self, turner: str, held: str, calm_waiting: bool) -> str:
        return "Paused" if self.paused else ("Slap it or Carry on" if calm_waiting else f"{turner}'s card next")

    def calm_waiting(self) -> bool:
        table = self.table
        race = table.race
        return bool(table.calm and race is not None and race.number == table.game_view().cards_turned
                    and not self.carried and not race.pressed)

    def advance(self, pending: str | None) -> None:
        table = self.table
        if self.end_grace(pending) or self.paused:
            return
        if pending == "slap":
            self._grab()
            return
        if self.calm_waiting():
            return
        table.timers.set("deal", self.next_at - table.now(), self._deal)

    def race_window_closed(self) -> None:
        table = self.table
        if table.calm:   # calm: however long the card waited, the verdict gets its time on screen
            self.next_at = max(self.next_at, table.now() + table.pace)

    def slapoff_done(self) -> None:
        self.next_at = max(self.next_at, self.table.now() + self.table.pace)

    def _deal(self) -> None:
        table = self.table
        if table.game_view().turn is None or self.paused:
            table.advance()
            return
        table.close_race()
        if table.game_view().turn is None:   # the presses just logged changed what comes next
            table.advance()
            return
        t = table.now()
        if not table.play(table.game.rules.turn_action(table.state, t)):
            return
        table.open_race(landed=t)
        presses = plan_presses(table.state, table.models, table.rng, landed=t)
        for press in presses:
            table.press_later(table.seat(press.player), press.t)
        self.next_at = max(t + table.pace, (presses[-1].t + SETTLE_S) if presses else 0.0)
        self.carried = False
        table.after_change()

    def _grab(self) -> None:
        """Nobody can turn and a slap card shows: the computers go for it (once per card)."""
        table = self.table
        s = table.game_view()
        if self.grabbed_for == s.cards_turned:
            return
        self.grabbed_for = s.cards_turned
        for press in grab_presses(table.state, table.models, table.rng, table.now()):
            table.press_later(table.seat(press.player), press.t)

    def carry_on(self) -> None:
        """Calm mode: nobody slapped; a computer player takes a slap card the people let pass."""
        table = self.table
        if not table.calm or table.finished:
            return
        self.carried = True
        press = calm_press(table.state, table.models, table.rng, table.now())
        if press is not None:
            table.press_later(table.seat(press.player), press.t)
            self.next_at = press.t + SETTLE_S + CALM_SEE_S
        else:
            self.next_at = table.now() + 0.2
        table.on_change()
        table.advance()

    def toggle_pause(self) -> None:
        table = self.table
        if table.finished:
            return
        self.paused = not self.paused
        if self.paused:
            table.timers.cancel("deal")
        else:
            self.next_at = table.now() + START_DELAY_S
            table.advance()
        table.on_change()


class RealDeck(Way):
    mode = REAL

    def __init__(self, table):
        super().__init__(table)
        self.held: list[tuple[int, float, float]] = []   # presses waiting for their card: seat, t, arrived
        self.unsure: tuple[tuple[str, ...], float | None] | None = None   # a feed's candidates, and when it landed
        self.retimed: float | None = None   # a timed card taken back: the right card tapped in landed then
        self.landing: list[tuple[int, float, float]] = []   # presses waiting for the camera's decision
        self.landing_until = 0.0

    def begin(self) -> None:
        table = self.table
        if table.race is None and table.game_view().top is not None:
            table.open_race(landed=None)

    def advance(self, pending: str | None) -> None:
        self.end_grace(pending)

    def press(self, seat: int, t: float, arrived: float) -> None:
        table = self.table
        since = table.landing_since() if self.unsure is None else None
        if self.landing or (since is not None and t >= since and not table.game.rules.slappable(table.state)):
            # A card may be landing, and the press would be a wrong (or late) slap on the card
            # showing: whether it was on that card or on the new one is the camera's to say
            # (ruling now would flash a wrong slap on the card below, then take it back). On a
            # Jack still to be won it races at once: a hand moving near the pile must not hold
            # up the verdict. Presses waiting already keep their order.
            self.landing.append((seat, t, arrived))
            if not table.timers.has("landing"):
                self.landing_until = table.now() + LANDING_WAIT_S
                table.timers.set("landing", LANDING_POLL_S, self._landing_check)
            return
        self._rule(seat, t, arrived)

    def _rule(self, seat: int, t: float, arrived: float) -> None:
        if self.unsure is None and self._timed_for_now():
            self.table.timed_press(seat, t, arrived)
        else:
            self.held.append((seat, t, arrived))

    def _landing_check(self) -> None:
        table = self.table
        if table.landing_since() is not None and table.now() < self.landing_until:
            table.timers.set("landing", LANDING_POLL_S, self._landing_check)
            return
        self._settle_landing(None)   # no new card (a hand passed over the pile): on the one showing
        table.on_change()

    def _settle_landing(self, landed: float | None) -> None:
        """The presses that waited for the camera: those from before ``landed`` (every one, when
        no card landed) are ruled on the card showing; the rest wait to go with the new card."""
        waiting, self.landing = sorted(self.landing, key=lambda p: p[1]), []
        self.table.timers.cancel("landing")
        for seat, t, arrived in waiting:
            if landed is None or t < landed:
                self._rule(seat, t, arrived)
            else:
                self.held.append((seat, t, arrived))

    def stop(self) -> None:
        self._settle_landing(None)   # ruled before the table logs its race: no slap is lost

    def _timed_for_now(self) -> bool:
        """Does a press belong to the card showing? Yes when its feed timed it, or when no
        other card can come (nobody can turn, or the last card of "end after")."""
        table = self.table
        s = table.game_view()
        if s.pending in ("slap", "end"):
            return True
        race = table.race
        return race is not None and race.live and race.number == s.cards_turned

    def next_card_words(self, turner: str, held: str, calm_waiting: bool) -> str:
        if self.unsure:
            return "Which card landed? Tap it"
        if held:
            return f"{turner}: tap the card that was slapped"
        return f"{turner} turns a card" + ("" if self.table.live_reader else ": tap it in")

    def held_text(self) -> str:
        """The presses waiting for their card, ranked as the race judge ranks any race."""
        if not self.held:
            return ""
        return self._ranked(self.held, self.unsure[1] if self.unsure else None)

    def landing_text(self) -> str:
        """The presses waiting for the camera to name the card: who was first is the pads' to
        say, at once; whether it was a good slap waits for the card."""
        return self._ranked(self.landing, None) if self.landing else ""

    def _ranked(self, presses: list[tuple[int, float, float]], opened_at: float | None) -> str:
        judge = RaceJudge(self.table.window, opened_at=opened_at)
        for seat, t, _ in presses:
            judge.press(seat, t, 0.0)
        placings = judge.close(0.0).placings
        if not placings:
            return "Slap heard before the card landed"
        players = self.table.players
        rest = [f"{players[p.pad]} +{ms(p.behind)}" for p in placings[1:]]
        return f"Slap! {players[placings[0].pad]} first" + (", " + ", ".join(rest) if rest else "")

    def _release_held(self, landed: float | None) -> None:
        """The waiting presses go with the card now on top, earliest first (a press from before
        a timed card landed is a false start)."""
        table = self.table
        held, self.held = sorted(self.held, key=lambda p: p[1]), []
        top = card_words(table.game_view().top)
        for seat, t, _ in held:
            if landed is not None and t < landed:
                table.say(f"{table.players[seat]} pressed before the {top} landed: not counted")
            else:
                table.slap(seat, t)

    # -- card feeds

    def on_card(self, card: str, landed_at: float | None) -> None:
        if landed_at is None:
            # The table tapped in the card a feed was unsure of, or the right card in place of a
            # wrong reading it took back: it landed when the feed saw it land.
            landed_at = self.unsure[1] if self.unsure is not None else self.retimed
        table = self.table
        if landed_at is not None and self.unsure is None and card == table.game_view().top:
            self._settle_landing(None)
            return   # a feed seeing the card already tapped in on the card pad: nothing new
        self._settle_landing(landed_at)
        table.close_race()
        self._reclaim(landed_at)
        action: dict = {"type": "turn", "card": card}
        if landed_at is not None:
            action["t"] = landed_at
        if not table.play(action):
            return   # refused (the engine says why): still the same question, the same presses waiting
        self.unsure = self.retimed = None
        table.open_race(landed=landed_at)
        table.unsay()
        self._release_held(landed_at)
        table.after_change()

    def on_unsure(self, candidates: list[str], landed_at: float | None) -> None:
        table = self.table
        self._settle_landing(landed_at)
        table.close_race()   # the card that landed ends the last card's race
        self._reclaim(landed_at)

        def fits(card: str) -> bool:
            try:
                table.game.check({"type": "turn", "card": card})
            except Exception:
                return False
            return True
        fitting = [c for c in candidates if fits(c)]
        self.unsure = (tuple(fitting or candidates), landed_at)
        table.on_change()

    def _reclaim(self, landed_at: float | None) -> None:
        """A feed names a card a moment after it landed (a camera, about 100 ms): presses logged
        on the card before in between were on this one (presses made while the pile was changing
        waited instead; these came before the change was seen, or the decision took longer than
        LANDING_WAIT_S). They are taken back from the log and wait to go with it."""
        if landed_at is None:
            return
        session, table = self.table.session, self.table
        actions = session.game.actions
        taken = []
        while actions and actions[-1]["type"] == "slap" and actions[-1]["t"] >= landed_at:
            undone = session.undo()
            taken.append((table.seat(undone["player"]), undone["t"], undone["t"]))
        if taken:
            self.held = sorted(self.held + taken, key=lambda p: p[1])
            table.hidden_card = None

    def choose(self, card: str) -> None:
        if self.unsure is not None and card in self.unsure[0]:
            self.on_card(card, self.unsure[1])

    def on_the_top_card(self) -> None:
        """The waiting presses were on the card already showing."""
        table = self.table
        if not self.held or table.game_view().top is None:
            return
        self._release_held(None)
        table.after_change()

    def not_a_slap(self) -> None:
        """The waiting presses were no slap: dropped, with the words that went with the card
        before (its verdict, a note about a card taken back): they belong to no card on top."""
        table = self.table
        self.held = []
        table.unsay()
        table.hidden_card = table.game_view().cards_turned
        table.on_change()

    # -- undo: a card goes back with its slaps

    def undo(self) -> str | None:
        table = self.table
        if self.landing:   # presses waiting for the camera were on the card now undone
            self._settle_landing(None)
            table.close_race()
        session = table.session
        actions = session.game.actions
        if actions[-1]["type"] == "end":
            return self.pop_to_end()
        slaps = []
        while actions and actions[-1]["type"] != "turn":
            undone = session.undo()
            if undone["type"] == "slap":
                slaps.append((table.seat(undone["player"]), undone["t"], undone["t"]))
        if not actions:
            return None
        turn = session.undo()
        card = turn["card"]
        self.retimed = turn.get("t")
        self.held = sorted(slaps + self.held, key=lambda p: p[1])
        self.unsure = None
        table.hidden_card = table.game_view().cards_turned   # the card before's verdict is over
        return f"The {card_words(card)} was taken back" + (
            ": its slaps wait for the right card" if slaps else ": tap the right card")


class JudgeOnly(Way):
    mode = JUDGE

    def __init__(self, table):
        super().__init__(table)
        self.gather = None          # presses before their race is logged
        self.dismissed: int | None = None   # the unjudged race the table set aside

    def gathering_runner(self):
        return None if self.gather is None else self.gather.runner

    def stop(self) -> None:
        if self.gather is not None and not self.gather.closed:
            self.gather.by_hand = True
            self.gather.runner.close()

    def decided(self) -> bool:
        # A press now joins the race waiting for the judge's tap (by its edge time).
        return self.gather is not None and self.gather.closed and self.waiting_verdict()

    def waiting_verdict(self) -> bool:
        s = self.table.game_view()
        return s.pending == "verdict" and self.dismissed != s.races

    # Its part of what the screen draws: races and verdicts, no cards.

    def seat_words(self, s, name: str) -> tuple[str, str, bool]:
        tally = s.tallies[name]
        return f"{tally.slaps_won} won", f"{tally.wrong_slaps} wrong" if tally.wrong_slaps else "", False

    def pile_words(self, s) -> tuple[str, str]:
        return (f"Race {s.races}" if s.races else "",
                f"{s.races} race{'' if s.races == 1 else 's'} \u00b7 {s.judged} judged")

    def showing_current(self, s) -> bool:
        # A race set aside waits for nobody.
        return super().showing_current(s) and not (self.dismissed == s.races and s.pending == "verdict")

    def turn_words(self, s, held: str, calm_waiting: bool) -> tuple[str, str | None, bool]:
        return ("Good slap or wrong?" if self.waiting_verdict() else "Slap a Jack!"), None, False

    def press(self, seat: int, t: float, arrived: float) -> None:
        table = self.table
        gather = self.gather
        if gather is not None and not gather.closed:
            gather.runner.press(seat, t, arrived)
            return
        s = table.game_view()
        race = s.race
        name = table.players[seat]
        if self.waiting_verdict() and race:
            if t - race.slaps[0].t < JOIN_S:
                earlier = [slap.t for slap in race.slaps if slap.player == name]
                if not earlier or t < min(earlier):   # a second press of the same pad changes nothing
                    table.play({"type": "slap", "player": name, "t": t})
            else:
                # Long after the race: a stray press must not throw away a race still to be judged.
                table.say(f"{name}'s press was not counted: judge race {s.races} first, or set it aside")
            return
        self.gather = Gathering(table, s.races, None, self._gathered)
        self.press(seat, t, arrived)

    def _gathered(self, gather, verdict) -> None:
        slaps = [{"player": self.table.players[p.pad], "t": p.at} for p in verdict.placings]
        if slaps:
            self.table.play({"type": "race", "slaps": slaps})
            self.table.session.save_soon()   # the card starts on it before the screen's update
            self.dismissed = None
        if not gather.by_hand:
            self.table.after_change()

    def judge(self, good: bool) -> None:
        """The table's one tap: the slap was good (pile to the winner) or wrong (penalty)."""
        table = self.table
        if not self.waiting_verdict():
            return
        before = table.state
        if table.play({"type": "verdict", "good": bool(good)}):
            table.lights_after(before)
        table.after_change()

    def dismiss(self) -> None:
        """The table sets the unjudged race aside: it counts for nobody once the next race starts."""
        table = self.table
        if not self.waiting_verdict():
            return
        self.dismissed = table.game_view().races
        table.say(f"Race {self.dismissed} set aside: it counts for nobody")
        table.on_change()

    def after_undo(self) -> None:
        if self.gather is not None and not self.gather.closed:
            self.gather.runner.cancel()
        self.gather = None
        self.dismissed = None

    def undo(self) -> str | None:
        return self.pop_to_end()


WAYS = {SCREEN: ScreenDeck, REAL: RealDeck, JUDGE: JudgeOnly}
