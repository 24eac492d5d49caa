"""The Slapjack table controller (companion/table) driven by a fake clock and scheduler: no
window, no real time. Every expected verdict and stack is worked out from docs/rules.md
("Slapjack") and companion/games/slapjack/log.md: the first slap (earliest press time, whatever order
the presses arrive in) wins the pile; a wrong slap pays the turner one card; tied presses
inside the tie window race again in a slap-off; "end after N cards": the most cards wins.

Long on purpose: one test per way to play and per rule the table times, each citing it."""

from __future__ import annotations

import random

import pytest

from companion.games.slapjack.rules import screen_deck_header
from companion.games.slapjack.bots import ReactionModel
from companion.session import Session
from companion.store import Store
from companion.games.slapjack.table import SlapjackTable
from companion.games.slapjack.ways import feed_for, mode_of, pads_for
from companion.games.slapjack.strategies import END_GRACE_S, JOIN_S
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


# -- a real deck on the card pad ----------------------------------------------------------------------

def real_game(store, clock, players=("Ann", "Ben", "Cat"), feed="pad", options=None, **kwargs):
    return Table(store, clock, {"game": "slapjack", "players": list(players), "options": options or {},
                                "feed": feed}, **kwargs)


def test_card_pad_presses_wait_for_the_card_they_were_on(store, clock):
    t = real_game(store, clock)
    assert t.stacks() == {"Ann": "18", "Ben": "17", "Cat": "17"}
    assert t.v.turn_text == "Ann turns a card: tap it in"
    t.c.on_card("7H", None)
    # Ben turns the JS; Ann and Cat slap before he taps it in. Cat's press (23 ms later) comes first.
    t0 = clock.now()
    t.press(2, t0 + 0.023)
    t.press(0, t0)
    assert t.v.held_text == "Slap! Ann first, Cat +23.0 ms"
    assert t.v.turn_text == "Ben: tap the card that was slapped"
    assert t.v.slapped_card_text == "On the 7\u2665"
    t.c.on_card("JS", None)
    assert t.v.held_text == "" and t.v.verdict_text == "Ann! Cat +23 ms"
    assert t.stacks() == {"Ann": "19", "Ben": "16", "Cat": "17"}
    # Cat turns the 9C; Ann slaps the card already showing: "On the 9♣".
    t.c.on_card("9C", None)
    t.press(0, clock.now() + 1)
    t.c.on_the_top_card()
    assert t.v.verdict_text == "Wrong slap: Ann"
    assert t.v.notice_text == "Ann slapped wrongly and pays Cat a card"
    assert t.stacks() == {"Ann": "18", "Ben": "16", "Cat": "17"}
    # Everything shown is stored: the saved log is the game's, action for action.
    assert store.log(t.session.game_id)[1] == t.session.game.actions


def test_undoing_a_card_takes_back_its_slaps_to_wait_for_the_right_card(store, clock):
    t = real_game(store, clock)
    for card in ("7H", "4C", "9C", "2S"):
        t.c.on_card(card, None)
    t.press(1, clock.now() + 1)                        # Ben slaps the JH he turned...
    t.c.on_card("JD", None)                            # ...and the JD is tapped by mistake
    assert t.v.verdict_text == "Ben!"
    assert t.v.can_undo
    t.c.undo()
    assert t.s["cards_turned"] == 4 and not [a for a in t.session.game.actions if a["type"] == "slap"]
    assert t.v.held_text == "Slap! Ben first"
    assert t.v.aside_text == "The J\u2666 was taken back: its slaps wait for the right card"
    t.c.on_card("JH", None)
    assert t.v.verdict_text == "Ben!" and t.v.aside_text == ""
    # A card with no slaps: "tap the right card".
    t.c.on_card("5D", None)
    t.c.undo()
    assert t.v.aside_text == "The 5\u2666 was taken back: tap the right card"
    assert t.v.held_text == ""


def test_not_a_slap_never_brings_back_the_last_race_verdict(store, clock):
    """Issue: after "Not a slap" the screen showed the previous race's "Ben! Cat +4.0 ms". Every
    message shown belongs to the card on top."""
    t = real_game(store, clock)
    t.c.on_card("7H", None)
    t0 = clock.now()
    t.press(1, t0)
    t.press(2, t0 + 0.004)
    t.c.on_card("JS", None)
    assert t.v.verdict_text == "Ben! Cat +4.0 ms"
    t.press(0, clock.now() + 2)                        # the next card is down; Ann's press waits
    assert t.v.held_text == "Slap! Ann first"
    t.c.not_a_slap()
    assert t.v.held_text == "" and t.v.verdict_text == "" and t.v.verdict_kind == ""
    assert t.v.notice_text == "" and t.v.aside_text == ""
    t.c.on_card("8D", None)                            # the next card's own words are shown again
    t.press(2, clock.now() + 1)
    t.c.on_the_top_card()
    assert t.v.verdict_text == "Wrong slap: Cat"


def test_not_a_slap_after_a_card_was_taken_back_leaves_no_stale_note(store, clock):
    t = real_game(store, clock)
    t.c.on_card("7H", None)
    t.press(1, clock.now() + 1)
    t.c.on_card("JS", None)
    assert t.v.verdict_text == "Ben!"
    t.c.on_card("9D", None)                            # a mis-tap
    t.press(2, clock.now() + 1)
    t.c.on_the_top_card()
    t.c.undo()                                         # the 9D and Cat's slap go back
    assert t.v.aside_text == "The 9\u2666 was taken back: its slaps wait for the right card"
    assert t.v.verdict_text == ""                      # not the JS's "Ben!": that race is over
    t.c.not_a_slap()
    assert (t.v.aside_text, t.v.verdict_text, t.v.notice_text, t.v.held_text) == ("", "", "", "")


def test_the_card_reader_times_its_cards_so_presses_race_at_once(store, clock):
    t = real_game(store, clock, players=("Ben", "Cat"), feed="reader", live_reader=True)
    assert t.v.turn_text == "Ben turns a card"        # no "tap it in": the reader times it
    landed = clock.now()
    t.c.on_card("JS", landed)
    t.press(1, landed + 0.250)
    t.settle()
    assert t.v.verdict_text == "Cat!" and t.v.held_text == ""
    assert t.s["tallies"]["Cat"]["reactions_ms"] == [250.0]


def test_an_unsure_feed_asks_which_card_and_its_slaps_wait_for_the_tap(store, clock):
    t = real_game(store, clock, players=("Ben", "Cat"), feed="reader", live_reader=True)
    t.c.on_card("7H", clock.now())
    clock.advance(1)
    landed = clock.now()
    # A camera sees a red Jack or Queen; the 7H is already on the pile, so it is no candidate.
    t.c.on_unsure(["JH", "QH", "7H"], landed)
    assert t.v.unsure == ("JH", "QH")
    assert t.v.turn_text == "Which card landed? Tap it"
    t.press(1, landed - 0.1)                           # before the card landed: a false start
    t.press(0, landed + 0.300)
    t.press(1, landed + 0.320)
    assert t.s["cards_turned"] == 1, "no card is taken until the table taps it"
    assert t.v.held_text == "Slap! Ben first, Cat +20.0 ms"
    t.c.choose("JH")
    t.settle()
    assert t.v.unsure == () and t.v.held_text == ""
    assert t.session.game.actions[1] == {"type": "turn", "card": "JH", "t": landed}
    assert t.v.aside_text == "Cat pressed before the J\u2665 landed: not counted"
    assert t.v.verdict_text == "Ben! Cat +20 ms"
    assert t.s["tallies"]["Ben"]["reactions_ms"] == [300.0]


def test_an_unsure_card_can_be_tapped_in_on_the_card_pad_instead(store, clock):
    t = real_game(store, clock, players=("Ben", "Cat"))
    landed = clock.now()
    t.c.on_unsure(["6S", "8S"], landed)
    t.c.on_card("XX", None)                            # no card: refused, and the question stands
    assert t.errors and t.v.unsure == ("6S", "8S")
    t.c.on_card("5S", None)                            # none of those: the card pad says which
    assert t.v.unsure == ()
    assert t.session.game.actions[-1] == {"type": "turn", "card": "5S", "t": landed}


class Pile:
    """What a camera says of the pile: when it began to change, until it has decided (None: still)."""

    def __init__(self):
        self.since: float | None = None

    def __call__(self) -> float | None:
        return self.since


def camera_game(store, clock):
    pile = Pile()
    return real_game(store, clock, players=("Ben", "Cat"), feed="camera", live_reader=True,
                     landing_since=pile), pile


def test_a_press_while_the_pile_changes_waits_for_the_camera_then_goes_with_the_card_showing(store, clock):
    # docs/rules.md, "Slapjack": a slap on any card but a Jack is a wrong slap. A hand passing
    # over the pile is no card, so a press made meanwhile was on the 7H after all.
    t, pile = camera_game(store, clock)
    t.c.on_card("7H", clock.now())
    clock.advance(1)
    pile.since = clock.now()
    at = clock.now() + 0.05
    t.press(1, at)
    t.settle(0.3)
    assert t.session.game.actions[-1]["type"] == "turn", "nothing ruled while the camera decides"
    assert t.v.verdict_text == "" and ("wrong", 1) not in t.lights.calls
    assert t.v.landing_text == "Slap! Cat first", "who was first is the pads' to say at once"
    assert t.v.held_text == "" and t.v.slapped_card_text == "", "the camera decides, not the table"
    pile.since = None                                  # still again, and no new card
    t.settle()
    assert t.v.landing_text == ""
    assert t.session.game.actions[-1] == {"type": "slap", "player": "Cat", "t": at}
    assert t.s["tallies"]["Cat"]["wrong_slaps"] == 1 and ("wrong", 1) in t.lights.calls


def test_a_press_from_before_the_card_landed_stays_on_the_card_below(store, clock):
    # docs/rules.md, "Slapjack": the first slap on a Jack wins the pile; one on another card is a
    # wrong slap. The camera's landing time tells which card each press was on.
    t, pile = camera_game(store, clock)
    t.c.on_card("7H", clock.now())
    clock.advance(1)
    start = clock.now()
    pile.since = start                                 # a hand brings the next card in
    t.press(0, start + 0.01)                           # Ben, on the 7H still
    landed = start + 0.05
    t.press(1, landed + 0.25)                          # Cat, on the Jack
    clock.run_until(landed + 0.35)
    assert t.v.landing_text == "Slap! Ben first, Cat +290 ms" and t.v.verdict_text == ""
    pile.since = None
    t.c.on_card("JS", landed)
    t.settle()
    slaps = [a for a in t.session.game.actions if a["type"] in ("turn", "slap")]
    assert slaps[-3:] == [{"type": "slap", "player": "Ben", "t": start + 0.01},
                          {"type": "turn", "card": "JS", "t": landed},
                          {"type": "slap", "player": "Cat", "t": landed + 0.25}]
    assert t.s["tallies"]["Ben"]["wrong_slaps"] == 1
    assert t.s["tallies"]["Cat"]["slaps_won"] == 1 and t.s["tallies"]["Cat"]["reactions_ms"] == [pytest.approx(250.0)]
    assert t.v.verdict_text == "Cat!" and t.v.landing_text == ""


def test_a_press_on_a_jack_still_to_be_won_races_at_once_while_the_pile_changes(store, clock):
    # docs/rules.md, "Slapjack": the first slap on a Jack wins the pile. A hand moving near the
    # pile must not hold up that verdict.
    t, pile = camera_game(store, clock)
    landed = clock.now()
    t.c.on_card("JD", landed)
    pile.since = landed + 0.1                          # a hand moves over the pile, and stays moving
    t.press(1, landed + 0.3)
    t.settle()
    assert t.s["tallies"]["Cat"]["slaps_won"] == 1 and t.v.verdict_text == "Cat!"


def test_a_press_waits_for_the_camera_a_second_at_most_and_is_never_lost_on_leaving(store, clock):
    t, pile = camera_game(store, clock)
    t.c.on_card("7H", clock.now())
    pile.since = clock.now()                           # the pile never settles (a hand stays moving)
    t.press(1, clock.now() + 0.3)
    t.settle(0.9)
    assert t.s["tallies"]["Cat"]["wrong_slaps"] == 0
    t.settle(0.2)                                      # LANDING_WAIT_S passed: on the card showing
    assert t.s["tallies"]["Cat"]["wrong_slaps"] == 1
    at = clock.now() + 0.01
    t.press(0, at)                                     # Ben too, and the table leaves at once
    assert t.session.game.actions[-1]["player"] == "Cat", "Ben's press waits for the camera"
    t.c.stop()
    assert t.session.game.actions[-1] == {"type": "slap", "player": "Ben", "t": at}
    assert clock.pending() == 0


# -- judge slaps only -----------------------------------------------------------------------------------

def judge_game(store, clock, players=("Ann", "Ben", "Cat"), options=None):
    return Table(store, clock, {"game": "slapjack", "players": list(players), "options": options or {},
                                "feed": "none"})


def test_judge_gathers_a_race_joins_later_presses_and_takes_the_verdict(store, clock):
    t = judge_game(store, clock)
    assert t.v.turn_text == "Slap a Jack!" and not t.v.verdict_waiting
    t0 = clock.now()
    t.press(1, t0 + 0.012)
    t.press(0, t0, arrives=t0 + 0.013)
    t.settle()
    assert t.s["races"] == 1 and t.v.verdict_text == "Ann first, Ben +12 ms"
    t.press(2, t0 + 0.140)                             # inside the join window: it joins the race
    assert t.v.verdict_text == "Ann first, Ben +12 ms, Cat +140 ms"
    assert t.v.turn_text == "Good slap or wrong?" and t.v.verdict_waiting
    t.c.judge(True)
    assert t.v.verdict_text == "Ann! Ben +12 ms, Cat +140 ms"
    assert t.stacks() == {"Ann": "1 won", "Ben": "0 won", "Cat": "0 won"}
    assert ("winner", 0) in t.lights.calls
    t.press(2, clock.now() + 5)
    t.settle()
    t.c.judge(False)
    assert t.v.verdict_text == "Wrong slap: Cat"
    assert [s.status for s in t.v.seats] == ["", "", "1 wrong"]
    t.c.undo()                                         # a mis-tap: judge it again
    assert t.v.turn_text == "Good slap or wrong?" and t.v.aside_text == "The verdict was taken back: judge the race again"
    assert [s.status for s in t.v.seats] == ["", "", ""]


def test_judge_a_stray_press_long_after_an_unjudged_race_keeps_it(store, clock):
    """Issue: a stray press a few seconds after an unjudged race threw that race away ("The
    last race was not judged: it counts for nobody"). It waits for the table's verdict."""
    t = judge_game(store, clock)
    t0 = clock.now()
    t.press(0, t0)
    t.press(1, t0 + 0.02)
    t.settle()
    assert t.v.verdict_text == "Ann first, Ben +20 ms"
    t.press(2, t0 + JOIN_S + 3.0)                      # long after the join window
    t.settle()
    assert t.s["races"] == 1 and t.s["pending"] == "verdict"
    assert "counts for nobody" not in t.v.notice_text
    assert t.v.verdict_text == "Ann first, Ben +20 ms" and t.v.verdict_waiting
    assert t.v.aside_text == "Cat's press was not counted: judge race 1 first, or set it aside"
    t.c.judge(True)
    assert t.stacks()["Ann"] == "1 won"


def test_judge_a_race_set_aside_counts_for_nobody_and_the_next_press_races(store, clock):
    t = judge_game(store, clock)
    t.press(0, clock.now())
    t.settle()
    t.c.dismiss()
    assert not t.v.verdict_waiting and t.v.verdict_text == ""
    assert t.v.aside_text == "Race 1 set aside: it counts for nobody"
    t.press(1, clock.now() + 10)
    t.settle()
    assert t.s["races"] == 2 and t.v.verdict_text == "Ben first" and t.v.verdict_waiting
    t.c.judge(True)
    assert t.stacks() == {"Ann": "0 won", "Ben": "1 won", "Cat": "0 won"}


def test_judge_tie_slap_off_and_undoing_it_judges_the_race_again(store, clock):
    t = judge_game(store, clock, options={"tie_window_ms": 5})
    t0 = clock.now()
    t.press(0, t0)
    t.press(1, t0 + 0.002)
    t.settle()
    t.c.judge(True)
    assert t.v.verdict_text == "Tie: Ann and Ben: slap-off!" and t.v.go_text == "Get ready\u2026"
    t.press(2, clock.now())                            # Cat is not in the slap-off: nothing happens
    assert t.v.aside_text == ""
    run_until_true(clock, lambda: t.v.go_text == "Go!", '"Go!"')
    t.press(1, clock.now() + 0.25)
    t.press(0, clock.now() + 0.01)                     # pressed later, arrived later: Ben still first
    t.settle()
    assert t.v.verdict_text == "Ben wins the slap-off against Ann"
    assert t.stacks() == {"Ann": "0 won", "Ben": "1 won", "Cat": "0 won"}
    t.c.undo()                                         # the slap-off and its verdict go back
    assert t.v.turn_text == "Good slap or wrong?"
    assert t.v.aside_text == "The slap-off was taken back: judge the race again"


def test_judge_ending_names_the_winner(store, clock):
    t = judge_game(store, clock)
    t.c.end_game(["Ben"])
    assert t.v.finished and t.v.turn_text == "Ben wins!" and t.v.winner_text == "the table ended the game"
    t.c.undo()
    assert not t.v.finished and t.v.aside_text == "The end of the game was taken back"


def test_judge_a_race_s_commit_starts_before_the_screen_shows_its_verdict(store):
    """The app holds a race's writes to the frame that shows them (Store.holding), and
    that frame waits for their commit (10 to 50 ms on an SD card). The commit starts as soon as
    the window's slaps are written, so the card's wait overlaps the screen's update; nothing is
    shown before it is durable, and the slaps are in the log once it is."""
    class HeldTimers(FakeClock):
        """Each timer's writes held, as the app's table timers hold them (ui/app.py hold_writes)."""

        def schedule(self, delay, fn):
            def held():
                with store.holding():
                    fn()
                store.commit_held()
            return super().schedule(delay, held)

    clock = HeldTimers(start=100.0)
    seen = []
    t = Table(store, clock, {"game": "slapjack", "players": ["Ann", "Ben", "Cat"], "options": {}, "feed": "none"},
              on_change=lambda: seen.append((store.committing, store.held)))
    t0 = clock.now()
    t.press(1, t0 + 0.012)
    t.press(0, t0, arrives=t0 + 0.013)
    seen.clear()
    t.settle()
    assert t.v.verdict_text == "Ann first, Ben +12 ms"
    assert seen and seen[0] == (True, False), "the screen was told of the verdict before its commit started"
    saved = Store(store.path)
    assert [a["slaps"] for a in saved.load(t.session.game_id).actions if a["type"] == "race"] == \
        [[{"player": "Ann", "t": t0}, {"player": "Ben", "t": t0 + 0.012}]]
    saved.close()
