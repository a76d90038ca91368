"""``POST /matches/{match_id}/moves`` served in front of Litestar's router: the API's
busiest request, without the framework's per-request machinery.

A move is most of what a server does while matches are played, and Litestar spends more
CPU on each (routing, the ``Request``, signature parsing, dependencies, the response) than
the move itself. The lane answers the well-formed move — a JSON body that decodes strictly
as a :class:`api.bodies.SubmitMove`, no query, nothing that needs CORS headers, nothing the
app's guard refuses in any request (:mod:`api.request_checks`: a key named twice in one
object, a header read once sent twice, a Content-Encoding, a control character in the
path) — by calling the service itself; every other request, among them every malformed
move, goes on to Litestar unchanged (its body handed back as it was read), so each
validation error is answered as before. The route in :mod:`api.routes` stays the
operation's documentation and the handler of those requests.

Everything the API promises about a move holds in the lane too: the app's request middleware
(the request line, its id, the metrics) wraps it — with the app's own two alone, the lane
does their part itself, the same line and the same figures (:meth:`MoveLane._served`) —
the service authenticates, checks ``expected_version``, keys ``Idempotency-Key`` and
answers 503 when its store is down, and its refusals are the same problem documents
(:mod:`api.problems`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from time import perf_counter
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from api.auth import parse_bearer
from api.bodies import MoveAccepted, Version
from api.logging_setup import (
    _REQUEST_ID_RAW,
    RequestLog,
    _request,
    log,
    request_id_of,
    write_request_line,
)
from api.metrics import PLAIN, RequestMetrics, RouteTallies, add, observe
from api.problems import exception_handler
from api.request_checks import CONTROL_CHARACTERS, ONE_VALUE_HEADERS, names_each_key_once
from api.routes import IdempotencyKey, MatchId
from core.service import MatchService

# The route's own parameter bounds: a move outside them is the route's to refuse, as is a
# path with a control character (the app's guard answers 404 before any store is asked).
_ID = MatchId.__metadata__[0]
_KEY = IdempotencyKey.__metadata__[0]
_KEY_LENGTHS = (_KEY.min_length, _KEY.max_length)
_PATH = re.compile(
    rf"/matches/([^/{CONTROL_CHARACTERS}]{{{_ID.min_length},{_ID.max_length}}})/moves"
)
_JSON = b"application/json"


class _Body(msgspec.Struct, forbid_unknown_fields=True):
    """A :class:`api.bodies.SubmitMove` whose move is kept as the bytes the client sent:
    the service decodes it as the game's move, once."""

    move: msgspec.Raw
    expected_version: Version


_decode_body = msgspec.json.Decoder(_Body).decode
_encode = msgspec.json.Encoder().encode


class MoveLane:
    """The app's ASGI handler with moves taken off the front (see the module)."""

    def __init__(
        self,
        app: Litestar,
        service: MatchService,
        middleware: Sequence[Any],
        max_body_bytes: int,
        max_body_depth: int,
    ) -> None:
        self.litestar = app.asgi_handler
        self.service = service
        self.max_body_bytes = max_body_bytes
        self.max_body_depth = max_body_depth
        self.cors = app.cors_config is not None
        route, handler = next(
            (route, handler)
            for route in app.routes
            for handler in getattr(route, "route_handlers", ())
            if handler.operation_id == "submitMove"
        )
        self.path_template = route.path_format
        skipped = (
            handler.resolve_guards(), handler.resolve_after_response(),
            [layer.after_request for layer in handler.ownership_layers if layer.after_request],
            handler.resolve_response_headers(), handler.resolve_response_cookies(),
            app.csrf_config, app.compression_config, app.allowed_hosts,
        )  # fmt: skip
        if any(skipped):
            # Said here, not found out later: the lane would answer without them.
            raise ValueError(
                "the move lane cannot run guards, after-request hooks, response headers or "
                "cookies, CSRF, compression or allowed hosts: leave it out of such an app"
            )
        # The app's middleware, outermost first, around the lane as Litestar puts it around
        # each route.
        lane: ASGIApp = self._play
        for layer in reversed(middleware):
            lane = _around(layer, lane, handler)
        self.lane = lane
        own = _own_log_and_metrics(middleware, handler, self._play)
        self.tallies: RouteTallies | None = None
        """With the app's own request log and metrics (and nothing else), the route's
        figures: :meth:`_served` then writes the line and adds to them itself."""
        self.unmeasured: Any = None
        """The metrics' excluded paths (a pattern, looked for as their middleware does)."""
        if own is not None:
            self.tallies = own[0].route_tallies("POST", self.path_template)
            self.unmeasured = own[1]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"  # type: ignore[typeddict-item]
            or scope["query_string"]  # type: ignore[typeddict-item]
            or (found := _PATH.fullmatch(scope["path"])) is None
        ):
            await self.litestar(scope, receive, send)
            return
        raw = scope["headers"]
        headers: dict[bytes, bytes] | None = dict(raw)
        if len(headers) != len(raw):  # a name sent twice: the first counts, if allowed
            headers = _wanted_headers(scope)
        elif b"transfer-encoding" in headers or b"content-encoding" in headers:
            headers = None
        if headers is None or (self.cors and b"origin" in headers):
            await self.litestar(scope, receive, send)
            return
        length = headers.get(b"content-length")
        if length is None or not length.isdigit() or int(length) > self.max_body_bytes:
            await self.litestar(scope, receive, send)  # too large, or none: Litestar's answer
            return
        message = await receive()
        if message["type"] == "http.request" and not message.get("more_body", False):
            read = (message.get("body", b""), message)
        else:
            read = await _read_body(receive, message)
        parsed = self._parse(read[0], headers) if read[-1]["type"] == "http.request" else None
        if parsed is None:
            await self.litestar(scope, _replaying(read, receive), send)
            return
        match_id = found.group(1)
        scope["path_params"] = {"match_id": match_id}
        scope["path_template"] = self.path_template  # type: ignore[typeddict-unknown-key]
        if self.tallies is not None and (
            self.unmeasured is None or not self.unmeasured.search(scope["path"])
        ):
            # the last X-Request-ID sent: the dict's unless a name was sent twice
            given = headers.get(_REQUEST_ID_RAW, b"") if len(headers) == len(raw) else None
            await self._served(scope, receive, send, match_id, parsed, given)
            return
        scope["ironworks_move"] = parsed  # type: ignore[typeddict-unknown-key]
        await self.lane(scope, receive, send)

    def _parse(self, body: bytes, headers: dict[bytes, bytes]) -> tuple[Any, ...] | None:
        """``(move JSON, expected version, token, idempotency key)`` from a well-formed move
        request; ``None`` for anything Litestar's route must judge."""
        media_type = headers.get(b"content-type", b"")
        if media_type != _JSON and media_type.partition(b";")[0].strip().lower() != _JSON:
            return None
        # Depth is at most the number of brackets: a body with few is shallow enough, one
        # with many is left to the route's exact check.
        if len(body) > self.max_body_bytes or (
            body.count(b"{") + body.count(b"[") > self.max_body_depth
        ):
            return None
        try:
            data = _decode_body(body)
        except msgspec.DecodeError:
            return None
        if not names_each_key_once(body):  # read as one of the two; the route refuses it
            return None
        move = bytes(data.move)
        if not move.startswith(b"{"):  # SubmitMove's move is an object
            return None
        key = headers.get(b"idempotency-key")
        if key is not None and not _KEY_LENGTHS[0] <= len(key) <= _KEY_LENGTHS[1]:
            return None
        authorization = headers.get(b"authorization")
        return (
            move,
            data.expected_version,
            None if authorization is None else authorization.decode("latin-1"),
            None if key is None else key.decode("latin-1"),
        )

    async def _served(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        match_id: str,
        parsed: tuple[Any, ...],
        given: bytes | None,
    ) -> None:
        """:meth:`_play` inside the app's request log and metrics, all in one: what
        :class:`api.logging_setup.RequestLog` and :class:`api.metrics.RequestMetrics`
        do around it, the same line (at INFO) and figures, without their wrappers of
        ``send`` and calls; the errors' answers go through :meth:`_refused`."""
        # the client's X-Request-ID, or one made up (as request_id_of does)
        request_id = (given and given.decode("latin-1")[:64]) or request_id_of(scope, given)
        fields: dict[str, Any] = {"request_id": request_id}
        token = _request.set(fields)
        started = perf_counter()
        tallies: RouteTallies = self.tallies  # type: ignore[assignment]
        running = tallies.running
        add(running)
        span = [200, 0.0, 500]  # status (the metrics'), seconds, status (the line's)
        try:
            try:
                move, expected_version, authorization, key = parsed
                try:
                    result = await self.service.asubmit(
                        match_id, parse_bearer(authorization), move, expected_version, key
                    )
                except Exception as exc:
                    await self._refused(scope, receive, send, exc, request_id, started, span)
                    return
                start, body = _accepted(result, (_REQUEST_ID_RAW, request_id.encode()))
                span[0] = span[2] = 200
                await send(start)
                span[1] = perf_counter() - started
                await send(body)
            finally:
                add(running, -1.0)
                status: int = span[0]  # type: ignore[assignment]
                answered = tallies.by_status.get(status) or tallies.answered(status)
                count, duration, errors = answered
                if errors is not None:
                    add(errors)
                add(count)
                observe(duration, span[1])  # type: ignore[arg-type]
        finally:
            _request.reset(token)
            if log.isEnabledFor(logging.INFO):  # else the line is not written: not built
                write_request_line(scope, fields, span[2], started)  # type: ignore[arg-type]

    @staticmethod
    async def _refused(
        scope: Scope,
        receive: Receive,
        send: Send,
        exc: Exception,
        request_id: str,
        started: float,
        span: list[Any],
    ) -> None:
        """The answer to a move the service refused (or failed), as Litestar answers a
        route's exception, its status and time noted in ``span`` for :meth:`_served`."""

        async def noted(message: Message) -> None:
            if message["type"] == "http.response.start":
                span[0] = span[2] = message["status"]  # type: ignore[typeddict-item]
                message["headers"] = [
                    *message.get("headers", []),
                    (_REQUEST_ID_RAW, request_id.encode()),
                ]
            elif message["type"] == "http.response.body":
                span[1] = perf_counter() - started
            await send(message)

        request: Request[Any, Any, Any] = Request(scope, receive, noted)
        response = exception_handler(exc)(request, exc)
        await response.to_asgi_response(app=None, request=request)(scope, receive, noted)

    async def _play(self, scope: Scope, receive: Receive, send: Send) -> None:
        move, expected_version, authorization, key = scope["ironworks_move"]  # type: ignore[typeddict-item]
        match_id = scope["path_params"]["match_id"]
        try:
            result = await self.service.asubmit(
                match_id, parse_bearer(authorization), move, expected_version, key
            )
        except Exception as exc:  # answered as Litestar answers a route's exception
            request: Request[Any, Any, Any] = Request(scope, receive, send)
            response = exception_handler(exc)(request, exc)
            await response.to_asgi_response(app=None, request=request)(scope, receive, send)
            return
        start, body = _accepted(result)
        await send(start)
        await send(body)


def _accepted(result: Any, *headers: tuple[bytes, bytes]) -> tuple[Message, Message]:
    """The 200 answer to a move the service took (its start message, with ``headers``
    besides the body's type and length, and its body message)."""
    answer = _encode(
        MoveAccepted(
            match_id=result.match_id, first_version=result.first_version,
            version=result.version, replayed=result.replayed,
        )
    )  # fmt: skip
    length = (b"content-length", str(len(answer)).encode())
    return (
        {"type": "http.response.start", "status": 200,
         "headers": [(b"content-type", _JSON), length, *headers]},
        {"type": "http.response.body", "body": answer, "more_body": False},
    )  # fmt: skip


def _around(layer: Any, app: ASGIApp, handler: Any) -> ASGIApp:
    """Middleware ``layer`` around ``app``, as Litestar puts it around the move route, but
    for its check on every request of whether it applies, where that can be told once:
    the app's own middleware (:class:`api.logging_setup.RequestLog`, an
    :class:`ASGIMiddleware`, and :class:`api.metrics.RequestMetrics`, whose ``measured``
    is its call unchecked) applies to every move unless its scopes, an opt key or a path
    pattern leave the route out; a path pattern is still looked for in each path, as
    Litestar looks. Any other middleware stays as it is."""
    if isinstance(layer, ASGIMiddleware):
        if (
            ScopeType.HTTP not in layer.scopes
            or (layer.exclude_opt_key and layer.exclude_opt_key in handler.opt)
            or layer.exclude_path_pattern
            or layer.should_bypass_for_scope
        ):
            return layer(app)  # type: ignore[no-any-return]
        handle = layer.handle

        async def handled(scope: Scope, receive: Receive, send: Send) -> None:
            await handle(scope, receive, send, app)

        return handled
    made = layer(app=app)
    measured = getattr(made, "measured", None)
    if (
        measured is None
        or ScopeType.HTTP not in made.scopes
        or (made.exclude_opt_key and made.exclude_opt_key in handler.opt)
    ):
        return made  # type: ignore[no-any-return]
    excluded = made.exclude_pattern
    if excluded is None:
        return measured  # type: ignore[no-any-return]

    async def measured_unless_excluded(scope: Scope, receive: Receive, send: Send) -> None:
        if excluded.search(scope["path"]):
            await app(scope, receive, send)
        else:
            await measured(scope, receive, send)

    return measured_unless_excluded


def _own_log_and_metrics(middleware: Sequence[Any], handler: Any, app: ASGIApp) -> Any:
    """``(request metrics, their excluded paths)`` when the app's middleware is its own
    request log and metrics alone, each applying to the move route as :func:`_around`
    tells, and the figures are plain numbers (:data:`api.metrics.PLAIN`); else ``None``."""
    if not PLAIN or len(middleware) != 2 or type(middleware[0]) is not RequestLog:
        return None
    logged = middleware[0]
    if (
        ScopeType.HTTP not in logged.scopes
        or (logged.exclude_opt_key and logged.exclude_opt_key in handler.opt)
        or logged.exclude_path_pattern
        or logged.should_bypass_for_scope
    ):
        return None
    made = middleware[1](app=app)
    if (
        type(made) is not RequestMetrics
        or ScopeType.HTTP not in made.scopes
        or (made.exclude_opt_key and made.exclude_opt_key in handler.opt)
    ):
        return None
    return made, made.exclude_pattern


def _wanted_headers(scope: Scope) -> dict[bytes, bytes] | None:
    """The request's headers by name, the first of each as Litestar reads them; ``None``
    when one the lane or the app's guard reads one value of is sent twice, or the body is
    chunked or has a Content-Encoding (Litestar judges those)."""
    headers: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        if name in headers and name in _READ:
            return None
        headers.setdefault(name, value)
    if b"transfer-encoding" in headers or b"content-encoding" in headers:
        return None
    return headers


_READ = frozenset(name.encode() for name in ONE_VALUE_HEADERS) | {
    b"content-length",
    b"origin",
    b"content-encoding",
}


async def _read_body(receive: Receive, message: Message) -> tuple[bytes, Message]:
    """The body and the last message read, from the first (``message``) on:
    ``http.request`` once the body is whole, else what ended it (the client went away)."""
    chunks = []
    while True:
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
        message = await receive()
    return b"".join(chunks), message


def _replaying(read: tuple[bytes, Message], receive: Receive) -> Receive:
    """``receive`` as if nothing had been read: the body first, in one message, then
    whatever ended it when that was not its end."""
    body, last = read
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]
    if last["type"] != "http.request":
        pending = [last, {"type": "http.request", "body": body, "more_body": True}]

    async def replay() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replay
