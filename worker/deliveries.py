"""Webhook deliveries, on the workers: finding what happened, sending it, retrying.

A ``hooks`` job (:class:`core.tasks.Job`) runs for a match whose hooks may have news: the
service queues one after every change of a match that has hooks, and the
:class:`DeliverySweeper` queues one when a retry falls due or a job was lost. The job first
scans the match's log past the book's cursor for triggers and schedules one delivery per
(hook, trigger), then sends every delivery that is due.

Nothing is sent twice as new: a delivery's id is fixed by its hook and the match version
that caused it, scheduling is one append after the cursor (a second worker's append
conflicts, and it finds the work done), and an attempt is sent only by the worker whose
``delivery.attempt`` event got appended. A worker that dies mid-attempt leaves it
``delivering``; after the policy's lease another worker sends it again under the same
delivery id (the ``X-Ironworks-Delivery`` header), which receivers dedupe on.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
from typing import Any

import httpx
import msgspec

from api import package_version
from core.errors import BadRequest, IronworksError, ServiceUnavailable
from core.match import MatchState, fold
from core.service import MatchService
from core.store.base import EventStore
from core.tasks import Job
from core.webhooks import (
    TIMEOUT_EVENT,
    AttemptEnded,
    AttemptStarted,
    Book,
    Delivery,
    DeliveryScheduled,
    Hook,
    Scanned,
    Webhooks,
)
from worker.jobs import Outcome

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Ironworks-Signature"
_jitter = random.Random()


class Trigger(msgspec.Struct, frozen=True, kw_only=True):
    event: str
    version: int
    seat: int | None = None
    result: dict[str, Any] | None = None


def run_hooks(service: MatchService, job: Job) -> Outcome:
    """The ``hooks`` job: schedule what the match's log calls for, send what is due."""
    hooks = service.webhooks
    if hooks is None:
        return "stale"
    try:
        scheduled = schedule(service, hooks, job.match_id)
        sent = deliver_due(hooks, job.match_id)
    except IronworksError as exc:
        if isinstance(exc, ServiceUnavailable):
            raise  # the sweeper queues it again once the store is back
        log.error("hooks job %s failed: %s %s", job.id, exc.code, exc.message)
        return "failed"
    return "done" if scheduled or sent else "stale"


# --- finding triggers --------------------------------------------------------------------


def schedule(service: MatchService, hooks: Webhooks, match_id: str) -> int:
    """Turn the match's log after the book's cursor into deliveries; returns how many."""
    count = 0

    def make(book: Book) -> list[msgspec.Struct]:
        nonlocal count
        start = book.cursor()
        if not book.hooks or service.store.version(match_id) <= start:
            return []
        latest, triggers = find_triggers(service, service.store, match_id, start)
        now = hooks.clock()
        new: list[msgspec.Struct] = [Scanned(through=latest)]
        for trigger in triggers:
            for hook in book.hooks.values():
                if not _wants(hook, trigger) or trigger.version <= hook.after_version:
                    continue
                delivery_id = _delivery_id(hook, trigger)
                if delivery_id in book.deliveries:
                    continue
                new.append(
                    DeliveryScheduled(
                        delivery_id=delivery_id, hook_id=hook.hook_id, event=trigger.event,
                        match_version=trigger.version,
                        payload=_payload(book.match_id, service, hook, trigger, delivery_id),
                        created_at=now,
                    )
                )  # fmt: skip
        count = len(new) - 1
        return new

    hooks.change(match_id, make)
    return count


def find_triggers(
    service: MatchService, store: EventStore, match_id: str, after: int
) -> tuple[int, list[Trigger]]:
    """The newest version of the match and what happened after version ``after``:

    * ``your_turn`` at the version where a seat played by a person (claimed, no bot) came
      to be waited on, unless its own event did it (a step inside its own move); dropped
      when it is no longer that seat's turn by the newest version (old news);
    * ``match_finished`` at the newest version when the match is over by then and was not
      at ``after``: judged there only, since a state inside one move's events may look
      over before its last event (the winner named by it);
    * ``timeout`` at each ``core.turn_timed_out`` event (its payload names the seat).

    Appends are atomic, so the newest version always ends a whole move.
    """
    match: MatchState | None = None
    waiting: set[int] = set()
    was_over = False
    triggers: list[Trigger] = []
    for stored in store.read(match_id):
        match = fold(service.games, [stored], match)
        now_waiting, result = _waiting_on(service, match)
        if stored.version <= after:
            was_over = result is not None
        else:
            for seat in sorted(now_waiting - waiting):
                if stored.actor != seat:
                    triggers.append(Trigger(event="your_turn", version=stored.version, seat=seat))
            if stored.type == TIMEOUT_EVENT:
                seat = msgspec.json.decode(stored.data).get("seat")
                triggers.append(Trigger(event="timeout", version=stored.version, seat=seat))
        waiting = now_waiting
    if match is None:
        return after, []
    result = service.result(match) if match.game_state is not None else None
    if result is not None:
        triggers = [t for t in triggers if t.event != "your_turn"]
        if not was_over:
            triggers.append(
                Trigger(event="match_finished", version=match.version,
                        result=msgspec.to_builtins(result))
            )  # fmt: skip
    fresh = [t for t in triggers if t.event != "your_turn" or t.seat in waiting]
    return match.version, fresh


def _waiting_on(service: MatchService, match: MatchState) -> tuple[set[int], Any]:
    if match.game_state is None:  # before the game's setup events
        return set(), None
    result = service.result(match)
    if result is not None:
        return set(), result
    seats = {
        t.seat for t in service.tasks(match)
        if t.kind == "turn" and t.seat is not None
        and match.seats[t.seat].token_hash is not None and match.seats[t.seat].bot is None
    }  # fmt: skip
    return seats, None


def _wants(hook: Hook, trigger: Trigger) -> bool:
    if trigger.event not in hook.events:
        return False
    # A seat's hook hears of its own turns and timeouts, and of the end of the match.
    return hook.seat is None or trigger.seat is None or trigger.seat == hook.seat


def _delivery_id(hook: Hook, trigger: Trigger) -> str:
    seat = "" if trigger.seat is None else f"-{trigger.seat}"
    return f"{hook.hook_id}-{trigger.version}-{trigger.event}{seat}"


def _payload(
    match_id: str, service: MatchService, hook: Hook, trigger: Trigger, delivery_id: str
) -> dict[str, Any]:
    first = service.store.read(match_id, 0, 1)
    game = msgspec.json.decode(first[0].data).get("game") if first else None
    payload: dict[str, Any] = {
        "delivery": delivery_id, "hook": hook.hook_id, "event": trigger.event,
        "match_id": match_id, "game": game, "version": trigger.version, "seat": trigger.seat,
    }  # fmt: skip
    if trigger.result is not None:
        payload["result"] = trigger.result
    return payload


# --- sending -------------------------------------------------------------------------------


def deliver_due(hooks: Webhooks, match_id: str, client: httpx.Client | None = None) -> int:
    """Send every delivery of the match that is due now; returns how many attempts it made."""
    book = hooks.book(match_id)
    sent = 0
    for delivery_id in [d.delivery_id for d in _live(book)]:
        claimed = _claim(hooks, match_id, delivery_id)
        if claimed is None:
            continue
        hook, delivery, attempt = claimed
        status, error = _send(hooks, hook, delivery, attempt, client)
        now = hooks.clock()
        delivered = status is not None and 200 <= status < 300
        retry = None if delivered else hooks.policy.next_attempt_at(attempt, now, _jitter)
        ended = AttemptEnded(
            delivery_id=delivery_id, attempt=attempt, ended_at=now, status_code=status,
            error=error, delivered=delivered, next_attempt_at=retry,
        )  # fmt: skip
        hooks.change(match_id, lambda _book, ended=ended: [ended])
        sent += 1
        if not delivered:
            log.info("delivery %s attempt %d failed: %s", delivery_id, attempt, error or status)
    return sent


def _live(book: Book) -> list[Delivery]:
    """Deliveries whose hook is still registered (a removed hook's are dropped)."""
    return [d for d in book.deliveries.values() if d.hook_id in book.hooks]


def _claim(hooks: Webhooks, match_id: str, delivery_id: str) -> tuple[Hook, Delivery, int] | None:
    """Append the next attempt of the delivery if it is (still) due; ``None`` when another
    worker got there first or it is not due."""
    attempt = 0

    def make(book: Book) -> list[msgspec.Struct]:
        nonlocal attempt
        delivery = book.deliveries[delivery_id]
        if delivery.hook_id not in book.hooks:
            return []
        if not delivery.due(hooks.clock(), hooks.policy.lease):
            return []
        attempt = len(delivery.attempts) + 1
        return [AttemptStarted(delivery_id=delivery_id, attempt=attempt, started_at=hooks.clock())]

    book, appended = hooks.change(match_id, make)
    if not appended:
        return None
    delivery = book.deliveries[delivery_id]
    return book.hooks[delivery.hook_id], delivery, attempt


def signature(secret: str, body: bytes) -> str:
    """The ``X-Ironworks-Signature`` value: ``sha256=`` and the hex HMAC-SHA256 of the body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _send(
    hooks: Webhooks, hook: Hook, delivery: Delivery, attempt: int, client: httpx.Client | None
) -> tuple[int | None, str | None]:
    """POST one attempt; (the status code, or ``None`` and what went wrong)."""
    sent_at = round(hooks.clock(), 3)
    body = msgspec.json.encode({**delivery.payload, "attempt": attempt, "sent_at": sent_at})
    headers = {
        "Content-Type": "application/json",
        "User-Agent": f"ironworks-webhooks/{package_version()}",
        "X-Ironworks-Event": delivery.event,
        "X-Ironworks-Delivery": delivery.delivery_id,
        "X-Ironworks-Attempt": str(attempt),
        "X-Ironworks-Timestamp": str(sent_at),
        SIGNATURE_HEADER: signature(hook.secret, body),
    }
    try:
        hooks.check(hook.url)
        if client is None:
            with httpx.Client(timeout=hooks.policy.timeout, follow_redirects=False) as own:
                response = own.post(hook.url, content=body, headers=headers)
        else:
            response = client.post(hook.url, content=body, headers=headers)
    except (BadRequest, ServiceUnavailable) as exc:  # refused, or its name not looked up now
        return None, f"{exc.code}: {exc.message}"
    except httpx.HTTPError as exc:
        return None, f"{type(exc).__name__}: {exc}"[:300]
    return response.status_code, None


# --- waking retries and lost work ------------------------------------------------------------


class DeliverySweeper:
    """Queues a ``hooks`` job for each match whose hooks need a worker now: a retry fell
    due, an attempt's worker went quiet, or the log moved past the last scan (a lost job).

    Run it every second or so (the in-process runner's sweeper thread, the RQ workers'
    watch loop). It keeps each hook stream's folded wake-up time by stream version, so a
    quiet pass costs a listing of the hook streams and one version read per match with
    live hooks.
    """

    PAGE = 500

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self._known: dict[str, tuple[int, float | None, int, bool]] = {}
        """match -> (hook stream version, next wake-up, scan cursor, has live hooks)"""
        self._queued: dict[str, tuple[int, float]] = {}
        """match -> (hook stream version, when) of the last job this sweeper queued"""

    def sweep(self) -> int:
        hooks = self.service.webhooks
        if hooks is None:
            return 0
        now = hooks.clock()
        queued = 0
        offset = 0
        while page := hooks.store.list_streams(offset, self.PAGE):
            offset += len(page)
            for info in page:
                known = self._known.get(info.stream_id)
                if known is None or known[0] != info.version:
                    book = hooks.book(info.stream_id)
                    lease = hooks.policy.lease
                    wakes = [w for d in _live(book) if (w := d.wake_at(lease)) is not None]
                    known = (book.version, min(wakes, default=None), book.cursor(),
                             bool(book.hooks))  # fmt: skip
                    self._known[info.stream_id] = known
                _, wake, cursor, live = known
                if not live:
                    continue
                due = wake is not None and wake <= now
                if not due and self.service.store.version(info.stream_id) <= cursor:
                    continue
                last = self._queued.get(info.stream_id)
                if last is not None and last[0] == info.version and now - last[1] < 5.0:
                    continue  # queued moments ago and nothing changed since: let it run
                self._queued[info.stream_id] = (info.version, now)
                version = self.service.store.version(info.stream_id)
                self.service.runner.enqueue(
                    Job(match_id=info.stream_id, version=version, kind="hooks")
                )
                queued += 1
        return queued
