"""Slapjack: turn cards onto one pile and race to slap the Jacks (docs/rules.md, "Slapjack").

Two ways to feed the same rules (the race judge without a card feed, ``"feed": "none"``,
has its own rules class in companion/games/slapjack/judge.py, chosen from the header):

- **Real deck**: players turn real cards; each ``turn`` action names the card that landed.
  The won piles are shuffled by hand, so the companion knows only how many cards each
  stack holds, never their order. No seed is needed.
- **Screen deck**: the header carries ``"seed"`` (and optionally the ``"deck"`` order). The
  companion deals, knows every stack card by card, and shuffles each won pile with its own
  small generator keyed by the seed, so the same log always replays the same game.

A card's race is every slap logged after it lands and before the next card. The state
always shows the race settled with the slaps heard so far (the earliest timestamp wins,
whatever order the slaps were logged in); the next ``turn`` or ``end`` closes it.

At about 650 lines this module is over the usual size on purpose: settling a race (the table
after its slaps) and the rules class that feeds it are one piece. What both ways to play
share is already apart: the header in slapjack_header.py, race ranking, ties and press times
in slapjack_races.py, the race judge in slapjack_judge.py.

>>> from companion.engine import Game
>>> game = Game({"game": "slapjack", "players": ["Ann", "Ben"]})
>>> _ = game.push({"type": "turn", "card": "7H"})
>>> _ = game.push({"type": "turn", "card": "JS", "t": 10.0})
>>> _ = game.push({"type": "slap", "player": "Ben", "t": 10.31})
>>> _ = game.push({"type": "slap", "player": "Ann", "t": 10.29})
>>> game.summary()["stacks"], game.summary()["race"]["text"]
({'Ann': 27, 'Ben': 25}, 'Ann! Ben +20 ms')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.cards import CardError, full_deck, parse_card
from companion.errors import BadHeader, IllegalAction
from companion.rules import Outcome, Rules
from companion.games.slapjack.game_view import CardsView, Penalty, RaceView, SlapView, tallies
from companion.games.slapjack import races
from companion.games.slapjack.header import (  # noqa: F401  (the names callers have always imported from here)
    BOOLEAN_OPTIONS, DECK_SIZE, DEFAULTS, FEEDS, MAX_END_AFTER, MAX_LEVEL_MS, MAX_PLAYERS, MAX_SEED,
    MAX_TIE_WINDOW_MS, MIN_LEVEL_MS, MIN_PLAYERS, Options, Seated, Setup, Tally, read_options, read_setup)
from companion.games.slapjack.judge import SlapjackJudgeRules

ACTIONS = '"turn", "slap", "slapoff" and "end"'

# Why a game ended (summary "ended").
LAST_PLAYER = "last player in"
BY_COUNT = "card count"
BY_TABLE = "table"


# ---------------------------------------------------------------- the screen deck's shuffles

_MASK = (1 << 64) - 1


def _shuffled(cards: tuple[str, ...], seed: int, number: int) -> tuple[str, ...]:
    """Shuffle number ``number`` of a screen-deck game (0 is the deal, then each won pile).

    A fixed splitmix64 generator rather than :mod:`random`, so a saved game replays the
    same on any Python version.
    """
    x = (seed ^ ((number + 1) * 0xD1B54A32D192ED03)) & _MASK
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def shuffled_deck(seed: int) -> list[str]:
    """The deck a screen-deck game with this seed and no ``"deck"`` deals, in dealing order."""
    return list(_shuffled(tuple(str(c) for c in full_deck()), seed, 0))


def screen_deck_header(players: list[str], seed: int, options: dict | None = None,
                       deck: list[str] | None = None) -> dict:
    """The header of a screen-deck game. The UI picks the seed (e.g. from the system's
    randomness); ``deck`` fixes the deal instead of shuffling it from the seed."""
    header: dict = {"game": "slapjack", "players": list(players), "options": dict(options or {}), "seed": seed}
    if deck is not None:
        header["deck"] = [str(parse_card(c)) for c in deck]
    return header


def deal_counts(players: int) -> tuple[int, ...]:
    """Stack sizes after dealing 52 cards one at a time from left of the dealer.

    >>> deal_counts(5)
    (11, 11, 10, 10, 10)
    """
    return tuple(DECK_SIZE // players + (1 if seat < DECK_SIZE % players else 0) for seat in range(players))


def deal_stacks(deck: tuple[str, ...], players: int) -> tuple[tuple[str, ...], ...]:
    """Each player's stack, top card first. ``deck[0]`` goes to the first player, ``deck[1]``
    to the next, and so on; each card lands on top of the last, so the last card dealt to a
    player is the first they turn."""
    return tuple(tuple(reversed(deck[seat::players])) for seat in range(players))


def rank(code: str) -> str:
    return code[:-1]


# ---------------------------------------------------------------- the state

@dataclass(frozen=True, slots=True)
class Table:
    """Where the cards are. Stacks are counts; a screen deck also knows each stack's cards."""

    counts: tuple[int, ...]
    out: tuple[bool, ...]
    stacks: tuple[tuple[str, ...], ...] | None  # top card first; None for a real deck
    pile: tuple[str, ...] = ()                   # turned cards, bottom first, since the pile was last won
    under: tuple[str | None, ...] = ()           # penalty cards under the pile (None: a real card nobody saw)
    last_turner: int | None = None
    shuffles: int = 0                            # won piles shuffled so far (screen deck)
    tallies: tuple[Tally, ...] = ()
    champion: int | None = None                  # the one player still in: the game is won


@dataclass(frozen=True, slots=True)
class Race:
    """The top card and the slaps logged since it landed."""

    card: str
    turner: int
    slappable: bool
    landed: float | None = None               # the turn's "t", when the table knows it
    slaps: tuple[tuple[int, float], ...] = ()  # (seat, t) in the order they were logged
    slapoff: int | None = None                # who won the slap-off of a tie
    tied: tuple[int, ...] = ()                # the tie that slap-off settled


@dataclass(frozen=True, slots=True)
class Verdict:
    """The race settled with the slaps heard so far."""

    ranked: tuple[tuple[int, float], ...] = ()  # each slapper's earliest press, earliest first
    winner: int | None = None                  # took the pile
    tie: tuple[int, ...] = ()                  # tied first presses (a slap-off decides)
    wrong: tuple[int, ...] = ()                # wrong slappers, in press order
    penalties: tuple[tuple[int, int | None], ...] = ()  # (payer, receiver; None: under the pile)
    notices: tuple[str, ...] = ()


NO_VERDICT = Verdict()


@dataclass(frozen=True, slots=True)
class SlapjackState(Seated):
    setup: Setup
    table: Table              # what everyone sees: the current race settled so far
    base: Table               # the table as the top card landed, before its slaps
    race: Race | None = None  # None until the first card is turned
    verdict: Verdict = NO_VERDICT
    cards_turned: int = 0
    notices: tuple[str, ...] = ()  # what the last turn brought (a covered Jack, a last card)
    ended: str | None = None
    end_winners: tuple[int, ...] = ()

    # What the screen asks, in names (``players`` and ``names`` come from Seated).
    @property
    def finished(self) -> bool:
        return self.ended is not None or self.table.champion is not None

    @property
    def winners(self) -> list[str]:
        return self.names([self.table.champion] if self.table.champion is not None else self.end_winners)

    @property
    def top(self) -> str | None:
        return self.table.pile[-1] if self.table.pile else None

    @property
    def slappable(self) -> bool:
        """A card worth slapping shows and nobody has won it yet."""
        race = self.race
        return bool(race and race.slappable and self.verdict.winner is None and not self.finished)

    @property
    def pending(self) -> str | None:
        """What the game waits for besides the next card: "slapoff", "slap" or "end"."""
        if self.finished:
            return None
        if self.verdict.tie and self.race and self.race.slapoff is None:
            return "slapoff"
        if self.setup.options.end_after is not None and self.cards_turned >= self.setup.options.end_after:
            return "end"
        if _next_turner(self.table) is None:
            return "slap"
        return None

    @property
    def turn(self) -> str | None:
        """Whose turn it is to turn a card, or None while the game waits for something else."""
        if self.pending is not None or self.finished:
            return None
        seat = _next_turner(self.table)
        return None if seat is None else self.players[seat]

    @property
    def stacks(self) -> dict[str, int]:
        return dict(zip(self.players, self.table.counts))

    @property
    def out(self) -> list[str]:
        return [p for p, o in zip(self.players, self.table.out) if o]

    @property
    def waiting(self) -> list[str]:
        """Out of cards but still in: their last chance is the next slap card somebody wins."""
        t = self.table
        return [p for i, p in enumerate(self.players) if not t.out[i] and t.counts[i] == 0]


def _next_turner(table: Table) -> int | None:
    """The next player clockwise after the last turner who has a card (turns skip the others)."""
    counts = table.counts
    n = len(counts)
    start = 0 if table.last_turner is None else table.last_turner + 1
    for k in range(n):
        seat = (start + k) % n
        if counts[seat] and not table.out[seat]:
            return seat
    return None


def is_slap_card(card: str, before: str | None, options: Options) -> bool:
    """Whether ``card`` may be slapped, ``before`` being the card turned just before it
    on the pile (None right after a pile was won; penalty cards never count).

    >>> is_slap_card("QH", None, Options())
    False
    >>> is_slap_card("QH", None, Options(queens_too=True))
    True
    >>> is_slap_card("7H", "7S", Options(doubles_too=True))
    True
    """
    r = rank(card)
    if r == "J" or (r == "Q" and options.queens_too):
        return True
    return bool(options.doubles_too and before is not None and rank(before) == r)


# ---------------------------------------------------------------- settling a race

def _settle(setup: Setup, base: Table, race: Race | None) -> tuple[Table, Verdict]:
    """The table after the race's slaps, and the verdict; ``base`` is as the card landed."""
    if race is None:
        return base, NO_VERDICT
    if not race.slaps and (race.slappable or any(base.counts)):
        return base, NO_VERDICT  # most cards: nobody slapped and nobody has run dry
    players = setup.players
    options = setup.options
    ranked = races.ranked(race.slaps)

    counts = list(base.counts)
    out = list(base.out)
    stacks = list(base.stacks) if base.stacks is not None else None
    tallies = list(base.tallies)
    pile, under = base.pile, base.under
    shuffles = base.shuffles
    champion = None
    winner = None
    tie: tuple[int, ...] = ()
    wrong: list[int] = []
    penalties: list[tuple[int, int | None]] = []
    notices: list[str] = []

    def alive() -> list[int]:
        return [i for i in range(len(players)) if not out[i]]

    if race.slappable and ranked:
        if race.slapoff is not None:
            winner, tie = race.slapoff, race.tied
        else:
            tie = races.tie(ranked, options.tie_window_ms)
            if not tie:
                winner = ranked[0][0]
        if race.landed is not None:
            for seat, t in ranked:
                reaction = round((t - race.landed) * 1000.0, 1)
                if reaction >= 0:
                    old = tallies[seat]
                    tallies[seat] = replace(old, reactions_ms=old.reactions_ms + (reaction,))
        if winner is not None:
            won = under + pile
            was_waiting = counts[winner] == 0
            counts[winner] += len(won)
            if stacks is not None:
                shuffles += 1
                stacks[winner] = stacks[winner] + _shuffled(won, setup.seed, shuffles)
            old = tallies[winner]
            tallies[winner] = replace(old, slaps_won=old.slaps_won + 1, cards_won=old.cards_won + len(won))
            pile, under = (), ()
            if was_waiting:
                notices.append(f"{players[winner]} is back in with {len(won)} cards")
            for seat in alive():
                if counts[seat] == 0:  # waiting: their last chance went to somebody else
                    out[seat] = True
                    notices.append(f"{players[seat]} is out")
            if len(alive()) == 1:
                champion = winner
    elif not race.slappable:
        for seat, _ in ranked:
            if champion is not None:
                break  # pressed after the press that ended the game
            wrong.append(seat)
            old = tallies[seat]
            if counts[seat] == 0:
                tallies[seat] = replace(old, wrong_slaps=old.wrong_slaps + 1)
                if options.out_on_wrong_slap:
                    out[seat] = True
                    notices.append(f"{players[seat]} slapped while out of cards: {players[seat]} is out")
                else:
                    notices.append(f"{players[seat]} slapped wrongly with no card to pay")
            else:
                tallies[seat] = replace(old, wrong_slaps=old.wrong_slaps + 1, cards_paid=old.cards_paid + 1)
                counts[seat] -= 1
                card = None
                if stacks is not None:
                    card, stacks[seat] = stacks[seat][0], stacks[seat][1:]
                to = race.turner
                if to == seat or options.penalty_under_pile or out[to]:
                    under = under + (card,)
                    penalties.append((seat, None))
                    notices.append(f"{players[seat]} slapped wrongly: a card goes under the pile")
                else:
                    counts[to] += 1
                    if stacks is not None:
                        stacks[to] = stacks[to] + (card,)
                    penalties.append((seat, to))
                    notices.append(f"{players[seat]} slapped wrongly and pays {players[to]} a card")
                    if counts[to] == 1:
                        notices.append(f"{players[to]} is back in with 1 card")
            if len(alive()) == 1:
                champion = alive()[0]

    if champion is None and not race.slappable and pile and not any(counts[i] for i in alive()):
        # Everyone still in has turned their last card and no slap card shows: the player
        # who turned the last card takes the pile back; anyone waiting keeps their chance.
        taker = race.turner
        while out[taker]:  # they slapped their own card while waiting: the next player in takes it
            taker = (taker + 1) % len(players)
        counts[taker] = len(under) + len(pile)
        if stacks is not None:  # turned face down as it lies: the bottom card is now on top
            stacks[taker] = tuple(reversed(under)) + pile
        notices.append(f"Nobody has a card left: {players[taker]} takes the pile back ({counts[taker]} cards)")
        pile, under = (), ()
    if champion is not None and (pile or under):
        # The last player in gathers whatever is left in the middle.
        counts[champion] += len(pile) + len(under)
        if stacks is not None:
            stacks[champion] = stacks[champion] + tuple(reversed(under)) + pile
        pile, under = (), ()

    table = Table(tuple(counts), tuple(out), tuple(stacks) if stacks is not None else None, pile, under,
                  base.last_turner, shuffles, tuple(tallies), champion)
    verdict = Verdict(ranked, winner, tie, tuple(wrong), tuple(penalties), tuple(notices))
    return table, verdict


_and = races.and_words
_ms = races.ms_text


# ---------------------------------------------------------------- the rules

class SlapjackRules(Rules):
    name = "slapjack"
    title = "Slapjack"

    # -- the header

    def start(self, header: dict) -> SlapjackState:
        setup = read_setup(header)
        if setup.feed == "none":
            raise BadHeader('the race judge ("feed": "none") has its own rules: SlapjackJudgeRules')
        n = len(setup.players)
        if setup.seed is None:
            counts, stacks = deal_counts(n), None
        else:
            dealt = setup.deck if setup.deck is not None else _shuffled(tuple(str(c) for c in full_deck()),
                                                                        setup.seed, 0)
            stacks = deal_stacks(dealt, n)
            counts = tuple(len(s) for s in stacks)
        table = Table(counts, (False,) * n, stacks, tallies=(Tally(),) * n)
        return SlapjackState(setup, table, table)

    # -- what the screen and the computer players ask

    def whose_turn(self, state: SlapjackState) -> str | None:
        return state.turn

    def next_card(self, state: SlapjackState) -> str | None:
        """Screen deck: the card the next turn will show (None for a real deck, or no turn)."""
        seat = None if state.turn is None else state.setup.seats[state.turn]
        if seat is None or state.table.stacks is None:
            return None
        return state.table.stacks[seat][0]

    def turn_action(self, state: SlapjackState, t: float | None = None) -> dict:
        """Screen deck: the next ``turn`` action, card included so the log reads on its own."""
        card = self.next_card(state)
        if card is None:
            raise IllegalAction(self._why_no_turn(state))
        action: dict = {"type": "turn", "card": card}
        if t is not None:
            action["t"] = t
        return action

    def slappable(self, state: SlapjackState) -> bool:
        return state.slappable

    def finished(self, state: SlapjackState) -> bool:
        return state.finished

    def outcome(self, state: SlapjackState) -> Outcome | None:
        """docs/rules.md, "Slapjack": the last player in wins; a game ended by count (or by the
        table) is won by the most cards among those still in, equal counts sharing the win."""
        if not state.finished:
            return None
        reason = {LAST_PLAYER: "last player in", BY_COUNT: "most cards when the count ran out",
                  BY_TABLE: "most cards when the table ended the game"}
        return Outcome(tuple(state.winners), reason[LAST_PLAYER if state.table.champion is not None else state.ended])

    # -- what may be played

    def current_player(self, state: SlapjackState) -> str | None:
        """Whose turn it is to turn a card (anyone still in may slap meanwhile); None while a
        slap-off or the end waits, or once the game is over."""
        return state.turn

    def legal_actions(self, state: SlapjackState) -> list[dict]:
        """The next card (a screen deck's own; with a real deck each card not in the pile), a
        slap by each player still in, the slap-off's winner while a tie waits, and the end once
        the count runs out. Times come a little after the last one the state knows. The table's
        early "end" is its own decision, not a move of play, so it is not listed before then."""
        if state.finished:
            return []
        if state.pending == "slapoff":
            return [{"type": "slapoff", "winner": state.players[i]} for i in state.verdict.tie]
        now = _latest_time(state)
        actions: list[dict] = []
        if state.turn is not None:
            t = round(now + TURN_GAP, 3)
            if state.table.stacks is not None:
                actions.append(self.turn_action(state, t=t))
            else:
                pile = set(state.table.pile)
                actions += [{"type": "turn", "card": card, "t": t} for card in _DECK if card not in pile]
        if state.race is not None:
            t = round(now + SLAP_GAP, 3)
            actions += [{"type": "slap", "player": p, "t": t}
                        for p, out in zip(state.players, state.base.out) if not out]
        if state.pending == "end":
            actions.append({"type": "end"})
        return actions

    def cards_out(self, state: SlapjackState) -> dict[str, int]:
        return {card: state.table.pile.count(card) for card in set(state.table.pile)}

    def example_header(self, players: int | None, rng) -> dict:
        names = [f"P{i + 1}" for i in range(players or rng.randint(MIN_PLAYERS, MAX_PLAYERS))]
        options = {"end_after": rng.choice([20, 60])} if rng.random() < 0.5 else None
        if rng.random() < 0.5:
            return screen_deck_header(names, rng.randrange(2**32), options)
        return {"game": self.name, "players": names, **({"options": options} if options else {})}

    # -- actions

    def apply(self, state: SlapjackState, action: dict) -> SlapjackState:
        kind = action.get("type")
        if kind not in ("turn", "slap", "slapoff", "end"):
            raise IllegalAction(f"unknown action type {kind!r} for Slapjack (it has {ACTIONS})")
        if state.finished and not (kind == "slap" and self._may_still_count(state, action)):
            raise IllegalAction("the game is over: " + self._result_words(state))
        if kind == "turn":
            return self._turn(state, action)
        if kind == "slap":
            return self._slap(state, action)
        if kind == "slapoff":
            return self._slapoff(state, action)
        return self._end(state)

    def _may_still_count(self, state: SlapjackState, action: dict) -> bool:
        """A slap logged after the press that ended the game, on the card that ended it, is
        part of that card's race like any other (docs/rules.md, "Slapjack"; companion/games/slapjack/log.md):
        ranked by its time, it changes nothing if later, and takes the win if earlier. So the
        last race settles the same whatever order its presses were logged in. Only a game the
        table ended with "end" closes its last race."""
        return state.ended is None and state.table.champion is not None and state.race is not None

    def _result_words(self, state: SlapjackState) -> str:
        names = state.winners
        if not names:
            return "nobody won"
        return _and(names) + (" share the win" if len(names) > 1 else " won")

    def _why_no_turn(self, state: SlapjackState) -> str:
        pending = state.pending
        if state.finished:
            return "the game is over: " + self._result_words(state)
        if pending == "slapoff":
            return (f"{_and([state.players[i] for i in state.verdict.tie])} tied on {state.race.card}: "
                    f"record the slap-off's winner before the next card")
        if pending == "end":
            return (f"the game ends after {state.setup.options.end_after} cards: only slaps on the last card "
                    f"can follow, then end the game")
        return f"nobody has a card to turn: the {state.top} on top must be slapped"

    def _turn(self, state: SlapjackState, action: dict) -> SlapjackState:
        setup = state.setup
        who = state.turn
        if who is None:
            raise IllegalAction(self._why_no_turn(state))
        table = state.table
        seat = setup.seats[who]
        named = action.get("player")
        if named is not None and named != who:
            raise IllegalAction(f"it is {who}'s turn to turn a card, not {named}'s")
        given = action.get("card")
        if given is not None:
            try:
                given = str(parse_card(given))
            except CardError as exc:
                raise IllegalAction(str(exc)) from None
        if table.stacks is not None:
            card = table.stacks[seat][0]
            if given is not None and given != card:
                raise IllegalAction(f"{who}'s top card is {card}, not {given}")
        else:
            if given is None:
                raise IllegalAction('a turn needs the card that landed, e.g. {"type": "turn", "card": "JH"}')
            if given in table.pile:
                raise IllegalAction(f"{given} is already in the pile: one deck has only one {given}")
            card = given
        landed = action.get("t")
        if landed is not None and not races.is_time(landed):
            raise IllegalAction(f'a turn\'s "t" is when the card landed, in seconds, not {landed!r}')

        notices = []
        race = state.race
        if race is not None and race.slappable and state.verdict.winner is None and table.pile:
            notices.append(f"{race.card} covered: it can no longer be won")
        pile = table.pile
        slappable = is_slap_card(card, pile[-1] if pile else None, setup.options)
        counts = list(table.counts)
        counts[seat] -= 1
        stacks = table.stacks
        if stacks is not None:
            stacks = stacks[:seat] + (stacks[seat][1:],) + stacks[seat + 1:]
        if counts[seat] == 0:
            notices.append(f"{who} turned their last card: one last chance at the next {setup.slap_word}")
        base = Table(tuple(counts), table.out, stacks, pile + (card,), table.under, seat, table.shuffles,
                     table.tallies, None)
        race = Race(card, seat, slappable, landed)
        settled, verdict = _settle(setup, base, race)
        return SlapjackState(setup, settled, base, race, verdict, state.cards_turned + 1, tuple(notices))

    def _slap(self, state: SlapjackState, action: dict) -> SlapjackState:
        setup = state.setup
        name = action.get("player")
        seat = setup.seats.get(name) if isinstance(name, str) else None
        if seat is None:
            raise IllegalAction(f"{name!r} is not playing in this game (players: {', '.join(setup.players)})")
        if state.base.out[seat]:
            raise IllegalAction(f"{name} is out of the game and cannot slap")
        t = races.press_time(action.get("t"), name)
        race = state.race
        if race is None:
            raise IllegalAction("nothing has been turned yet: there is no card to slap")
        race = replace(race, slaps=race.slaps + ((seat, float(t)),))
        table, verdict = _settle(setup, state.base, race)
        return replace(state, table=table, race=race, verdict=verdict)

    def _slapoff(self, state: SlapjackState, action: dict) -> SlapjackState:
        setup = state.setup
        if state.pending != "slapoff":
            raise IllegalAction("there is no tie to settle: a slap-off follows tied slaps only")
        tied = state.verdict.tie
        name = action.get("winner")
        seat = setup.seats.get(name) if isinstance(name, str) else None
        if seat not in tied:
            raise IllegalAction(f"the slap-off is between {_and([setup.players[i] for i in tied])}, "
                                f"so {name!r} cannot win it")
        race = replace(state.race, slapoff=seat, tied=tied)
        table, verdict = _settle(setup, state.base, race)
        return replace(state, table=table, race=race, verdict=verdict)

    def _end(self, state: SlapjackState) -> SlapjackState:
        if state.pending == "slapoff":
            raise IllegalAction(self._why_no_turn(state))
        table = state.table
        # Most cards wins among the players still in; the middle pile belongs to nobody.
        alive = [i for i, o in enumerate(table.out) if not o]
        most = max(table.counts[i] for i in alive)
        winners = tuple(i for i in alive if table.counts[i] == most)
        reason = BY_COUNT if state.pending == "end" else BY_TABLE
        return replace(state, ended=reason, end_winners=winners)

    # -- what replay prints

    def race_view(self, state: SlapjackState) -> RaceView | None:
        race = state.race
        if race is None:
            return None
        players = state.players
        verdict = state.verdict
        first_t = verdict.ranked[0][1] if verdict.ranked else None
        slaps = tuple(SlapView(players[seat], t, round((t - first_t) * 1000.0, 1),
                               None if race.landed is None else round((t - race.landed) * 1000.0, 1))
                      for seat, t in verdict.ranked)
        return RaceView(card=race.card, slaps=slaps,
                        winner=None if verdict.winner is None else players[verdict.winner],
                        tie=tuple(players[i] for i in verdict.tie), wrong=tuple(players[i] for i in verdict.wrong),
                        penalties=tuple(Penalty(players[a], "pile" if b is None else players[b])
                                        for a, b in verdict.penalties),
                        text=self.race_text(state), turner=players[race.turner], slappable=race.slappable)

    def race_text(self, state: SlapjackState) -> str:
        """The verdict as the screen says it: "Ann! Ben +23 ms, Cat +140 ms"."""
        race, verdict, players = state.race, state.verdict, state.players
        if race is None:
            return ""
        if not verdict.ranked:
            return f"{race.card}: slap it!" if state.slappable else ""
        if verdict.tie and verdict.winner is None:
            return "Tie: " + _and([players[i] for i in verdict.tie]) + ": slap-off!"
        if race.slapoff is not None:
            others = [players[i] for i in race.tied if i != race.slapoff]
            return f"{players[race.slapoff]} wins the slap-off against {_and(others)}"
        if verdict.winner is not None:
            first_t = dict(verdict.ranked)[verdict.winner]
            rest = [f"{players[s]} +{_ms((t - first_t) * 1000.0)} ms" for s, t in verdict.ranked
                    if s != verdict.winner]
            return f"{players[verdict.winner]}!" + (" " + ", ".join(rest) if rest else "")
        if race.slappable:
            return ""
        return "Wrong slap: " + _and([players[i] for i in verdict.wrong])

    def view(self, state: SlapjackState) -> CardsView:
        table, players, options = state.table, state.players, state.setup.options
        end_after = options.end_after
        return CardsView(
            game=self.name, players=tuple(players), feed=state.setup.feed, turn=state.turn, top=state.top,
            cards_turned=state.cards_turned, pending=state.pending, race=self.race_view(state),
            notices=tuple(state.notices) + tuple(state.verdict.notices), tallies=tallies(players, table.tallies),
            options=options.as_dict(), finished=state.finished,
            ended=LAST_PLAYER if table.champion is not None else state.ended, winners=tuple(state.winners),
            stacks=state.stacks, pile=len(table.pile) + len(table.under), under=len(table.under),
            slappable=state.slappable, out=tuple(state.out), waiting=tuple(state.waiting),
            cards_left=None if end_after is None else max(0, end_after - state.cards_turned),
            screen_deck=state.setup.screen, computers=dict(state.setup.computers))

    def describe(self, state: SlapjackState) -> list[str]:
        table = state.table
        lines = [f"Slapjack, {len(state.players)} players, {state.cards_turned} cards turned"
                 + (f" of {state.setup.options.end_after}" if state.setup.options.end_after else "")]
        for i, name in enumerate(state.players):
            tally = table.tallies[i]
            status = " (out)" if table.out[i] else " (out of cards: last chance)" if table.counts[i] == 0 else ""
            lines.append(f"  {name:<12} {table.counts[i]:>3} cards, {tally.slaps_won} won, "
                         f"{tally.wrong_slaps} wrong{status}")
        pile = len(table.pile) + len(table.under)
        lines.append(f"Pile {pile}" + (f", top {state.top}" if state.top else ""))
        text = self.race_text(state)
        if text:
            lines.append(text)
        lines.extend(state.notices + state.verdict.notices)
        if state.finished:
            lines.append("Game over: " + self._result_words(state))
        elif state.turn is not None:
            lines.append(f"Next: {state.turn} turns")
        else:
            lines.append("Waiting: " + self._why_no_turn(state))
        return lines


TURN_GAP, SLAP_GAP = 1.0, 0.25   # seconds from the last known time to a listed turn, a listed slap
_DECK = tuple(str(card) for card in full_deck())


def _latest_time(state: SlapjackState) -> float:
    race = state.race
    if race is None:
        return 0.0
    times = [t for _, t in race.slaps] + ([race.landed] if race.landed is not None else [])
    return max(times, default=0.0)


def rules_for_header(header) -> type[Rules]:
    """The race judge when the header says no cards reach the companion, else the card game."""
    return SlapjackJudgeRules if header.get("feed") == "none" else SlapjackRules
