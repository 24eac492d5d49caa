"""The table's memory: the roster, every game's log, crash safety, export and import."""

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from companion.engine import Game
from companion.errors import IllegalAction, LogError
from companion.session import Session
from companion.store import Store, StoreError

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
JACK_POINTS = {"JS": 7, "JH": 7, "JC": 4, "JD": 3}  # docs/rules.md Jacks: Points
REPO = Path(__file__).resolve().parent.parent


def jacks_header(target=75):
    return {"game": "jacks", "players": list(PLAYERS), "options": {"target": target}}


def rnd(js, jh, jc, jd):
    return {"type": "round", "jacks": {"JS": js, "JH": jh, "JC": jc, "JD": jd}}


def rule_points(jacks):
    """One round's points straight from docs/rules.md Jacks, to check the store's games against."""
    takers = set(jacks.values())
    if len(takers) == 1:  # all four to one player: 0 for them, 21 to every other player
        return {p: 0 if p in takers else 21 for p in PLAYERS}
    if len(takers) == 4:  # each player took exactly one Jack: 7 each
        return {p: 7 for p in PLAYERS}
    points = {p: 0 for p in PLAYERS}
    for jack, taker in jacks.items():
        points[taker] += JACK_POINTS[jack]
    return points


def rule_totals(rounds):
    totals = {p: 0 for p in PLAYERS}
    for jacks in rounds:
        for p, n in rule_points(jacks).items():
            totals[p] += n
    return totals


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "table" / "companion.sqlite3"


@pytest.fixture
def store(db_path):
    s = Store(db_path)
    yield s
    s.close()


# --- players ---------------------------------------------------------------------------------

def test_add_players_each_with_its_own_colour(store):
    added = [store.add_player(name) for name in PLAYERS]
    assert [p.name for p in store.players()] == PLAYERS
    colours = [p.colour for p in added]
    assert len(set(colours)) == 4, "the first players get colours that tell them apart"
    assert all(c.startswith("#") and len(c) == 7 for c in colours)


def test_names_are_trimmed_and_must_not_be_empty(store):
    assert store.add_player("  Ann  ").name == "Ann"
    for bad in ["", "   ", None]:
        with pytest.raises(StoreError):
            store.add_player(bad)
    with pytest.raises(StoreError):
        store.add_player("X" * 25)  # longer than a log allows
    assert [p.name for p in store.players()] == ["Ann"]


@pytest.mark.parametrize("again", ["Ann", "ann", "ANN", " aNN "])
def test_duplicate_name_refused_whatever_its_case(store, again):
    store.add_player("Ann")
    with pytest.raises(StoreError) as caught:
        store.add_player(again)
    assert "already" in str(caught.value)
    assert [p.name for p in store.players()] == ["Ann"]


def test_rename(store):
    ann = store.add_player("Ann")
    store.add_player("Ben")
    renamed = store.rename_player(ann.id, "Annie")
    assert renamed.name == "Annie" and renamed.id == ann.id and renamed.colour == ann.colour
    assert [p.name for p in store.players()] == ["Annie", "Ben"]
    # Only the case of one's own name may change; another player's name is taken.
    assert store.rename_player(ann.id, "ANNIE").name == "ANNIE"
    with pytest.raises(StoreError):
        store.rename_player(ann.id, "ben")
    assert [p.name for p in store.players()] == ["ANNIE", "Ben"]


def test_colour(store):
    ann = store.add_player("Ann")
    assert store.set_colour(ann.id, "#009E73").colour == "#009E73"
    assert store.player(ann.id).colour == "#009E73"
    assert store.colour_of("Ann") == "#009E73"


def test_players_kept_between_store_instances(db_path):
    first = Store(db_path)
    ann = first.add_player("Ann")
    ben = first.add_player("Ben", colour="#D55E00")
    first.rename_player(ann.id, "Anna")
    first.set_colour(ann.id, "#CC79A7")
    first.close()

    second = Store(db_path)
    try:
        assert [(p.name, p.colour) for p in second.players()] == [("Anna", "#CC79A7"), ("Ben", "#D55E00")]
        assert second.recovered_from is None
        with pytest.raises(StoreError):
            second.add_player("anna")
        assert second.player(ben.id).name == "Ben"
    finally:
        second.close()


# --- a game survives the process being killed -------------------------------------------------

CHILD = textwrap.dedent("""
    import random, sys, time
    from companion.session import Session
    from companion.store import Store

    path, seed = sys.argv[1], int(sys.argv[2])
    players = ["Ann", "Ben", "Cat", "Dan"]
    store = Store(path)
    # 300 rounds give at most 300 x 21 = 6300 points, so the game never ends on its own.
    session = Session.start(store, {"game": "jacks", "players": players, "options": {"target": 10000}})
    rng = random.Random(seed)
    for _ in range(300):
        jacks = {jack: rng.choice(players) for jack in ("JS", "JH", "JC", "JD")}
        session.play({"type": "round", "jacks": jacks})
        print("committed", len(session.game.actions), flush=True)
    time.sleep(120)  # wait to be killed
""")


def seeded_rounds(seed, count):
    """The rounds the child plays with this seed, in order."""
    rng = random.Random(seed)
    return [{jack: rng.choice(PLAYERS) for jack in ("JS", "JH", "JC", "JD")} for _ in range(count)]


@pytest.mark.parametrize("run", range(6))
def test_a_game_survives_the_process_being_killed(tmp_path, run):
    k = random.randint(1, 40)
    seed = random.randrange(1 << 30)
    where = f"(run {run}: killed after {k} rounds, seed {seed})"
    path = tmp_path / "companion.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(seed)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        seen = []
        for _ in range(k):
            line = child.stdout.readline()
            assert line, f"the child stopped early {where}: {child.stderr.read()}"
            seen.append(line.split())
        os.kill(child.pid, signal.SIGKILL)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    assert seen == [["committed", str(n)] for n in range(1, k + 1)]

    store = Store(path)
    try:
        assert store.recovered_from is None, where
        record = store.unfinished()
        assert record is not None, where
        assert record.status == "open" and record.players == PLAYERS
        header, actions = store.log(record.id)
        # Every round the child reported is there (it may have committed a few more before
        # the kill landed), and they are the rounds it played, in order.
        assert len(actions) >= k, where
        played = seeded_rounds(seed, len(actions))
        assert actions == [{"type": "round", "jacks": j} for j in played], where
        # Reopening shows the totals the rules give for those rounds.
        session = Session.resume(store, record.id)
        assert session.summary()["scores"] == rule_totals(played), where
        assert session.summary()["round"] == len(actions) + 1
        assert Game.from_actions(header, actions).summary() == session.summary()
        # And the game carries on from there.
        session.play(rnd("Ann", "Ann", "Ann", "Ann"))
        assert len(store.log(record.id)[1]) == len(actions) + 1
    finally:
        store.close()


# --- resume, finish, history -------------------------------------------------------------------

def test_resume_the_unfinished_game(db_path):
    store = Store(db_path)
    assert store.unfinished() is None
    session = Session.start(store, jacks_header())
    session.play(rnd("Ann", "Ben", "Cat", "Dan"))  # 7 each
    session.play(rnd("Ben", "Ben", "Cat", "Cat"))  # Ben 14, Cat 7
    store.close()

    store = Store(db_path)
    try:
        record = store.unfinished()
        assert record is not None and record.id == session.game_id
        resumed = Session.resume(store, record.id)
        # docs/rules.md Jacks: 7 + 0, 7 + 14, 7 + 7, 7 + 0; next round 3 passes across.
        assert resumed.summary()["scores"] == {"Ann": 7, "Ben": 21, "Cat": 14, "Dan": 7}
        assert resumed.summary()["round"] == 3
        assert resumed.summary()["pass"] == "across"
        assert resumed.can_undo
    finally:
        store.close()


def test_the_most_recent_open_game_is_the_one_to_resume(store):
    older = Session.start(store, jacks_header())
    older.play(rnd("Ann", "Ben", "Cat", "Dan"))
    time.sleep(0.01)
    newer = Session.start(store, jacks_header())
    newer.play(rnd("Ann", "Ben", "Cat", "Dan"))
    assert store.unfinished().id == newer.game_id
    newer.abandon()
    assert store.unfinished().id == older.game_id


def test_a_finished_game_is_kept_with_its_result_and_date(db_path):
    store = Store(db_path)
    before = time.time()
    session = Session.start(store, jacks_header(target=42))
    session.play(rnd("Ann", "Ann", "Ann", "Ann"))  # 0 21 21 21
    session.play(rnd("Ann", "Ann", "Ann", "Ann"))  # 0 42 42 42: reaches 42, over
    after = time.time()
    store.close()

    store = Store(db_path)
    try:
        assert store.unfinished() is None
        (record,) = store.games(status="finished")
        assert record.id == session.game_id
        assert record.game == "jacks" and record.players == PLAYERS
        assert record.result["finished"] is True
        assert record.result["winners"] == ["Ann"]
        assert record.result["scores"] == {"Ann": 0, "Ben": 42, "Cat": 42, "Dan": 42}
        assert before - 1 <= record.created <= after + 1
        with pytest.raises(IllegalAction):
            Session.resume(store, record.id).play(rnd("Ann", "Ben", "Cat", "Dan"))
        assert len(store.log(record.id)[1]) == 2
    finally:
        store.close()


def test_undo_of_the_winning_round_reopens_the_stored_game(store):
    session = Session.start(store, jacks_header(target=21))
    session.play(rnd("Dan", "Dan", "Dan", "Dan"))
    assert store.record(session.game_id).status == "finished"
    session.undo()
    record = store.record(session.game_id)
    assert record.status == "open" and record.result is None
    assert store.unfinished().id == session.game_id


def test_undo_removes_the_action_from_the_store(db_path):
    store = Store(db_path)
    session = Session.start(store, jacks_header())
    first = rnd("Ann", "Ben", "Cat", "Dan")
    second = rnd("Ann", "Ann", "Ben", "Ben")
    session.play(first)
    session.play(second)
    assert store.log(session.game_id)[1] == [first, second]
    assert session.undo() == second
    assert store.log(session.game_id)[1] == [first]
    session.play(rnd("Cat", "Cat", "Cat", "Cat"))  # the next action takes the undone one's place
    session.undo()
    session.undo()
    assert store.log(session.game_id)[1] == []
    assert not session.can_undo
    with pytest.raises(IllegalAction):
        session.undo()
    session.play(first)
    store.close()

    store = Store(db_path)
    try:
        game = store.load(session.game_id)
        assert game.actions == [first]
        assert game.summary()["scores"] == {p: 7 for p in PLAYERS}
    finally:
        store.close()


def test_an_illegal_action_is_not_stored(store):
    session = Session.start(store, jacks_header())
    session.play(rnd("Ann", "Ben", "Cat", "Dan"))
    with pytest.raises(IllegalAction):
        session.play({"type": "round", "jacks": {"JS": "Ann", "JH": "Eve", "JC": "Cat", "JD": "Dan"}})
    with pytest.raises(IllegalAction):
        session.play({"type": "edit", "round": 2, "jacks": rnd("Ann", "Ben", "Cat", "Dan")["jacks"]})
    assert len(store.log(session.game_id)[1]) == 1
    assert len(session.game.actions) == 1


# --- export and import -----------------------------------------------------------------------

def test_export_then_import_round_trips_to_the_same_log(store):
    session = Session.start(store, jacks_header(target=60))
    session.play(rnd("Ann", "Ben", "Cat", "Dan"))
    session.play({"type": "round", "jacks": {"J\u2660": "Ben", "jh": "Ben", "JC": "Cat", "JD": "Cat"}})
    session.play({"type": "edit", "round": 1, "jacks": {"JS": "Dan", "JH": "Dan", "JC": "Dan", "JD": "Dan"}})
    session.play(rnd("Cat", "Ann", "Ann", "Ann"))
    exported = store.export_text(session.game_id)
    lines = exported.splitlines()
    assert len(lines) == 5 and json.loads(lines[0]) == jacks_header(target=60)

    count = len(store.games())
    imported = store.import_bytes(exported.encode("utf-8"))
    assert imported != session.game_id
    assert len(store.games()) == count + 1
    assert store.export_text(imported) == exported
    assert store.load(imported).summary() == session.summary()


def test_import_of_a_hand_written_log_keeps_every_action(store):
    path = Path(__file__).parent / "logs" / "jacks-basic.jsonl"
    gid = store.import_bytes(path.read_bytes())
    exported = store.export_text(gid)
    wanted = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert [json.loads(line) for line in exported.splitlines()] == wanted
    assert store.export_text(store.import_bytes(exported.encode())) == exported


def test_import_of_a_finished_game_marks_it_finished(store):
    text = "\n".join(json.dumps(x) for x in [jacks_header(target=21), rnd("Ben", "Ben", "Ben", "Ben")]) + "\n"
    record = store.record(store.import_bytes(text.encode()))
    assert record.status == "finished" and record.result["winners"] == ["Ben"]


def test_import_of_a_bad_file_writes_nothing(store):
    Session.start(store, jacks_header()).play(rnd("Ann", "Ben", "Cat", "Dan"))
    games_before = len(store.games())
    actions_before = store.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    bad = "\n".join([
        json.dumps(jacks_header()),
        json.dumps(rnd("Ann", "Ben", "Cat", "Dan")),
        json.dumps(rnd("Ann", "Ben", "Cat", "Dan")),
        json.dumps({"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Cat"}}),
    ]) + "\n"
    with pytest.raises(LogError) as caught:
        store.import_bytes(bad.encode())
    assert caught.value.line == 4
    assert str(caught.value).startswith("line 4: ") and "JD" in str(caught.value)
    assert len(store.games()) == games_before
    assert store.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == actions_before


def test_import_of_a_file_that_is_not_text(store):
    data = (json.dumps(jacks_header()) + "\n").encode() + b"\xff\xfe junk\n"
    with pytest.raises(LogError) as caught:
        store.import_bytes(data)
    assert caught.value.line == 2
    assert store.games() == []


# --- a damaged database ----------------------------------------------------------------------

@pytest.mark.parametrize("how", ["whole file", "first page"])
def test_a_damaged_database_is_set_aside_and_a_fresh_store_opens(db_path, how):
    store = Store(db_path)
    store.add_player("Ann")
    Session.start(store, jacks_header()).play(rnd("Ann", "Ben", "Cat", "Dan"))
    store.close()
    size = db_path.stat().st_size
    junk = random.Random(7).randbytes(size if how == "whole file" else 4096)
    with open(db_path, "r+b") as f:
        f.write(junk)

    fresh = Store(db_path)
    try:
        assert fresh.recovered_from is not None
        assert fresh.recovered_from.exists()
        assert fresh.recovered_from != db_path
        assert fresh.recovered_from.read_bytes()[: len(junk)] == junk, "the damaged file is kept as it was"
        assert fresh.players() == []
        assert fresh.games() == []
        assert fresh.unfinished() is None
        fresh.add_player("Ann")
        assert [p.name for p in fresh.players()] == ["Ann"]
    finally:
        fresh.close()
    again = Store(db_path)
    try:
        assert again.recovered_from is None
        assert [p.name for p in again.players()] == ["Ann"]
    finally:
        again.close()


def test_delete_game_removes_it_and_its_actions_and_nothing_else(db_path):
    """History deletes a game (after the table confirms): its record and its log go, every
    other game stays as it was, and the next action numbers start afresh for new games."""
    store = Store(db_path)
    try:
        kept = Session.start(store, jacks_header())
        kept.play(rnd("Ann", "Ben", "Cat", "Dan"))
        gone = Session.start(store, jacks_header())
        gone.play(rnd("Ben", "Ben", "Ben", "Ben"))
        store.delete_game(gone.game_id)
        assert [r.id for r in store.games()] == [kept.game_id]
        assert store.unfinished().id == kept.game_id
        with pytest.raises(StoreError, match=f"there is no game {gone.game_id}"):
            store.log(gone.game_id)
        (left,) = store.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (gone.game_id,)).fetchone()
        assert left == 0, "the deleted game's actions go with it"
        assert store.log(kept.game_id)[1] == [rnd("Ann", "Ben", "Cat", "Dan")]
    finally:
        store.close()


def test_games_are_stamped_by_the_stores_clock(tmp_path):
    """Home and History show when a game was started and left: the store's wall clock says."""
    now = [1_000.0]
    store = Store(tmp_path / "games.sqlite", clock=lambda: now[0])
    try:
        game_id = store.new_game(jacks_header())
        now[0] = 2_000.0
        store.abandon(game_id)
        record = store.record(game_id)
        assert (record.created, record.updated, record.status) == (1_000.0, 2_000.0, "abandoned")
    finally:
        store.close()
