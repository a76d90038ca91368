"""The event envelope: what the store keeps for every event of a match stream."""

from __future__ import annotations

import msgspec


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event about to be appended. ``data`` is the JSON-encoded payload."""

    type: str
    data: bytes
    actor: int | None = None
    """A seat, ``core.game.SYSTEM`` for system commands, ``None`` for the service itself."""
    rules_version: str = ""


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An appended event. ``version`` is gapless per stream, starting at 1."""

    stream_id: str
    version: int
    type: str
    data: bytes
    actor: int | None
    timestamp: float
    """Seconds since the epoch, set by the store when appended."""
    idempotency_key: str | None
    rules_version: str


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    """Where an append landed. ``replayed`` is true when an idempotency key was seen before
    and nothing new was appended: the versions are those of the first append."""

    stream_id: str
    first_version: int
    last_version: int
    replayed: bool = False
    watched: bool | None = None
    """Whether the stream was marked as having hooks (:meth:`EventStore.mark_watched`)
    when this append was made; ``None``: the store does not say (it keeps no mark, or
    the stream is older than its mark)."""


class StreamInfo(msgspec.Struct, frozen=True, kw_only=True):
    stream_id: str
    version: int
    created_at: float


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A folded match as of ``version``, kept by the store to shorten cold reads (see
    :mod:`core.live`). ``format`` names what ``data`` holds; the store keeps it opaque."""

    version: int
    format: str
    data: bytes
