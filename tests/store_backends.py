"""The event store backends as a pytest fixture, and the writers the race tests run.

The writer functions live here rather than in a test module because spawned processes
import them by module name, and this module imports nothing from pytest's test files.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal

from core.errors import VersionConflict
from core.events import NewEvent
from core.store.base import EventStore, open_store

POSTGRES = pytest.param("postgres", marks=pytest.mark.postgres)
BACKENDS = ["memory", "sqlite", pytest.param("redis", marks=pytest.mark.redis), POSTGRES]
DURABLE_BACKENDS = ["sqlite", pytest.param("redis", marks=pytest.mark.redis), POSTGRES]
AWAITED_BACKENDS = [
    "memory+aio", "sqlite+aio", pytest.param("redis+aio", marks=pytest.mark.redis),
    pytest.param("postgres+aio", marks=pytest.mark.postgres),
]  # fmt: skip
"""The same backends, their hot calls made through their async twins (see :class:`Awaited`)."""


@dataclass
class Backend:
    """A store under test. ``url`` opens the same data again (durable backends only)."""

    name: str
    url: str
    store: EventStore
    durable: bool
    opened: list[EventStore] = field(default_factory=list)

    def reopen(self) -> EventStore:
        """A fresh store object on the same data, as a restarted process would open it."""
        assert self.durable, f"{self.name} keeps nothing across a restart"
        store = open_store(self.url)
        self.opened.append(store)
        return store


class Awaited(EventStore):
    """A store whose calls the service's async path makes (:class:`core.store.base.AsyncStore`)
    go through its async twin, awaited on an event loop of its own; the rest as they are."""

    def __init__(self, store: EventStore) -> None:
        self.inner = store
        self._portal = start_blocking_portal()
        self.portal = self._portal.__enter__()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def append(self, *args: Any, **kwargs: Any) -> Any:
        return self.portal.call(partial(self.inner.aio.append, *args, **kwargs))

    def lookup(self, *args: Any) -> Any:
        return self.portal.call(self.inner.aio.lookup, *args)

    def read(self, *args: Any, **kwargs: Any) -> Any:
        return self.portal.call(partial(self.inner.aio.read, *args, **kwargs))

    def version(self, *args: Any) -> Any:
        return self.portal.call(self.inner.aio.version, *args)

    def save_snapshot(self, *args: Any) -> Any:
        return self.portal.call(self.inner.aio.save_snapshot, *args)

    def load_snapshot(self, *args: Any) -> Any:
        return self.portal.call(self.inner.aio.load_snapshot, *args)

    def list_streams(self, *args: Any, **kwargs: Any) -> Any:
        return self.inner.list_streams(*args, **kwargs)

    def count_streams(self) -> int:
        return self.inner.count_streams()

    def waiting_streams(self, *args: Any, **kwargs: Any) -> Any:
        return self.inner.waiting_streams(*args, **kwargs)

    def wait(self, *args: Any, **kwargs: Any) -> bool:
        return self.inner.wait(*args, **kwargs)

    def close(self) -> None:
        try:
            self.portal.call(self.inner.aio.aclose)
        finally:
            self._portal.__exit__(None, None, None)
            self.inner.close()


def open_backend(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if name.endswith("+aio"):
        plain = open_backend(name.removesuffix("+aio"), request, tmp_path)
        return Backend(name=name, url=plain.url, store=Awaited(plain.store), durable=plain.durable)
    if name == "memory":
        url = "memory://"
    elif name == "sqlite":
        url = f"sqlite:///{tmp_path / 'events.sqlite3'}"  # tmp_path is absolute: sqlite:////
    else:
        url = request.getfixturevalue(f"{name}_url")
    return Backend(name=name, url=url, store=open_store(url), durable=name != "memory")


def backend_fixture(names: list[Any]) -> Callable[..., Iterator[Backend]]:
    """A fixture giving each test one :class:`Backend` per name in ``names``."""

    @pytest.fixture(params=names)
    def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
        opened = open_backend(request.param, request, tmp_path)
        yield opened
        for store in [opened.store, *opened.opened]:
            store.close()

    return backend


def tick(writer: int, n: int) -> NewEvent:
    """An event tagged with who wrote it, so duplicates and losses can be traced."""
    data = json.dumps({"writer": writer, "n": n}).encode()
    return NewEvent(type="tick", data=data, actor=writer, rules_version="test")


def tag_of(data: bytes) -> tuple[int, int]:
    doc = json.loads(data)
    return doc["writer"], doc["n"]


WriterLog = tuple[list[int], list[tuple[int, int]]]
"""What a writer saw: versions it won, and ``(expected, current)`` of each conflict."""


def race(
    store: EventStore, stream_id: str, writer: int, appends: int, start: Callable[[], Any]
) -> WriterLog:
    """Append ``appends`` tagged events, each time reading the version first and retrying
    on a conflict: the optimistic loop every client of the store runs."""
    won: list[int] = []
    lost: list[tuple[int, int]] = []
    start()
    for n in range(appends):
        while True:
            expected = store.version(stream_id)
            time.sleep(0)  # let other writers run between the read and the write
            try:
                result = store.append(stream_id, expected, [tick(writer, n)])
            except VersionConflict as conflict:
                lost.append((expected, conflict.current_version))
                continue
            won.append(result.last_version)
            break
    return won, lost


OnceLog = tuple[int, int, bool]
"""``(first_version, last_version, replayed)`` of one idempotent append."""


def race_once(
    store: EventStore, stream_id: str, writer: int, key: str, start: Callable[[], Any]
) -> OnceLog:
    """Submit the same request (same key, same digest) as every other writer; each writer
    still tags its event, so a second append would show up as a second writer's tag."""
    start()
    while True:
        expected = store.version(stream_id)
        time.sleep(0)
        try:
            result = store.append(stream_id, expected, [tick(writer, 0)], key, "same-request")
        except VersionConflict:
            continue
        return result.first_version, result.last_version, result.replayed


_barrier: Any = None


def join_race(barrier: Any) -> None:
    """Pool initializer: every writer process waits on ``barrier`` before racing."""
    global _barrier
    _barrier = barrier


def _start() -> None:
    _barrier.wait(60)


def race_task(url: str, stream_id: str, writer: int, appends: int) -> WriterLog | OnceLog:
    """Process entry point of :func:`race` (``appends=0``: of :func:`race_once`)."""
    store = open_store(url)
    try:
        if appends:
            return race(store, stream_id, writer, appends, _start)
        return race_once(store, stream_id, writer, "once", _start)
    finally:
        store.close()


def append_later(url: str, stream_id: str, delay: float, key: str | None = None) -> None:
    """Process entry point: open the store, wait, append one event to ``stream_id``."""
    store = open_store(url)
    try:
        time.sleep(delay)
        store.append(stream_id, store.version(stream_id), [tick(99, 0)], key, "digest")
    finally:
        store.close()
