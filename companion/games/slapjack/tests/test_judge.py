"""Slapjack's race judge without a card feed (header "feed": "none"), the header's "feed" and
"computers" fields, and the stats across games. docs/rules.md, Slapjack: the first slap (earliest
press time, whatever order the presses reach the program in) wins; a wrong slap pays a card
(to the turner, or under the pile as a house rule); a tie window makes close presses a tie
settled by a slap-off.
"""

import json
import subprocess
from pathlib import Path

import pytest

from companion.engine import Game
from companion.errors import BadHeader, IllegalAction, LogError
from companion.games.slapjack.rules import screen_deck_header
from companion.stats import histogram, measured_average, slapjack_stats

from companion.games.slapjack.tests.test_rules import jack_companion, refused

PLAYERS = ["Ann", "Ben", "Cat"]


def judge(**options):
    return Game({"game": "slapjack", "players": PLAYERS, "options": options, "feed": "none"})


def race(game, *slaps):
    return game.push({"type": "race", "slaps": [{"player": p, "t": t} for p, t in slaps]})


def s(game):
    return game.summary()


# ------------------------------------------------------------------ the header

@pytest.mark.parametrize("header, reason", [
    ({"feed": "none", "options": {"end_after": 300}}, '"end_after" counts cards, and the race judge sees none'),
    ({"feed": "none", "options": {"calm": True}}, "calm mode is for the screen deck only"),
    ({"feed": "cards"}, '"feed" must be one of pad, reader, camera, none'),
    ({"feed": "none", "seed": 4}, 'a screen deck deals its own cards: its header has no "feed"'),
    ({"computers": {"Ben": 300}}, 'computer players need the screen deck'),
    ({"seed": 4, "computers": {"Robo": 300}}, "the computer player 'Robo' is not one of the players"),
    ({"seed": 4, "computers": {"Ben": 20}}, "Ben's reaction level must be 100 to 5000 ms"),
    ({"seed": 4, "computers": ["Ben"]}, '"computers" must map each computer player'),
])
def test_headers_the_judge_and_computers_refuse(header, reason):
    full = {"game": "slapjack", "players": PLAYERS, "options": {}, **header}
    with pytest.raises(BadHeader) as info:
        Game(full)
    assert str(info.value).startswith(reason)


def test_feed_and_computers_reach_the_summary():
    real = Game({"game": "slapjack", "players": PLAYERS, "feed": "reader"})
    assert s(real)["feed"] == "reader" and s(real)["computers"] == {}
    header = screen_deck_header(["Ann", "Robo"], seed=9)
    header["computers"] = {"Robo": 325}
    header["pace_s"] = 1.5   # the app's own field: the rules never read it
    screen = Game(header)
    assert s(screen)["computers"] == {"Robo": 325.0} and s(screen)["feed"] is None


# ------------------------------------------------------------------ races and verdicts

def test_earliest_press_first_whatever_order_they_came_in_and_a_good_verdict():
    """docs/rules.md Slapjack: the first slap is the press with the earliest edge timestamp,
    whatever order the presses reached the program in."""
    game = judge()
    race(game, ("Ben", 5.030), ("Ann", 5.007))
    assert s(game)["pending"] == "verdict"
    assert s(game)["race"]["text"] == "Ann first, Ben +23 ms"
    game.push({"type": "slap", "player": "Cat", "t": 5.147})      # a later press joins the race
    assert s(game)["race"]["text"] == "Ann first, Ben +23 ms, Cat +140 ms"
    assert [x["gap_ms"] for x in s(game)["race"]["slaps"]] == [0.0, 23.0, 140.0]
    game.push({"type": "verdict", "good": True})
    summary = s(game)
    assert summary["race"]["text"] == "Ann! Ben +23 ms, Cat +140 ms"
    assert summary["race"]["winner"] == "Ann" and summary["pending"] is None
    assert summary["notices"] == ["Ann takes the pile"]
    assert {n: t["slaps_won"] for n, t in summary["tallies"].items()} == {"Ann": 1, "Ben": 0, "Cat": 0}
    assert summary["tallies"]["Ann"]["reactions_ms"] == []        # no card: no landing time
    assert summary["stacks"] == {"Ann": None, "Ben": None, "Cat": None}
    assert refused(game, {"type": "slap", "player": "Cat", "t": 5.2}).startswith("a slap joins the open race")


def test_a_wrong_slap_costs_every_slapper_a_card_to_the_turner_or_under_the_pile():
    """docs/rules.md Slapjack: wrong slap: the slapper pays one card to the player who turned the
    slapped card; option "penalty under pile": the card goes under the middle pile."""
    game = judge()
    race(game, ("Cat", 9.0), ("Ben", 9.2))
    game.push({"type": "verdict", "good": False})
    summary = s(game)
    assert summary["race"]["text"] == "Wrong slap: Cat and Ben"
    assert summary["race"]["penalties"] == [{"from": "Cat", "to": "turner"}, {"from": "Ben", "to": "turner"}]
    assert summary["notices"] == ["Cat slapped wrongly: a card to the player who turned it",
                                  "Ben slapped wrongly: a card to the player who turned it"]
    assert [summary["tallies"][n]["wrong_slaps"] for n in PLAYERS] == [0, 1, 1]
    under = judge(penalty_under_pile=True)
    race(under, ("Ann", 3.0))
    under.push({"type": "verdict", "good": False})
    assert s(under)["race"]["penalties"] == [{"from": "Ann", "to": "pile"}]
    assert s(under)["notices"] == ["Ann slapped wrongly: a card goes under the pile"]


def test_a_race_left_unjudged_counts_for_nobody():
    game = judge()
    race(game, ("Ann", 1.0))
    race(game, ("Ben", 4.0))
    assert s(game)["notices"] == ["The last race was not judged: it counts for nobody"]
    game.push({"type": "verdict", "good": True})
    assert {n: t["slaps_won"] for n, t in s(game)["tallies"].items()} == {"Ann": 0, "Ben": 1, "Cat": 0}
    assert (s(game)["races"], s(game)["judged"]) == (2, 1)


def test_tie_window_and_slap_off():
    """docs/rules.md Slapjack: presses closer than the tie window are a tie, settled by a slap-off."""
    game = judge(tie_window_ms=5)
    race(game, ("Ann", 2.0), ("Ben", 2.002), ("Cat", 2.009))
    assert s(game)["race"]["text"] == "Ann first, Ben +2.0 ms, Cat +9.0 ms"
    game.push({"type": "verdict", "good": True})
    assert s(game)["pending"] == "slapoff"
    assert s(game)["race"]["text"] == "Tie: Ann and Ben: slap-off!"
    assert refused(game, {"type": "race", "slaps": [{"player": "Cat", "t": 7.0}]}).startswith(
        "Ann and Ben tied: record the slap-off's winner")
    assert refused(game, {"type": "end"}).startswith("Ann and Ben tied")
    assert refused(game, {"type": "slapoff", "winner": "Cat"}) == \
        "the slap-off is between Ann and Ben, so 'Cat' cannot win it"
    game.push({"type": "slapoff", "winner": "Ben"})
    assert s(game)["race"]["text"] == "Ben wins the slap-off against Ann"
    assert s(game)["race"]["winner"] == "Ben" and s(game)["tallies"]["Ben"]["slaps_won"] == 1
    # A wrong verdict on a tie needs no slap-off: everybody who slapped pays.
    wrong = judge(tie_window_ms=5)
    race(wrong, ("Ann", 2.0), ("Ben", 2.001))
    wrong.push({"type": "verdict", "good": False})
    assert s(wrong)["pending"] is None and s(wrong)["race"]["tie"] == []


def test_actions_the_judge_refuses():
    game = judge()
    assert refused(game, {"type": "verdict", "good": True}) == "there is no race waiting for a verdict"
    assert refused(game, {"type": "turn", "card": "JH"}).startswith("unknown action type 'turn'")
    assert refused(game, {"type": "race", "slaps": []}).startswith('a race needs its "slaps"')
    assert refused(game, {"type": "race", "slaps": [{"player": "Zed", "t": 1.0}]}).startswith("'Zed' is not playing")
    assert refused(game, {"type": "race", "slaps": [{"player": "Ann"}]}).startswith('a slap needs "t"')
    race(game, ("Ann", 1.0))
    assert refused(game, {"type": "verdict", "good": "yes"}).startswith('a verdict says "good": true')
    assert refused(game, {"type": "slapoff", "winner": "Ann"}).startswith("there is no tie to settle")
    with pytest.raises(IllegalAction):
        game.rules.turn_action(game.state)


def test_the_table_ends_the_game_and_names_the_winner():
    game = judge()
    race(game, ("Ann", 1.0))
    game.push({"type": "verdict", "good": True})
    game.push({"type": "end", "winners": ["Cat"]})
    summary = s(game)
    assert summary["finished"] and summary["winners"] == ["Cat"] and summary["ended"] == "table"
    assert refused(game, {"type": "race", "slaps": [{"player": "Ann", "t": 9.0}]}) == "the game is over"
    quiet = judge()
    quiet.push({"type": "end"})
    assert s(quiet)["winners"] == [] and "no winner named" in quiet.rules.describe(quiet.state)[-1]


def test_what_the_judge_lists_is_what_the_table_may_do_next():
    """docs/rules.md, Slapjack, and log.md, "Race judge only": nobody has a turn (every player
    may press at once); a race waits for the table's verdict, and late presses join it until
    then; tied presses judged good wait for the slap-off between the tied players only; the
    table may end the game at any other time, naming a winner or not."""
    game = judge(tie_window_ms=3)
    rules = game.rules
    assert rules.current_player(game.state) is None and rules.copies == 0
    kinds = lambda: sorted({a["type"] for a in rules.legal_actions(game.state)})   # noqa: E731
    assert kinds() == ["end", "race"]
    race(game, ("Ann", 5.0), ("Ben", 5.002))
    assert kinds() == ["end", "race", "slap", "verdict"]
    assert [a for a in rules.legal_actions(game.state) if a["type"] == "slap"][0]["t"] > 5.002
    game.push({"type": "verdict", "good": True})             # within 3 ms: a tie
    assert rules.legal_actions(game.state) == [{"type": "slapoff", "winner": "Ann"},
                                               {"type": "slapoff", "winner": "Ben"}]
    game.push({"type": "slapoff", "winner": "Ben"})
    assert {"type": "end", "winners": ["Cat"]} in rules.legal_actions(game.state)
    game.push({"type": "end", "winners": ["Ben"]})
    assert rules.legal_actions(game.state) == [] and rules.current_player(game.state) is None


def test_replay_of_a_judge_log(tmp_path: Path):
    log = tmp_path / "judge.jsonl"
    lines = [{"game": "slapjack", "players": ["Ann", "Ben"], "options": {}, "feed": "none"},
             {"type": "race", "slaps": [{"player": "Ben", "t": 4.512}, {"player": "Ann", "t": 4.5}]},
             {"type": "verdict", "good": True},
             {"type": "end", "winners": ["Ann"]}]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    run = subprocess.run([jack_companion(), "replay", "--json", str(log)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert {k: summary[k] for k in ("game", "turn", "top", "finished", "winners", "feed")} == {
        "game": "slapjack", "turn": None, "top": None, "finished": True, "winners": ["Ann"], "feed": "none"}
    assert summary["race"]["text"] == "Ann! Ben +12 ms"
    with pytest.raises(LogError) as info:
        Game.from_text("".join(json.dumps(line) + "\n" for line in lines[:1] + [{"type": "verdict", "good": True}]))
    assert str(info.value) == "line 2: there is no race waiting for a verdict"


# ------------------------------------------------------------------ stats across games

def finished_summary(players, tallies, winners, computers=None):
    return {"game": "slapjack", "finished": True, "winners": winners, "computers": computers or {},
            "tallies": {p: {"slaps_won": w, "wrong_slaps": x, "reactions_ms": r}
                        for p, (w, x, r) in zip(players, tallies)}}


def test_stats_add_up_people_over_finished_games_only():
    games = [
        finished_summary(["Ann", "Robo"], [(3, 1, [200.0, 250.0]), (1, 0, [300.0])], ["Ann"], {"Robo": 300}),
        finished_summary(["Ann", "Ben"], [(1, 0, [400.0]), (2, 2, [])], ["Ben"]),
        {**finished_summary(["Ann"], [(9, 9, [100.0])], []), "finished": False},   # still being played
        {"game": "jacks", "finished": True},
        None,
    ]
    stats = slapjack_stats(games)
    assert list(stats) == ["Ann", "Ben"]
    ann, ben = stats["Ann"], stats["Ben"]
    assert (ann.games, ann.wins, ann.slaps_won, ann.wrong_slaps) == (2, 1, 4, 1)
    assert (ann.average_ms, ann.best_ms) == (283.3, 200.0)
    assert ann.histogram[:7] == [0, 0, 1, 1, 0, 0, 1]      # 200 in 200-250, 250 in 250-300, 400 in 400-450
    assert (ben.average_ms, ben.best_ms, ben.histogram) == (None, None, [0] * 12)
    assert measured_average(games, "Ann") == (283.3, 3)
    assert measured_average(games, "Ben") == (None, 0)
    assert histogram([90, 1000]) == [1] + [0] * 10 + [1]


def test_a_finished_game_from_the_engine_feeds_the_stats():
    header = screen_deck_header(["Ann", "Robo"], seed=1, options={"end_after": 2},
                                deck=None)
    header["computers"] = {"Robo": 300}
    game = Game(header)
    game.push(game.rules.turn_action(game.state, t=10.0))
    game.push(game.rules.turn_action(game.state, t=12.0))
    game.push({"type": "end"})
    stats = slapjack_stats([game.summary()])
    assert list(stats) == ["Ann"] and stats["Ann"].games == 1
