"""Computer-only games, to see how long games run: ``jack-companion simulate slapjack``.

Each game is a screen-deck game played by computer players with the default reaction
model, through the same engine and the same actions the app logs. Game ``i`` of a run uses
a seed drawn from ``--seed``, so a run is repeatable and any one game can be replayed.

A game that nobody has won after :data:`CAP` cards is ended by the table (an ``end``
action), and then the most cards wins, as the rules say of a game the table ends early.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, replace

from companion.engine import Game
from companion.errors import GameError
from companion.games.slapjack.rules import MAX_PLAYERS, MIN_PLAYERS, SlapjackRules, screen_deck_header
from companion.games.slapjack.bots import ReactionModel, grab_presses, plan_presses, plan_slapoff

CAP = 5000                 # cards; long enough that few games reach it
SECONDS_BETWEEN_CARDS = 1.0
SETTLE_SECONDS = 0.3       # after the last press, before the next card lands


@dataclass(frozen=True)
class GameResult:
    number: int
    seed: int
    cards_turned: int
    winners: tuple[str, ...]
    capped: bool
    game: Game | None = None

    @property
    def winner(self) -> str | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def as_json(self) -> dict:
        return {"game": self.number, "seed": self.seed, "cards_turned": self.cards_turned,
                "winner": self.winner, "winners": list(self.winners), "capped": self.capped}


def seat_names(players: int) -> list[str]:
    return [f"Seat {i + 1}" for i in range(players)]


def play_game(players: int, seed: int, options: dict | None = None, cap: int = CAP,
              models: dict[str, ReactionModel] | None = None, number: int = 1) -> GameResult:
    """Play one computer-only game to its end (or to ``cap`` cards, then ``end``)."""
    names = seat_names(players)
    models = models or {name: ReactionModel() for name in names}
    game = Game(screen_deck_header(names, seed, options), SlapjackRules())
    rules = game.rules
    rng = random.Random(seed)  # the players' hands; the deck's shuffles are the engine's own
    now = 0.0

    capped = False
    while not game.finished:
        state = game.state
        pending = state.pending
        if pending == "slapoff":
            tied = [state.players[i] for i in state.verdict.tie]
            presses = plan_slapoff(tied, models, rng, now + 1.0)
            game.push({"type": "slapoff", "winner": presses[0].player})
            now = presses[-1].t + SETTLE_SECONDS
        elif pending == "slap":
            presses = grab_presses(state, models, rng, now)
            for press in presses:
                game.push(press.action())
                if game.finished:
                    break
            now = (presses[-1].t if presses else now) + SETTLE_SECONDS
        elif pending == "end" or state.cards_turned >= cap:
            capped = pending != "end"
            game.push({"type": "end"})
        else:
            game.push(rules.turn_action(state, t=now))
            last = now
            for press in plan_presses(game.state, models, rng, now):
                game.push(press.action())
                last = press.t
                if game.finished:
                    break
            now = max(now + SECONDS_BETWEEN_CARDS, last + SETTLE_SECONDS)
    state = game.state
    return GameResult(number, seed, state.cards_turned, tuple(state.winners), capped, game)


def percentile(values: list[int], fraction: float) -> float:
    """Linear interpolation between the nearest ranks (as spreadsheets do).

    >>> percentile([10, 20, 30, 40], 0.5)
    25.0
    >>> percentile([7], 0.9)
    7.0
    """
    ordered = sorted(values)
    position = (len(ordered) - 1) * fraction
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (position - low), 1)


def summarize(results: list[GameResult], players: int) -> dict:
    lengths = [r.cards_turned for r in results]
    wins = {name: 0 for name in seat_names(players)}
    for result in results:
        for name in result.winners:  # a shared win counts for each player sharing it
            wins[name] += 1
    return {
        "summary": True,
        "games": len(results),
        "players": players,
        "median": percentile(lengths, 0.5),
        "p10": percentile(lengths, 0.1),
        "p90": percentile(lengths, 0.9),
        "shortest": min(lengths),
        "longest": max(lengths),
        "capped": sum(r.capped for r in results),
        "cap": CAP,
        "wins": wins,
    }


def simulate_main(args: argparse.Namespace) -> int:
    if args.game != "slapjack":
        raise GameError(f"simulate does not know {args.game!r} yet")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        raise GameError(f"Slapjack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {args.players}")
    if args.games < 1:
        raise GameError(f"--games must be at least 1, not {args.games}")
    seeds = random.Random(args.seed)
    results = []
    for number in range(1, args.games + 1):
        # Keep only the result: each game's states are dropped as soon as it is counted.
        result = replace(play_game(args.players, seeds.randrange(2**32), number=number), game=None)
        results.append(result)
        if args.json:
            print(json.dumps(result.as_json()))
        else:
            who = " and ".join(result.winners)
            how = f" (stopped at {CAP}: most cards)" if result.capped else ""
            print(f"game {number}: {result.cards_turned} cards turned, won by {who}{how}")
    summary = summarize(results, args.players)
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['games']} games of {args.players} players: cards turned median {summary['median']:g}, "
              f"10th percentile {summary['p10']:g}, 90th percentile {summary['p90']:g}"
              + (f"; {summary['capped']} stopped at {CAP} cards" if summary["capped"] else ""))
        total = summary["games"]
        print("wins per seat: " + ", ".join(f"{name} {count} ({100 * count / total:.0f}%)"
                                           for name, count in summary["wins"].items()))
    sys.stdout.flush()
    return 0
