"""SQLite's async twin commits the writes one event-loop iteration makes in one transaction:
each write in a savepoint of its own (a refused one undone alone), every caller answered only
once the COMMIT is done, and all of them failed (503) when it fails.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from store_backends import tick

from core.errors import IdempotencyMismatch, ServiceUnavailable, VersionConflict
from core.events import AppendResult
from core.registry import GameRegistry
from core.store.sqlite import SQLiteStore
from tests.test_hot_path import dealt_match, inline_service

TRANSACTION = ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")


def traced(store: SQLiteStore, seen: list[str]) -> None:
    """Note the loop's writing connection's transaction statements in ``seen``."""
    conn = store.aio._connection("writer")  # type: ignore[attr-defined]
    conn.set_trace_callback(lambda sql: seen.append(sql) if sql in TRANSACTION else None)


class CommitFails:
    """A writing connection whose COMMIT fails as a disk that stopped writing does."""

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


def failing_commits(store: SQLiteStore) -> None:
    store.aio._connection("writer")  # type: ignore[attr-defined]
    held = store.aio._local.writer  # type: ignore[attr-defined]
    held.conn = CommitFails(held.conn)


def test_appends_made_in_one_loop_iteration_share_one_commit_and_are_answered_after_it(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "events.sqlite3")
    seen: list[str] = []

    async def one(n: int) -> AppendResult:
        result = await store.aio.append(f"s{n}", 0, [tick(n, 0)], f"k{n}")
        seen.append(f"answered s{n}")
        return result

    async def drill() -> list[AppendResult]:
        traced(store, seen)
        return await asyncio.gather(*(one(n) for n in range(8)))

    try:
        results = asyncio.run(drill())
        assert [r.last_version for r in results] == [1] * 8
        assert seen == ["BEGIN IMMEDIATE", "COMMIT"] + [f"answered s{n}" for n in range(8)]
        assert [store.version(f"s{n}") for n in range(8)] == [1] * 8
        # one at a time, each its own transaction as before
        seen.clear()
        asyncio.run(drill_one(store, seen))
        assert seen == ["BEGIN IMMEDIATE", "COMMIT"] * 2
    finally:
        store.close()


async def drill_one(store: SQLiteStore, seen: list[str]) -> None:
    traced(store, seen)
    await store.aio.append("t", 0, [tick(0, 0)])
    await store.aio.append("t", 1, [tick(0, 1)])


def test_a_refused_append_in_a_shared_commit_is_undone_alone(tmp_path: Path) -> None:
    """A stale version and a key reused for another request are refused as when alone,
    against what the writes before them in the batch made; the others are stored."""
    store = SQLiteStore(tmp_path / "events.sqlite3")
    store.append("a", 0, [tick(0, 0)], "k", request_digest="first")

    async def drill() -> list[Any]:
        return await asyncio.gather(
            store.aio.append("a", 1, [tick(1, 1)], "k2", request_digest="d2"),
            store.aio.append("a", 1, [tick(2, 1)], "k3", request_digest="d3"),  # stale
            store.aio.append("b", 0, [tick(3, 0)]),
            store.aio.append("a", 7, [tick(4, 7)], "k", request_digest="other"),  # reused
            store.aio.append("a", 2, [tick(5, 2)], "k4"),
            return_exceptions=True,
        )

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


def test_a_failed_commit_fails_every_append_it_held_with_a_503(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "events.sqlite3")
    store.append("a", 0, [tick(0, 0)])

    async def drill() -> list[Any]:
        failing_commits(store)
        return await asyncio.gather(
            store.aio.append("a", 1, [tick(1, 1)], "k1"),
            store.aio.append("a", 1, [tick(2, 1)]),  # refused, but the batch is not stored
            store.aio.append("b", 0, [tick(3, 0)]),
            return_exceptions=True,
        )

    try:
        answers = asyncio.run(drill())
        assert all(isinstance(a, ServiceUnavailable) for a in answers), answers
        assert len({id(a) for a in answers}) == 3  # each its own, traceback and all
        assert (store.version("a"), store.version("b"), store.lookup("a", "k1")) == (1, 0, None)
        store.close()  # a fresh writing connection: the retries are stored
        assert asyncio.run(store.aio.append("a", 1, [tick(1, 1)], "k1")).last_version == 2
    finally:
        store.close()


def test_moves_whose_shared_commit_failed_are_refused_and_not_kept_live(
    tmp_path: Path, registry: GameRegistry
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

    async def moves(fail: bool) -> list[Any]:
        if fail:
            failing_commits(store)
        return await asyncio.gather(
            *(service.asubmit(*r) for r in requests), return_exceptions=True
        )

    try:
        refused = asyncio.run(moves(fail=True))
        assert all(isinstance(a, ServiceUnavailable) for a in refused), refused
        assert [store.version(m) for m, _ in matches] == before
        assert [service.live.get(m).version for m, _ in matches] == before  # type: ignore[union-attr]
        store.close()
        accepted = asyncio.run(moves(fail=False))
        assert [(a.version, a.replayed) for a in accepted] == [(v + 1, False) for v in before]
        for (match_id, _), version in zip(matches, before, strict=True):
            keyed = [e for e in store.read(match_id) if e.idempotency_key == f"key-{match_id}"]
            assert [e.version for e in keyed] == [version + 1]
    finally:
        store.close()


@pytest.mark.parametrize("held", ["this process", "another connection"])
def test_a_batch_meeting_the_lock_held_waits_for_it_in_threads(tmp_path: Path, held: str) -> None:
    """Every write of the batch goes to a worker thread, as a lone write did: none lost."""
    store = SQLiteStore(tmp_path / "events.sqlite3")
    locker = sqlite3.connect(tmp_path / "events.sqlite3", isolation_level=None)

    async def drill() -> list[AppendResult]:
        if held == "this process":
            store._writer_lock().acquire()
            asyncio.get_running_loop().call_later(0.2, store._writer_lock().release)
        else:
            locker.execute("BEGIN IMMEDIATE")
            asyncio.get_running_loop().call_later(0.2, locker.execute, "COMMIT")
        return await asyncio.gather(*(store.aio.append(f"s{n}", 0, [tick(n, 0)]) for n in range(4)))

    try:
        assert [r.last_version for r in asyncio.run(drill())] == [1] * 4
        assert [store.version(f"s{n}") for n in range(4)] == [1] * 4
    finally:
        locker.close()
        store.close()
