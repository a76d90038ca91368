"""Webhooks: who asked to hear about a match, and the log of what was sent to them.

Registrations and deliveries are events too, but in a store of their own, a sibling of the
match store (same backend, other keys: :func:`sibling_url`), one stream per match that has
hooks. Not in the match's own stream: there a registration or a delivery attempt would move
the version that moves are checked against (a player's next move would be a 409) and would
be served in the match's log to everybody.

A match's hook stream folds into a :class:`Book`: the live hooks, every delivery with its
attempts, and how far the match's log has been scanned for triggers. Writers (the API
registering, workers scanning and delivering) append with optimistic concurrency and retry
on a conflict, so two workers never both claim the same attempt (:meth:`Webhooks.change`).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import random
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import msgspec

from core.errors import BadRequest, Conflict, NotFound, ServiceUnavailable, VersionConflict
from core.events import AppendResult, NewEvent, StoredEvent
from core.steps import Call, Steps, run
from core.store.base import EventStore, open_store, replay

HookEvent = Literal["your_turn", "match_finished", "timeout"]
HOOK_EVENTS: tuple[str, ...] = ("your_turn", "match_finished", "timeout")
TIMEOUT_EVENT = "core.turn_timed_out"
"""The core event (payload ``seat``) a match's clock appends when a turn runs out."""
MAX_HOOKS_PER_MATCH = 20
SIBLING = "webhooks"


# --- the events of a hook stream ---------------------------------------------------------


class HookRegistered(msgspec.Struct, frozen=True, kw_only=True, tag="hook.registered"):
    hook_id: str
    url: str
    events: list[str]
    seat: int | None
    """The seat whose turns and timeouts the hook hears of; ``None``: every seat's."""
    registered_by: int
    """The seat whose token registered it (-1: the match's owner token): the one that may
    list, read and remove it."""
    secret: str
    """Signs every delivery; kept to sign, never served again after registration."""
    after_version: int
    """The match's version at registration: only what happens after it is delivered."""
    created_at: float


class HookRemoved(msgspec.Struct, frozen=True, kw_only=True, tag="hook.removed"):
    hook_id: str


class Scanned(msgspec.Struct, frozen=True, kw_only=True, tag="hook.scanned"):
    """The match's log up to ``through`` has been turned into deliveries."""

    through: int


class DeliveryScheduled(msgspec.Struct, frozen=True, kw_only=True, tag="delivery.scheduled"):
    delivery_id: str
    hook_id: str
    event: str
    match_version: int
    payload: dict[str, Any]
    """The body's fixed part; each attempt adds ``attempt`` and ``sent_at``."""
    created_at: float


class AttemptStarted(msgspec.Struct, frozen=True, kw_only=True, tag="delivery.attempt"):
    """A worker claims attempt ``attempt``; whoever appends it first sends it."""

    delivery_id: str
    attempt: int
    started_at: float


class AttemptEnded(msgspec.Struct, frozen=True, kw_only=True, tag="delivery.result"):
    delivery_id: str
    attempt: int
    ended_at: float
    status_code: int | None = None
    error: str | None = None
    delivered: bool = False
    next_attempt_at: float | None = None
    """When to try again; ``None`` once delivered or out of attempts."""


HookStreamEvent = (
    HookRegistered | HookRemoved | Scanned | DeliveryScheduled | AttemptStarted | AttemptEnded
)
_decoder = msgspec.json.Decoder(HookStreamEvent)
_encoder = msgspec.json.Encoder()


# --- the folded book -----------------------------------------------------------------------


class Attempt(msgspec.Struct, kw_only=True):
    attempt: int
    started_at: float
    ended_at: float | None = None
    status_code: int | None = None
    error: str | None = None


DeliveryState = Literal["pending", "delivering", "delivered", "failed"]


class Delivery(msgspec.Struct, kw_only=True):
    delivery_id: str
    hook_id: str
    event: str
    match_version: int
    payload: dict[str, Any]
    created_at: float
    attempts: list[Attempt] = msgspec.field(default_factory=list)
    state: DeliveryState = "pending"
    next_attempt_at: float | None = None

    def due(self, now: float, lease: float) -> bool:
        """Whether an attempt may start now: a pending one whose time has come, or one
        whose worker went quiet for longer than ``lease`` (it died mid-attempt)."""
        if self.state == "pending":
            return self.next_attempt_at is None or self.next_attempt_at <= now
        if self.state == "delivering":
            return self.attempts[-1].started_at + lease <= now
        return False

    def wake_at(self, lease: float) -> float | None:
        """When this delivery next needs a worker; ``None`` once it is settled."""
        if self.state == "pending":
            return self.next_attempt_at or 0.0
        if self.state == "delivering":
            return self.attempts[-1].started_at + lease
        return None


class Hook(msgspec.Struct, kw_only=True):
    hook_id: str
    url: str
    events: list[str]
    seat: int | None
    registered_by: int
    secret: str
    after_version: int
    created_at: float


class Book(msgspec.Struct, kw_only=True):
    match_id: str
    version: int = 0
    """The hook stream's version (not the match's)."""
    hooks: dict[str, Hook] = msgspec.field(default_factory=dict)
    deliveries: dict[str, Delivery] = msgspec.field(default_factory=dict)
    scanned: int = 0
    """The match version up to which triggers were looked for."""

    def cursor(self) -> int:
        """Where the next scan starts: after the last scan, and never before a live hook
        was registered (a new hook hears nothing of the past)."""
        starts = [hook.after_version for hook in self.hooks.values()]
        return max([self.scanned, *starts]) if starts else self.scanned


def fold_book(match_id: str, events: Sequence[StoredEvent], book: Book | None = None) -> Book:
    book = book or Book(match_id=match_id)
    for stored in events:
        event = _decoder.decode(stored.data)
        if isinstance(event, HookRegistered):
            book.hooks[event.hook_id] = Hook(
                **{f: getattr(event, f) for f in Hook.__struct_fields__}
            )
        elif isinstance(event, HookRemoved):
            book.hooks.pop(event.hook_id, None)
        elif isinstance(event, Scanned):
            book.scanned = max(book.scanned, event.through)
        elif isinstance(event, DeliveryScheduled):
            book.deliveries[event.delivery_id] = Delivery(
                delivery_id=event.delivery_id, hook_id=event.hook_id, event=event.event,
                match_version=event.match_version, payload=event.payload,
                created_at=event.created_at,
            )  # fmt: skip
        elif isinstance(event, AttemptStarted):
            delivery = book.deliveries[event.delivery_id]
            delivery.attempts.append(Attempt(attempt=event.attempt, started_at=event.started_at))
            delivery.state = "delivering"
        elif isinstance(event, AttemptEnded):
            delivery = book.deliveries[event.delivery_id]
            attempt = next(a for a in delivery.attempts if a.attempt == event.attempt)
            attempt.ended_at, attempt.status_code = event.ended_at, event.status_code
            attempt.error = event.error
            if event.attempt == delivery.attempts[-1].attempt:
                delivery.next_attempt_at = event.next_attempt_at
                if event.delivered:
                    delivery.state = "delivered"
                else:
                    delivery.state = "pending" if event.next_attempt_at is not None else "failed"
        book.version = stored.version
    return book


# --- retries ---------------------------------------------------------------------------


class RetryPolicy(msgspec.Struct, frozen=True, kw_only=True):
    """Exponential backoff with jitter: attempt ``n`` failed, the next one waits
    ``base * 2**(n-1)`` seconds (at most ``cap``), scaled by a random factor in
    ``[1 - jitter, 1]`` so that receivers coming back up are not hit by every retry at once."""

    max_attempts: int = 6
    base: float = 2.0
    cap: float = 600.0
    jitter: float = 0.5
    timeout: float = 5.0
    """Seconds one attempt may take (connect and answer)."""

    @property
    def lease(self) -> float:
        """How long an attempt may go unanswered before another worker counts it lost."""
        return self.timeout + 10.0

    def next_attempt_at(self, attempt: int, now: float, rng: random.Random) -> float | None:
        if attempt >= self.max_attempts:
            return None
        delay = min(self.cap, self.base * 2 ** (attempt - 1))
        return now + delay * (1 - self.jitter * rng.random())


# --- the service's side ----------------------------------------------------------------------


class Webhooks:
    """The hook streams of every match, on ``store`` (a sibling of the match store).

    ``allow_private``: let hooks target loopback, private and link-local addresses. Off
    by default: a hook is a request the server makes on a stranger's behalf, and must not
    reach what only the server can reach (SSRF).

    ``matches``: the match store, told of a match before its first hook is stored
    (:meth:`EventStore.mark_watched`), so that a move's append can say whether the match
    may have hooks and spare the read of this store (:meth:`MatchService._enqueue_steps`).
    """

    def __init__(
        self,
        store: EventStore,
        *,
        allow_private: bool = False,
        policy: RetryPolicy | None = None,
        clock: Callable[[], float] = time.time,
        resolve: Resolver | None = None,
        matches: EventStore | None = None,
    ) -> None:
        self.store = store
        self.matches = matches
        self.allow_private = allow_private
        self.resolve = resolve or resolve_host
        self.policy = policy or RetryPolicy()
        self.clock = clock

    def check(self, url: str) -> None:
        """Raise :class:`BadRequest` unless this server may call ``url`` (:func:`check_url`)."""
        check_url(url, self.allow_private, self.resolve)

    def watches(self, match_id: str) -> bool:
        """Whether ``match_id`` ever had a hook (one cheap read; the worker sorts out the rest)."""
        return run(self.watches_steps(match_id))

    def watches_steps(self, match_id: str) -> Steps[bool]:
        return (yield Call(self.store, "version", (match_id,))) > 0

    def book(self, match_id: str) -> Book:
        return fold_book(match_id, self.store.read(match_id))

    def change(
        self, match_id: str, make: Callable[[Book], Sequence[msgspec.Struct]], retries: int = 50
    ) -> tuple[Book, bool]:
        """Append what ``make`` decides from the newest book (it raises to refuse, returns
        nothing to append nothing). Retried on a conflict with another writer. Returns the
        book after the change and whether anything was appended."""
        book, result = self._change(match_id, make, retries)
        return book, result is not None

    def _change(
        self,
        match_id: str,
        make: Callable[[Book], Sequence[msgspec.Struct]],
        retries: int = 50,
        idempotency_key: str | None = None,
        request_digest: str | None = None,
    ) -> tuple[Book, AppendResult | None]:
        """:meth:`change`, answering the append's result (``None``: nothing appended);
        with ``idempotency_key`` the store may answer an earlier append's, ``replayed``."""
        book = self.book(match_id)
        for _ in range(retries):
            events = make(book)
            if not events:
                return book, None
            new = [NewEvent(type=e.__struct_config__.tag, data=_encoder.encode(e)) for e in events]
            try:
                result = self.store.append(
                    match_id, book.version, new, idempotency_key, request_digest
                )
            except VersionConflict:
                book = fold_book(match_id, self.store.read(match_id, book.version), book)
                continue
            return fold_book(match_id, self.store.read(match_id, book.version), book), result
        raise Conflict("busy", "the match's hooks kept changing meanwhile; try again")

    def register(
        self,
        match_id: str,
        url: str,
        events: Sequence[str],
        seat: int | None,
        registered_by: int,
        match_version: int,
        idempotency_key: str | None = None,
        request_digest: str | None = None,
    ) -> tuple[Hook, str]:
        """A new hook and its secret (the only time the secret is shown).

        With ``idempotency_key`` a retry of the same request (``request_digest``, see
        :func:`registration_digest`: the same body from the same token) gets the hook its
        first copy registered, secret included, and registers nothing; the key with another
        request is ``idempotency_key_reused``, and a retry after that hook was removed is a
        409 ``hook_removed``."""
        if idempotency_key is not None:
            seen = self.store.lookup(match_id, idempotency_key)
            if seen is not None:
                return self._registered(match_id, replay(seen, request_digest))
        self.check(url)
        if self.matches is not None:
            # Before the hook is stored: a move appended after it is stored sees the mark.
            self.matches.mark_watched(match_id)
        secret = secrets.token_urlsafe(32)
        hook_id = secrets.token_hex(8)
        registered = HookRegistered(
            hook_id=hook_id, url=url, events=sorted(set(events), key=HOOK_EVENTS.index),
            seat=seat, registered_by=registered_by, secret=secret,
            after_version=match_version, created_at=self.clock(),
        )  # fmt: skip

        def add(book: Book) -> list[msgspec.Struct]:
            if len(book.hooks) >= MAX_HOOKS_PER_MATCH:
                raise Conflict(
                    "too_many_hooks",
                    f"a match takes at most {MAX_HOOKS_PER_MATCH} hooks; remove one first",
                )
            return [registered]

        book, result = self._change(
            match_id, add, idempotency_key=idempotency_key, request_digest=request_digest
        )
        if result is not None and result.replayed:  # a racing copy of this request won
            return self._registered(match_id, result)
        return book.hooks[hook_id], secret

    def _registered(self, match_id: str, first: AppendResult) -> tuple[Hook, str]:
        """The hook (and secret) a keyed registration appended at ``first``."""
        stored = self.store.read(match_id, first.first_version - 1, 1)
        event = _decoder.decode(stored[0].data) if stored else None
        if not isinstance(event, HookRegistered):
            raise Conflict("hook_removed", "this Idempotency-Key registered no hook")
        if event.hook_id not in self.book(match_id).hooks:
            raise Conflict(
                "hook_removed",
                "the hook this Idempotency-Key registered has been removed since; "
                "register again with a new key",
            )
        hook = Hook(**{f: getattr(event, f) for f in Hook.__struct_fields__})
        return hook, hook.secret

    def hooks_of(self, match_id: str, seat: int) -> list[Hook]:
        """The live hooks the token of ``seat`` registered, oldest first."""
        hooks = self.book(match_id).hooks.values() if self.watches(match_id) else ()
        return [hook for hook in hooks if hook.registered_by == seat]

    def hook_of(self, book: Book, hook_id: str, seat: int) -> Hook:
        hook = book.hooks.get(hook_id)
        if hook is None or hook.registered_by != seat:
            # Another seat's hook is answered like a missing one: its id tells nothing.
            raise NotFound("hook_not_found", f"this seat has no hook {hook_id!r} on this match")
        return hook

    def remove(self, match_id: str, hook_id: str, seat: int) -> None:
        def drop(book: Book) -> list[msgspec.Struct]:
            self.hook_of(book, hook_id, seat)
            return [HookRemoved(hook_id=hook_id)]

        self.change(match_id, drop)

    def deliveries_of(self, match_id: str, hook_id: str, seat: int) -> list[Delivery]:
        """The hook's deliveries, newest first."""
        book = self.book(match_id)
        self.hook_of(book, hook_id, seat)
        mine = [d for d in book.deliveries.values() if d.hook_id == hook_id]
        return mine[::-1]


def registration_digest(
    key: str, token: str, url: str, events: Sequence[str], seat: int | None
) -> str:
    """What makes two keyed registrations "the same request": the caller's token and what
    the hook would be. The token is part of it so that a key replayed with another token (a
    re-issued seat's new holder, another seat) never gets the first hook's secret. Keyed by
    the key, so the stored digest tells nothing of the token to whoever reads the store."""
    body = msgspec.json.encode([token, url, sorted(set(events)), seat])
    return hmac.new(key.encode(), b"hook|" + body, hashlib.sha256).hexdigest()


Resolver = Callable[[str, int], list[str]]
"""(host, port) -> the IP addresses it resolves to."""


def resolve_host(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    return [str(info[4][0]) for info in infos]


def check_url(url: str, allow_private: bool, resolve: Resolver = resolve_host) -> None:
    """Refuse a hook URL the server must not call: not http(s), no host, or (unless
    ``allow_private``) a host that resolves to a loopback, private, link-local or otherwise
    non-public address. Checked at registration and again before every attempt, since a
    name may resolve elsewhere later."""
    if any(ch.isspace() or not ch.isprintable() for ch in url):
        # urlsplit drops leading blanks and tabs or newlines anywhere, so such a URL would
        # pass here while the one stored (and later sent to) is another.
        raise BadRequest("bad_hook_url", "a hook URL has no spaces or control characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadRequest("bad_hook_url", "a hook URL must be an http:// or https:// URL")
    if parts.username or parts.password:
        raise BadRequest("bad_hook_url", "a hook URL must not carry a user name or password")
    try:
        given = parts.port
    except ValueError:
        # urlsplit refuses a port out of range (":99999") as it refuses one not a number
        raise BadRequest(
            "bad_hook_url", "the hook URL's port must be a number from 1 to 65535"
        ) from None
    if given == 0:
        raise BadRequest("bad_hook_url", "the hook URL's port is 0, which nothing listens on")
    port = given or (443 if parts.scheme == "https" else 80)
    if allow_private:
        return
    try:
        addresses = resolve(parts.hostname, port)
    except socket.gaierror as exc:
        if exc.errno == socket.EAI_AGAIN:
            # The name service did not answer: the name may well exist, so the client is
            # told to try again, not that its URL is wrong.
            raise ServiceUnavailable(
                "resolver_unavailable",
                f"the hook URL's host {parts.hostname!r} could not be looked up: the name "
                "service did not answer; try again",
                retry_after=5,
            ) from None
        raise BadRequest(
            "hook_host_unknown", f"the hook URL's host {parts.hostname!r} does not resolve"
        ) from None
    except (OSError, UnicodeError):
        raise BadRequest(
            "hook_host_unknown", f"the hook URL's host {parts.hostname!r} does not resolve"
        ) from None
    for found in addresses:
        address = ipaddress.ip_address(found.split("%")[0])
        if not address.is_global:
            raise BadRequest(
                "hook_url_private",
                f"{parts.hostname} resolves to {address}, which is not a public address; "
                "this server only calls public addresses (its operator can allow private "
                "ones with `ironworks serve --webhook-allow-private`)",
            )


def sibling_url(url: str) -> str:
    """The URL of the store that keeps the webhooks of the matches stored at ``url``: the
    same backend beside it (SQLite: ``<file>-webhooks``; Redis: prefix ``<prefix>-webhooks``;
    PostgreSQL: schema ``<schema>_webhooks``; memory: another memory store)."""
    if url.startswith("memory:"):
        return url
    if url.startswith("sqlite:"):
        rest = url.removeprefix("sqlite:")
        slashes = "///" if rest.startswith("///") else "//" if rest.startswith("//") else ""
        path = rest[len(slashes) :] or "ironworks.sqlite3"
        stem, dot, suffix = path.rpartition(".")
        named = f"{stem}-{SIBLING}.{suffix}" if dot and "/" not in suffix else f"{path}-{SIBLING}"
        return f"sqlite:{slashes}{named}"
    if url.startswith(("redis://", "rediss://", "unix://")):
        from core.store.redis import DEFAULT_PREFIX

        return _with_param(url, "prefix", DEFAULT_PREFIX, f"-{SIBLING}")
    if url.startswith(("postgresql://", "postgres://")):
        from core.store.postgres import DEFAULT_SCHEMA

        return _with_param(url, "schema", DEFAULT_SCHEMA, f"_{SIBLING}")
    return url  # open_store refuses it with its own clear error


def _with_param(url: str, name: str, default: str, suffix: str) -> str:
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    value = next((v for k, v in query if k == name), "") or default
    query = [(k, v) for k, v in query if k != name] + [(name, value + suffix)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def open_webhooks(
    store_url: str, allow_private: bool = False, matches: EventStore | None = None
) -> Webhooks:
    return Webhooks(
        open_store(sibling_url(store_url)), allow_private=allow_private, matches=matches
    )
