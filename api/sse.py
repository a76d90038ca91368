"""The server-sent event stream of a match's redacted log.

Each message's ``id`` is the event's version, so a reconnecting client resumes exactly
where it stopped (``Last-Event-ID``). Between events the stream blocks in
``store.wait`` on a worker thread instead of polling; the thread is abandoned when the
client goes away and returns by itself within one keep-alive period.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.to_thread
import msgspec
from litestar.response import ServerSentEventMessage

from api.bodies import MAX_VERSION
from core.errors import BadRequest, ServiceUnavailable
from core.service import MatchService

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
PAGE = 100
waiters = anyio.CapacityLimiter(256)
"""Threads parked in ``store.wait``, kept apart from the pool that serves ordinary requests,
so open streams cannot starve them."""


def resume_point(last_event_id: str | None, after: int | None) -> int:
    """The version a client has already seen: ``Last-Event-ID`` wins over ``?after=``.

    An empty ``Last-Event-ID`` counts as absent: it is what a client whose last event
    had no id (or that saw none yet) may send."""
    if last_event_id is not None and last_event_id.strip():
        try:
            seen = int(last_event_id.strip())
        except ValueError:
            raise BadRequest(
                "bad_last_event_id", "Last-Event-ID must be the integer version of an event"
            ) from None
        if not 0 <= seen <= MAX_VERSION:
            # The bound of ``?after=``: beyond it the stores cannot even compare versions.
            raise BadRequest(
                "bad_last_event_id", f"Last-Event-ID must be a version from 0 to {MAX_VERSION}"
            )
        return seen
    return after or 0


async def event_stream(
    service: MatchService,
    match_id: str,
    seat: int | None,
    after: int,
    until_version: int | None = None,
    keepalive: float = KEEPALIVE_SECONDS,
    *,
    holder: str | None = None,
) -> AsyncIterator[ServerSentEventMessage]:
    """Events after ``after`` as ``seat`` may see them, live, until the client leaves, the
    match is over and fully sent, or ``until_version`` has been sent.

    ``holder``: the hash of the seat token the stream was opened with. A seat's stream
    ends once that token stops working (re-issued, or its player removed): its hand is
    no longer that client's to see, and a reconnect is refused as a request would be."""
    seen = after
    try:
        while until_version is None or seen < until_version:
            events, finished, revoked = await anyio.to_thread.run_sync(
                _next_page, service, match_id, seat, seen, holder
            )
            if revoked:
                return
            for event in events:
                if until_version is not None and event["version"] > until_version:
                    return
                seen = event["version"]
                yield ServerSentEventMessage(data=msgspec.json.encode(event).decode(), id=seen)
                # Let the loop hear of a client that left: else the rest of a page is written
                # to a closed socket, each write logging a warning.
                await anyio.sleep(0)
            if events:
                continue
            if finished:
                return
            moved = await anyio.to_thread.run_sync(
                service.store.wait, match_id, seen, keepalive,
                abandon_on_cancel=True, limiter=waiters,
            )  # fmt: skip
            if not moved:
                yield ServerSentEventMessage(data=None, comment="keep-alive")
    except ServiceUnavailable as exc:  # the client reconnects with Last-Event-ID
        log.warning("event stream of match %s ended: %s", match_id, exc.message)
    except Exception:  # headers are sent: all we can do is log and end the stream
        log.exception("event stream of match %s failed", match_id)


def _next_page(
    service: MatchService, match_id: str, seat: int | None, seen: int, holder: str | None
) -> tuple[list[dict[str, Any]], bool, bool]:
    """The next page of events after ``seen``, whether none will ever follow (the match
    is over and ``seen`` is its last event), and whether the token the seat's stream was
    opened with no longer holds the seat. One load serves all three answers."""
    match = service.load(match_id)
    if seat is not None and holder is not None and match.seats[seat].token_hash != holder:
        return [], False, True
    events = service.redacted_events(match_id, seat, seen, PAGE, match=match)
    finished = not events and match.version <= seen and service.over(match)
    return events, finished, False
