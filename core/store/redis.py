"""Redis event store: for several API processes and workers sharing one store.

Per stream a list holds the events (index i is version i + 1) and a hash the idempotency
keys; a sorted set orders the streams by creation. One Lua script checks the key and the
version and appends the whole batch, so no other client can interleave. Each append is
announced on a pub/sub channel, which is what :meth:`RedisStore.wait` listens to.

The URL is redis-py's, plus ``?prefix=NAME`` (default ``ironworks``) in front of every key.
Every call gives up after :data:`TIMEOUT_SECONDS` (``?socket_timeout=`` and
``?socket_connect_timeout=`` in the URL override it) and then answers
:class:`core.errors.ServiceUnavailable`, as does every call while the store is known down.
The async twin (:class:`AsyncRedis`) makes the same calls through ``redis.asyncio``, with
the same timeouts and breaker, one client per event loop.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import msgspec
import redis
import redis.asyncio
import redis.asyncio.retry
from redis.backoff import NoBackoff
from redis.retry import Retry

from core.breaker import Breaker
from core.errors import VersionConflict
from core.events import AppendResult, NewEvent, Snapshot, StoredEvent, StreamInfo
from core.store.base import AsyncStore, EventStore, Seen, refuse_nul, replay
from core.store.wakeup import Waiters

DEFAULT_PREFIX = "ironworks"
TIMEOUT_SECONDS = 2.0
"""How long one Redis call may take (connecting, or waiting for the answer); its commands
take well under a millisecond when Redis is well."""


# KEYS: events list, idempotency hash, streams zset, created-at hash, creation counter,
#       waiting zset, waiting-marked flag
# ARGV: stream id, expected version, '1' if there is an idempotency key else '0', the key,
#       key record, created-at, notification channel, waiting mark ('1', '0' or ''),
#       encoded events...
APPEND_SCRIPT = """
local keyed = ARGV[3] == '1'
if keyed then
    local seen = redis.call('HGET', KEYS[2], ARGV[4])
    if seen then return {'replayed', seen} end
end
local current = redis.call('LLEN', KEYS[1])
if current ~= tonumber(ARGV[2]) then return {'conflict', current} end
local mark = ARGV[8]
if #ARGV == 8 and current == 0 then return {'ok', current} end
if current == 0 then
    local seq = redis.call('INCR', KEYS[5])
    -- A deployment's first stream: none is older than the waiting mark.
    if seq == 1 then redis.call('SET', KEYS[7], '1') end
    redis.call('ZADD', KEYS[3], seq, ARGV[1])
    redis.call('HSET', KEYS[4], ARGV[1], ARGV[6])
end
if mark == '1' or (mark == '' and current == 0) then
    redis.call('ZADD', KEYS[6], redis.call('ZSCORE', KEYS[3], ARGV[1]), ARGV[1])
elseif mark == '0' then
    redis.call('ZREM', KEYS[6], ARGV[1])
end
if #ARGV == 8 then return {'ok', current} end
for i = 9, #ARGV do
    redis.call('RPUSH', KEYS[1], ARGV[i])
end
if keyed then redis.call('HSET', KEYS[2], ARGV[4], ARGV[5]) end
redis.call('PUBLISH', ARGV[7], ARGV[1])
return {'ok', redis.call('LLEN', KEYS[1])}
"""


# KEYS: waiting zset, streams zset, marker. Streams stored before the waiting mark existed
# count as waiting, once: the reconciler looks at each and clears the idle ones.
MARK_OLD_STREAMS_SCRIPT = """
if redis.call('EXISTS', KEYS[3]) == 0 then
    redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[1], KEYS[2])
    redis.call('SET', KEYS[3], '1')
end
return 1
"""

# KEYS: the stream's snapshot hash. ARGV: version, format, data
SNAPSHOT_SCRIPT = """
local kept = redis.call('HGET', KEYS[1], 'version')
if kept and tonumber(kept) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'format', ARGV[2], 'data', ARGV[3])
return 1
"""


class KeyRecord(msgspec.Struct, array_like=True):
    """What an idempotency key remembers: the first append's versions and request digest."""

    first_version: int
    last_version: int
    request_digest: str | None


_msgpack = msgspec.msgpack.Encoder()
_event_decoder = msgspec.msgpack.Decoder(StoredEvent)
_record_decoder = msgspec.msgpack.Decoder(KeyRecord)


def split_prefix(url: str) -> tuple[str, str]:
    """``(url without the prefix parameter, prefix)``: redis-py refuses unknown parameters."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    prefix = next((v for k, v in query if k == "prefix"), DEFAULT_PREFIX) or DEFAULT_PREFIX
    rest = urlencode([(k, v) for k, v in query if k != "prefix"])
    return urlunsplit(parts._replace(query=rest)), prefix


def connect(url: str) -> redis.Redis:
    """A client whose calls end within bounded time: :data:`TIMEOUT_SECONDS` unless the URL
    says otherwise, and one immediate retry only for a refused or broken connection (a
    pooled connection may have died with an earlier Redis), never for a timeout."""
    return redis.Redis.from_url(
        url,
        socket_timeout=TIMEOUT_SECONDS,
        socket_connect_timeout=TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
    )


def connect_async(url: str) -> redis.asyncio.Redis:
    """:func:`connect` for an event loop: the same timeouts and retry."""
    return redis.asyncio.Redis.from_url(
        url,
        socket_timeout=TIMEOUT_SECONDS,
        socket_connect_timeout=TIMEOUT_SECONDS,
        retry=redis.asyncio.retry.Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
    )


def is_outage(exc: BaseException) -> bool:
    """Whether Redis failed to answer, rather than answered with an error."""
    return isinstance(exc, redis.ConnectionError | redis.TimeoutError | OSError)


class RedisStore(EventStore):
    def __init__(self, url: str) -> None:
        self.url, self.prefix = split_prefix(url)
        self.client = connect(self.url)
        self.breaker = Breaker("store_unavailable", "the event store", is_outage)
        self._append = self.client.register_script(APPEND_SCRIPT)
        self._save_snapshot = self.client.register_script(SNAPSHOT_SCRIPT)
        self._mark_old_streams = self.client.register_script(MARK_OLD_STREAMS_SCRIPT)
        self._streams = f"{self.prefix}:streams"
        self._created = f"{self.prefix}:created"
        self._counter = f"{self.prefix}:stream_counter"
        self._waiting = f"{self.prefix}:waiting"
        self._waiting_marker = f"{self.prefix}:waiting_marked"
        self._waiting_marked = False
        self.channel = f"{self.prefix}:appended"
        self._notifier = _Notifier(self)

    def _events(self, stream_id: str) -> str:
        return f"{self.prefix}:events:{stream_id}"

    def _keys(self, stream_id: str) -> str:
        return f"{self.prefix}:keys:{stream_id}"

    def _snapshot(self, stream_id: str) -> str:
        return f"{self.prefix}:snapshot:{stream_id}"

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        keys, args = self._append_call(
            stream_id, expected_version, events, idempotency_key, request_digest, waiting
        )
        with self.breaker:
            outcome, value = self._append(keys=keys, args=args)
        return self._appended(stream_id, expected_version, len(events), outcome, value,
                              request_digest)  # fmt: skip

    def _append_call(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None,
        request_digest: str | None,
        waiting: bool | None,
    ) -> tuple[list[str], list[Any]]:
        """The append script's keys and arguments (sync and async appends both make them)."""
        refuse_nul(stream_id, idempotency_key)
        # Versions and timestamps are filled in here; the script refuses the batch unless the
        # stream is still at expected_version, so they are right whenever it is stored.
        now = time.time()
        encoded = [
            _msgpack.encode(
                StoredEvent(
                    stream_id=stream_id, version=v, type=e.type, data=e.data, actor=e.actor,
                    timestamp=now, idempotency_key=idempotency_key,
                    rules_version=e.rules_version,
                )
            )
            for v, e in enumerate(events, start=expected_version + 1)
        ]  # fmt: skip
        first, last = expected_version + 1, expected_version + len(events)
        record = _msgpack.encode(KeyRecord(first, last, request_digest))
        keys = [
            self._events(stream_id), self._keys(stream_id), self._streams, self._created,
            self._counter, self._waiting, self._waiting_marker,
        ]  # fmt: skip
        args = [
            stream_id, expected_version, int(idempotency_key is not None),
            idempotency_key or "", record, repr(now), self.channel,
            "" if waiting is None else str(int(waiting)), *encoded,
        ]  # fmt: skip
        return keys, args

    def _appended(
        self,
        stream_id: str,
        expected_version: int,
        count: int,
        outcome: bytes,
        value: Any,
        request_digest: str | None,
    ) -> AppendResult:
        """The append's answer from the script's."""
        if outcome == b"replayed":
            return replay(self._seen(stream_id, value), request_digest)
        if outcome == b"conflict":
            raise VersionConflict(stream_id, expected_version, int(value))
        return AppendResult(
            stream_id=stream_id,
            first_version=expected_version + 1,
            last_version=expected_version + count,
        )

    def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        with self.breaker:
            value = self.client.hget(self._keys(stream_id), idempotency_key)
        return None if value is None else self._seen(stream_id, value)

    def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if limit is not None and limit <= 0:
            return []
        with self.breaker:
            raws = self.client.lrange(self._events(stream_id), *_span(after, limit))
        return [_event_decoder.decode(raw) for raw in raws]

    def version(self, stream_id: str) -> int:
        with self.breaker:
            return int(self.client.llen(self._events(stream_id)))

    def list_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        return self._stream_infos(self._streams, offset, limit)

    def _stream_infos(self, zset: str, offset: int, limit: int) -> list[StreamInfo]:
        if limit <= 0:
            return []
        offset = max(offset, 0)
        with self.breaker:
            ids = self.client.zrevrange(zset, offset, offset + limit - 1)
            if not ids:
                return []
            with self.client.pipeline(transaction=False) as pipe:
                pipe.hmget(self._created, ids)
                for raw in ids:
                    pipe.llen(self._events(raw.decode()))
                created, *versions = pipe.execute()
        return [
            StreamInfo(stream_id=raw.decode(), version=int(v), created_at=float(t or 0))
            for raw, t, v in zip(ids, created, versions, strict=True)
        ]

    def count_streams(self) -> int:
        with self.breaker:
            return int(self.client.zcard(self._streams))

    def waiting_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        if not self._waiting_marked:
            with self.breaker:
                self._mark_old_streams(keys=[self._waiting, self._streams, self._waiting_marker])
            self._waiting_marked = True
        return self._stream_infos(self._waiting, offset, limit)

    def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        refuse_nul(stream_id)
        with self.breaker:
            self._save_snapshot(
                keys=[self._snapshot(stream_id)],
                args=[snapshot.version, snapshot.format, snapshot.data],
            )

    def load_snapshot(self, stream_id: str) -> Snapshot | None:
        with self.breaker:
            fields = self.client.hmget(self._snapshot(stream_id), ["version", "format", "data"])
        return self._snapshot_of(*fields)

    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        return self._notifier.wait(stream_id, after_version, timeout)

    def ping(self) -> None:
        with self.breaker:
            self.client.ping()

    def close(self) -> None:
        self._notifier.close()
        self.client.close()

    def _async_twin(self) -> AsyncStore:
        return AsyncRedis(self)

    @staticmethod
    def _snapshot_of(version: Any, format_: Any, data: Any) -> Snapshot | None:
        if version is None or format_ is None or data is None:
            return None
        return Snapshot(version=int(version), format=format_.decode(), data=data)

    @staticmethod
    def _seen(stream_id: str, raw: bytes) -> Seen:
        rec = _record_decoder.decode(raw)
        result = AppendResult(
            stream_id=stream_id, first_version=rec.first_version, last_version=rec.last_version
        )
        return result, rec.request_digest


def _span(after: int, limit: int | None) -> tuple[int, int]:
    """The list indexes of the events after version ``after``, at most ``limit``."""
    start = max(after, 0)
    return start, -1 if limit is None else start + limit - 1


class _Scripts:
    """An async client and the scripts registered on it, for one event loop."""

    def __init__(self, store: RedisStore) -> None:
        self.client = connect_async(store.url)
        self.append = self.client.register_script(APPEND_SCRIPT)
        self.save_snapshot = self.client.register_script(SNAPSHOT_SCRIPT)


class AsyncRedis(AsyncStore):
    """The Redis store's async twin: the same scripts and commands, awaited, under the same
    breaker. A client belongs to the event loop that made it, so each loop gets its own."""

    store: RedisStore
    on_loop = True

    def __init__(self, store: RedisStore) -> None:
        super().__init__(store)
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Scripts] = (
            weakref.WeakKeyDictionary()
        )

    def _on_loop(self) -> _Scripts:
        loop = asyncio.get_running_loop()
        scripts = self._clients.get(loop)
        if scripts is None:
            scripts = self._clients[loop] = _Scripts(self.store)
        return scripts

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        store = self.store
        keys, args = store._append_call(
            stream_id, expected_version, events, idempotency_key, request_digest, waiting
        )
        with store.breaker:
            outcome, value = await self._on_loop().append(keys=keys, args=args)
        return store._appended(stream_id, expected_version, len(events), outcome, value,
                               request_digest)  # fmt: skip

    async def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        with self.store.breaker:
            value = await self._on_loop().client.hget(self.store._keys(stream_id), idempotency_key)
        return None if value is None else self.store._seen(stream_id, value)

    async def read(
        self, stream_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        if limit is not None and limit <= 0:
            return []
        with self.store.breaker:
            raws = await self._on_loop().client.lrange(
                self.store._events(stream_id), *_span(after, limit)
            )
        return [_event_decoder.decode(raw) for raw in raws]

    async def version(self, stream_id: str) -> int:
        with self.store.breaker:
            return int(await self._on_loop().client.llen(self.store._events(stream_id)))

    async def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        refuse_nul(stream_id)
        with self.store.breaker:
            await self._on_loop().save_snapshot(
                keys=[self.store._snapshot(stream_id)],
                args=[snapshot.version, snapshot.format, snapshot.data],
            )

    async def load_snapshot(self, stream_id: str) -> Snapshot | None:
        with self.store.breaker:
            fields = await self._on_loop().client.hmget(
                self.store._snapshot(stream_id), ["version", "format", "data"]
            )
        return self.store._snapshot_of(*fields)

    async def aclose(self) -> None:
        scripts = self._clients.pop(asyncio.get_running_loop(), None)
        if scripts is not None:
            await scripts.client.aclose()


class _Notifier(Waiters):
    """One pub/sub subscription per process, shared by every waiting thread.

    Waiters register the stream they watch; the listener thread bumps that stream's
    generation on each announcement and wakes them. Started lazily (and again after a
    fork, since threads do not survive one).
    """

    def __init__(self, store: RedisStore) -> None:
        super().__init__(store)
        self._pubsub: redis.client.PubSub | None = None

    def _start_listening(self) -> None:
        with self.store.breaker:
            pubsub = self._subscribe()
        self._pubsub = pubsub
        threading.Thread(
            target=self._listen, args=(pubsub,), name="ironworks-redis-notify", daemon=True
        ).start()

    def _subscribe(self) -> redis.client.PubSub:
        pubsub = self.store.client.pubsub(ignore_subscribe_messages=False)
        pubsub.subscribe(self.store.channel)
        # Only a confirmed subscription guarantees that later appends reach us.
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while (left := deadline - time.monotonic()) > 0:
            message = pubsub.get_message(timeout=left)
            if message is not None and message["type"] == "subscribe":
                return pubsub
        pubsub.close()
        raise redis.TimeoutError("Redis did not confirm the subscription")

    def _listen(self, pubsub: redis.client.PubSub) -> None:
        while not self._closed:
            try:
                message = pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except (redis.RedisError, OSError, ValueError):
                if self._closed:
                    return
                time.sleep(0.5)  # waiters keep polling meanwhile; redis-py reconnects
                continue
            if message is None or message["type"] != "message":
                continue
            self._wake(message["data"].decode())

    def close(self) -> None:
        with self._cond:
            self._closed = True
            pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None and self._pid == os.getpid():
            pubsub.close()
