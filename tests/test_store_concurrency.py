"""Writers racing on one stream: threads on every backend, processes on SQLite and Redis.

Each writer reads the version, appends one tagged event with that expected version and
retries on a conflict. Whatever the interleaving, the stream must come out as versions
1..N with every writer's every event exactly once, each version claimed by exactly one
writer, and every loser told the stream had moved past the version it expected.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import store_backends
from store_backends import Backend, WriterLog, join_race, race, race_once, race_task, tag_of, tick

from core.store.base import EventStore

backend = store_backends.backend_fixture(store_backends.BACKENDS)
durable = store_backends.backend_fixture(store_backends.DURABLE_BACKENDS)

spawn = multiprocessing.get_context("spawn")

WRITERS = 20
THREAD_APPENDS = 10
PROCESS_APPENDS = 3


def check_race(store: EventStore, logs: dict[int, WriterLog], appends: int) -> None:
    """The stream is exactly the writers' events, one winner per version, and every
    conflict carried a version the stream had really reached."""
    events = store.read("race")
    total = WRITERS * appends

    assert [e.version for e in events] == list(range(1, total + 1)), "gap or duplicate"
    tags = Counter(tag_of(e.data) for e in events)
    assert tags == Counter((w, n) for w in range(WRITERS) for n in range(appends))

    claimed = sorted(v for won, _ in logs.values() for v in won)
    assert claimed == list(range(1, total + 1)), "a version had no winner or two"
    for writer, (won, _) in logs.items():
        assert all(tag_of(events[v - 1].data)[0] == writer for v in won)

    conflicts = [c for _, lost in logs.values() for c in lost]
    assert all(expected < current <= total for expected, current in conflicts)
    # With 20 writers on one stream some attempts must lose, or nothing raced at all.
    assert conflicts, "no writer ever lost: the race did not happen"


def check_once(store: EventStore, outcomes: list[tuple[int, int, bool]]) -> None:
    """Exactly one writer appended; everyone got that writer's result back."""
    events = store.read("once")
    assert [e.version for e in events] == [1, 2]
    assert events[1].idempotency_key == "once"
    assert sorted(replayed for _, _, replayed in outcomes) == [False] + [True] * (WRITERS - 1)
    assert {(first, last) for first, last, _ in outcomes} == {(2, 2)}


def test_threads_racing_on_one_stream_leave_gapless_unique_versions(backend: Backend) -> None:
    store = backend.store
    barrier = threading.Barrier(WRITERS)
    with ThreadPoolExecutor(WRITERS) as pool:
        futures = {
            w: pool.submit(race, store, "race", w, THREAD_APPENDS, barrier.wait)
            for w in range(WRITERS)
        }
        logs = {w: f.result(timeout=60) for w, f in futures.items()}

    check_race(store, logs, THREAD_APPENDS)


def test_threads_racing_with_one_idempotency_key_append_once(backend: Backend) -> None:
    store = backend.store
    store.append("once", 0, [tick(-1, 0)])
    barrier = threading.Barrier(WRITERS)
    with ThreadPoolExecutor(WRITERS) as pool:
        futures = [
            pool.submit(race_once, store, "once", w, "once", barrier.wait) for w in range(WRITERS)
        ]
        outcomes = [f.result(timeout=60) for f in futures]

    check_once(store, outcomes)


@pytest.fixture(scope="module")
def writer_pool() -> Iterator[Any]:
    """WRITERS spawned processes, started once for the module (spawning is the slow part).
    All of them block on one barrier per race, so each takes exactly one writer's task."""
    barrier = spawn.Barrier(WRITERS)
    with spawn.Pool(WRITERS, initializer=join_race, initargs=(barrier,)) as pool:
        yield pool


def run_processes(pool: Any, url: str, stream_id: str, appends: int) -> list[Any]:
    tasks = [(url, stream_id, w, appends) for w in range(WRITERS)]
    return pool.starmap_async(race_task, tasks, chunksize=1).get(timeout=60)


def test_processes_racing_on_one_stream_leave_gapless_unique_versions(
    durable: Backend, writer_pool: Any
) -> None:
    logs = run_processes(writer_pool, durable.url, "race", PROCESS_APPENDS)

    check_race(durable.store, dict(enumerate(logs)), PROCESS_APPENDS)


def test_processes_racing_with_one_idempotency_key_append_once(
    durable: Backend, writer_pool: Any
) -> None:
    durable.store.append("once", 0, [tick(-1, 0)])

    outcomes = run_processes(writer_pool, durable.url, "once", 0)

    check_once(durable.store, outcomes)
