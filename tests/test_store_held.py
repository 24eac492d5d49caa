"""Writes held to the frame (``Store.holding``): an action written inside is durable only once
``commit_held`` runs (the app runs it just before the buffer swap of the frame that shows it), any
other write commits it first, and a commit that fails takes every held action back and says so."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from companion.session import Session
from companion.store import Store, StoreError

ROUND = {"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Cat", "JD": "Dan"}}
HEADER = {"game": "jacks", "players": ["Ann", "Ben", "Cat", "Dan"], "options": {"target": 75}}


def stored(path, game_id) -> int:
    """How many actions another process would find (a fresh connection: what survives a kill)."""
    other = sqlite3.connect(path)
    try:
        return other.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
    finally:
        other.close()


def one_round_then_two_held(store: Store) -> Session:
    """A Jacks game with one round committed and two more held."""
    session = Session.start(store, HEADER)
    session.play(ROUND)
    with store.holding():
        session.play(ROUND)
        session.play(ROUND)
    return session


def test_held_actions_are_durable_only_once_committed(tmp_path):
    path = tmp_path / "t.sqlite3"
    store = Store(path)
    try:
        session = one_round_then_two_held(store)
        assert store.held and len(session.game.actions) == 3
        assert stored(path, session.game_id) == 1, "held: a kill now loses them, and they were never shown"
        store.commit_held()
        assert not store.held and stored(path, session.game_id) == 3
        store.commit_held()   # nothing held: nothing to do
    finally:
        store.close()


def test_any_other_write_or_closing_commits_what_is_held_first(tmp_path):
    path = tmp_path / "t.sqlite3"
    store = Store(path)
    session = Session.start(store, HEADER)
    with store.holding():
        session.play(ROUND)
    session.undo()                        # a write of its own: the held round goes first, then is undone
    assert stored(path, session.game_id) == 0 and not store.held
    with store.holding():
        session.play(ROUND)
    store.add_player("Eve")
    assert stored(path, session.game_id) == 1
    with store.holding():
        session.play(ROUND)
    store.close()
    assert stored(path, session.game_id) == 2
    reopened = Store(path)
    try:
        assert reopened.log(session.game_id)[1] == [ROUND, ROUND]
    finally:
        reopened.close()


@contextlib.contextmanager
def store_on(tmp_path, monkeypatch, connection: type[sqlite3.Connection]):
    """A store at a new path whose connection is of class ``connection`` (and its path), closed
    after with its commits working again."""
    path = tmp_path / "t.sqlite3"
    real_connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real_connect(*a, **{**k, "factory": connection}))
    store = Store(path)
    try:
        yield path, store
    finally:
        FailingCommits.fail = False
        store.close()


class FailingCommits(sqlite3.Connection):
    fail = False

    def __exit__(self, kind, value, tb):
        if kind is None and FailingCommits.fail:
            raise sqlite3.OperationalError("disk I/O error")
        return super().__exit__(kind, value, tb)


def test_a_held_commit_that_fails_takes_every_held_action_back_and_says_so(tmp_path, monkeypatch):
    with store_on(tmp_path, monkeypatch, FailingCommits) as (path, store):
        session = one_round_then_two_held(store)
        FailingCommits.fail = True
        with pytest.raises(StoreError, match="could not be saved"):
            store.commit_held()
        FailingCommits.fail = False
        assert not store.held and not store.db.in_transaction
        assert store.log(session.game_id)[1] == [ROUND], "the held rounds are gone, the one before them kept"
        session.play(ROUND)                  # the store goes on working
        assert stored(path, session.game_id) == 2


class SlowCommits(sqlite3.Connection):
    """Every commit takes a while, as on an SD card, and says when it ended."""

    ended: list[str] = []

    def __exit__(self, kind, value, tb):
        import time

        try:
            return super().__exit__(kind, value, tb)
        finally:
            time.sleep(0.15)
            SlowCommits.ended.append("commit")


def test_a_commit_started_in_the_background_keeps_every_other_write_after_it(tmp_path, monkeypatch):
    with store_on(tmp_path, monkeypatch, SlowCommits) as (path, store):
        session = one_round_then_two_held(store)
        SlowCommits.ended.clear()
        store.start_commit()
        assert store.committing and not store.held, "on its way, and nothing is held any more"
        assert SlowCommits.ended == [], "start_commit returned without waiting for the card"
        session.play(ROUND)                  # a write of its own: waits for the commit in flight
        assert SlowCommits.ended == ["commit", "commit"]
        assert not store.committing, "the commit is over, and nothing failed"
        assert stored(path, session.game_id) == 4
        store.settle()                       # nothing failed: nothing to say
        assert not store.committing


def failing_in_the_background(store: Store) -> Session:
    """A Jacks game with one round committed, and the commit of two more started and failing."""
    session = one_round_then_two_held(store)
    FailingCommits.fail = True
    store.start_commit()
    return session


def test_a_background_commit_that_fails_is_told_once_and_refuses_writes_until_then(tmp_path, monkeypatch):
    with store_on(tmp_path, monkeypatch, FailingCommits) as (path, store):
        session = failing_in_the_background(store)
        with pytest.raises(StoreError, match="could not be saved.*reload the game"):
            session.play(ROUND)              # built on moves that were lost: refused
        FailingCommits.fail = False
        assert store.log(session.game_id)[1] == [ROUND], "the held rounds are gone, the one before them kept"
        assert store.committing, "over, but not settled: the frame showing those rounds must not go on screen"
        with pytest.raises(StoreError, match="could not be saved"):
            store.settle()
        assert not store.committing
        store.settle()                       # told once
        reloaded = Session.resume(store, session.game_id)
        reloaded.play(ROUND)                 # the store goes on working
        assert stored(path, session.game_id) == 2


def test_a_players_colour_is_read_again_once_it_changes(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    try:
        ann = store.add_player("Ann", "#0072B2")
        assert store.colour_of("Ann") == "#0072B2" and store.colour_of("Ben") is None
        store.set_colour(ann.id, "#D55E00")
        store.add_player("Ben", "#009E73")
        assert store.colour_of("Ann") == "#D55E00" and store.colour_of("Ben") == "#009E73"
        store.rename_player(ann.id, "Anna")
        assert store.colour_of("Ann") is None and store.colour_of("Anna") == "#D55E00"
        store.remove_player(ann.id)
        assert store.colour_of("Anna") is None
    finally:
        store.close()


def test_actions_held_while_a_commit_is_in_flight_are_written_after_it_without_waiting(tmp_path, monkeypatch):
    with store_on(tmp_path, monkeypatch, SlowCommits) as (path, store):
        session = one_round_then_two_held(store)
        SlowCommits.ended.clear()
        store.start_commit()
        later = {**ROUND, "jacks": {"JS": "Dan", "JH": "Dan", "JC": "Dan", "JD": "Dan"}}
        with store.holding():
            session.play(later)              # a slap just after the window, say
        assert SlowCommits.ended == [], "held while the card was busy: this thread did not wait"
        assert store.committing and not store.held
        store.settle()
        assert SlowCommits.ended == ["commit", "commit"], "the writer wrote it next, in a commit of its own"
        assert store.log(session.game_id)[1] == [ROUND, ROUND, ROUND, later], "in the order played"
        assert Session.resume(store, session.game_id).game.summary() == session.game.summary()


def test_actions_held_behind_a_commit_that_fails_are_lost_with_it(tmp_path, monkeypatch):
    with store_on(tmp_path, monkeypatch, FailingCommits) as (path, store):
        session = failing_in_the_background(store)
        with store.holding():
            try:
                session.play(ROUND)          # queued behind the commit, or refused once it failed
            except StoreError:
                pass
        with pytest.raises(StoreError, match="could not be saved"):
            store.settle()
        FailingCommits.fail = False
        assert store.log(session.game_id)[1] == [ROUND], "nothing written on the lost rounds"
        reloaded = Session.resume(store, session.game_id)
        with store.holding():
            reloaded.play(ROUND)
        assert store.held, "held in a transaction of its own again, not behind the failed commit"
        store.commit_held()
        assert stored(path, session.game_id) == 2
