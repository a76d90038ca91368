"""Webhook routes: register, list and remove a match's hooks, read a hook's delivery log.

A hook is registered with a seat's token: ``scope: "seat"`` (the default) hears of that
seat's turns and timeouts and of the match's end; ``scope: "match"`` of every seat's. The
match's owner token registers match-wide hooks (an owner plays no seat). Each token sees
and manages the hooks it registered. The secret that signs deliveries is in the
registration's answer and nowhere else, ever again.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from litestar import delete, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter, QueryParameter

from api.auth import SEAT_OR_OWNER
from api.bodies import RequestBody
from api.problems import problem_responses
from api.reads import get
from api.routes import key_header
from core.errors import BadRequest, ServiceUnavailable
from core.match import MatchState
from core.ownership import is_owner
from core.service import MatchService
from core.webhooks import (
    HOOK_EVENTS,
    Delivery,
    Hook,
    HookEvent,
    Webhooks,
    registration_digest,
)

MatchId = Annotated[str, PathParameter(description="Match id", min_length=1, max_length=64)]
HookId = Annotated[str, PathParameter(description="Hook id", min_length=1, max_length=64)]
Service = NamedDependency[MatchService]
Token = NamedDependency[str | None]
HookKey = Annotated[
    str | None,
    key_header(
        "Retrying with the same key, the same body and the same token returns the first "
        "answer (the same hook and secret) and registers nothing. The same key with another "
        "body or another token is a 422 `idempotency_key_reused`, so the secret goes to no "
        "one but a holder of the token that registered it."
    ),
]

MAX_URL_LENGTH = 2048


class CreateHook(RequestBody):
    url: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_URL_LENGTH)]
    """Where to POST deliveries: an http(s) URL on a public address (unless the server's
    operator allows private ones)."""
    events: Annotated[list[HookEvent], msgspec.Meta(min_length=1)] | None = None
    """What to hear of (default: all): ``your_turn`` (a seat played by a person is waited
    on), ``match_finished``, ``timeout`` (a seat's turn ran out on its clock)."""
    scope: Literal["seat", "match"] = "seat"
    """``seat``: the caller's seat's turns and timeouts, and the match's end; ``match``:
    every seat's."""


class HookInfo(msgspec.Struct, kw_only=True):
    id: str
    match_id: str
    url: str
    events: list[HookEvent]
    scope: Literal["seat", "match"]
    seat: int | None
    """The seat it hears of (``null`` for a match hook)."""
    created_at: float
    """Seconds since the epoch."""


class HookCreated(HookInfo, kw_only=True):
    secret: str
    """Shown only here, once: every delivery carries ``X-Ironworks-Signature: sha256=<hex
    HMAC-SHA256 of the raw body with this secret>``."""


class HookList(msgspec.Struct, kw_only=True):
    match_id: str
    items: list[HookInfo]


class AttemptInfo(msgspec.Struct, kw_only=True):
    attempt: int
    started_at: float
    ended_at: float | None
    """``null`` while it is under way (or its worker died: it is retried after a lease)."""
    status_code: int | None
    """The receiver's HTTP status; ``null`` when no answer came (see ``error``)."""
    error: str | None


class DeliveryInfo(msgspec.Struct, kw_only=True):
    id: str
    """Also the ``X-Ironworks-Delivery`` header: the same for every attempt."""
    event: HookEvent
    match_version: int
    """The match version whose event caused it."""
    state: Literal["pending", "delivering", "delivered", "failed"]
    """``failed``: out of attempts."""
    created_at: float
    next_attempt_at: float | None
    """When it is tried again (``pending`` after a failed attempt)."""
    attempts: list[AttemptInfo]
    body: dict[str, object]
    """What each attempt sends, besides its ``attempt`` and ``sent_at``."""


class DeliveryLog(msgspec.Struct, kw_only=True):
    match_id: str
    hook_id: str
    items: list[DeliveryInfo]
    """Newest first."""


_MATCH = (404,)
_TOKEN = (401, 403)


def _webhooks(service: MatchService) -> Webhooks:
    if service.webhooks is None:
        raise ServiceUnavailable("webhooks_unavailable", "this server keeps no webhooks")
    return service.webhooks


@post(
    "/matches/{match_id:str}/hooks",
    operation_id="createHook",
    summary="Register a webhook",
    sync_to_thread=True,
    tags=["hooks"],
    status_code=201,
    security=SEAT_OR_OWNER,
    responses=problem_responses(*_MATCH, *_TOKEN, 409, 413, 415, 422),
)
def create_hook(
    match_id: MatchId,
    data: JSONBody[CreateHook],
    service: Service,
    token: Token,
    idempotency_key: HookKey = None,
) -> HookCreated:
    """Register a webhook with a seat's token, or a match-wide one with the owner token
    (``scope: "seat"`` with the owner token is a 400 ``owner_hook_is_match_wide``).
    Deliveries are POSTed by the workers, signed
    with the secret in this answer (shown once), retried with exponential backoff; each
    carries an ``X-Ironworks-Delivery`` id that stays the same across retries. Refused
    (400): a URL that is not http(s) (``bad_hook_url``), whose host does not resolve
    (``hook_host_unknown``), or whose host is private or loopback (``hook_url_private``)
    unless the server allows them; (503) a host the name service could not look up now
    (``resolver_unavailable``); (409) a 21st hook (``too_many_hooks``). With an
    `Idempotency-Key` (a random UUID), a retry with the same body and token answers the
    first registration again, secret included, and registers nothing (the secret is given
    only to the token that registered the hook: the same key with another token or body is
    a 422 `idempotency_key_reused`); a retry after that hook was removed is a 409
    `hook_removed`."""
    match = service.load(match_id)
    seat = _caller(service, match, token)
    if seat == OWNER and data.scope == "seat":
        raise BadRequest("owner_hook_is_match_wide", "the owner plays no seat: register "
                         "the owner's hooks with \"scope\": \"match\"")  # fmt: skip
    events = list(HOOK_EVENTS) if data.events is None else data.events
    hears = seat if data.scope == "seat" else None
    digest = None
    if idempotency_key is not None:
        digest = registration_digest(idempotency_key, token or "", data.url, events, hears)
    hook, secret = _webhooks(service).register(
        match_id, data.url, events, hears, seat, match.version,
        idempotency_key=idempotency_key, request_digest=digest,
    )  # fmt: skip
    return HookCreated(**msgspec.structs.asdict(_info(match_id, hook)), secret=secret)


@get(
    "/matches/{match_id:str}/hooks",
    operation_id="listHooks",
    summary="List your webhooks",
    sync_to_thread=True,
    tags=["hooks"],
    security=SEAT_OR_OWNER,
    responses=problem_responses(*_MATCH, *_TOKEN),
)
def list_hooks(match_id: MatchId, service: Service, token: Token) -> HookList:
    """The hooks the caller's token (a seat's, or the owner's) registered on this match
    (without their secrets)."""
    match = service.load(match_id)
    seat = _caller(service, match, token)
    hooks = _webhooks(service).hooks_of(match_id, seat)
    return HookList(match_id=match_id, items=[_info(match_id, h) for h in hooks])


@delete(
    "/matches/{match_id:str}/hooks/{hook_id:str}",
    operation_id="deleteHook",
    summary="Remove a webhook",
    sync_to_thread=True,
    tags=["hooks"],
    security=SEAT_OR_OWNER,
    responses=problem_responses(*_MATCH, *_TOKEN, 409),
)
def delete_hook(match_id: MatchId, hook_id: HookId, service: Service, token: Token) -> None:
    """Remove one of the caller's hooks; what it had not delivered yet is dropped."""
    match = service.load(match_id)
    seat = _caller(service, match, token)
    _webhooks(service).remove(match_id, hook_id, seat)


@get(
    "/matches/{match_id:str}/hooks/{hook_id:str}/deliveries",
    operation_id="listHookDeliveries",
    summary="Read a webhook's delivery log",
    sync_to_thread=True,
    tags=["hooks"],
    security=SEAT_OR_OWNER,
    responses=problem_responses(*_MATCH, *_TOKEN),
)
def list_deliveries(
    match_id: MatchId,
    hook_id: HookId,
    service: Service,
    token: Token,
    limit: Annotated[
        int, QueryParameter(ge=1, le=500, description="Deliveries, newest first.")
    ] = 100,
) -> DeliveryLog:
    """Every delivery of one of the caller's hooks, newest first: its state, each attempt
    with the receiver's status code (or the error), and when it is tried next."""
    match = service.load(match_id)
    seat = _caller(service, match, token)
    deliveries = _webhooks(service).deliveries_of(match_id, hook_id, seat)[:limit]
    return DeliveryLog(match_id=match_id, hook_id=hook_id, items=[_delivery(d) for d in deliveries])


OWNER = -1
"""``registered_by`` of the hooks the match's owner token registered."""


def _caller(service: MatchService, match: MatchState, token: str | None) -> int:
    """The seat of ``token``, or :data:`OWNER` for the match's owner token."""
    if is_owner(match, token):
        return OWNER
    return service.require_seat(match, token)


def _info(match_id: str, hook: Hook) -> HookInfo:
    return HookInfo(
        id=hook.hook_id, match_id=match_id, url=hook.url, events=list(hook.events),  # type: ignore[arg-type]
        scope="match" if hook.seat is None else "seat", seat=hook.seat,
        created_at=hook.created_at,
    )  # fmt: skip


def _delivery(d: Delivery) -> DeliveryInfo:
    return DeliveryInfo(
        id=d.delivery_id, event=d.event, match_version=d.match_version, state=d.state,  # type: ignore[arg-type]
        created_at=d.created_at, next_attempt_at=d.next_attempt_at, body=d.payload,
        attempts=[
            AttemptInfo(attempt=a.attempt, started_at=a.started_at, ended_at=a.ended_at,
                        status_code=a.status_code, error=a.error)
            for a in d.attempts
        ],
    )  # fmt: skip


HOOK_ROUTES = [create_hook, list_hooks, delete_hook, list_deliveries]
