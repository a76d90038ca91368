"""PostgreSQL event store: the durable choice for several API processes and workers.

Three tables live in one schema (``?schema=NAME`` in the URL, default ``ironworks``, created
on first use): ``streams`` (one row per stream, its version and creation order), ``events``
(primary key ``(stream_id, version)``) and ``idempotency_keys`` (primary key
``(stream_id, key)``). An append is one transaction that locks the stream's row, looks the
key up, checks the version and inserts; two writers creating the same stream at once collide
on the unique constraints instead, and the loser checks again. Each append sends
``NOTIFY`` on the schema's channel with the stream id, delivered at commit, which is what
:meth:`PostgresStore.wait` listens to.

Every call gives up after :data:`TIMEOUT_SECONDS` (``?timeout=SECONDS`` overrides it):
waiting for a pooled connection, or the statement itself via ``statement_timeout``; a
server that stops answering altogether has its connection cut by a watchdog soon after.
Then the call answers :class:`core.errors.ServiceUnavailable`, as does every call while
the store is known down. The rest of the URL is libpq's (``postgresql://user@host:port/dbname?...``).

PostgreSQL's text holds no NUL character, so no stream (or idempotency key) here can be
named with one: a read of such a name answers as for any unknown stream, without asking the
server (which would refuse the statement), and an append or snapshot to one is a
``ValueError``.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
import psycopg_pool

from core.breaker import Breaker
from core.errors import BadRequest, VersionConflict
from core.events import AppendResult, NewEvent, Snapshot, StoredEvent, StreamInfo
from core.store.base import NUL, EventStore, Seen, refuse_nul, replay
from core.store.wakeup import Waiters

DEFAULT_SCHEMA = "ironworks"
TIMEOUT_SECONDS = 2.0
"""How long one call may take: connecting, waiting for a free pooled connection, or running
a statement (lock waits included); an append takes about a millisecond when all is well."""
POOL_SIZE = 20
"""Connections per process at most; a call finding all of them busy waits for one."""
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,50}")

EVENT_COLUMNS = "stream_id, version, type, data, actor, timestamp, idempotency_key, rules_version"


def schema_ddl(schema: str) -> list[str]:
    return [
        f"CREATE SCHEMA IF NOT EXISTS {schema}",
        f"""CREATE TABLE IF NOT EXISTS {schema}.streams (
            seq BIGSERIAL PRIMARY KEY,  -- creation order: "newest first" never reads clocks
            stream_id TEXT NOT NULL UNIQUE,
            version BIGINT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        )""",
        f"""CREATE TABLE IF NOT EXISTS {schema}.events (
            stream_id TEXT NOT NULL,
            version BIGINT NOT NULL,
            type TEXT NOT NULL,
            data BYTEA NOT NULL,
            actor INTEGER,
            timestamp DOUBLE PRECISION NOT NULL,
            idempotency_key TEXT,
            rules_version TEXT NOT NULL,
            PRIMARY KEY (stream_id, version)
        )""",
        f"""CREATE TABLE IF NOT EXISTS {schema}.idempotency_keys (
            stream_id TEXT NOT NULL,
            key TEXT NOT NULL,
            first_version BIGINT NOT NULL,
            last_version BIGINT NOT NULL,
            request_digest TEXT,
            PRIMARY KEY (stream_id, key)
        )""",
        # A schema from before the waiting mark: every stream counts as waiting at first.
        f"ALTER TABLE {schema}.streams ADD COLUMN IF NOT EXISTS waiting BOOLEAN NOT NULL "
        "DEFAULT TRUE",
        f"CREATE INDEX IF NOT EXISTS streams_waiting ON {schema}.streams (seq) WHERE waiting",
        f"""CREATE TABLE IF NOT EXISTS {schema}.snapshots (
            stream_id TEXT PRIMARY KEY,
            version BIGINT NOT NULL,
            format TEXT NOT NULL,
            data BYTEA NOT NULL
        )""",
    ]


def parse_url(url: str) -> tuple[str, str, float]:
    """``(libpq url, schema, timeout)``: ``?schema=`` and ``?timeout=`` (seconds) are ours and
    taken out, since libpq refuses parameters it does not know."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    ours = {k: v for k, v in query if k in ("schema", "timeout")}
    schema = ours.get("schema") or DEFAULT_SCHEMA
    if not _SCHEMA_NAME.fullmatch(schema):
        raise BadRequest(
            "unknown_store", f"schema {schema!r}: lower-case letters, digits and _ only"
        )
    try:
        timeout = float(ours.get("timeout") or TIMEOUT_SECONDS)
    except ValueError:
        timeout = 0.0
    if not 0 < timeout < 3600:
        raise BadRequest("unknown_store", "timeout must be a number of seconds above 0")
    rest = urlencode([(k, v) for k, v in query if k not in ours])
    return urlunsplit(parts._replace(query=rest)), schema, timeout


def is_outage(exc: BaseException) -> bool:
    """Whether PostgreSQL failed to answer (down, stalled, timed out, shutting down), rather
    than answered with an error about the statement."""
    return isinstance(
        exc, psycopg.OperationalError | psycopg.InterfaceError | psycopg_pool.PoolTimeout | OSError
    )


def connection_options(timeout: float) -> dict[str, Any]:
    ms = max(1, int(timeout * 1000))
    return {
        "connect_timeout": max(2, round(timeout)),  # libpq's least
        "options": f"-c statement_timeout={ms} -c idle_in_transaction_session_timeout={5 * ms}",
        # A peer gone without a word (host down, cable cut) is noticed within seconds.
        "keepalives": 1,
        "keepalives_idle": 5,
        "keepalives_interval": 2,
        "keepalives_count": 2,
        "tcp_user_timeout": 5 * ms,
    }


_inherited: list[psycopg_pool.ConnectionPool] = []
"""Pools a forked child inherited. Closing them would end the parent's sessions (they share
the sockets), so the child keeps them, unused, instead."""


class _Watchdog:
    """Severs a connection whose call overran its deadline.

    ``statement_timeout`` ends a slow statement only if the server is there to end it; a
    server that stalled, or a network that swallows its answers, would leave the call
    waiting for ever. Shutting the socket down makes the waiting call fail at once (the
    pool then discards the connection). One thread per process watches every call.
    """

    def __init__(self, grace: float) -> None:
        self.grace = grace
        self._lock = threading.Lock()
        self._deadlines: dict[int, tuple[float, psycopg.Connection[Any]]] = {}
        self._pid = 0

    @contextmanager
    def guard(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        with self._lock:
            if self._pid != os.getpid():
                self._pid = os.getpid()
                threading.Thread(
                    target=self._watch, name="ironworks-pg-watchdog", daemon=True
                ).start()
            self._deadlines[id(conn)] = (time.monotonic() + self.grace, conn)
        try:
            yield
        finally:
            with self._lock:
                self._deadlines.pop(id(conn), None)

    def _watch(self) -> None:
        pid = os.getpid()
        while self._pid == pid:
            time.sleep(min(self.grace / 4, 0.25))
            now = time.monotonic()
            with self._lock:
                late = [c for when, c in self._deadlines.values() if when < now]
                for conn in late:
                    self._deadlines.pop(id(conn), None)
            for conn in late:
                sever(conn)


def sever(conn: psycopg.Connection[Any]) -> None:
    """Shut the connection's socket down under it (through a duplicate descriptor, so the
    one psycopg holds stays valid until it closes it)."""
    try:
        with socket.socket(fileno=os.dup(conn.pgconn.socket)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except (OSError, psycopg.Error):
        pass  # already closed


class PostgresStore(EventStore):
    def __init__(self, url: str) -> None:
        self.url, self.schema, self.timeout = parse_url(url)
        self.channel = f"{self.schema}_appended"
        self.breaker = Breaker("store_unavailable", "the event store", is_outage)
        self._lock = threading.Lock()
        self._pool_: psycopg_pool.ConnectionPool | None = None
        self._pid = 0
        self._schema_ready = False
        # Room for the few statements of one call, each bounded by statement_timeout.
        self.watchdog = _Watchdog(grace=2 * self.timeout + 0.5)
        self._notifier = _Notifier(self)

    # --- connections ---------------------------------------------------------------------

    def _pool(self) -> psycopg_pool.ConnectionPool:
        pool = self._pool_
        if pool is not None and self._pid == os.getpid():
            return pool
        with self._lock:
            if self._pool_ is not None and self._pid != os.getpid():
                _inherited.append(self._pool_)
                self._pool_ = None
            if self._pool_ is None:
                # Opened lazily so that a server down at startup is a 503, not a crash.
                self._pool_ = psycopg_pool.ConnectionPool(
                    self.url,
                    kwargs={"autocommit": True, **connection_options(self.timeout)},
                    min_size=1,
                    max_size=POOL_SIZE,
                    timeout=self.timeout,
                    # A connection left over from a restarted server is found dead here
                    # and replaced, rather than failing the call it was handed to.
                    check=self._check,
                    name=f"ironworks-{self.schema}",
                    open=False,
                )
                self._pool_.open(wait=False)
                self._pid = os.getpid()
            return self._pool_

    def _check(self, conn: psycopg.Connection[Any]) -> None:
        with self.watchdog.guard(conn):
            psycopg_pool.ConnectionPool.check_connection(conn)

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection (autocommit) inside the breaker, the schema made once."""
        with self.breaker, self._pool().connection() as conn, self.watchdog.guard(conn):
            if not self._schema_ready:
                self._create_schema(conn)
            yield conn

    def _create_schema(self, conn: psycopg.Connection[Any]) -> None:
        # Many processes may open a fresh schema at once; CREATE ... IF NOT EXISTS alone
        # still collides in the catalogue, so they queue on an advisory lock.
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.schema,))
            for statement in schema_ddl(self.schema):
                conn.execute(statement)
        self._schema_ready = True

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
        args = (stream_id, expected_version, events, idempotency_key, request_digest, waiting)
        refuse_nul(stream_id, idempotency_key)
        with self._conn() as conn:
            try:
                with conn.transaction():
                    return self._append(conn, *args)
            except psycopg.errors.UniqueViolation:
                pass
            # Another writer created the stream since our checks (there was no row to lock);
            # checking again sees its committed row and answers conflict or replay.
            with conn.transaction():
                return self._append(conn, *args)

    def _append(
        self,
        conn: psycopg.Connection[Any],
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None,
        request_digest: str | None,
        waiting: bool | None,
    ) -> AppendResult:
        s = self.schema
        # The row lock queues writers of one stream; each statement after it sees what the
        # writer before committed (READ COMMITTED), its idempotency key included.
        row = conn.execute(
            f"SELECT version FROM {s}.streams WHERE stream_id = %s FOR UPDATE", (stream_id,)
        ).fetchone()
        current = 0 if row is None else row[0]
        if idempotency_key is not None:
            seen = self._lookup(conn, stream_id, idempotency_key)
            if seen is not None:
                return replay(seen, request_digest)
        if current != expected_version:
            raise VersionConflict(stream_id, expected_version, current)
        last = expected_version + len(events)
        result = AppendResult(
            stream_id=stream_id, first_version=expected_version + 1, last_version=last
        )
        if not events:
            if row is not None and waiting is not None:
                conn.execute(
                    f"UPDATE {s}.streams SET waiting = %s WHERE stream_id = %s",
                    (waiting, stream_id),
                )
            return result
        now = time.time()
        if row is None:
            conn.execute(
                f"INSERT INTO {s}.streams (stream_id, version, created_at, waiting) "
                "VALUES (%s, %s, %s, %s)",
                (stream_id, last, now, waiting is not False),
            )
        else:
            conn.execute(
                f"UPDATE {s}.streams SET version = %s, waiting = coalesce(%s, waiting) "
                "WHERE stream_id = %s",
                (last, waiting, stream_id),
            )
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {s}.events ({EVENT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (stream_id, v, e.type, e.data, e.actor, now, idempotency_key, e.rules_version)
                    for v, e in enumerate(events, start=expected_version + 1)
                ],
            )
        if idempotency_key is not None:
            conn.execute(
                f"INSERT INTO {s}.idempotency_keys VALUES (%s, %s, %s, %s, %s)",
                (stream_id, idempotency_key, result.first_version, last, request_digest),
            )
        conn.execute("SELECT pg_notify(%s, %s)", (self.channel, stream_id))
        return result

    def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        if NUL in stream_id or NUL in idempotency_key:
            return None
        with self._conn() as conn:
            return self._lookup(conn, stream_id, idempotency_key)

    def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if (limit is not None and limit <= 0) or NUL in stream_id:
            return []
        with self._conn() as conn:
            rows = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM {self.schema}.events "
                "WHERE stream_id = %s AND version > %s ORDER BY version LIMIT %s",
                (stream_id, after, limit),
            ).fetchall()
        return [
            StoredEvent(
                stream_id=s, version=v, type=t, data=bytes(d), actor=a, timestamp=ts,
                idempotency_key=k, rules_version=r,
            )
            for s, v, t, d, a, ts, k, r in rows
        ]  # fmt: skip

    def version(self, stream_id: str) -> int:
        if NUL in stream_id:
            return 0
        with self._conn() as conn:
            row = conn.execute(
                f"SELECT version FROM {self.schema}.streams WHERE stream_id = %s", (stream_id,)
            ).fetchone()
        return 0 if row is None else row[0]

    def list_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        with self._conn() as conn:
            rows = conn.execute(
                f"SELECT stream_id, version, created_at FROM {self.schema}.streams "
                "ORDER BY seq DESC LIMIT %s OFFSET %s",
                (max(limit, 0), max(offset, 0)),
            ).fetchall()
        return [StreamInfo(stream_id=s, version=v, created_at=t) for s, v, t in rows]

    def count_streams(self) -> int:
        with self._conn() as conn:
            row = conn.execute(f"SELECT count(*) FROM {self.schema}.streams").fetchone()
        return 0 if row is None else row[0]

    def waiting_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        with self._conn() as conn:
            rows = conn.execute(
                f"SELECT stream_id, version, created_at FROM {self.schema}.streams "
                "WHERE waiting ORDER BY seq DESC LIMIT %s OFFSET %s",
                (max(limit, 0), max(offset, 0)),
            ).fetchall()
        return [StreamInfo(stream_id=s, version=v, created_at=t) for s, v, t in rows]

    def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        refuse_nul(stream_id)
        s = self.schema
        with self._conn() as conn:
            conn.execute(
                f"INSERT INTO {s}.snapshots VALUES (%s, %s, %s, %s) ON CONFLICT (stream_id) "
                "DO UPDATE SET version = excluded.version, format = excluded.format, "
                f"data = excluded.data WHERE excluded.version > {s}.snapshots.version",
                (stream_id, snapshot.version, snapshot.format, snapshot.data),
            )

    def load_snapshot(self, stream_id: str) -> Snapshot | None:
        if NUL in stream_id:
            return None
        with self._conn() as conn:
            row = conn.execute(
                f"SELECT version, format, data FROM {self.schema}.snapshots WHERE stream_id = %s",
                (stream_id,),
            ).fetchone()
        return None if row is None else Snapshot(version=row[0], format=row[1], data=bytes(row[2]))

    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        return self._notifier.wait(stream_id, after_version, timeout)

    def ping(self) -> None:
        with self._conn() as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        self._notifier.close()
        with self._lock:
            pool, self._pool_ = self._pool_, None
        if pool is not None and self._pid == os.getpid():
            pool.close(timeout=self.timeout)

    # --- internals -----------------------------------------------------------------------

    def _lookup(self, conn: psycopg.Connection[Any], stream_id: str, key: str) -> Seen | None:
        row = conn.execute(
            f"SELECT first_version, last_version, request_digest FROM {self.schema}."
            "idempotency_keys WHERE stream_id = %s AND key = %s",
            (stream_id, key),
        ).fetchone()
        if row is None:
            return None
        first, last, digest = row
        return AppendResult(stream_id=stream_id, first_version=first, last_version=last), digest


class _Notifier(Waiters):
    """One ``LISTEN`` connection per process, shared by every waiting thread.

    Waiters register the stream they watch; the listener thread bumps that stream's
    generation on each notification and wakes them. Started lazily (and again after a
    fork, since threads do not survive one).
    """

    def _start_listening(self) -> None:
        # A listening connection inherited from the parent is left alone: psycopg never
        # closes a connection in a process that did not open it.
        with self.store.breaker:
            conn = self._listen_connection()
        threading.Thread(
            target=self._listen, args=(conn,), name="ironworks-pg-notify", daemon=True
        ).start()

    def _listen_connection(self) -> psycopg.Connection[Any]:
        options = connection_options(self.store.timeout)
        conn = psycopg.connect(self.store.url, autocommit=True, **options)
        with self.store.watchdog.guard(conn):
            conn.execute(f"LISTEN {self.store.channel}")  # confirmed once execute returns
        return conn

    def _listen(self, conn: psycopg.Connection[Any]) -> None:
        # This thread alone uses the connection, and closes it: a close from another thread
        # would wait for the connection's lock, held while listening.
        while not self._closed:
            try:
                for notify in conn.notifies(timeout=1.0):
                    self._wake(notify.payload)
                continue
            except (psycopg.Error, OSError):
                if self._closed:
                    break
            # The connection broke: waiters keep polling meanwhile; listen again.
            time.sleep(0.5)
            try:
                fresh = self._listen_connection()
            except (psycopg.Error, OSError):
                continue
            conn.close()
            conn = fresh
            self._wake_all()  # appends while nobody listened were not announced
        if self._pid == os.getpid():
            conn.close()

    def close(self) -> None:
        """Stop listening: the listener thread closes its connection within a second."""
        with self._cond:
            self._closed = True
