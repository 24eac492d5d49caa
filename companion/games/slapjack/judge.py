"""Slapjack's race judge without a card feed: the header says ``"feed": "none"``.

The table plays a real deck and the companion never learns the cards. It only judges the
slaps: after each race it shows who pressed first and the gaps behind, then one tap from the
table says whether the slap was good (the pile goes to the winner) or wrong (every slapper
pays a card), and it keeps the tallies. Stacks are not counted, so ``end_after`` cannot be
used, and the table names the winner when it ends the game.

:func:`companion.games.rules_for` picks :class:`SlapjackJudgeRules` for such a header.
Races are ranked and ties found by companion/games/slapjack/races.py, as in the card game.

Actions (``companion/games/slapjack/log.md``, "Race judge only"):

- ``{"type": "race", "slaps": [{"player": "Ann", "t": 5.021}, ...]}`` opens a race with the
  presses gathered in its window. A race opened while the last one is still unjudged leaves
  that one counting for nobody.
- ``{"type": "slap", "player": "Cat", "t": 5.16}``: a later press joins the open race, until
  its verdict.
- ``{"type": "verdict", "good": true}`` (or ``false``): the table's one tap.
- ``{"type": "slapoff", "winner": "Ann"}``: after a good verdict on tied presses.
- ``{"type": "end", "winners": ["Ann"]}``: ``winners`` is optional (the table may not say).

>>> from companion.engine import Game
>>> game = Game({"game": "slapjack", "players": ["Ann", "Ben"], "feed": "none"})
>>> _ = game.push({"type": "race", "slaps": [{"player": "Ben", "t": 5.030}, {"player": "Ann", "t": 5.007}]})
>>> game.summary()["race"]["text"]
'Ann first, Ben +23 ms'
>>> _ = game.push({"type": "verdict", "good": True})
>>> game.summary()["race"]["text"], game.summary()["tallies"]["Ann"]["slaps_won"]
('Ann! Ben +23 ms', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.errors import BadHeader, IllegalAction
from companion.rules import Outcome, Rules
from companion.games.slapjack.game_view import JudgeView, Penalty, RaceView, SlapView, tallies
from companion.games.slapjack import races
from companion.games.slapjack.header import MAX_PLAYERS, MIN_PLAYERS, Seated, Setup, Tally, read_setup

_and, _ms = races.and_words, races.ms_text

GOOD, WRONG = "good", "wrong"
ACTIONS = '"race", "slap", "verdict", "slapoff" and "end"'


@dataclass(frozen=True, slots=True)
class JudgeRace:
    number: int                               # 1 for the game's first race
    slaps: tuple[tuple[int, float], ...]      # (seat, t) in the order they were logged
    verdict: str | None = None                # GOOD, WRONG, or None until the table taps
    slapoff: int | None = None                # who won the slap-off of a tie

    def ranked(self) -> tuple[tuple[int, float], ...]:
        """Each slapper's earliest press, earliest first (equal times: logged first)."""
        return races.ranked(self.slaps)


@dataclass(frozen=True, slots=True)
class JudgeState(Seated):
    """A judge-only game: the open (or last) race and the tallies; no cards at all."""

    setup: Setup
    race: JudgeRace | None = None
    judged: int = 0               # races the table gave a verdict on
    tallies: tuple = ()           # a Tally per seat
    notices: tuple[str, ...] = ()
    ended: str | None = None
    end_winners: tuple[int, ...] = ()

    # The same questions the card-tracking state answers (Seated), so a screen can ask either.
    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def winners(self) -> list[str]:
        return self.names(self.end_winners)

    # Nobody turns cards the companion can see.
    turn = None
    top = None
    slappable = False
    cards_turned = None

    @property
    def races(self) -> int:
        return 0 if self.race is None else self.race.number

    def tie(self) -> tuple[int, ...]:
        """Tied first presses of a race judged good (the tie window is on), else ()."""
        race = self.race
        if race is None or race.verdict != GOOD:
            return ()
        return races.tie(race.ranked(), self.setup.options.tie_window_ms)

    def winner(self) -> int | None:
        race = self.race
        if race is None or race.verdict != GOOD:
            return None
        if race.slapoff is not None:
            return race.slapoff
        return None if self.tie() else race.ranked()[0][0]

    @property
    def pending(self) -> str | None:
        """"verdict": the open race waits for the table's tap; "slapoff": a tie to settle."""
        if self.finished or self.race is None:
            return None
        if self.race.verdict is None:
            return "verdict"
        if self.tie() and self.race.slapoff is None:
            return "slapoff"
        return None


def _seat(state: JudgeState, name: object, what: str = "slap") -> int:
    seat = state.setup.seats.get(name) if isinstance(name, str) else None
    if seat is None:
        raise IllegalAction(f"{name!r} is not playing in this game (players: {', '.join(state.players)})")
    return seat


def _press(state: JudgeState, slap: object) -> tuple[int, float]:
    if not isinstance(slap, dict):
        raise IllegalAction('each slap is an object like {"player": "Ann", "t": 12.3456}')
    seat = _seat(state, slap.get("player"))
    return seat, races.press_time(slap.get("t"), state.players[seat])


def _apply(state: JudgeState, action: dict, words) -> JudgeState:
    """The state after ``action``; ``words(names)`` joins names as the rest of Slapjack does."""
    kind = action.get("type")
    if kind not in ("race", "slap", "verdict", "slapoff", "end"):
        raise IllegalAction(f"unknown action type {kind!r} for Slapjack's race judge (it has {ACTIONS})")
    if state.finished:
        raise IllegalAction("the game is over")
    players = state.players
    race = state.race
    if kind == "race":
        if state.pending == "slapoff":
            raise IllegalAction(f"{words([players[i] for i in state.tie()])} tied: record the slap-off's "
                                f"winner before the next race")
        slaps = action.get("slaps")
        if not isinstance(slaps, list) or not slaps:
            raise IllegalAction('a race needs its "slaps": [{"player": "Ann", "t": 12.3456}, ...]')
        presses = tuple(_press(state, slap) for slap in slaps)
        notices = ()
        if race is not None and race.verdict is None:
            notices = ("The last race was not judged: it counts for nobody",)
        number = 1 if race is None else race.number + 1
        return replace(state, race=JudgeRace(number, presses), notices=notices)
    if kind == "slap":
        if race is None or race.verdict is not None:
            raise IllegalAction('a slap joins the open race before its verdict; a new race starts with "race"')
        press = _press(state, action)
        return replace(state, race=replace(race, slaps=race.slaps + (press,)), notices=())
    if kind == "verdict":
        if race is None or race.verdict is not None:
            raise IllegalAction("there is no race waiting for a verdict")
        good = action.get("good")
        if not isinstance(good, bool):
            raise IllegalAction(f'a verdict says "good": true (the pile to the winner) or false (a wrong slap), '
                                f'not {good!r}')
        judged = replace(state, race=replace(race, verdict=GOOD if good else WRONG), judged=state.judged + 1)
        return _tally(judged, words)
    if kind == "slapoff":
        if state.pending != "slapoff":
            raise IllegalAction("there is no tie to settle: a slap-off follows tied slaps judged good")
        seat = _seat(state, action.get("winner"))
        tied = state.tie()
        if seat not in tied:
            raise IllegalAction(f"the slap-off is between {words([players[i] for i in tied])}, "
                                f"so {players[seat]!r} cannot win it")
        return _tally(replace(state, race=replace(race, slapoff=seat)), words)
    # end
    if state.pending == "slapoff":
        raise IllegalAction(f"{words([players[i] for i in state.tie()])} tied: record the slap-off's winner first")
    named = action.get("winners", [])
    if not isinstance(named, list):
        raise IllegalAction('"winners" must be a list of player names')
    seats = []
    for name in named:
        seat = _seat(state, name)
        if seat not in seats:
            seats.append(seat)
    return replace(state, ended="table", end_winners=tuple(seats), notices=())


def _tally(state: JudgeState, words) -> JudgeState:
    """Count a race once the table has judged it (and any tie is settled)."""
    race, players = state.race, state.players
    tallies = list(state.tallies)
    notices: list[str] = []
    if race.verdict == WRONG:
        under = state.setup.options.penalty_under_pile
        for seat, _ in race.ranked():
            tallies[seat] = replace(tallies[seat], wrong_slaps=tallies[seat].wrong_slaps + 1)
            notices.append(f"{players[seat]} slapped wrongly: a card " +
                           ("goes under the pile" if under else "to the player who turned it"))
    else:
        tied = state.tie()
        winner = state.winner()
        if winner is None:
            notices.append(f"Tie: {words([players[i] for i in tied])}: slap-off!")
        else:
            tallies[winner] = replace(tallies[winner], slaps_won=tallies[winner].slaps_won + 1)
            notices.append(f"{players[winner]} takes the pile")
    return replace(state, tallies=tuple(tallies), notices=tuple(notices))


def _race_text(state: JudgeState, words, ms) -> str:
    race, players = state.race, state.players
    if race is None:
        return ""
    ranked = race.ranked()
    if race.verdict == WRONG:
        return "Wrong slap: " + words([players[s] for s, _ in ranked])
    tied = state.tie()
    if race.slapoff is not None:
        others = [players[i] for i in tied if i != race.slapoff]
        return f"{players[race.slapoff]} wins the slap-off against {words(others)}"
    if tied:
        return "Tie: " + words([players[i] for i in tied]) + ": slap-off!"
    first_seat, first_t = ranked[0]
    rest = [f"{players[s]} +{ms((t - first_t) * 1000.0)} ms" for s, t in ranked[1:]]
    if race.verdict == GOOD:
        return f"{players[first_seat]}!" + (" " + ", ".join(rest) if rest else "")
    return f"{players[first_seat]} first" + (", " + ", ".join(rest) if rest else "")


def _race_view(state: JudgeState, words, ms) -> RaceView | None:
    race, players = state.race, state.players
    if race is None:
        return None
    ranked = race.ranked()
    first_t = ranked[0][1]
    winner = state.winner()
    wrong = tuple(players[s] for s, _ in ranked) if race.verdict == WRONG else ()
    to = "pile" if state.setup.options.penalty_under_pile else "turner"
    return RaceView(card=None, slaps=tuple(SlapView(players[s], t, round(races.gap_ms(t, first_t), 1)) for s, t in ranked),
                    winner=None if winner is None else players[winner], tie=tuple(players[i] for i in state.tie()),
                    wrong=wrong, penalties=tuple(Penalty(name, to) for name in wrong),
                    text=_race_text(state, words, ms), number=race.number, verdict=race.verdict)


def _view(state: JudgeState, options: dict, words, ms) -> JudgeView:
    return JudgeView(game="slapjack", players=tuple(state.players), feed="none", turn=None, top=None,
                     cards_turned=None, pending=state.pending, race=_race_view(state, words, ms),
                     notices=tuple(state.notices), tallies=tallies(state.players, state.tallies), options=options,
                     finished=state.finished, ended=state.ended, winners=tuple(state.winners),
                     races=state.races, judged=state.judged)


def _describe(state: JudgeState, words, ms) -> list[str]:
    lines = [f"Slapjack race judge, {len(state.players)} players, {state.races} races, {state.judged} judged"]
    for i, name in enumerate(state.players):
        tally = state.tallies[i]
        lines.append(f"  {name:<12} {tally.slaps_won} won, {tally.wrong_slaps} wrong")
    text = _race_text(state, words, ms)
    if text:
        lines.append(text)
    lines.extend(state.notices)
    if state.finished:
        lines.append("Game over: " + (words(state.winners) + " won" if state.winners else "no winner named"))
    elif state.pending == "verdict":
        lines.append("Waiting: the table says whether the slap was good or wrong")
    elif state.pending == "slapoff":
        lines.append("Waiting: the slap-off")
    return lines


RACE_GAP, SLAP_GAP = 2.0, 0.1   # seconds from the last known press to a listed race, a listed late press
TIE_WINDOWS_MS = (0, 3)          # the tie windows an example header picks between (0: off)


def _latest_time(state: JudgeState) -> float:
    race = state.race
    return max((t for _, t in race.slaps), default=0.0) if race is not None else 0.0


class SlapjackJudgeRules(Rules):
    """Slapjack's race judge: the header's ``"feed": "none"`` (companion/games/slapjack/log.md,
    "Race judge only"). It answers what the Slapjack table and screens ask of the card
    game, with no cards: nobody's turn, no next card, nothing slappable."""

    name = "slapjack"
    title = "Slapjack"
    copies = 0   # the judge sees no cards at all

    def start(self, header: dict) -> JudgeState:
        setup = read_setup(header)
        if setup.feed != "none":
            raise BadHeader('the race judge is for a header with "feed": "none"')
        if setup.options.end_after is not None:
            raise BadHeader('"end_after" counts cards, and the race judge sees none: '
                            'use it with a card feed or the screen deck')
        return JudgeState(setup, tallies=(Tally(),) * len(setup.players))

    def apply(self, state: JudgeState, action: dict) -> JudgeState:
        return _apply(state, action, _and)

    def whose_turn(self, state: JudgeState) -> None:
        return None

    def next_card(self, state: JudgeState) -> None:
        return None

    def turn_action(self, state: JudgeState, t: float | None = None) -> dict:
        raise IllegalAction("the race judge sees no cards: there are no turns to take")

    def slappable(self, state: JudgeState) -> bool:
        return False

    def finished(self, state: JudgeState) -> bool:
        return state.finished

    def outcome(self, state: JudgeState) -> Outcome | None:
        """companion/games/slapjack/log.md, "Race judge only": the table ends the game and may name
        its winners; the judge never counts cards, so it cannot name them itself."""
        if not state.finished:
            return None
        return Outcome(tuple(state.winners), "named by the table" if state.winners else "ended by the table, no winner named")

    def current_player(self, state: JudgeState) -> None:
        """Nobody's: every player may press at once, and the verdicts are the table's taps."""
        return None

    def legal_actions(self, state: JudgeState) -> list[dict]:
        """The slap-off's winner while a tie waits (only one of the tied); else the table's
        verdict on the race waiting for one and a late press joining it (any player), a new
        race opened by any one player or by all of them at once (a tie, with the tie window
        on), and the end, with or without a winner named (log.md, "Race judge only"). Press
        times come a little after the last one the state knows."""
        if state.finished:
            return []
        players = state.players
        if state.pending == "slapoff":
            return [{"type": "slapoff", "winner": players[i]} for i in state.tie()]
        latest = _latest_time(state)
        actions: list[dict] = []
        if state.pending == "verdict":
            actions += [{"type": "verdict", "good": True}, {"type": "verdict", "good": False}]
            late = round(latest + SLAP_GAP, 3)
            actions += [{"type": "slap", "player": name, "t": late} for name in players]
        t = round(latest + RACE_GAP, 3)
        actions += [{"type": "race", "slaps": [{"player": name, "t": t}]} for name in players]
        actions.append({"type": "race", "slaps": [{"player": name, "t": t} for name in players]})
        actions.append({"type": "end"})
        actions += [{"type": "end", "winners": [name]} for name in players]
        return actions

    def example_header(self, players: int | None, rng) -> dict:
        count = players or rng.randint(MIN_PLAYERS, MAX_PLAYERS)
        return {"game": self.name, "players": [f"P{i + 1}" for i in range(count)], "feed": "none",
                "options": {"tie_window_ms": rng.choice(TIE_WINDOWS_MS)}}

    def race_view(self, state: JudgeState) -> RaceView | None:
        return _race_view(state, _and, _ms)

    def race_text(self, state: JudgeState) -> str:
        return _race_text(state, _and, _ms)

    def view(self, state: JudgeState) -> JudgeView:
        return _view(state, state.setup.options.as_dict(), _and, _ms)

    def describe(self, state: JudgeState) -> list[str]:
        return _describe(state, _and, _ms)
