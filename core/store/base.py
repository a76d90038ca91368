"""The event store contract shared by the memory, SQLite, Redis and PostgreSQL backends."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from functools import partial
from typing import Any

import anyio.to_thread

from core.errors import BadRequest, IdempotencyMismatch
from core.events import AppendResult, NewEvent, Snapshot, StoredEvent, StreamInfo

Seen = tuple[AppendResult, str | None]
"""An idempotency record: the first append's result and its request digest."""

NUL = "\x00"


def refuse_nul(stream_id: str, idempotency_key: str | None = None) -> None:
    """A ``ValueError`` for a write (an append, a snapshot) naming a stream or idempotency
    key that holds a NUL character. PostgreSQL's text cannot hold one, so no backend stores
    one: every backend names the same streams, and a read of such a name answers as for any
    unknown stream."""
    if NUL in stream_id or (idempotency_key is not None and NUL in idempotency_key):
        raise ValueError(f"no stream or idempotency key holds a NUL character: {stream_id!r}")


class EventStore(abc.ABC):
    """Append-only streams with optimistic concurrency and idempotent appends.

    Every backend passes ``tests/test_store_contract.py``. A backend that cannot answer
    (down, stalled past its timeout, locked) raises :class:`core.errors.ServiceUnavailable`
    with the code ``store_unavailable`` from any method, within bounded time.
    """

    @abc.abstractmethod
    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        """Append ``events`` atomically if the stream is at ``expected_version`` (0 = the
        stream must not exist yet, and is created).

        ``waiting`` marks the stream, in the same write, as waiting for a job (a bot's turn,
        a system step) or not, for :meth:`waiting_streams`; ``None`` leaves the mark as it
        was, and marks a new stream as waiting (the side that never loses a job). With no
        events, an append at the current version only changes the mark.

        If ``idempotency_key`` was already used on this stream, nothing is appended and the
        first append's result comes back with ``replayed=True`` — whatever the version is
        now. If ``request_digest`` is given and differs from the first one, raises
        :class:`core.errors.IdempotencyMismatch`. Otherwise a version mismatch raises
        :class:`core.errors.VersionConflict` carrying the current version. A stream or key
        holding a NUL is a ``ValueError`` (:func:`refuse_nul`), with nothing stored.
        """

    @abc.abstractmethod
    def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        """The first result (and request digest) recorded for an idempotency key."""

    @abc.abstractmethod
    def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with ``version > after``, oldest first, at most ``limit``."""

    @abc.abstractmethod
    def version(self, stream_id: str) -> int:
        """Current version; 0 for a stream that does not exist."""

    @abc.abstractmethod
    def list_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        """Streams, newest first."""

    @abc.abstractmethod
    def count_streams(self) -> int: ...

    @abc.abstractmethod
    def waiting_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        """Streams marked as waiting for a job (see :meth:`append`), newest first: what a
        restarted runner must look at, however many streams are stored."""

    @abc.abstractmethod
    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        """Block until the stream passes ``after_version`` or ``timeout`` seconds pass.
        Returns whether it did. Used by the SSE stream."""

    @abc.abstractmethod
    def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the stream's snapshot, unless the one kept is of a later
        version (two processes may race to store one). Nothing else reads or checks it.
        A stream holding a NUL is a ``ValueError`` (:func:`refuse_nul`)."""

    @abc.abstractmethod
    def load_snapshot(self, stream_id: str) -> Snapshot | None:
        """The stream's snapshot as last kept, or ``None``."""

    def mark_watched(self, stream_id: str) -> None:  # noqa: B027 - optional hook
        """Mark the stream as having (or about to have) webhooks, for good: a store that
        keeps the mark answers it in its appends' results (:attr:`AppendResult.watched`),
        so that a move need not ask the hooks' store. A store that keeps none (the
        default) answers ``None`` there."""

    def ping(self) -> None:
        """Raise :class:`core.errors.ServiceUnavailable` unless the store answers now."""
        self.version("")

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections."""

    @property
    def aio(self) -> AsyncStore:
        """This store's async twin (made once): the same streams through calls the event
        loop awaits (see :class:`AsyncStore`)."""
        twin = self.__dict__.get("_aio")
        if twin is None:
            twin = self.__dict__["_aio"] = self._async_twin()
        return twin

    def _async_twin(self) -> AsyncStore:
        return AsyncStore(self)


class AsyncStore:
    """The calls of a store that the API's hot routes make, awaited on the event loop.

    Same arguments, answers and errors as the store's own methods, and the same bounded
    time: a backend that is down or stalled answers :class:`core.errors.ServiceUnavailable`
    (through the store's breaker) without blocking the loop meanwhile. This default runs
    each call in a worker thread and says so (``on_loop`` false): a command on such a store
    is better run whole in one worker thread (:func:`core.steps.arun`) than hop once per
    call. A backend whose async client costs less than a hop (Redis), or whose calls do not
    wait (memory, SQLite's WAL) overrides them.
    """

    on_loop = False
    """Whether these calls are made on the event loop (else each hops to a thread)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def _call(self, method: str, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(partial(getattr(self.store, method), *args))

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        return await self._call(
            "append", stream_id, expected_version, events, idempotency_key, request_digest,
            waiting,
        )  # fmt: skip

    async def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        return await self._call("lookup", stream_id, idempotency_key)

    async def read(
        self, stream_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return await self._call("read", stream_id, after, limit)

    async def version(self, stream_id: str) -> int:
        return await self._call("version", stream_id)

    async def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        await self._call("save_snapshot", stream_id, snapshot)

    async def load_snapshot(self, stream_id: str) -> Snapshot | None:
        return await self._call("load_snapshot", stream_id)

    async def aclose(self) -> None:
        """Release what the twin holds for the running event loop (called at shutdown)."""


class InlineAsyncStore(AsyncStore):
    """For a store whose calls never wait on anything but a short lock: called inline."""

    on_loop = True

    async def _call(self, method: str, *args: Any) -> Any:
        return getattr(self.store, method)(*args)


def replay(seen: Seen, request_digest: str | None) -> AppendResult:
    """The answer to a retried idempotency key: the first result, marked replayed."""
    result, digest = seen
    if request_digest is not None and digest is not None and digest != request_digest:
        raise IdempotencyMismatch(
            message="this Idempotency-Key was already used for a different request"
        )
    return AppendResult(
        stream_id=result.stream_id,
        first_version=result.first_version,
        last_version=result.last_version,
        replayed=True,
    )


def open_store(url: str) -> EventStore:
    """A store from a URL: ``memory://``, ``sqlite:///path/to/file``, ``redis://...`` or
    ``postgresql://...``."""
    if url.startswith("memory:"):
        from core.store.memory import MemoryStore

        return MemoryStore()
    if url.startswith("sqlite:"):
        from core.store.sqlite import SQLiteStore

        # SQLAlchemy style: sqlite:///file.db is relative, sqlite:////abs/file.db absolute.
        rest = url.removeprefix("sqlite:")
        path = rest[3:] if rest.startswith("///") else rest.removeprefix("//")
        return SQLiteStore(path or "ironworks.sqlite3")
    if url.startswith(("redis://", "rediss://", "unix://")):
        from core.store.redis import RedisStore

        return RedisStore(url)
    if url.startswith(("postgresql://", "postgres://")):
        from core.store.postgres import PostgresStore

        return PostgresStore(url)
    raise BadRequest(
        "unknown_store",
        f"unknown store URL {url!r}: use memory://, sqlite:///path, redis:// or postgresql://",
    )
