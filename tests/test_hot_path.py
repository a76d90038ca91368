"""The hot routes (a move, reading a match, listing its moves) run on the event loop through
the stores' async twins (:mod:`core.steps`): with the same answers as the blocking path on
every backend, and without waiting on a backend that is down or stalled where others could
be served — no worker thread held, no event loop blocked.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import httpx
import pytest
import store_backends
from litestar.testing import TestClient
from store_backends import Backend, tick

import core.steps
import core.store.sqlite
from api.app import create_app
from core.registry import GameRegistry
from core.service import MatchService
from core.store.base import open_store
from core.store.redis import split_prefix
from core.store.sqlite import SQLiteStore
from tests.faults import Proxy, answered_within, served
from tests.test_outages import GUARD, LIMITS, assert_unavailable
from worker.inprocess import InlineRunner, InProcessRunner

backend = store_backends.backend_fixture(store_backends.BACKENDS)


def dealt_match(service: MatchService) -> tuple[str, list[str]]:
    """A dealt 2-player highcard match with both seats claimed: its id and the tokens."""
    match = service.create_match("highcard", 2)
    tokens = [service.claim_seat(match.match_id, seat) for seat in (0, 1)]
    return match.match_id, tokens


def next_request(get: Any, match_id: str, tokens: list[str]) -> dict[str, Any]:
    """The move request of the seat to act, read through the hot routes."""
    seat = get(f"/matches/{match_id}").json()["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    moves = get(f"/matches/{match_id}/moves", headers=auth).json()
    return {"json": {"move": moves["moves"][0], "expected_version": moves["version"]},
            "headers": auth}  # fmt: skip


def inline_service(store: Any, registry: GameRegistry) -> MatchService:
    runner = InlineRunner()  # the dealer deals at once
    service = MatchService(store, registry, runner, snapshot_every=2)
    runner.bind(service)
    return service


def test_moves_on_the_event_loop_keep_every_answer_of_the_blocking_path(
    backend: Backend, registry: GameRegistry
) -> None:
    """Accepted, replayed by key, refused as stale or as another request under a used key;
    snapshots kept, a long poll woken, and a process that never served the match (no live
    state) answering alike."""
    service = inline_service(backend.store, registry)
    match_id, tokens = dealt_match(service)
    with TestClient(create_app(service)) as client:
        request = next_request(client.get, match_id, tokens)
        keyed = {**request["headers"], "Idempotency-Key": "k1"}
        url = f"/matches/{match_id}/moves"
        with ThreadPoolExecutor(1) as pool:
            version = request["json"]["expected_version"]
            poll = pool.submit(client.get, f"/matches/{match_id}/events",
                               params={"after": version, "wait": 30})  # fmt: skip
            first = client.post(url, json=request["json"], headers=keyed)
            assert first.status_code == 200, first.text
            woken = poll.result(timeout=GUARD)
        assert woken.json()["events"][0]["version"] == version + 1
        again = client.post(url, json=request["json"], headers=keyed)
        assert again.json() == {**first.json(), "replayed": True}
        stale = client.post(url, json=request["json"], headers=request["headers"])
        assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"

        service.live.clear()  # as another process would meet the retry
        assert client.post(url, json=request["json"], headers=keyed).json()["replayed"] is True
        later = next_request(client.get, match_id, tokens)
        other = client.post(url, json=later["json"], headers=keyed)
        assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"

        service.live.clear()
        view = client.get(f"/matches/{match_id}").json()
    snapshot = backend.store.load_snapshot(match_id)
    assert snapshot is not None and snapshot.version >= view["version"] - 1
    events = backend.store.read(match_id)
    assert [e.version for e in events] == list(range(1, view["version"] + 1))
    assert sum(e.idempotency_key == "k1" for e in events) == 1


def test_a_served_match_is_created_claimed_and_dealt_without_a_thread_hop(
    tmp_path: Path, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Creating a match, claiming its seats, its moves and the system steps they call for
    (the in-process runner's, on the served loop) all run on the event loop."""
    hops: list[Any] = []
    real = core.steps.anyio.to_thread.run_sync

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(fn)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(core.steps.anyio.to_thread, "run_sync", counted)
    runner = InProcessRunner(threads=1)
    service = MatchService(SQLiteStore(tmp_path / "events.sqlite3"), registry, runner)
    runner.bind(service)
    try:
        with TestClient(create_app(service)) as client:
            created = client.post("/matches", json={"game": "highcard", "players": 2})
            assert created.status_code == 201, created.text
            match_id = created.json()["id"]
            claims = [client.post(f"/matches/{match_id}/seats/{seat}/claim") for seat in (0, 1)]
            tokens = [claim.json()["token"] for claim in claims]
            assert runner.join(GUARD)  # the deal
            for _ in range(2):  # a round: then the system step that scores it
                request = next_request(client.get, match_id, tokens)
                moved = client.post(f"/matches/{match_id}/moves", **request)
                assert moved.status_code == 200, moved.text
            assert runner.join(GUARD)
        types = [e.type for e in service.store.read(match_id)]
        assert types.count("dealt") == 2, types
        assert hops == []
    finally:
        runner.close()
        service.store.close()


@pytest.mark.redis
def test_hot_routes_waiting_on_a_stalled_redis_hold_no_worker_thread(
    registry: GameRegistry, redis_url: str
) -> None:
    """More hot requests than the server has worker threads wait on a stalled Redis; a
    route that needs a thread, and /health/live, still answer before any of them times out,
    and each of them is a 503 within the store's timeout. It held a thread per request."""
    port = int(split_prefix(redis_url)[0].rsplit(":", 1)[1].split("/")[0])
    prefix = split_prefix(redis_url)[1]
    with Proxy(port) as proxy:
        proxied = f"redis://127.0.0.1:{proxy.port}/0?prefix={prefix}&socket_timeout=5"
        service = inline_service(open_store(proxied), registry)
        match_id, tokens = dealt_match(service)
        app = create_app(service)
        with served(app) as base, httpx.Client(base_url=base, limits=LIMITS) as http:
            request = next_request(http.get, match_id, tokens)
            proxy.set("stalled")
            hot = [
                ("GET", f"/matches/{match_id}", {}),
                ("GET", f"/matches/{match_id}/moves", {"headers": request["headers"]}),
                ("POST", f"/matches/{match_id}/moves", request),
            ] * 20
            with ThreadPoolExecutor(len(hot)) as pool:
                pending = [
                    pool.submit(answered_within, GUARD, http.request, method, path, **extra)
                    for method, path, extra in hot
                ]
                deadline = time.monotonic() + GUARD
                while len(proxy._links) < 45 and time.monotonic() < deadline:
                    time.sleep(0.02)
                assert len(proxy._links) >= 45  # > the 40 worker threads, all stalled
                threaded = answered_within(GUARD, http.get, "/games/highcard/guide")
                live = answered_within(GUARD, http.get, "/health/live")
                assert not any(p.done() for p in pending)
                answers = [p.result() for p in pending]
            assert threaded.status_code in (200, 404) and live.status_code == 200
            for response in answers:
                assert_unavailable(response, "store_unavailable")
            proxy.set("up")
            time.sleep(int(answers[-1].headers["retry-after"]))
            moved = http.post(f"/matches/{match_id}/moves", **request)
            assert moved.status_code == 200, moved.text
        service.store.close()


def test_a_move_waiting_for_the_sqlite_write_lock_leaves_other_matches_answering(
    registry: GameRegistry, tmp_path: Path
) -> None:
    """Another process holds the write lock: a move waits for it off the event loop and
    answers 503 once the wait is over, while another match's view and moves are served
    meanwhile (WAL readers never wait for the writer); the same move goes through once
    the lock is free."""
    path = tmp_path / "events.sqlite3"
    service = inline_service(SQLiteStore(path, busy_timeout=2.0), registry)
    waiting_id, waiting_tokens = dealt_match(service)
    other_id, other_tokens = dealt_match(service)
    with served(create_app(service)) as base, httpx.Client(base_url=base) as http:
        request = next_request(http.get, waiting_id, waiting_tokens)
        locker = sqlite3.connect(path, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock and hangs
        try:
            with ThreadPoolExecutor(1) as pool:
                move = pool.submit(
                    answered_within, GUARD, http.post, f"/matches/{waiting_id}/moves", **request
                )
                time.sleep(0.2)  # the move is waiting for the lock
                service.live.clear()  # the reads below go to the file
                other = next_request(http.get, other_id, other_tokens)
                assert not move.done()
                assert other["json"]["expected_version"] > 0
                assert_unavailable(move.result(), "store_unavailable")
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        moved = http.post(f"/matches/{waiting_id}/moves", **request)
        assert moved.status_code == 200, moved.text
    service.store.close()


def test_the_sqlite_log_starts_over_when_only_the_loop_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint's last pass holds the writer lock, so the log is wholly copied when the
    loop's next write comes and SQLite starts it over: run beside the loop's writes, a
    checkpoint never caught up with them and the log grew with every write (to 1.7 MB)."""
    monkeypatch.setattr(core.store.sqlite, "CHECKPOINT_EVERY", 25)
    path = tmp_path / "events.sqlite3"
    store = SQLiteStore(path)

    async def writes() -> None:
        for version in range(600):
            await store.aio.append("s", version, [tick(0, version)])
            if version % 50 == 0:
                await anyio.sleep(0.01)  # the checkpoints' threads run meanwhile anyway
        await anyio.sleep(0.2)

    try:
        anyio.run(writes)
        assert len(store.read("s")) == 600
        assert Path(f"{path}-wal").stat().st_size < 1_000_000
    finally:
        store.close()


def test_the_loop_writes_while_the_checkpoint_copies_the_log_and_waits_only_for_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint copies the log beside the loop's writes, which commit meanwhile on the
    loop, and holds the writer lock only for a second pass over what they added: held for
    the whole copy and its syncs, it kept every write waiting (the move POST's slowest 3%)."""
    monkeypatch.setattr(core.store.sqlite, "CHECKPOINT_EVERY", 2)
    store = SQLiteStore(tmp_path / "events.sqlite3")
    copying, written, copied = threading.Event(), threading.Event(), threading.Event()
    passes: list[bool] = []  # whether each pass held the writer lock

    def checkpoint() -> None:
        passes.append(store._writer_lock().locked())
        if len(passes) == 1:
            copying.set()
            written.wait(2.0)
            copied.set()

    monkeypatch.setattr(store, "checkpoint", checkpoint)

    async def drill() -> None:
        await store.aio.append("s", 0, [tick(0, 0)])
        await store.aio.append("s", 1, [tick(0, 1)])  # the second write starts a checkpoint
        while not copying.is_set():
            await anyio.sleep(0.005)
        await store.aio.append("s", 2, [tick(0, 2)])
        assert not copied.is_set()  # committed while the first pass was still copying
        written.set()
        with anyio.fail_after(5):
            while len(passes) < 2:
                await anyio.sleep(0.005)

    try:
        anyio.run(drill)
        assert passes == [False, True]
        assert [e.version for e in store.read("s")] == [1, 2, 3]
    finally:
        written.set()
        store.close()


def test_sqlite_writes_on_the_loop_wait_for_a_busy_writer_in_a_thread_and_checkpoint_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write meeting this process's writer lock held (by a worker's append) waits for it
    in a worker thread while the loop goes on; the loop's own writes never checkpoint the
    log, a worker thread does every CHECKPOINT_EVERY of them."""
    monkeypatch.setattr(core.store.sqlite, "CHECKPOINT_EVERY", 3)
    store = SQLiteStore(tmp_path / "events.sqlite3")
    checkpoints: list[str] = []
    monkeypatch.setattr(
        store, "checkpoint", lambda: checkpoints.append(threading.current_thread().name)
    )
    ticks: list[float] = []

    async def ticking() -> None:
        while True:
            ticks.append(time.monotonic())
            await anyio.sleep(0.01)

    async def drill() -> None:
        await store.aio.append("s", 0, [tick(0, 0)])
        held = store._writer_lock()
        held.acquire()
        threading.Timer(0.3, held.release).start()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(ticking)
            started = time.monotonic()
            await store.aio.append("s", 1, [tick(0, 1)])
            waited = time.monotonic() - started
            tasks.cancel_scope.cancel()
        assert waited >= 0.25  # it waited for the lock...
        assert len([t for t in ticks if t > started]) >= 5  # ...while the loop ran on
        await store.aio.append("s", 2, [tick(0, 2)])
        for _ in range(100):
            if checkpoints:
                break
            await anyio.sleep(0.01)

    try:
        anyio.run(drill)
        assert [e.version for e in store.read("s")] == [1, 2, 3]
        # two writes on the loop (the second went to a thread): no checkpoint yet
        assert checkpoints == []
        anyio.run(store.aio.append, "s", 3, [tick(0, 3)])
        time.sleep(0.2)
        # one checkpoint, its two passes (beside the writes, then holding the lock) there
        assert len(checkpoints) == 2 and threading.main_thread().name not in checkpoints
    finally:
        store.close()


def test_the_event_loop_and_blocking_threads_each_read_the_others_newest_append(
    backend: Backend,
) -> None:
    """The loop's reading connection (SQLite keeps one open for the loop's life) never reads
    an older state than a writer in a thread committed, nor a thread (the event stream's)
    older than the loop's writes: appends alternate between the two, each read right after."""
    store = backend.store
    with anyio.from_thread.start_blocking_portal() as portal, ThreadPoolExecutor(1) as thread:

        def on_loop(method: str, *args: Any) -> Any:
            return portal.call(partial(getattr(store.aio, method), *args))

        def in_thread(method: str, *args: Any) -> Any:
            return thread.submit(getattr(store, method), *args).result()

        try:
            assert on_loop("version", "m") == 0
            for n in range(0, 8, 2):
                in_thread("append", "m", n, [tick(0, n)])
                assert on_loop("version", "m") == n + 1
                assert [e.version for e in on_loop("read", "m", n)] == [n + 1]
                on_loop("append", "m", n + 1, [tick(1, n + 1)])
                assert in_thread("version", "m") == n + 2
                assert [e.version for e in in_thread("read", "m", n + 1)] == [n + 2]
                assert in_thread("wait", "m", n + 1, 0.0)
        finally:
            portal.call(store.aio.aclose)
