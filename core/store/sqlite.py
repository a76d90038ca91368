"""SQLite event store: the embedded default, one file in WAL mode.

Safe for many threads (one connection per thread) and many processes (writes take the
database lock up front with ``BEGIN IMMEDIATE`` and wait for it via ``busy_timeout``).
A write still waiting for the lock after that, or a file that cannot be opened, read or
written, answers :class:`core.errors.ServiceUnavailable`; but a store that cannot be opened
at all when it is made (its folder cannot be made, a file or folder it may not write, not a
database) is refused with :class:`core.errors.BadRequest`, since waiting would not mend it.

The async twin (:class:`AsyncSQLite`) reads on the event loop itself: in WAL mode a reader
never waits for the writer, only, rarely, for a connection recovering the log, and such a
read gives up on the loop after :data:`INLINE_BUSY_SECONDS` and waits in a worker thread
instead. It writes on the loop when the locks are free at once (this process's writer lock,
then SQLite's, neither waited for). Writes that meet either held are queued and committed
together (group commit): at the end of the loop iteration if the locks are free by then,
else in one worker thread that waits for them, while writes arriving meanwhile queue for the
next batch. A batch is one transaction, each write in a savepoint of its own so that a
refused one (a version conflict, a key reused) is undone alone; every caller is answered
only after the COMMIT, and a failed COMMIT fails every write it held (503: none is stored).
The loop's writes never checkpoint the log themselves (a checkpoint syncs the file to
disk): every :data:`CHECKPOINT_EVERY` of them, a worker thread does, beside them, then
once more holding this process's writer lock for what they added meanwhile, so that the
log starts over after it.

Every write is not batched, though the loop could hold each one to the end of its
iteration for others to join: measured (README "Performance"), the COMMIT a batch saves
costs less than holding a request's objects in flight to share it does.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import anyio.to_thread

from core.breaker import Breaker
from core.errors import BadRequest, ServiceUnavailable, VersionConflict
from core.events import AppendResult, NewEvent, Snapshot, StoredEvent, StreamInfo
from core.store.base import AsyncStore, EventStore, Seen, refuse_nul, replay

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS streams (
    seq INTEGER PRIMARY KEY,  -- creation order, so "newest first" never depends on clocks
    stream_id TEXT NOT NULL UNIQUE,
    version INTEGER NOT NULL,  -- as created: the stream's version is its newest event's
    created_at REAL NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS events (
    stream_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    data BLOB NOT NULL,
    actor INTEGER,
    timestamp REAL NOT NULL,
    idempotency_key TEXT,
    rules_version TEXT NOT NULL,
    PRIMARY KEY (stream_id, version)
) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS idempotency_keys (
    stream_id TEXT NOT NULL,
    key TEXT NOT NULL,
    first_version INTEGER NOT NULL,
    last_version INTEGER NOT NULL,
    request_digest TEXT,
    PRIMARY KEY (stream_id, key)
) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS snapshots (
    stream_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    format TEXT NOT NULL,
    data BLOB NOT NULL
)""",
)

EVENT_COLUMNS = "stream_id, version, type, data, actor, timestamp, idempotency_key, rules_version"
_NEWEST = "(SELECT max(version) FROM events WHERE events.stream_id = streams.stream_id)"
"""A listed stream's version: its newest event's (see ``_append_on``)."""

# The hot writes bind a blob as a ``bytearray`` and a flag as an ``int``: Python's sqlite3
# binds ``int``, ``float``, ``str`` and ``bytearray`` as they are, but first looks any other
# value (``bytes``, ``bool``, ``None``) up among its adapters, about 3.3k instructions each
# (a blob's copy costs about half that). SQLite stores the same values either way.

BUSY_TIMEOUT_SECONDS = 5.0
"""How long a write waits for another writer's lock before the store counts as unavailable;
writes hold it for about a millisecond."""
_OUTAGE_CODES = frozenset({
    sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PROTOCOL,
})  # fmt: skip
"""SQLite result codes that blame the database file or its lock, not the statement."""
_UNOPENABLE_CODES = frozenset({
    sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH,
    sqlite3.SQLITE_NOTADB,
})  # fmt: skip
"""Codes that, while the store is being opened, say the path itself is wrong for it."""


def is_outage(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and ((code or 0) & 0xFF) in _OUTAGE_CODES


PAGE_SIZE = 2048
"""Bytes a page of a new store file holds. A commit writes each page it changed whole to
the log (a move: the leaves its event rows, its idempotency key and its stream's version
land on, and now and then a split), checksummed: half SQLite's default 4096 halves those
bytes for a few more splits (about 10k CPU instructions an append fewer; README
"Performance")."""

INLINE_BUSY_SECONDS = 0.01
"""How long a read on the event loop waits for a lock before it moves to a worker thread."""

CHECKPOINT_EVERY = 500
"""Writes made on the event loop between two checkpoints of the log (in a worker thread)."""

POLL_SECONDS = 0.05
"""How often ``wait`` looks for appends made by other processes (in-process appends wake it
at once)."""


class _Connection:
    """A thread's connection; a weakref-able holder so ``close`` can reach every live one
    while a finished thread's connection is still freed with its thread-local storage."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.pid = os.getpid()


_inherited: list[_Connection] = []
"""Connections a forked child inherited. Closing them could disturb the parent's WAL
files, so the child keeps them open and unused instead."""


class SQLiteStore(EventStore):
    def __init__(
        self, path: str | os.PathLike[str], busy_timeout: float = BUSY_TIMEOUT_SECONDS
    ) -> None:
        self.path = str(path)
        if self.path == ":memory:" or self.path.startswith("file:"):
            # Each thread has its own connection, so each would see a database of its own.
            raise BadRequest("unsupported_store", "SQLite needs a file path; use memory://")
        folder = Path(self.path).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)  # a new deployment's data folder
        except OSError as exc:
            reason = f"cannot make its folder {folder}: {exc.strerror}"
            raise BadRequest(
                "unknown_store", f"cannot open SQLite store {self.path}: {reason}"
            ) from exc
        self.busy_timeout = busy_timeout
        # No cooldown: a lock held by a busy writer is gone a moment later, so every write
        # gets its own wait.
        self.breaker = Breaker("store_unavailable", "the event store", is_outage, cooldown=0)
        self._local = threading.local()
        self._open: weakref.WeakSet[_Connection] = weakref.WeakSet()
        self._open_lock = threading.Lock()
        self._writing = (os.getpid(), threading.Lock())
        # In-process appends bump the generation; waiters sleep on it between polls.
        self._changed = threading.Condition()
        self._generation = 0
        self._generations = itertools.count(1)
        self._waiters = 0
        """Threads in :meth:`wait` (changed under ``_changed``): an append with none to
        wake takes no lock."""
        try:
            self._create_schema()
        except sqlite3.DatabaseError as exc:
            self.close()
            code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
            if code in _UNOPENABLE_CODES:
                # Startup is where this shows: refused there, the service does not come up
                # only to answer 503 until someone fixes the path.
                message = f"cannot open SQLite store {self.path}: {exc}"
                raise BadRequest("unknown_store", message) from exc
            raise

    def _create_schema(self) -> None:
        with self._write() as conn:
            for statement in SCHEMA:
                conn.execute(statement)
            columns = {row[1] for row in conn.execute("PRAGMA table_info(streams)")}
            if "waiting" not in columns:  # a file from before the mark: every stream may wait
                conn.execute("ALTER TABLE streams ADD COLUMN waiting INTEGER NOT NULL DEFAULT 1")
            conn.execute(
                "CREATE INDEX IF NOT EXISTS streams_waiting ON streams (seq) WHERE waiting = 1"
            )
            if "hooked" not in columns:  # NULL: a stream from before the mark, not known
                conn.execute("ALTER TABLE streams ADD COLUMN hooked INTEGER")

    # --- connections ---------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        held: _Connection | None = getattr(self._local, "held", None)
        if held is not None and held.pid == os.getpid():
            return held.conn
        if held is not None:
            _inherited.append(held)
        conn = sqlite3.connect(
            self.path,
            timeout=self.busy_timeout,
            isolation_level=None,  # transactions are explicit: BEGIN IMMEDIATE / COMMIT
            check_same_thread=False,  # used by one thread only; close() may come from another
        )
        # Only a new file takes it (a file keeps the page size it was made with).
        conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL survives any process crash; only a power cut can lose the
        # newest commits, and it never corrupts the file.
        conn.execute("PRAGMA synchronous=NORMAL")
        held = _Connection(conn)
        self._local.held = held
        with self._open_lock:
            self._open.add(held)
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction holding the database lock from its first statement, so two
        writers never both read a version and then both append."""
        conn = self._conn()
        # Writers of this process queue here, handed the turn as soon as it is free: waiting
        # inside SQLite instead, each would sleep a millisecond or more between attempts.
        writing = self._writer_lock()
        if not writing.acquire(timeout=self.busy_timeout):
            locked = sqlite3.OperationalError("database is locked (by this process)")
            locked.sqlite_errorcode = sqlite3.SQLITE_BUSY
            raise locked
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                # Also after a failed COMMIT: the connection must not stay in a transaction.
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        finally:
            writing.release()

    def _writer_lock(self) -> threading.Lock:
        """This process's writer lock (a forked child gets a fresh one: the parent's may
        have been held by one of its threads at the fork)."""
        pid, lock = self._writing
        if pid != os.getpid():
            self._writing = pid, lock = os.getpid(), threading.Lock()
        return lock

    # --- EventStore ----------------------------------------------------------------------

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        refuse_nul(stream_id, idempotency_key)
        with self.breaker, self._write() as conn:
            result = self._append_in(
                conn, stream_id, expected_version, events, idempotency_key, request_digest,
                waiting,
            )  # fmt: skip
        if events and not result.replayed:
            self._announce()
        return result

    def _announce(self) -> None:
        """Wake this process's waiters: the streams changed. The generation is set without
        the lock, each time to a number never set before (``next`` on a count is atomic),
        so a waiter that read one never sees it again; a waiter counts itself in before it
        checks the generation, under the lock, so an append after that check sees it and
        takes the lock to wake it, which it gets once the waiter sleeps."""
        self._generation = next(self._generations)
        if self._waiters:
            with self._changed:
                self._changed.notify_all()

    def _append_in(
        self,
        conn: sqlite3.Connection,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None,
        request_digest: str | None,
        waiting: bool | None,
    ) -> AppendResult:
        """The append's statements, inside a write transaction the caller holds."""
        if events and expected_version:
            moved = AppendResult(
                stream_id=stream_id, first_version=expected_version + 1,
                last_version=expected_version + len(events),
            )  # fmt: skip
            return self._append_on(conn, moved, events, idempotency_key, request_digest, waiting)
        if idempotency_key is not None:
            seen = self._lookup(conn, stream_id, idempotency_key)
            if seen is not None:
                return replay(seen, request_digest)
        current = self._version(conn, stream_id)
        if current != expected_version:
            raise VersionConflict(stream_id, expected_version, current)
        last = expected_version + len(events)
        result = AppendResult(
            stream_id=stream_id, first_version=expected_version + 1, last_version=last
        )
        if not events:
            if current and waiting is not None:
                conn.execute(
                    "UPDATE streams SET waiting = ? WHERE stream_id = ?", (int(waiting), stream_id)
                )
            return result
        conn.execute(
            "INSERT INTO streams (stream_id, version, created_at, waiting, hooked) "
            "VALUES (?, ?, ?, ?, 0)",
            (stream_id, last, time.time(), int(waiting is not False)),
        )
        self._insert_events(conn, result, events, idempotency_key)
        if idempotency_key is not None:
            self._insert_key(conn, result, idempotency_key, request_digest)
        return result

    def _append_on(
        self, conn: sqlite3.Connection, result: AppendResult, events: Sequence[NewEvent],
        idempotency_key: str | None, request_digest: str | None, waiting: bool | None,
    ) -> AppendResult:  # fmt: skip
        """``events`` appended as ``result`` to a stream that exists (a move): the key's
        check is its insert, the version's one read, so the common append is three
        statements. The caller rolls back whatever was written when a check fails.

        The stream's version is read from its events, not kept in its ``streams`` row: a
        move then changes only the leaves its events and key land on, not that row's page
        too (a page more in every commit; about 12k CPU instructions an append). Its row
        changes only when the waiting mark does."""
        stream_id, expected_version = result.stream_id, result.first_version - 1
        # The key first: one used before answers as a retry, whatever the version is now.
        if idempotency_key is not None and not self._insert_key(
            conn, result, idempotency_key, request_digest
        ):
            seen = self._lookup(conn, stream_id, idempotency_key)
            assert seen is not None  # the insert just met it, in this transaction
            return replay(seen, request_digest)
        found = conn.execute(
            "SELECT (SELECT max(version) FROM events WHERE stream_id = ?1), waiting, hooked "
            "FROM streams WHERE stream_id = ?1",
            (stream_id,),
        ).fetchone()
        current = 0 if found is None else found[0] or 0
        if current != expected_version:
            raise VersionConflict(stream_id, expected_version, current)
        if waiting is not None and found[1] != waiting:
            conn.execute(
                "UPDATE streams SET waiting = ? WHERE stream_id = ?", (int(waiting), stream_id)
            )
        self._insert_events(conn, result, events, idempotency_key)
        if found[2] is None:  # a stream from before the mark
            return result
        return AppendResult(
            stream_id=stream_id, first_version=result.first_version,
            last_version=result.last_version, watched=found[2] == 1,
        )  # fmt: skip

    @staticmethod
    def _insert_events(
        conn: sqlite3.Connection,
        result: AppendResult,
        events: Sequence[NewEvent],
        idempotency_key: str | None,
    ) -> None:
        now = time.time()
        rows = [
            (
                result.stream_id, v, e.type, bytearray(e.data), e.actor, now, idempotency_key,
                e.rules_version,
            )
            for v, e in enumerate(events, start=result.first_version)
        ]  # fmt: skip
        insert = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        if len(rows) == 1:
            conn.execute(insert, rows[0])  # a statement cheaper than executemany's
        else:
            conn.executemany(insert, rows)

    @staticmethod
    def _insert_key(
        conn: sqlite3.Connection, result: AppendResult, key: str, request_digest: str | None
    ) -> bool:
        """Record ``key`` for ``result``; ``False`` when the stream has it already."""
        inserted = conn.execute(
            "INSERT INTO idempotency_keys VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (result.stream_id, key, result.first_version, result.last_version, request_digest),
        )
        return inserted.rowcount == 1

    def mark_watched(self, stream_id: str) -> None:
        """Kept in the stream's row (``hooked``) and read by a move's append in the same
        statement as its version: the mark costs a move nothing (see ``_append_on``)."""
        with self.breaker, self._write() as conn:
            conn.execute("UPDATE streams SET hooked = 1 WHERE stream_id = ?", (stream_id,))

    def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        with self.breaker:
            return self._lookup(self._conn(), stream_id, idempotency_key)

    def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if limit is not None and limit <= 0:
            return []
        with self.breaker:
            return self._read(self._conn(), stream_id, after, limit)

    def version(self, stream_id: str) -> int:
        with self.breaker:
            return self._version(self._conn(), stream_id)

    def list_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        with self.breaker:
            rows = self._conn().execute(
                f"SELECT stream_id, {_NEWEST}, created_at FROM streams "
                "ORDER BY seq DESC LIMIT ? OFFSET ?",
                (max(limit, 0), max(offset, 0)),
            )
            return [StreamInfo(stream_id=s, version=v, created_at=t) for s, v, t in rows]

    def count_streams(self) -> int:
        with self.breaker:
            return self._conn().execute("SELECT count(*) FROM streams").fetchone()[0]

    def waiting_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        with self.breaker:
            rows = self._conn().execute(
                f"SELECT stream_id, {_NEWEST}, created_at FROM streams WHERE waiting = 1 "
                "ORDER BY seq DESC LIMIT ? OFFSET ?",
                (max(limit, 0), max(offset, 0)),
            )
            return [StreamInfo(stream_id=s, version=v, created_at=t) for s, v, t in rows]

    def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        refuse_nul(stream_id)
        with self.breaker, self._write() as conn:
            self._save_snapshot(conn, stream_id, snapshot)

    @staticmethod
    def _save_snapshot(conn: sqlite3.Connection, stream_id: str, snapshot: Snapshot) -> None:
        conn.execute(
            "INSERT INTO snapshots VALUES (?, ?, ?, ?) ON CONFLICT (stream_id) DO UPDATE "
            "SET version = excluded.version, format = excluded.format, data = excluded.data "
            "WHERE excluded.version > snapshots.version",
            (stream_id, snapshot.version, snapshot.format, snapshot.data),
        )

    def checkpoint(self) -> None:
        """Copy the log's pages into the file, as far as readers allow (never waiting)."""
        with contextlib.suppress(sqlite3.Error):
            self._conn().execute("PRAGMA wal_checkpoint(PASSIVE)")

    def load_snapshot(self, stream_id: str) -> Snapshot | None:
        with self.breaker:
            return self._load_snapshot(self._conn(), stream_id)

    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            with self._changed:
                generation = self._generation
            if self.version(stream_id) > after_version:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            with self._changed:
                self._waiters += 1
                try:
                    self._changed.wait_for(
                        lambda seen=generation: self._generation != seen,
                        min(remaining, POLL_SECONDS),
                    )
                finally:
                    self._waiters -= 1

    def close(self) -> None:
        with self._open_lock:
            held = [h for h in self._open if h.pid == os.getpid()]
            self._open.clear()
        for h in held:
            h.conn.close()
        self._local = threading.local()
        twin = self.__dict__.get("_aio")
        if twin is not None:
            twin._local = _LoopState()

    def _async_twin(self) -> AsyncStore:
        return AsyncSQLite(self)

    # --- internals -----------------------------------------------------------------------

    @staticmethod
    def _read(
        conn: sqlite3.Connection, stream_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        if limit is not None and limit <= 0:
            return []
        rows = conn.execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = ? AND version > ? "
            "ORDER BY version LIMIT ?",
            (stream_id, after, -1 if limit is None else limit),
        )
        return [
            StoredEvent(
                stream_id=s, version=v, type=t, data=d, actor=a, timestamp=ts,
                idempotency_key=k, rules_version=r,
            )
            for s, v, t, d, a, ts, k, r in rows
        ]  # fmt: skip

    @staticmethod
    def _load_snapshot(conn: sqlite3.Connection, stream_id: str) -> Snapshot | None:
        rows = conn.execute(
            "SELECT version, format, data FROM snapshots WHERE stream_id = ?", (stream_id,)
        )
        row = rows.fetchone()
        return None if row is None else Snapshot(version=row[0], format=row[1], data=row[2])

    @staticmethod
    def _version(conn: sqlite3.Connection, stream_id: str) -> int:
        row = conn.execute("SELECT max(version) FROM events WHERE stream_id = ?", (stream_id,))
        return row.fetchone()[0] or 0

    @staticmethod
    def _lookup(conn: sqlite3.Connection, stream_id: str, key: str) -> Seen | None:
        row = conn.execute(
            "SELECT first_version, last_version, request_digest FROM idempotency_keys "
            "WHERE stream_id = ? AND key = ?",
            (stream_id, key),
        ).fetchone()
        if row is None:
            return None
        first, last, digest = row
        return AppendResult(stream_id=stream_id, first_version=first, last_version=last), digest


_Batch = list[tuple[Callable[[sqlite3.Connection], Any], "asyncio.Future[Any]"]]
"""Writes that met a lock held, each with the future its caller awaits."""


def _each(exc: BaseException) -> BaseException:
    """An exception for one of the writes a failed batch fails: a 503 of its own each (one
    instance raised in several tasks would collect all their tracebacks)."""
    if isinstance(exc, ServiceUnavailable):
        return ServiceUnavailable(exc.code, exc.message, exc.retry_after)
    return exc


def _run_writes(
    conn: sqlite3.Connection,
    writes: Sequence[Callable[[sqlite3.Connection], Any]],
    savepoints: bool,
) -> list[tuple[Any, Exception | None]]:
    """``writes`` in the transaction ``conn`` holds: each one's answer or refusal. With
    ``savepoints`` each runs in one of its own, so a refused one (a version conflict, a key
    reused) is undone alone; without, a refusal rolls the whole transaction back (for a lone
    write). Raises when the transaction itself fails: then none of them is stored."""
    answers: list[tuple[Any, Exception | None]] = []
    for statements in writes:
        if savepoints:
            conn.execute("SAVEPOINT write")
        try:
            answers.append((statements(conn), None))
        except Exception as exc:
            if is_outage(exc) or not conn.in_transaction:
                raise  # the transaction failed, not this write alone
            conn.execute("ROLLBACK TO write" if savepoints else "ROLLBACK")
            answers.append((None, exc))
        if savepoints:
            conn.execute("RELEASE write")
    return answers


class _LoopState(threading.local):
    """What the twin keeps per thread (per event loop): its connections and its queue.
    Defaults on the class, so reading one never raises (an ``AttributeError`` caught by
    ``getattr`` costs a few thousand instructions, on every write)."""

    reader: _Connection | None = None
    writer: _Connection | None = None
    queued: _Batch | None = None
    """Writes that met a lock held, waiting for their batch."""
    waiting = False
    """Whether a batch is waiting for the locks in a worker thread."""


class AsyncSQLite(AsyncStore):
    """The SQLite store's async twin (see the module). The loop has a reading connection
    whose lock wait is :data:`INLINE_BUSY_SECONDS`, and a writing one that never waits for
    the lock nor checkpoints; writes meeting a lock held are committed together."""

    store: SQLiteStore
    on_loop = True

    def __init__(self, store: SQLiteStore) -> None:
        super().__init__(store)
        self._local = _LoopState()
        self._writes = 0

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        # Refused before it joins a group commit, where it would fail the others' writes too.
        refuse_nul(stream_id, idempotency_key)
        args = (stream_id, expected_version, events, idempotency_key, request_digest, waiting)
        result = await self._write(lambda conn: self.store._append_in(conn, *args))
        if events and not result.replayed:
            self.store._announce()
        return result

    async def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        refuse_nul(stream_id)
        await self._write(lambda conn: SQLiteStore._save_snapshot(conn, stream_id, snapshot))

    async def _write(self, statements: Callable[[sqlite3.Connection], Any]) -> Any:
        """``statements`` in a write transaction on the loop when both locks are free now;
        else queued with the other writes meeting them held, all committed together in one
        transaction once they are free (see the module)."""
        state = self._local
        if not state.queued and not state.waiting:
            answers = self._transaction([statements])
            if answers is not None:
                answer, refused = answers[0]
                if refused is not None:
                    raise refused
                return answer
        loop = asyncio.get_running_loop()
        queued = state.queued
        if queued is None:
            queued = state.queued = []
            if not state.waiting:
                loop.call_soon(self._commit_queued)
        done: asyncio.Future[Any] = loop.create_future()
        queued.append((statements, done))
        return await done

    def _commit_queued(self) -> None:
        """The queued writes committed together: on the loop if the locks are free by now,
        else in a worker thread that waits for them as a blocking writer does; writes
        queued meanwhile go in the next batch, once this one is answered."""
        state = self._local
        batch: _Batch = [(s, done) for s, done in state.queued or () if not done.cancelled()]
        state.queued = None
        if not batch:
            return
        writes = [statements for statements, _ in batch]
        try:
            answers = self._transaction(writes)
        except BaseException as exc:
            self._answer(batch, None, exc)
            if not isinstance(exc, Exception):
                raise
            return
        if answers is not None:
            self._answer(batch, answers, None)
            if state.queued:
                self._commit_queued()
            return
        state.waiting = True
        loop = asyncio.get_running_loop()
        waited = loop.run_in_executor(None, self._transaction_waiting, writes)
        waited.add_done_callback(partial(self._waited, batch))

    def _waited(self, batch: _Batch, waited: asyncio.Future[Any]) -> None:
        self._local.waiting = False
        failed = asyncio.CancelledError() if waited.cancelled() else waited.exception()
        self._answer(batch, None if failed else waited.result(), failed)
        if self._local.queued:
            self._commit_queued()

    @staticmethod
    def _answer(
        batch: _Batch,
        answers: list[tuple[Any, Exception | None]] | None,
        failed: BaseException | None,
    ) -> None:
        """Each caller its answer or refusal, or every one the failure of their commit."""
        for n, (_, done) in enumerate(batch):
            if done.done():
                continue
            if answers is None:
                done.set_exception(_each(failed or RuntimeError("no answer")))
                continue
            answer, refused = answers[n]
            if refused is None:
                done.set_result(answer)
            else:
                done.set_exception(refused)

    def _transaction(
        self, writes: list[Callable[[sqlite3.Connection], Any]]
    ) -> list[tuple[Any, Exception | None]] | None:
        """``writes`` committed in one transaction on the loop's connection: each one's
        answer or refusal; ``None`` when a lock is not free at once. Raises
        (:class:`core.errors.ServiceUnavailable` for an outage) when the transaction itself
        fails, a failed COMMIT included: then none of them is stored."""
        writing = self.store._writer_lock()
        if not writing.acquire(blocking=False):
            return None
        try:
            conn = self._connection("writer")
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not is_outage(exc):
                    raise
                return None
            with self.store.breaker:
                try:
                    answers = _run_writes(conn, writes, savepoints=len(writes) > 1)
                    if conn.in_transaction:
                        conn.execute("COMMIT")
                except BaseException:
                    # Also after a failed COMMIT: the connection must not stay in a transaction.
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
        finally:
            writing.release()
        self._written(len(writes))
        return answers

    def _transaction_waiting(
        self, writes: list[Callable[[sqlite3.Connection], Any]]
    ) -> list[tuple[Any, Exception | None]]:
        """:meth:`_transaction` in a worker thread, waiting for the locks as the store's
        own writes do (a 503 when they stay held past its busy timeout)."""
        with self.store.breaker, self.store._write() as conn:
            return _run_writes(conn, writes, savepoints=True)

    def _written(self, writes: int) -> None:
        before = self._writes
        self._writes += writes
        if before // CHECKPOINT_EVERY != self._writes // CHECKPOINT_EVERY:
            asyncio.get_running_loop().run_in_executor(None, self._checkpoint)

    def _checkpoint(self) -> None:
        """The store's checkpoint, in two passes. The first copies the log beside the
        loop's writes; the second, holding this process's writer lock, copies only what
        they added meanwhile, so the first write after it finds the whole log copied and
        SQLite starts the log over. A checkpoint only beside the writes never catches up
        with them, and the log of a process whose writes all come from the loop would grow
        without end (500 MB in 25 s of ``bench_http``); one wholly under the lock held
        every write for the whole copy and its two syncs (5 to 8 ms each 500 writes in
        ``bench_http``: the move POST's slowest 3%), the second pass for 2 to 6 ms."""
        self.store.checkpoint()
        writing = self.store._writer_lock()
        if not writing.acquire(timeout=self.store.busy_timeout):
            return  # a write holds it that long: the next checkpoint comes soon enough
        try:
            self.store.checkpoint()
        finally:
            writing.release()

    async def _inline(self, read: Callable[..., Any], method: str, *args: Any) -> Any:
        try:
            return read(self._connection("reader"), *args)
        except sqlite3.OperationalError as exc:
            if not is_outage(exc):
                raise
        # Locked (or the file failed): wait as a blocking caller does, off the loop.
        return await anyio.to_thread.run_sync(partial(getattr(self.store, method), *args))

    def _connection(self, kind: str) -> sqlite3.Connection:
        """This thread's (the loop's) ``reader`` or ``writer`` connection."""
        held: _Connection | None = getattr(self._local, kind, None)
        if held is not None and held.pid == os.getpid():
            return held.conn
        writer = kind == "writer"
        conn = sqlite3.connect(
            self.store.path, timeout=0 if writer else INLINE_BUSY_SECONDS,
            isolation_level=None, check_same_thread=False,
        )  # fmt: skip
        if writer:
            conn.execute("PRAGMA synchronous=NORMAL")  # as the store's own (see _conn)
            conn.execute("PRAGMA wal_autocheckpoint=0")  # a thread checkpoints instead
        held = _Connection(conn)
        setattr(self._local, kind, held)
        with self.store._open_lock:
            self.store._open.add(held)
        return conn

    async def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        return await self._inline(SQLiteStore._lookup, "lookup", stream_id, idempotency_key)

    async def read(
        self, stream_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return await self._inline(SQLiteStore._read, "read", stream_id, after, limit)

    async def version(self, stream_id: str) -> int:
        return await self._inline(SQLiteStore._version, "version", stream_id)

    async def load_snapshot(self, stream_id: str) -> Snapshot | None:
        return await self._inline(SQLiteStore._load_snapshot, "load_snapshot", stream_id)
