"""The Slapjack table controller (companion/table) driven by a fake clock and scheduler: no
window, no real time. Every expected verdict and stack is worked out from docs/rules.md
("Slapjack") and docs/games/slapjack.md: the first slap (earliest press time, whatever order
the presses arrive in) wins the pile; a wrong slap pays the turner one card; tied presses
inside the tie window race again in a slap-off; "end after N cards": the most cards wins."""

from __future__ import annotations

import random

import pytest

from companion.games.slapjack import screen_deck_header
from companion.games.slapjack_bots import ReactionModel
from companion.session import Session
from companion.store import Store
from companion.table import SlapjackTable, feed_for, mode_of, pads_for
from companion.table.slapjack_ways import END_GRACE_S, JOIN_S
from tests.fake_clock import FakeClock, run_until_true
from tests.ui.conftest import stacked_deck

EXACT = dict(spread_ms=1e-6, fastest_ms=100, miss_rate=0.0, wrong_rate=0.0, lookalike_rate=0.0)


class Lights:
    """What the pads' lights were told, in order."""

    FLASH_FOR = 2.0

    def __init__(self):
        self.calls: list[tuple[str, int | None]] = []

    def show_turner(self, pad):
        self.calls.append(("turner", pad))

    def flash_winner(self, pad):
        self.calls.append(("winner", pad))

    def blink_wrong(self, pad):
        self.calls.append(("wrong", pad))

    def all_off(self):
        self.calls.append(("off", None))


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


@pytest.fixture
def clock():
    return FakeClock(start=100.0)


class Table:
    """A controller on a fresh game, with what it told the table."""

    def __init__(self, store, clock, header, held=(), **kwargs):
        self.clock = clock
        self.session = Session.start(store, header)
        self.lights = Lights()
        self.errors: list[str] = []
        self.held = list(held)
        players, computers = header["players"], header.get("computers") or {}
        self.c = SlapjackTable(self.session, now=clock.now, schedule=clock.schedule, window_s=0.015,
                               pads=pads_for(players, computers, 4), lights=self.lights,
                               held_pads=lambda: self.held, notify=self.errors.append, rng=random.Random(1),
                               **kwargs)
        for name in computers:
            self.c.models[name] = ReactionModel(mean_ms=computers[name], **EXACT)
        self.c.start()

    @property
    def v(self):
        return self.c.view()

    @property
    def s(self):
        return self.session.summary()

    def stacks(self):
        return {seat.name: seat.count_text for seat in self.v.seats}

    def card(self, number: int) -> float:
        """Let the table deal up to card ``number``; when it landed."""
        run_until_true(self.clock, lambda: self.s["cards_turned"] >= number, f"card {number}")
        assert self.s["cards_turned"] == number, "the test fell behind the cards"
        return [a for a in self.session.game.actions if a["type"] == "turn"][-1].get("t")

    def press(self, pad: int, at: float, arrives: float | None = None):
        """Pad ``pad`` pressed at ``at``, reaching the app at ``arrives`` (default: at once)."""
        self.clock.run_until(max(at, arrives or at))
        self.c.press(pad, at, arrives if arrives is not None else self.clock.now())

    def settle(self, seconds: float = 0.05):
        self.clock.advance(seconds)


def screen_game(store, clock, stacks, computers=None, options=None, pace=1.0):
    header = screen_deck_header(["Ann", "Robo"] if computers is None else list(stacks), seed=3,
                                options=options or {}, deck=stacked_deck(list(stacks.values())))
    if computers is None:
        computers = {"Robo": 300}
    if computers:
        header["computers"] = computers
    header["pace_s"] = pace
    return Table(store, clock, header)


# -- the ways to play, and their feeds ------------------------------------------------------------

def test_each_way_to_play_maps_to_its_feed_and_back():
    assert [feed_for(m) for m in ("real", "judge", "screen")] == ["pad", "none", None]
    assert feed_for("real", reader=True) == "reader"
    for mode, reader in (("real", False), ("real", True), ("judge", False)):
        assert mode_of({"feed": feed_for(mode, reader)}) == mode
    assert mode_of({"seed": 1}) == "screen"
    with pytest.raises(ValueError):
        feed_for("camera")


# -- the screen deck ------------------------------------------------------------------------------

ANN = ["5H", "9C", "8S", "JH", "JD", "6C"]
ROBO = ["JS", "KD", "3S", "4H", "JC", "8D"]


def test_screen_deck_races_a_computer_by_press_time_not_arrival(store, clock):
    t = screen_game(store, clock, {"Ann": ANN, "Robo": ROBO})
    assert t.stacks() == {"Ann": "26", "Robo": "26"}
    assert t.v.turn_text == "Ann's card next"
    assert ("turner", 0) in t.lights.calls          # Ann's turn: her pad lit
    first = t.card(1)
    assert first == pytest.approx(101.5)              # the start delay: time to put hands down
    # 2: Robo's JS. Ann 200 ms, Robo 300 ms: Ann wins 5H JS.
    landed = t.card(2)
    assert landed == pytest.approx(102.5)             # the pace: a card a second
    t.press(0, landed + 0.200)
    t.settle(0.2)
    assert t.v.verdict_text == "Ann! Robo +100 ms" and t.v.verdict_kind == "win"
    assert t.stacks() == {"Ann": "27", "Robo": "25"}
    assert t.lights.calls[-1][0] in ("winner", "turner") and ("winner", 0) in t.lights.calls
    # 4: Robo's KD: Ann slaps a King and pays Robo (who turned it) a card.
    t.card(3)
    landed = t.card(4)
    t.press(0, landed + 0.250)
    t.settle()
    assert t.v.verdict_text == "Wrong slap: Ann" and t.v.verdict_kind == "wrong"
    assert t.v.notice_text == "Ann slapped wrongly and pays Robo a card"
    assert ("wrong", 0) in t.lights.calls
    assert t.stacks() == {"Ann": "25", "Robo": "25"} and t.v.pile_text == "Pile 2"
    # 5: Ann's JH. Robo's press (300 ms) is judged first; Ann's (250 ms) reaches the app 100 ms
    # after its edge, after Robo's verdict, and still wins: later-arriving, earlier press.
    landed = t.card(5)
    t.clock.run_until(landed + 0.34)
    assert t.v.verdict_text == "Robo!"
    t.press(0, landed + 0.250, arrives=landed + 0.35)
    assert t.v.verdict_text == "Ann! Robo +50 ms"
    assert t.stacks() == {"Ann": "27", "Robo": "25"}
    assert t.s["tallies"]["Ann"]["reactions_ms"] == [200.0, 250.0]   # the KD was no Jack: no reaction


def test_the_race_window_ranks_presses_that_arrive_in_the_wrong_order(store, clock):
    t = screen_game(store, clock, {"Ann": ["JH"], "Ben": ["7C"]}, computers={})
    landed = t.card(1)
    # Ben's press reaches the app first; Ann's, 4 ms earlier, arrives inside the 15 ms window.
    t.press(1, landed + 0.204, arrives=landed + 0.205)
    t.press(0, landed + 0.200, arrives=landed + 0.212)
    assert not [a for a in t.session.game.actions if a["type"] == "slap"]   # the window is still open
    t.clock.run_until(landed + 0.205 + 0.015)
    assert t.v.verdict_text == "Ann! Ben +4.0 ms"
    assert [a["player"] for a in t.session.game.actions if a["type"] == "slap"] == ["Ann", "Ben"]


def test_a_press_before_the_card_landed_is_a_false_start(store, clock):
    t = screen_game(store, clock, {"Ann": ["JH"], "Ben": ["7C"]}, computers={})
    landed = t.card(1)
    t.c.press(1, landed - 0.05, landed + 0.01)
    t.settle()
    assert t.v.aside_text == "Ben pressed before the J\u2665 landed: not counted"
    assert not [a for a in t.session.game.actions if a["type"] == "slap"]


def test_a_pad_down_when_the_card_lands_needs_a_fresh_press(store, clock):
    t = screen_game(store, clock, {"Ann": ["JH"], "Ben": ["7C"]}, computers={})
    t.held = [1]                                       # Ben's pad is down as the JH lands
    landed = t.card(1)
    t.press(1, landed + 0.1)
    assert t.v.aside_text == "Ben's pad was already down: let go and press again"
    t.c.release(1, landed + 0.15)
    t.press(1, landed + 0.2)
    t.settle()
    assert t.v.verdict_text == "Ben!"


def test_calm_mode_waits_for_a_slap_or_carry_on(store, clock):
    """docs/rules.md, Slapjack, calm mode: play stops after every card; a computer player only
    takes a Jack the people let pass."""
    t = screen_game(store, clock, {"Ann": ["5H", "9C"], "Robo": ["JS", "JD"]}, options={"calm": True}, pace=0.5)
    t.card(1)
    assert t.v.calm_waiting and t.v.turn_text == "Slap it or Carry on"
    clock.advance(600)                                 # nothing moves until somebody does something
    assert t.s["cards_turned"] == 1
    t.c.carry_on()
    landed = t.card(2)                                 # Robo's JS: Ann slaps it, nobody races her
    clock.advance(5)
    assert t.s["cards_turned"] == 2 and t.v.calm_waiting   # computers never slap first in calm mode
    t.press(0, clock.now())
    t.settle()
    assert t.v.verdict_text == "Ann!" and t.stacks() == {"Ann": "27", "Robo": "25"}
    assert landed is not None
    t.card(3)
    t.c.carry_on()
    t.card(4)                                          # Robo's JD: Ann lets it pass, Robo takes it
    t.c.carry_on()
    run_until_true(clock, lambda: t.v.verdict_text == "Robo!", "Robo to take the JD")
    assert t.stacks() == {"Ann": "26", "Robo": "26"}


def test_pause_stops_the_deal_and_resume_waits_before_the_next_card(store, clock):
    t = screen_game(store, clock, {"Ann": ["5H", "9C"], "Ben": ["3S", "4D"]}, computers={})
    t.card(1)
    t.c.toggle_pause()
    assert t.v.paused and t.v.turn_text == "Paused"
    clock.advance(300)
    assert t.s["cards_turned"] == 1
    t.c.toggle_pause()
    resumed = clock.now()
    t.card(2)
    assert t.session.game.actions[-1]["t"] == pytest.approx(resumed + 1.5)


def test_end_after_n_cards_lets_late_slaps_count_then_most_cards_wins(store, clock):
    t = screen_game(store, clock, {"Ann": ["5H", "9C"], "Ben": ["3S", "JD"]}, computers={},
                    options={"end_after": 4})
    landed = t.card(4)
    assert t.v.turn_text == "Last card: slaps still count" and t.v.count_text == "4 cards turned \u00b7 0 to go"
    t.press(1, landed + 1.0)                           # late, but inside the grace: Ben takes the pile
    clock.run_until(landed + END_GRACE_S + 0.1)
    assert t.v.finished and t.v.turn_text == "Ben wins!"
    assert t.v.winner_text == "most cards after 4 cards"
    assert [r.name for r in t.v.results] == ["Ann", "Ben"] and t.v.results[1].cells[0] == "1"
    assert ("off", None) == t.lights.calls[-1]        # the game is over: no turner lit
    assert store.record(t.session.game_id).status == "finished"


def test_a_screen_deck_tie_is_settled_by_a_slap_off_on_go(store, clock):
    t = screen_game(store, clock, {"Ann": ["JH"], "Robo": ["7C"]}, options={"tie_window_ms": 5})
    landed = t.card(1)
    t.press(0, landed + 0.298)                         # Robo presses at 300 ms: 2 ms apart, a tie
    run_until_true(clock, lambda: t.s["pending"] == "slapoff", "the tie")
    assert t.v.verdict_text == "Tie: Ann and Robo: slap-off!" and t.v.verdict_kind == "tie"
    assert t.v.go_text == "Get ready\u2026" and t.v.turn_text == "Slap-off: Ann and Robo \u2014 Get ready\u2026"
    t.press(0, clock.now())
    assert t.v.aside_text == "Ann pressed before Go!: wait for it"
    run_until_true(clock, lambda: t.v.go_text == "Go!", '"Go!"')
    go = clock.now()
    assert t.v.turn_go
    t.press(0, go + 0.2)                               # Robo presses at 300 ms after Go
    run_until_true(clock, lambda: t.v.go_text == "", "the slap-off's verdict")
    assert t.v.verdict_text == "Ann wins the slap-off against Robo"
    assert t.session.game.actions[-1] == {"type": "slapoff", "winner": "Ann"}
    assert t.stacks() == {"Ann": "26", "Robo": "26"}   # Ann turned the JH and took it back


def test_the_screen_deck_cannot_be_undone(store, clock):
    t = screen_game(store, clock, {"Ann": ["5H"], "Robo": ["7C"]})
    t.card(1)
    assert not t.v.can_undo
    t.c.undo()
    assert t.s["cards_turned"] == 1


def test_leaving_logs_the_presses_already_gathered(store, clock):
    t = screen_game(store, clock, {"Ann": ["JH"], "Ben": ["7C"]}, computers={})
    landed = t.card(1)
    t.press(1, landed + 0.2)
    t.c.stop()                                          # inside the window: the press is not lost
    assert t.session.game.actions[-1] == {"type": "slap", "player": "Ben", "t": landed + 0.2}
    clock.advance(60)
    assert t.s["cards_turned"] == 1                    # and nothing is dealt while away
    assert clock.pending() == 0
