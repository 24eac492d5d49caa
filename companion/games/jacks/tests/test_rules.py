"""Jacks as docs/rules.md ("Jacks") states it, checked through the engine and the real command.

Every expected number below is worked out by hand from the rules quoted in each test's
docstring, never copied from the program's output.

Long on purpose: one test per rule of the section, each quoting it.
"""

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import Game
from companion.errors import IllegalAction, LogError

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
LOGS = Path(__file__).resolve().parents[4] / "tests" / "logs"   # the saved games every test shares


def header(target=None, players=PLAYERS):
    head = {"game": "jacks", "players": list(players)}
    if target is not None:
        head["options"] = {"target": target}
    return head


def rnd(js, jh, jc, jd):
    """A round action: who took JS, JH, JC and JD."""
    return {"type": "round", "jacks": {"JS": js, "JH": jh, "JC": jc, "JD": jd}}


def edit(number, js, jh, jc, jd):
    return {"type": "edit", "round": number, "jacks": {"JS": js, "JH": jh, "JC": jc, "JD": jd}}


def all_to(name):
    return rnd(name, name, name, name)


EACH_ONE = rnd("Ann", "Ben", "Cat", "Dan")


def play(*actions, target=None):
    game = Game(header(target))
    for action in actions:
        game.push(action)
    return game


def pts(ann, ben, cat, dan):
    return {"Ann": ann, "Ben": ben, "Cat": cat, "Dan": dan}


def jsonl(*lines):
    return "\n".join(line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) for line in lines) + "\n"


# --- scoring -------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "jacks, expected",
    [
        # JS 7 + JC 4 to Ann = 11; JH 7 to Ben; JD 3 to Cat; Dan none.
        (("Ann", "Ben", "Ann", "Cat"), pts(11, 7, 3, 0)),
        # JS 7 + JD 3 to Dan = 10; JH 7 + JC 4 to Cat = 11.
        (("Dan", "Cat", "Cat", "Dan"), pts(0, 0, 11, 10)),
        # JS 7 to Ben; JH 7 to Ann; JC 4 + JD 3 to Dan = 7 (three takers: not "one each").
        (("Ben", "Ann", "Dan", "Dan"), pts(7, 7, 0, 7)),
    ],
)
def test_ordinary_split_scores_each_jack(jacks, expected):
    """docs/rules.md Jacks: Points: JS 7, JH 7, JC 4, JD 3 (21 a round)."""
    game = play(rnd(*jacks))
    assert game.summary()["scores"] == expected
    assert game.summary()["rounds"] == [expected]
    assert sum(expected.values()) == 21


@pytest.mark.parametrize("taker", PLAYERS)
def test_all_four_to_one_player(taker):
    """docs/rules.md Jacks: All four to one player: that player 0, every other player 21."""
    game = play(all_to(taker))
    expected = {p: 0 if p == taker else 21 for p in PLAYERS}
    assert game.summary()["scores"] == expected
    assert game.summary()["rounds"] == [expected]


@pytest.mark.parametrize(
    "jacks",
    [
        ("Ann", "Ben", "Cat", "Dan"),
        ("Dan", "Cat", "Ben", "Ann"),  # Ann has only JD (3 normally), Dan JS (7 normally)
        ("Cat", "Dan", "Ann", "Ben"),
        ("Ben", "Ann", "Dan", "Cat"),
    ],
)
def test_each_player_one_jack_is_seven_each(jacks):
    """docs/rules.md Jacks: Each player took exactly one Jack: every player 7."""
    game = play(rnd(*jacks))
    assert game.summary()["scores"] == pts(7, 7, 7, 7)


@pytest.mark.parametrize(
    "jacks, expected",
    [
        # Ann JS+JH = 14, Ben JC+JD = 7
        (("Ann", "Ann", "Ben", "Ben"), pts(14, 7, 0, 0)),
        # Ann JS+JC = 11, Ben JH+JD = 10
        (("Ann", "Ben", "Ann", "Ben"), pts(11, 10, 0, 0)),
        # Ann JS+JD = 10, Ben JH+JC = 11
        (("Ann", "Ben", "Ben", "Ann"), pts(10, 11, 0, 0)),
        # Cat JH+JC = 11, Dan JS+JD = 10
        (("Dan", "Cat", "Cat", "Dan"), pts(0, 0, 11, 10)),
    ],
)
def test_two_two_splits(jacks, expected):
    """docs/rules.md Jacks: Points: JS 7, JH 7, JC 4, JD 3; a two-two split is neither special case."""
    assert play(rnd(*jacks)).summary()["scores"] == expected


@pytest.mark.parametrize(
    "jacks, expected",
    [
        # Ann JS+JH+JC = 18, Ben JD 3
        (("Ann", "Ann", "Ann", "Ben"), pts(18, 3, 0, 0)),
        # Ann JS+JH+JD = 17, Ben JC 4
        (("Ann", "Ann", "Ben", "Ann"), pts(17, 4, 0, 0)),
        # Ann JS+JC+JD = 14, Ben JH 7
        (("Ann", "Ben", "Ann", "Ann"), pts(14, 7, 0, 0)),
        # Dan JH+JC+JD = 14, Cat JS 7
        (("Cat", "Dan", "Dan", "Dan"), pts(0, 0, 7, 14)),
    ],
)
def test_three_to_one_player(jacks, expected):
    """docs/rules.md Jacks: Points: JS 7, JH 7, JC 4, JD 3; three Jacks to one player is not 'all four'."""
    assert play(rnd(*jacks)).summary()["scores"] == expected


def test_totals_add_up_round_by_round():
    """docs/rules.md Jacks: Points: JS 7, JH 7, JC 4, JD 3; the totals are the sum of the rounds."""
    game = play(
        rnd("Ann", "Ben", "Ann", "Cat"),  # 11 7 3 0
        all_to("Ben"),  # 21 0 21 21
        EACH_ONE,  # 7 7 7 7
    )
    summary = game.summary()
    assert summary["rounds"] == [pts(11, 7, 3, 0), pts(21, 0, 21, 21), pts(7, 7, 7, 7)]
    assert summary["scores"] == pts(39, 14, 31, 28)
    assert summary["round"] == 4


# --- passing ---------------------------------------------------------------------------------

PASS_BY_ROUND = {
    1: "left", 2: "right", 3: "across", 4: "none",
    5: "left", 6: "right", 7: "across", 8: "none",
    9: "left", 10: "right", 11: "across", 12: "none",
}


@pytest.mark.parametrize("number, direction", sorted(PASS_BY_ROUND.items()))
def test_pass_for_each_round(number, direction):
    """docs/rules.md Jacks: Passing by round number r (from 1): r mod 4 = 1 pass 3 left, 2 right, 3 across, 0 none."""
    # A high target, so eleven rounds of 7 each do not end the game.
    game = play(*[EACH_ONE] * (number - 1), target=1000)
    summary = game.summary()
    assert summary["round"] == number
    assert summary["pass"] == direction
    assert not summary["finished"]


# --- the target ------------------------------------------------------------------------------

def test_default_target_75_ends_the_game_after_the_round_that_passes_it():
    """docs/rules.md Jacks: The game ends after a round in which someone reaches the target (option, 75)."""
    game = play(all_to("Ann"), all_to("Ann"), all_to("Ann"))
    # 3 x 21 = 63 for Ben, Cat and Dan: under 75, the game goes on.
    assert game.summary()["scores"] == pts(0, 63, 63, 63)
    assert not game.finished
    assert game.summary()["winners"] == []
    game.push(all_to("Ann"))
    # 84 >= 75: over after this round; Ann has the fewest (0) and wins.
    summary = game.summary()
    assert summary["scores"] == pts(0, 84, 84, 84)
    assert summary["finished"] is True
    assert summary["winners"] == ["Ann"]


def test_reaching_the_target_exactly_ends_the_game():
    """docs/rules.md Jacks: ... someone reaches the target (option, 75); fewest points wins."""
    three = rnd("Ben", "Ben", "Ben", "Cat")  # Ben 18, Cat 3
    game = play(three, three, three, three)
    assert game.summary()["scores"] == pts(0, 72, 12, 0)
    assert not game.finished  # 72 < 75
    game.push(rnd("Ann", "Cat", "Cat", "Ben"))  # Ann JS 7, Cat JH+JC 11, Ben JD 3: 72 + 3 = 75
    summary = game.summary()
    assert summary["scores"] == pts(7, 75, 23, 0)
    assert summary["finished"] is True
    assert summary["winners"] == ["Dan"]


def test_custom_target_option():
    """docs/rules.md Jacks: The game ends after a round in which someone reaches the target (option, 75)."""
    rounds = [all_to("Ann"), EACH_ONE, rnd("Ann", "Cat", "Dan", "Cat")]
    # Round by round: (0 21 21 21), (7 28 28 28), then Ann JS 7, Cat JH+JD 10, Dan JC 4:
    # (14 28 38 32).
    low = play(*rounds[:2], target=30)
    assert low.summary()["scores"] == pts(7, 28, 28, 28)
    assert not low.finished  # 28 < 30, not before
    low.push(rounds[2])
    assert low.summary()["scores"] == pts(14, 28, 38, 32)
    assert low.finished
    assert low.summary()["winners"] == ["Ann"]
    assert low.summary()["target"] == 30
    # The same rounds are nowhere near the default 75.
    default = play(*rounds)
    assert not default.finished
    assert default.summary()["target"] == 75


def test_no_rounds_after_the_game_is_over():
    """docs/rules.md Jacks: The game ends after a round in which someone reaches the target."""
    game = play(all_to("Ann"), target=21)  # 21 for the others: over
    assert game.finished
    before = game.summary()
    with pytest.raises(IllegalAction) as caught:
        game.push(EACH_ONE)
    assert "over" in str(caught.value)
    assert game.summary() == before
    assert len(game.actions) == 1
    # The same refusal from a log, on the line of the extra round.
    with pytest.raises(LogError) as caught:
        Game.from_text(jsonl(header(21), all_to("Ann"), EACH_ONE))
    assert caught.value.line == 3


def test_undo_of_the_last_round_reopens_a_finished_game():
    """docs/rules.md Jacks: the game ends after the round that reaches the target; undo removes that round."""
    game = play(EACH_ONE, all_to("Dan"), target=28)
    # (7 7 7 7) + (21 21 21 0) = (28 28 28 7): over, Dan wins.
    assert game.finished and game.summary()["winners"] == ["Dan"]
    game.pop()
    assert not game.finished
    assert game.summary()["scores"] == pts(7, 7, 7, 7)
    game.push(EACH_ONE)  # (14 14 14 14): under 28
    assert not game.finished


# --- ties --------------------------------------------------------------------------------------

def test_equal_fewest_share_the_win():
    """docs/rules.md Jacks: fewest points wins; equal fewest share the win."""
    game = play(rnd("Ann", "Ann", "Ben", "Ben"), target=14)
    # Ann 14 reaches the target; Cat and Dan have 0 each, the fewest.
    assert game.summary()["scores"] == pts(14, 7, 0, 0)
    assert game.summary()["winners"] == ["Cat", "Dan"]


def test_all_four_level_all_four_share_the_win():
    """docs/rules.md Jacks: equal fewest share the win."""
    game = play(EACH_ONE, EACH_ONE, target=14)
    assert game.summary()["scores"] == pts(14, 14, 14, 14)
    assert game.finished
    assert game.summary()["winners"] == PLAYERS


def test_a_tie_for_most_is_not_a_shared_win():
    """docs/rules.md Jacks: fewest points wins."""
    game = play(rnd("Ann", "Ben", "Cat", "Cat"), target=7)
    # Ann 7, Ben 7, Cat 7 (JC 4 + JD 3), Dan 0: Dan alone.
    assert game.summary()["scores"] == pts(7, 7, 7, 0)
    assert game.summary()["winners"] == ["Dan"]


# --- edit and undo refold --------------------------------------------------------------------

def test_edit_an_earlier_round_refolds_totals_and_history():
    """docs/rules.md Jacks: Points: JS 7, JH 7, JC 4, JD 3; all four to one player: 0, others 21."""
    game = play(
        EACH_ONE,  # 7 7 7 7
        rnd("Ann", "Ann", "Ben", "Cat"),  # Ann 14, Ben 4, Cat 3
        all_to("Dan"),  # 21 21 21 0
    )
    assert game.summary()["scores"] == pts(42, 32, 31, 7)
    game.push(edit(2, "Dan", "Dan", "Dan", "Dan"))
    summary = game.summary()
    assert summary["rounds"] == [pts(7, 7, 7, 7), pts(21, 21, 21, 0), pts(21, 21, 21, 0)]
    assert summary["scores"] == pts(49, 49, 49, 7)
    assert summary["round"] == 4  # an edit is not a new round
    assert summary["pass"] == "none"
    assert not summary["finished"]
    # Undo of the edit puts round 2 back as it was.
    game.pop()
    summary = game.summary()
    assert summary["rounds"] == [pts(7, 7, 7, 7), pts(14, 4, 3, 0), pts(21, 21, 21, 0)]
    assert summary["scores"] == pts(42, 32, 31, 7)


TARGET_30_ROUNDS = [
    EACH_ONE,  # 7 7 7 7        totals 7 7 7 7
    rnd("Ann", "Ann", "Ann", "Ben"),  # Ann 18, Ben 3   totals 25 10 7 7
    rnd("Ben", "Cat", "Cat", "Cat"),  # Ben 7, Cat 14   totals 25 17 21 7
]


def test_an_edit_can_finish_the_game():
    """docs/rules.md Jacks: The game ends after a round in which someone reaches the target."""
    game = play(*TARGET_30_ROUNDS, target=30)
    assert game.summary()["scores"] == pts(25, 17, 21, 7)
    assert not game.finished
    # Round 2 becomes all four to Dan: totals after round 2 are 28 28 28 7 (under 30),
    # after round 3: 28 35 42 7, so the game is over with Dan the winner.
    game.push(edit(2, "Dan", "Dan", "Dan", "Dan"))
    summary = game.summary()
    assert summary["scores"] == pts(28, 35, 42, 7)
    assert summary["finished"] is True
    assert summary["winners"] == ["Dan"]
    with pytest.raises(IllegalAction):
        game.push(EACH_ONE)
    # Undo of the edit: the game is open again.
    game.pop()
    assert not game.finished
    assert game.summary()["scores"] == pts(25, 17, 21, 7)


def test_an_edit_can_reopen_a_finished_game():
    """docs/rules.md Jacks: The game ends after a round in which someone reaches the target."""
    game = play(EACH_ONE, all_to("Ann"), target=28)  # 7 28 28 28: over
    assert game.finished
    game.push(edit(2, "Ann", "Ben", "Cat", "Dan"))  # round 2 now 7 each: 14 14 14 14
    assert not game.finished
    assert game.summary()["winners"] == []
    game.push(EACH_ONE)
    assert game.summary()["scores"] == pts(21, 21, 21, 21)


def test_an_edit_that_would_have_ended_the_game_earlier_is_refused():
    """docs/rules.md Jacks: The game ends after a round in which someone reaches the target, so no
    corrected history may have a round after the one that ended it."""
    game = play(*TARGET_30_ROUNDS, target=30)
    before = game.summary()
    # Round 1 as all four to Dan: after round 1 21 21 21 0, after round 2 39 24 21 0:
    # Ann at 39 >= 30 would have ended the game after round 2, yet round 3 was played.
    with pytest.raises(IllegalAction) as caught:
        game.push(edit(1, "Dan", "Dan", "Dan", "Dan"))
    assert "round 2" in str(caught.value)
    assert game.summary() == before
    assert len(game.actions) == 3


# --- bad logs --------------------------------------------------------------------------------

GOOD_HEAD = json.dumps(header())


def refused(text):
    with pytest.raises(LogError) as caught:
        Game.from_text(text)
    error = caught.value
    assert str(error) == f"line {error.line}: {error.reason}"
    assert "Traceback" not in str(error)
    return error


@pytest.mark.parametrize("bad", ["QS", "XX", "10H", "JJ"])
def test_unknown_jack(bad):
    """docs/rules.md Jacks: The round ends when all four Jacks have been played (JS, JH, JC, JD)."""
    text = jsonl(GOOD_HEAD, EACH_ONE, {"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", bad: "Cat", "JD": "Dan"}})
    error = refused(text)
    assert error.line == 3
    assert bad in error.reason and "not a Jack" in error.reason


def test_a_jack_given_twice():
    """docs/rules.md Jacks: the companion records who took each Jack (each Jack is taken once)."""
    text = jsonl(GOOD_HEAD, {"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "J\u2660": "Cat", "JD": "Dan"}})
    error = refused(text)
    assert error.line == 2
    assert "JS" in error.reason and "twice" in error.reason


def test_a_jack_not_given():
    """docs/rules.md Jacks: The round ends when all four Jacks have been played."""
    text = jsonl(GOOD_HEAD, EACH_ONE, EACH_ONE, {"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Cat"}})
    error = refused(text)
    assert error.line == 4
    assert "JD" in error.reason


def test_no_jacks_at_all():
    """docs/rules.md Jacks: the companion records who took each Jack."""
    error = refused(jsonl(GOOD_HEAD, {"type": "round"}))
    assert error.line == 2
    assert "jacks" in error.reason


def test_an_unknown_player():
    """docs/rules.md Jacks: exactly 4 players; a Jack is taken by one of them."""
    error = refused(jsonl(GOOD_HEAD, rnd("Ann", "Ben", "Eve", "Dan")))
    assert error.line == 2
    assert "Eve" in error.reason


@pytest.mark.parametrize("players", [["Ann", "Ben", "Cat"], ["Ann", "Ben", "Cat", "Dan", "Eve"]])
def test_wrong_player_count(players):
    """docs/rules.md Jacks: trick-taking, exactly 4 players."""
    error = refused(jsonl(header(players=players), EACH_ONE))
    assert error.line == 1
    assert "4 players" in error.reason and str(len(players)) in error.reason


def test_malformed_json_names_its_line_counting_blank_lines():
    """The game log: blank lines are skipped but counted, so errors point at the line in an editor."""
    text = "\n\n" + GOOD_HEAD + "\n\n" + json.dumps(EACH_ONE) + "\n" + '{"type": "round", "jacks": {"JS": "Ann",\n'
    error = refused(text)
    assert error.line == 6
    assert "JSON" in error.reason


def test_malformed_header_is_line_one():
    error = refused('{"game": "jacks", "players": ["Ann"\n' + json.dumps(EACH_ONE))
    assert error.line == 1


@pytest.mark.parametrize(
    "number, shown",
    [(0, "0"), (5, "5"), ("2", "'2'"), (-1, "-1"), (None, "None"), (True, "True")],
)
def test_an_edit_of_a_round_that_does_not_exist(number, shown):
    """docs/rules.md Jacks: rounds count from 1; only a round that was played can be corrected."""
    text = jsonl(GOOD_HEAD, EACH_ONE, EACH_ONE, {"type": "edit", "round": number, "jacks": EACH_ONE["jacks"]})
    error = refused(text)
    assert error.line == 4
    assert f"no round {shown}" in error.reason
    assert "rounds 1 to 2" in error.reason


def test_an_edit_before_any_round():
    error = refused(jsonl(GOOD_HEAD, {"type": "edit", "round": 1, "jacks": EACH_ONE["jacks"]}))
    assert error.line == 2
    assert "no rounds" in error.reason


def test_an_edit_with_a_bad_jack_is_refused_on_its_line():
    text = jsonl(GOOD_HEAD, EACH_ONE, {"type": "edit", "round": 1, "jacks": {"JS": "Ann", "JH": "Ann", "JC": "Ann"}})
    error = refused(text)
    assert error.line == 3 and "JD" in error.reason


def test_an_unknown_action_type():
    error = refused(jsonl(GOOD_HEAD, EACH_ONE, {"type": "deal", "cards": 13}))
    assert error.line == 3
    assert "deal" in error.reason


def test_an_action_without_a_type():
    error = refused(jsonl(GOOD_HEAD, {"jacks": EACH_ONE["jacks"]}))
    assert error.line == 2
    assert "type" in error.reason


def test_an_unknown_option():
    """docs/rules.md Jacks: the target (option, 75) is the only option."""
    head = header(75)
    head["options"]["jokers"] = True
    error = refused(jsonl(head, EACH_ONE))
    assert error.line == 1
    assert "jokers" in error.reason


@pytest.mark.parametrize("target", ["75", 7.5, True, None, [75], 0, -10])
def test_a_target_that_is_not_a_whole_number_of_points(target):
    """docs/rules.md Jacks: the target (option, 75) is a number of points."""
    head = {"game": "jacks", "players": PLAYERS, "options": {"target": target}}
    error = refused(jsonl(head, EACH_ONE))
    assert error.line == 1
    assert "target" in error.reason and repr(target) in error.reason


def test_an_unknown_game_and_an_empty_file():
    error = refused(jsonl({"game": "bridge", "players": PLAYERS}))
    assert error.line == 1 and "bridge" in error.reason
    error = refused("\n\n")
    assert error.line == 1 and "empty" in error.reason


def test_card_spellings_are_accepted_in_a_log():
    """Cards are read in any accepted spelling (J♠, js); docs/rules.md Jacks: JS 7, JH 7, JC 4, JD 3."""
    text = jsonl(GOOD_HEAD, {"type": "round", "jacks": {"j\u2660": "Ann", "J\u2665": "Ann", "jc": "Ben", "Jd": "Ben"}})
    assert Game.from_text(text).summary()["scores"] == pts(14, 7, 0, 0)


def test_log_text_round_trips_whatever_the_player_names_contain():
    """A saved game's lines are split on newlines only, so a name that holds another kind of
    line break (JSON allows it inside a string) does not cut its line in two."""
    names = ["Ann", "B\u2028en", "C\x85at", "D\x0can"]
    game = Game({"game": "jacks", "players": names})
    game.push({"type": "round", "jacks": {"JS": names[0], "JH": names[0], "JC": names[1], "JD": names[1]}})
    again = Game.from_text(game.to_jsonl())
    assert again.summary() == game.summary()
    assert Game.from_bytes(game.to_jsonl().encode()).summary() == game.summary()


def test_line_numbers_agree_between_text_and_bytes():
    text = GOOD_HEAD + "\n\x0c\n" + json.dumps(EACH_ONE) + "\n" + json.dumps(rnd("Ann", "Ben", "Eve", "Dan")) + "\n"
    from_text = refused(text)
    with pytest.raises(LogError) as from_bytes:
        Game.from_bytes(text.encode())
    assert from_text.line == from_bytes.value.line == 4


# --- hand-written logs through the real command --------------------------------------------

def jack_companion():
    beside = Path(sys.executable).with_name("jack-companion")
    found = str(beside) if beside.exists() else shutil.which("jack-companion")
    assert found, "the jack-companion command is not installed (pip install -e .)"
    return found


def replay(path):
    return subprocess.run([jack_companion(), "replay", "--json", str(path)],
                          capture_output=True, text=True, timeout=60)


# Each expected result is worked out by hand from docs/rules.md, round by round.
EXPECTED_REPLAYS = {
    # R1 each player one Jack: 7 7 7 7.
    # R2 all four to Ann: Ann 0, the others 21.
    # R3 Ben JS+JH = 14, Cat JC+JD = 7.
    # Totals: Ann 7, Ben 42, Cat 35, Dan 28. Nobody at 75. Next is round 4: 4 mod 4 = 0, no pass.
    "jacks-basic.jsonl": {
        "game": "jacks", "round": 4, "pass": "none", "target": 75,
        "scores": pts(7, 42, 35, 28),
        "rounds": [pts(7, 7, 7, 7), pts(0, 21, 21, 21), pts(0, 14, 7, 0)],
        "finished": False, "winners": [],
    },
    # Default target 75.
    # R1-R4 all four to Ann, Ben, Cat, Dan in turn: each ends with 3 x 21 = 63.
    # R5 each one Jack: 70 70 70 70 (under 75, the game goes on).
    # R6 Ann JS+JH = 14, Ben JC+JD = 7: Ann 84, Ben 77, Cat 70, Dan 70.
    # Ann is past 75: over. Cat and Dan share the fewest (70). Next round 7: 7 mod 4 = 3, across.
    "jacks-shared-win.jsonl": {
        "game": "jacks", "round": 7, "pass": "across", "target": 75,
        "scores": pts(84, 77, 70, 70),
        "rounds": [pts(0, 21, 21, 21), pts(21, 0, 21, 21), pts(21, 21, 0, 21), pts(21, 21, 21, 0),
                   pts(7, 7, 7, 7), pts(14, 7, 0, 0)],
        "finished": True, "winners": ["Cat", "Dan"],
    },
    # Target 50; a blank line 2; Jacks written with symbols and lower case.
    # R1 each one Jack (7 each), R2 Ben JS+JH+JC = 18, Ann JD 3.
    # Edit R1: Cat JS+JH = 14, Dan JC+JD = 7, so R1 is 0 0 14 7.
    # R3 all four to Cat: 21 21 0 21.
    # Totals: Ann 0+3+21 = 24, Ben 0+18+21 = 39, Cat 14+0+0 = 14, Dan 7+0+21 = 28.
    # Nobody at 50. Three rounds played (the edit is not a round): next is round 4, no pass.
    "jacks-edited.jsonl": {
        "game": "jacks", "round": 4, "pass": "none", "target": 50,
        "scores": pts(24, 39, 14, 28),
        "rounds": [pts(0, 0, 14, 7), pts(3, 18, 0, 0), pts(21, 21, 0, 21)],
        "finished": False, "winners": [],
    },
    # Target 30.
    # R1 all four to Ann: 0 21 21 21. R2 each one Jack: 7 28 28 28 (under 30).
    # R3 Ann JS 7, Cat JH+JD 10, Dan JC 4 (three takers, an ordinary split): 14 28 38 32.
    # Cat is past 30: over; Ann alone has the fewest. Next round 4: no pass.
    "jacks-custom-target.jsonl": {
        "game": "jacks", "round": 4, "pass": "none", "target": 30,
        "scores": pts(14, 28, 38, 32),
        "rounds": [pts(0, 21, 21, 21), pts(7, 7, 7, 7), pts(7, 0, 10, 4)],
        "finished": True, "winners": ["Ann"],
    },
}


@pytest.mark.parametrize("name", sorted(EXPECTED_REPLAYS))
def test_replay_of_hand_written_logs(name):
    result = replay(LOGS / name)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, "replay --json prints one JSON object"
    shown = json.loads(lines[0])
    expected = EXPECTED_REPLAYS[name]
    assert {key: shown.get(key) for key in expected} == expected


@pytest.mark.parametrize("name", sorted(EXPECTED_REPLAYS))
def test_hand_written_logs_agree_with_the_engine(name):
    game = Game.from_bytes((LOGS / name).read_bytes())
    expected = EXPECTED_REPLAYS[name]
    assert {key: game.summary()[key] for key in expected} == expected


def test_replay_of_a_bad_log():
    # Line 4 (after a blank line 3) gives JS twice, once written as J♠.
    result = replay(LOGS / "jacks-bad-jack-twice.jsonl")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("line 4: ")
    assert "JS" in lines[0] and "twice" in lines[0]


def test_replay_of_a_missing_file(tmp_path):
    result = replay(tmp_path / "nothing-here.jsonl")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1


def random_game(seed: int, limit: int = 40) -> Game:
    """Random but legal rounds (and now and then an edit of an earlier one) until the game ends."""
    rng = random.Random(seed)
    game = Game(header(rng.choice([None, 30, 60])))
    for _ in range(limit):
        if game.finished:
            break
        rounds = len(game.state.rounds)
        taker = lambda: rng.choice(PLAYERS)  # noqa: E731
        action = (edit(rng.randint(1, rounds), taker(), taker(), taker(), taker())
                  if rounds and rng.random() < 0.2 else rnd(taker(), taker(), taker(), taker()))
        try:
            game.push(action)
        except IllegalAction:   # an edit that would have ended the game earlier: play a round instead
            game.push(rnd(taker(), taker(), taker(), taker()))
    return game
