"""SQLite's async twin commits at once on the loop when the locks are free, and commits the
writes that meet a lock held together (group commit): in one transaction, each write in a
savepoint of its own (a refused one undone alone), every caller answered only once the
COMMIT is done, and all of them failed (503) when it fails.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from store_backends import tick

from core.errors import IdempotencyMismatch, ServiceUnavailable, VersionConflict
from core.registry import GameRegistry
from core.store.sqlite import SQLiteStore
from tests.test_hot_path import dealt_match, inline_service

TRANSACTION = ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")
WHERE = ["loop", "thread"]
"""Where a batch is committed: on the loop (the lock free again by the end of the loop
iteration), or in a worker thread waiting for it (held longer)."""


def traced(store: SQLiteStore, seen: list[str]) -> None:
    """Note the loop's writing connection's transaction statements in ``seen``."""
    conn = store.aio._connection("writer")  # type: ignore[attr-defined]
    conn.set_trace_callback(lambda sql: seen.append(sql) if sql in TRANSACTION else None)


async def batched(store: SQLiteStore, where: str, *writes: Coroutine[Any, Any, Any]) -> list[Any]:
    """``writes`` started together while this process's writer lock is held: released at
    the end of their loop iteration (``loop``), or 0.2 s later (``thread``)."""
    lock = store._writer_lock()
    lock.acquire()
    tasks = [asyncio.ensure_future(write) for write in writes]
    loop = asyncio.get_running_loop()
    if where == "loop":
        loop.call_soon(lock.release)  # after the tasks' first steps, before their commit
    else:
        loop.call_later(0.2, lock.release)
    return await asyncio.gather(*tasks, return_exceptions=True)


@contextmanager
def counted_transactions(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[int]]:
    """Count the store's blocking write transactions (a worker thread's batch is one)."""
    count: list[int] = []
    write = store._write

    @contextmanager
    def counting() -> Iterator[sqlite3.Connection]:
        count.append(1)
        with write() as conn:
            yield conn

    monkeypatch.setattr(store, "_write", counting)
    yield count


class CommitFails:
    """A connection whose COMMIT fails as a disk that stopped writing does."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            failed = sqlite3.OperationalError("disk I/O error")
            failed.sqlite_errorcode = sqlite3.SQLITE_IOERR  # type: ignore[attr-defined]
            raise failed
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def failing_commits(store: SQLiteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every COMMIT fails from now on: the loop's and the worker threads'."""
    store.aio._connection("writer")  # type: ignore[attr-defined]
    held = store.aio._local.writer  # type: ignore[attr-defined]
    held.conn = CommitFails(held.conn)
    conn = store._conn
    monkeypatch.setattr(store, "_conn", lambda: CommitFails(conn()))


def test_a_write_with_the_locks_free_commits_at_once_without_yielding_the_loop(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "events.sqlite3")
    seen: list[str] = []

    async def drill() -> None:
        traced(store, seen)
        for n in range(3):
            asyncio.get_running_loop().call_soon(seen.append, "loop ran")
            await store.aio.append("s", n, [tick(0, n)])
            seen.append(f"answered {n}")
            await asyncio.sleep(0)

    try:
        asyncio.run(drill())
        each = ["BEGIN IMMEDIATE", "COMMIT", "answered {}", "loop ran"]
        assert seen == [step.format(n) for n in range(3) for step in each]
    finally:
        store.close()


def test_writes_meeting_the_lock_held_share_one_commit_on_the_loop_answered_after_it(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "events.sqlite3")
    seen: list[str] = []

    async def one(n: int) -> int:
        result = await store.aio.append(f"s{n}", 0, [tick(n, 0)], f"k{n}")
        seen.append(f"answered s{n}")
        return result.last_version

    async def drill() -> list[Any]:
        traced(store, seen)
        return await batched(store, "loop", *(one(n) for n in range(8)))

    try:
        assert asyncio.run(drill()) == [1] * 8
        assert seen == ["BEGIN IMMEDIATE", "COMMIT"] + [f"answered s{n}" for n in range(8)]
        assert [store.version(f"s{n}") for n in range(8)] == [1] * 8
    finally:
        store.close()


@pytest.mark.parametrize("held_by", ["this process", "another connection"])
def test_writes_meeting_a_lock_held_longer_wait_for_it_in_one_worker_thread_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held_by: str
) -> None:
    """None waits on the loop, none is lost, and they share one transaction."""
    store = SQLiteStore(tmp_path / "events.sqlite3")
    locker = sqlite3.connect(tmp_path / "events.sqlite3", isolation_level=None)
    ticks: list[int] = []

    async def ticking() -> None:
        while True:
            ticks.append(1)
            await asyncio.sleep(0.01)

    async def drill() -> list[Any]:
        ticker = asyncio.ensure_future(ticking())
        writes = [store.aio.append(f"s{n}", 0, [tick(n, 0)]) for n in range(6)]
        if held_by == "this process":
            answers = await batched(store, "thread", *writes)
        else:
            locker.execute("BEGIN IMMEDIATE")
            asyncio.get_running_loop().call_later(0.2, locker.execute, "COMMIT")
            answers = await asyncio.gather(*writes)
        ticker.cancel()
        return answers

    try:
        with counted_transactions(store, monkeypatch) as transactions:
            answers = asyncio.run(drill())
        assert [a.last_version for a in answers] == [1] * 6
        assert [store.version(f"s{n}") for n in range(6)] == [1] * 6
        assert len(transactions) == 1
        assert len(ticks) >= 10  # the loop ran on meanwhile
    finally:
        locker.close()
        store.close()


@pytest.mark.parametrize("where", WHERE)
def test_a_refused_append_in_a_shared_commit_is_undone_alone(tmp_path: Path, where: str) -> None:
    """A stale version and a key reused for another request are refused as when alone,
    against what the writes before them in the batch made; the others are stored."""
    store = SQLiteStore(tmp_path / "events.sqlite3")
    store.append("a", 0, [tick(0, 0)], "k", request_digest="first")

    async def drill() -> list[Any]:
        return await batched(
            store, where,
            store.aio.append("a", 1, [tick(1, 1)], "k2", request_digest="d2"),
            store.aio.append("a", 1, [tick(2, 1)], "k3", request_digest="d3"),  # stale
            store.aio.append("b", 0, [tick(3, 0)]),
            store.aio.append("a", 7, [tick(4, 7)], "k", request_digest="other"),  # reused
            store.aio.append("a", 2, [tick(5, 2)], "k4"),
        )  # fmt: skip

    try:
        second, stale, other, reused, third = asyncio.run(drill())
        assert (second.last_version, third.last_version, other.last_version) == (2, 3, 1)
        assert isinstance(stale, VersionConflict) and stale.extra["current_version"] == 2
        assert isinstance(reused, IdempotencyMismatch)
        assert [e.actor for e in store.read("a")] == [0, 1, 5]
        assert [e.actor for e in store.read("b")] == [3]
        assert store.lookup("a", "k3") is None  # the stale append's key went with it
    finally:
        store.close()


@pytest.mark.parametrize("where", WHERE)
def test_a_failed_commit_fails_every_append_it_held_with_a_503(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    store = SQLiteStore(tmp_path / "events.sqlite3")
    store.append("a", 0, [tick(0, 0)])

    async def drill() -> list[Any]:
        failing_commits(store, monkeypatch)
        return await batched(
            store, where,
            store.aio.append("a", 1, [tick(1, 1)], "k1"),
            store.aio.append("a", 1, [tick(2, 1)]),  # refused, but the batch is not stored
            store.aio.append("b", 0, [tick(3, 0)]),
        )  # fmt: skip

    try:
        answers = asyncio.run(drill())
        assert all(isinstance(a, ServiceUnavailable) for a in answers), answers
        assert len({id(a) for a in answers}) == 3  # each its own, traceback and all
        monkeypatch.undo()
        assert (store.version("a"), store.version("b"), store.lookup("a", "k1")) == (1, 0, None)
        store.close()  # a fresh writing connection: the retry is stored
        assert asyncio.run(store.aio.append("a", 1, [tick(1, 1)], "k1")).last_version == 2
    finally:
        store.close()


def test_moves_whose_shared_commit_failed_are_refused_and_not_kept_live(
    tmp_path: Path, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service keeps no live state the store does not have: after the 503 each match
    is still at its stored version, and the same requests retried are accepted, once."""
    store = SQLiteStore(tmp_path / "events.sqlite3")
    service = inline_service(store, registry)
    matches = [dealt_match(service) for _ in range(3)]

    def request(match_id: str, tokens: list[str]) -> tuple[Any, ...]:
        match = service.load(match_id)
        seat, move = next((s, m[0]) for s in (0, 1) if (m := service.legal_moves(match, s)))
        return match_id, tokens[seat], move, match.version, f"key-{match_id}"

    requests = [request(*m) for m in matches]
    before = [r[3] for r in requests]

    async def moves() -> list[Any]:
        return await batched(store, "loop", *(service.asubmit(*r) for r in requests))

    async def failing() -> list[Any]:
        failing_commits(store, monkeypatch)
        return await moves()

    try:
        refused = asyncio.run(failing())
        assert all(isinstance(a, ServiceUnavailable) for a in refused), refused
        monkeypatch.undo()
        assert [store.version(m) for m, _ in matches] == before
        assert [service.live.get(m).version for m, _ in matches] == before  # type: ignore[union-attr]
        store.close()
        accepted = asyncio.run(moves())
        assert [(a.version, a.replayed) for a in accepted] == [(v + 1, False) for v in before]
        for (match_id, _), version in zip(matches, before, strict=True):
            keyed = [e for e in store.read(match_id) if e.idempotency_key == f"key-{match_id}"]
            assert [e.version for e in keyed] == [version + 1]
    finally:
        store.close()
