"""The table's memory: players, games and every game's action log, in one SQLite file.

Each action is committed durably (WAL, synchronous FULL) before the caller shows its
effect, so a power cut loses nothing a player saw. A damaged file is kept aside under
another name and the table starts again with an empty one (``Store.recovered_from``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from . import gamelog
from .engine import Game
from .rules import Outcome
from .errors import GameError

# Okabe-Ito: colours that colour-blind players can tell apart, then two more.
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#7F7F7F",
                  "#8C564B", "#17BECF")

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    colour TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',     -- open | finished | abandoned
    result TEXT                              -- the summary when it finished, with its "outcome", as JSON
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(GameError):
    """Something the store refuses, with the reason in words."""


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    colour: str


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: list[str]
    created: float
    updated: float
    status: str
    result: dict | None

    @property
    def outcome(self) -> Outcome | None:
        """How a finished game ended (None for one still open or put away)."""
        return outcome_of(self.result)


def outcome_of(result: dict | None) -> Outcome | None:
    """The outcome a stored result keeps under "outcome". A result kept before outcomes
    existed is read from the summary it holds, once, here: "winners" (a list), "winner"
    (Jack Change It's one name) and "draw"."""
    if not result:
        return None
    if "outcome" in result:
        return Outcome.from_json(result["outcome"])
    if result.get("draw"):
        return Outcome((), str(result.get("draw_reason") or ""), draw=True)
    winners = result.get("winners") or ([result["winner"]] if result.get("winner") not in (None, "") else [])
    return Outcome(tuple(str(w) for w in winners), str(result.get("ended") or ""))


def slow_commits(seconds: float) -> type[sqlite3.Connection]:
    """A connection whose every commit takes at least ``seconds``: an SD card, for the bench.

    A seam made for measuring (``python -m tools.bench --commit-delay-ms``); the app never asks
    for it. The wait comes after the commit, on the thread that wrote, as an fsync's would. The
    bench may change ``seconds`` on the class between races, to compare a slow card with a fast
    one in the same run."""

    class SlowCommits(sqlite3.Connection):
        def __exit__(self, *exc):
            start = time.monotonic()
            try:
                return super().__exit__(*exc)
            finally:
                time.sleep(max(0.0, SlowCommits.seconds - (time.monotonic() - start)))

    SlowCommits.seconds = seconds
    return SlowCommits


class Store:
    def __init__(self, path: str | os.PathLike, *, min_commit_s: float = 0.0,
                 clock: Callable[[], float] = time.time):
        """``min_commit_s`` is for the bench only (:func:`slow_commits`); ``clock`` is the wall
        clock that stamps when games were started and left (the screenshots fix it)."""
        self.min_commit_s = min_commit_s
        self.clock = clock
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.recovered_from: Path | None = None
        self._hold_depth = 0      # inside holding(): appends wait for commit_held()
        self._held = False        # an open transaction holds written actions
        self._writer: ThreadPoolExecutor | None = None   # start_commit's thread
        self._committing: Future | None = None           # its commit, until settle() or the next use
        self._failed: StoreError | None = None           # that commit failed: told once by settle()
        self._queue_lock = threading.Lock()
        self._queued: list | None = None   # while it is in flight: held actions it writes next
        self._colours: dict[str, str | None] = {}        # colour_of, asked on every redraw
        try:
            self._db = self._open()
        except sqlite3.DatabaseError:
            self.recovered_from = self._set_aside()
            self._db = self._open()

    @property
    def db(self) -> sqlite3.Connection:
        """The connection, once a commit started by :meth:`start_commit` is over: one
        transaction at a time. A write after a commit that failed is refused (:meth:`settle`)."""
        if self._committing is not None:
            wait([self._committing])
            self._committing = None     # over: a failure waits in _failed for settle()
        return self._db

    def _open(self) -> sqlite3.Connection:
        factory = slow_commits(self.min_commit_s) if self.min_commit_s > 0 else sqlite3.Connection
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, factory=factory)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("quick_check failed")
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _set_aside(self) -> Path:
        """Keep a damaged database (and its journal files) under a dated name."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kept = self.path.with_name(f"{self.path.stem}.damaged-{stamp}{self.path.suffix}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                src.replace(Path(str(kept) + suffix))
        return kept

    def close(self) -> None:
        try:
            self.commit_held()
        finally:
            if self._writer is not None:
                self._writer.shutdown(wait=True)
            self._db.close()

    @contextlib.contextmanager
    def _transaction(self, begin: str = "BEGIN"):
        """One durable write: whatever is held is committed first, so writes stay in order."""
        self._refuse_after_failure()
        self.commit_held()
        with self.db:
            self.db.execute(begin)
            yield

    # -- writes held to the frame ----------------------------------------------------------

    @contextlib.contextmanager
    def holding(self):
        """Inside, each action appended is written at once but its commit is held back (one
        open transaction), for :meth:`start_commit` (or :meth:`commit_held`) to make durable
        before the frame that shows it is put on screen (``ui/app.py`` waits for it before
        every buffer swap). The card's wait (an fsync: 10 to 50 ms on an SD card) then overlaps
        the making of that frame instead of coming before it, and still nothing is on screen
        before it is durable. Any other write, and closing, commits what is held first."""
        self._hold_depth += 1
        try:
            yield
        finally:
            self._hold_depth -= 1

    @property
    def held(self) -> bool:
        """Whether written actions wait for :meth:`commit_held`."""
        return self._held

    def commit_held(self) -> None:
        """Make every held action durable. If that fails they are all rolled back and
        StoreError says so: the caller must not show them (and should reload the game)."""
        self.settle()          # a commit in flight ends first
        if not self._held:
            return
        self._held = False
        self._commit()

    def start_commit(self) -> None:
        """Start making the held actions durable on a thread of the store's own, and return at
        once: the caller shows them only after :meth:`settle`. Meanwhile the caller may go on
        working (laying out the frame that shows them); any use of the store waits for the
        commit first, so the writes stay in order."""
        if not self._held:
            return
        self.settle()          # an earlier commit in flight ends first
        self._held = False
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-writer")
        started = threading.Event()

        def commit():
            started.set()
            try:
                self._commit()
                while batch := self._next_batch():
                    self._commit(batch)
            except StoreError as exc:
                with self._queue_lock:
                    self._queued = None      # written on moves that were lost: gone with them
                self._failed = exc

        self._queued = []
        self._committing = self._writer.submit(commit)
        started.wait()         # the writer is on its way into SQLite before this thread goes on

    @property
    def committing(self) -> bool:
        """Whether a commit started by :meth:`start_commit` has not been settled yet: still in
        flight, or failed and not yet told."""
        return self._committing is not None or self._failed is not None

    def settle(self) -> None:
        """Wait for a commit started by :meth:`start_commit`. If it failed, its actions were
        rolled back: StoreError says so, once, and until then every write is refused (the
        caller must not show them, and should reload the game)."""
        committing, self._committing = self._committing, None
        if committing is not None:
            wait([committing])
        failed, self._failed = self._failed, None
        if failed is not None:
            raise failed

    def _next_batch(self) -> list:
        """What was held while the writer was busy (none: it is done, and later writes are the
        main thread's again)."""
        with self._queue_lock:
            batch = self._queued or []
            self._queued = [] if batch else None
        return batch

    def _refuse_after_failure(self) -> None:
        self.db
        if self._failed is not None:
            raise StoreError(f"{self._failed}: reload the game before going on")

    def _commit(self, batch=()) -> None:
        """Commit the open transaction, or write ``batch`` (queued held actions) in one of its
        own; on either thread (the writer's never uses ``db``, which would wait for itself)."""
        db = self._db
        try:
            with db:           # commits (and waits out a slow card's delay)
                if batch:
                    db.execute("BEGIN IMMEDIATE")
                    for game_id, action, status in batch:
                        _insert_row(db, game_id, action, status)
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StoreError(f"the last moves could not be saved ({exc})") from exc

    def _append_held(self, game_id: int, action: dict, summary: dict | None, outcome: Outcome | None) -> None:
        with self._queue_lock:
            if self._queued is not None:
                # A commit is in flight: its writer writes this next, and this thread goes on
                # without waiting for the card (a slap just after a race's window, say).
                self._queued.append((game_id, json.dumps(action), self._status(summary, outcome)))
                return
        self._refuse_after_failure()
        if not self._held:
            self.db.execute("BEGIN IMMEDIATE")
            self._held = True
        self.db.execute("SAVEPOINT action")     # a write that fails takes back only itself
        try:
            self._insert_action(game_id, action, summary, outcome)
        except BaseException:
            self.db.execute("ROLLBACK TO action")
            self.db.execute("RELEASE action")
            raise
        self.db.execute("RELEASE action")

    # -- players ---------------------------------------------------------------------------

    def players(self) -> list[Player]:
        rows = self.db.execute("SELECT id, name, colour FROM players ORDER BY created, id")
        return [Player(*row) for row in rows]

    def player(self, player_id: int) -> Player:
        row = self.db.execute("SELECT id, name, colour FROM players WHERE id = ?", (player_id,)).fetchone()
        if row is None:
            raise StoreError("that player is no longer on the roster")
        return Player(*row)

    def _clean_name(self, name: str, except_id: int | None = None) -> str:
        name = (name or "").strip()
        if not name:
            raise StoreError("a player needs a name")
        if len(name) > gamelog.MAX_NAME_LENGTH:
            raise StoreError(f"names can be at most {gamelog.MAX_NAME_LENGTH} letters long")
        row = self.db.execute("SELECT id FROM players WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
        if row is not None and row[0] != except_id:
            raise StoreError(f"there is already a player called {name}")
        return name

    def add_player(self, name: str, colour: str | None = None) -> Player:
        name = self._clean_name(name)
        if colour is None:
            used = {p.colour for p in self.players()}
            colour = next((c for c in PLAYER_COLOURS if c not in used), PLAYER_COLOURS[0])
        self._colours.clear()
        with self._transaction("BEGIN"):
            cur = self.db.execute("INSERT INTO players (name, colour, created) VALUES (?, ?, ?)",
                                  (name, colour, self.clock()))
        return Player(cur.lastrowid, name, colour)

    def rename_player(self, player_id: int, name: str) -> Player:
        name = self._clean_name(name, except_id=player_id)
        self._colours.clear()
        with self._transaction("BEGIN"):
            self.db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
        return self.player(player_id)

    def set_colour(self, player_id: int, colour: str) -> Player:
        self._colours.clear()
        with self._transaction("BEGIN"):
            self.db.execute("UPDATE players SET colour = ? WHERE id = ?", (colour, player_id))
        return self.player(player_id)

    def remove_player(self, player_id: int) -> None:
        self._colours.clear()
        with self._transaction("BEGIN"):
            self.db.execute("DELETE FROM players WHERE id = ?", (player_id,))

    def colour_of(self, name: str) -> str | None:
        if name not in self._colours:
            row = self.db.execute("SELECT colour FROM players WHERE name = ?", (name,)).fetchone()
            self._colours[name] = row[0] if row else None
        return self._colours[name]

    # -- games -----------------------------------------------------------------------------

    def new_game(self, header: dict) -> int:
        Game(header)  # refuses a header the rules cannot start
        now = self.clock()
        with self._transaction("BEGIN"):
            cur = self.db.execute("INSERT INTO games (game, header, created, updated) VALUES (?, ?, ?, ?)",
                                  (header["game"], json.dumps(header), now, now))
        return cur.lastrowid

    def append(self, game_id: int, action: dict, summary: dict | None = None,
               outcome: Outcome | None = None) -> None:
        """Write one action durably; with ``summary`` of a finished game (and its ``outcome``),
        mark it finished too. Inside :meth:`holding`, its commit waits for :meth:`commit_held`."""
        if self._hold_depth:
            self._append_held(game_id, action, summary, outcome)
            return
        with self._transaction("BEGIN IMMEDIATE"):
            self._insert_action(game_id, action, summary, outcome)

    def _insert_action(self, game_id: int, action: dict, summary: dict | None, outcome: Outcome | None) -> None:
        _insert_row(self.db, game_id, json.dumps(action), self._status(summary, outcome))

    def pop(self, game_id: int, summary: dict | None = None, outcome: Outcome | None = None) -> None:
        """Remove the last action (undo); ``summary`` (and ``outcome``) is the game's standing after it."""
        with self._transaction("BEGIN IMMEDIATE"):
            self.db.execute("DELETE FROM actions WHERE game_id = ? AND seq = "
                            "(SELECT MAX(seq) FROM actions WHERE game_id = ?)", (game_id, game_id))
            self._set_status(game_id, summary, outcome)

    def _set_status(self, game_id: int, summary: dict | None, outcome: Outcome | None) -> None:
        self.db.execute(SET_STATUS, (*self._status(summary, outcome), game_id))

    def _status(self, summary: dict | None, outcome: Outcome | None) -> tuple:
        """A game's updated time, status and result after an action, ready for SET_STATUS."""
        finished = outcome is not None or bool(summary and summary.get("finished"))
        return (self.clock(), "finished" if finished else "open",
                json.dumps(_result(summary, outcome)) if finished else None)

    def abandon(self, game_id: int) -> None:
        with self._transaction("BEGIN"):
            self.db.execute("UPDATE games SET status = 'abandoned', updated = ? WHERE id = ?", (self.clock(), game_id))

    def delete_game(self, game_id: int) -> None:
        with self._transaction("BEGIN"):
            self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def log(self, game_id: int) -> tuple[dict, list[dict]]:
        row = self.db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id}")
        actions = [json.loads(a) for (a,) in self.db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
        return json.loads(row[0]), actions

    def load(self, game_id: int) -> Game:
        header, actions = self.log(game_id)
        return Game.from_actions(header, actions)

    def record(self, game_id: int) -> GameRecord:
        row = self.db.execute("SELECT id, game, header, created, updated, status, result FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id}")
        return self._record(row)

    @staticmethod
    def _record(row) -> GameRecord:
        gid, game, header, created, updated, status, result = row
        return GameRecord(gid, game, json.loads(header)["players"], created, updated, status,
                          json.loads(result) if result else None)

    def games(self, game: str | None = None, status: str | None = None, limit: int = 200) -> list[GameRecord]:
        sql = "SELECT id, game, header, created, updated, status, result FROM games WHERE 1=1"
        args: list = []
        if game:
            sql += " AND game = ?"
            args.append(game)
        if status:
            sql += " AND status = ?"
            args.append(status)
        sql += " ORDER BY updated DESC, id DESC LIMIT ?"
        args.append(limit)
        return [self._record(row) for row in self.db.execute(sql, args)]

    def unfinished(self) -> GameRecord | None:
        """The most recently touched game still open: the one to offer to resume."""
        found = self.games(status="open", limit=1)
        return found[0] if found else None

    # -- files -----------------------------------------------------------------------------

    def export_text(self, game_id: int) -> str:
        header, actions = self.log(game_id)
        return gamelog.write_text(header, actions)

    def import_bytes(self, data: bytes) -> int:
        """Check a whole saved game, then store it in one transaction (all of it or nothing).

        Raises :class:`companion.errors.LogError` naming the line of the first problem.
        """
        game = Game.from_bytes(data)
        now = self.clock()
        summary = game.summary()
        outcome = game.outcome
        finished = outcome is not None or bool(summary.get("finished"))
        with self._transaction("BEGIN IMMEDIATE"):
            cur = self.db.execute(
                "INSERT INTO games (game, header, created, updated, status, result) VALUES (?, ?, ?, ?, ?, ?)",
                (game.header["game"], json.dumps(game.header), now, now, "finished" if finished else "open",
                 json.dumps(_result(summary, outcome)) if finished else None))
            gid = cur.lastrowid
            self.db.executemany("INSERT INTO actions (game_id, seq, action) VALUES (?, ?, ?)",
                                [(gid, i, json.dumps(a)) for i, a in enumerate(game.actions)])
        return gid


SET_STATUS = "UPDATE games SET updated = ?, status = ?, result = ? WHERE id = ?"


def _insert_row(db: sqlite3.Connection, game_id: int, action: str, status: tuple) -> None:
    """One action (as JSON text) at the end of its game's log, and the game's new status."""
    (seq,) = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
    db.execute("INSERT INTO actions (game_id, seq, action) VALUES (?, ?, ?)", (game_id, seq, action))
    db.execute(SET_STATUS, (*status, game_id))


def _result(summary: dict | None, outcome: Outcome | None) -> dict:
    """What a finished game keeps: its summary, and its outcome under "outcome"."""
    result = dict(summary or {})
    if outcome is not None:
        result["outcome"] = outcome.as_json()
    return result
