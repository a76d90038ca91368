"""In-memory event store: the reference backend, used by tests and bots' playouts."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from core.errors import VersionConflict
from core.events import AppendResult, NewEvent, Snapshot, StoredEvent, StreamInfo
from core.store.base import AsyncStore, EventStore, InlineAsyncStore, Seen, refuse_nul, replay


class MemoryStore(EventStore):
    def _async_twin(self) -> AsyncStore:
        return InlineAsyncStore(self)

    def __init__(self) -> None:
        self._streams: dict[str, list[StoredEvent]] = {}
        self._created: dict[str, float] = {}
        self._keys: dict[tuple[str, str], Seen] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._waiting: set[str] = set()
        self._changed = threading.Condition()

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
        with self._changed:
            if idempotency_key is not None:
                seen = self._keys.get((stream_id, idempotency_key))
                if seen is not None:
                    return replay(seen, request_digest)
            stream = self._streams.get(stream_id, [])
            if len(stream) != expected_version:
                raise VersionConflict(stream_id, expected_version, len(stream))
            if not events:
                if stream:
                    self._mark(stream_id, waiting)
                return AppendResult(
                    stream_id=stream_id,
                    first_version=expected_version + 1,
                    last_version=expected_version,
                )
            now = time.time()
            if expected_version == 0:
                self._streams[stream_id] = stream
                self._created[stream_id] = now
            self._mark(stream_id, True if waiting is None and expected_version == 0 else waiting)
            for i, event in enumerate(events, start=expected_version + 1):
                stream.append(
                    StoredEvent(
                        stream_id=stream_id,
                        version=i,
                        type=event.type,
                        data=event.data,
                        actor=event.actor,
                        timestamp=now,
                        idempotency_key=idempotency_key,
                        rules_version=event.rules_version,
                    )
                )
            result = AppendResult(
                stream_id=stream_id, first_version=expected_version + 1, last_version=len(stream)
            )
            if idempotency_key is not None:
                self._keys[(stream_id, idempotency_key)] = (result, request_digest)
            self._changed.notify_all()
            return result

    def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        with self._changed:
            return self._keys.get((stream_id, idempotency_key))

    def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        with self._changed:
            stream = self._streams.get(stream_id, [])
            end = len(stream) if limit is None else min(len(stream), after + limit)
            return stream[max(after, 0) : end]

    def version(self, stream_id: str) -> int:
        with self._changed:
            return len(self._streams.get(stream_id, ()))

    def list_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        with self._changed:
            # Creation order, not the clock: two streams may share a timestamp.
            ordered = list(reversed(self._created.items()))
            return [
                StreamInfo(stream_id=s, version=len(self._streams[s]), created_at=t)
                for s, t in ordered[offset : offset + limit]
            ]

    def count_streams(self) -> int:
        with self._changed:
            return len(self._streams)

    def waiting_streams(self, offset: int = 0, limit: int = 50) -> list[StreamInfo]:
        with self._changed:
            ordered = [(s, t) for s, t in reversed(self._created.items()) if s in self._waiting]
            return [
                StreamInfo(stream_id=s, version=len(self._streams[s]), created_at=t)
                for s, t in ordered[offset : offset + limit]
            ]

    def _mark(self, stream_id: str, waiting: bool | None) -> None:
        if waiting:
            self._waiting.add(stream_id)
        elif waiting is not None:
            self._waiting.discard(stream_id)

    def save_snapshot(self, stream_id: str, snapshot: Snapshot) -> None:
        refuse_nul(stream_id)
        with self._changed:
            kept = self._snapshots.get(stream_id)
            if kept is None or kept.version < snapshot.version:
                self._snapshots[stream_id] = snapshot

    def load_snapshot(self, stream_id: str) -> Snapshot | None:
        with self._changed:
            return self._snapshots.get(stream_id)

    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(
                lambda: len(self._streams.get(stream_id, ())) > after_version, timeout
            )
