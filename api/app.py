"""Assembling the Litestar app around a :class:`core.service.MatchService`."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import HTTPException, ValidationException
from litestar.logging.config import StructLoggingConfig
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components
from litestar.routes import HTTPRoute
from litestar.types import Empty

from api import package_version
from api.auth import SECURITY_SCHEMES, bearer_token
from api.health import ROUTES as HEALTH_ROUTES
from api.hook_routes import HOOK_ROUTES
from api.logging_setup import (
    LogFormat,
    RequestLog,
    logging_config,
    observe_moves_in_logs,
    retiring_replaced_log_listeners,
)
from api.metrics import MetricsController, observe_service, prometheus_config
from api.move_lane import MoveLane
from api.openapi_doc import GameAwareJsonPlugin, GameAwareSwaggerPlugin
from api.problems import EXCEPTION_HANDLERS, problem_responses
from api.record_routes import ROUTES as RECORD_ROUTES
from api.request_checks import CONTROL_CHARACTER, ONE_VALUE_HEADERS, repeated_key
from api.routes import ROUTES
from api.seat_routes import SEAT_ROUTES
from api.web import SWAGGER_ASSETS, web_routes
from core.errors import BadRequest, NotFound
from core.service import MatchService

MAX_BODY_BYTES = 64 * 1024
MAX_BODY_DEPTH = 32
"""Objects and arrays in a request body may nest this deep; position documents, the deepest
bodies, need under ten levels."""
DOCS_PATH = "/docs"
"""Interactive docs (Swagger UI) here, the OpenAPI document at ``/docs/openapi.json``."""

_JSON_TYPES = ("application/json",)


async def refuse_non_json_body(request: Request[Any, Any, Any]) -> None:
    """Bodies must be JSON, uncompressed: a form or text body, or a compressed one, gets a
    clear 415 instead of a parse error (or a compressed label left unread)."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    has_body = request.headers.get("content-length", "0") != "0" or (
        "transfer-encoding" in request.headers
    )
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if (
        has_body
        and media_type
        and media_type not in _JSON_TYPES
        and not media_type.endswith("+json")
    ):
        raise HTTPException(
            status_code=415, detail=f"send the body as application/json, not {media_type}"
        )
    coding = request.headers.get("content-encoding", "").strip().lower()
    if has_body and coding not in ("", "identity"):
        # Read as it came, a compressed body is "not JSON", and a plain one labelled
        # compressed was taken as plain: the header was never read (RFC 7694: a 415).
        raise HTTPException(
            status_code=415,
            detail=f"send the body uncompressed: Content-Encoding {coding} is not taken",
            headers={"Accept-Encoding": "identity"},
        )


def described(handlers: list[Any]) -> list[Any]:
    """``handlers``, each described in the OpenAPI document by its docstring.

    Litestar's own ``use_handler_docstrings`` reads the docstring of whatever wraps a sync
    handler by then (so some operations read "Wrap a given callable..."); reading it here,
    from the function itself, gives every operation its own.
    """
    for handler in handlers:
        if handler.description is None and handler.fn.__doc__:
            handler.description = inspect.cleandoc(handler.fn.__doc__)
        _document_body_refusals(handler)
    return handlers


def _document_body_refusals(handler: Any) -> None:
    """Every write may be answered 413 (its body over the limit, read even where the route
    takes none, to refuse it) and every POST 415 (:func:`refuse_non_json_body`), including
    the writes that take no body: documented on each, so a client knows to expect them."""
    methods = set(handler.http_methods)
    statuses = [413] if methods & _WRITES else []
    statuses += [415] if methods & {"POST", "PUT", "PATCH"} else []
    known = handler.responses or {}
    missing = [status for status in statuses if status not in known]
    if missing:
        handler.responses = {**known, **problem_responses(*missing)}


async def decode_body_strictly(request: Request[Any, Any, Any]) -> None:
    """Check the JSON body against the route's body type with strict types.

    Litestar converts bodies leniently ("3" becomes 3), so a client sending the wrong type
    would be silently accepted; decoding the (cached) body strictly first refuses it.
    """
    handler = request.route_handler
    data = handler.parsed_fn_signature.parameters.get("data")
    if data is None:
        if request.method in _WRITES and handler.include_in_schema:
            await _refuse_fields_of_no_body(request)
        return
    annotation, optional = data.annotation, False
    if data.is_optional:  # ``Body | None``: no body at all is fine
        annotation = next(a for a in data.args if a is not type(None))
        optional = True
    if not isinstance(annotation, type):
        return
    body = await request.body()
    if optional and not body.strip():
        return
    if not body.strip():
        raise ValidationException(
            detail="this request needs a JSON body",
            extra=[{"message": "the body is empty", "key": "data", "source": "body"}],
        )
    try:
        raw = _decode_shallow(body)
        _refuse_repeated_keys(body)
        if isinstance(raw, dict):
            # JSON Schema counts 3.0 as an integer, so only a string or a bool is a wrong type
            raw = {k: _integral(v) for k, v in raw.items()}
        msgspec.convert(raw, annotation, strict=True)
    except msgspec.ValidationError as exc:
        # msgspec ends its message with " - at `$.<field>`" when a field is to blame
        message, _, where = str(exc).partition(" - at `$.")
        raise ValidationException(
            detail=f"Validation failed for {request.method} {request.url.path}",
            extra=[{"message": message, "key": where.rstrip("`") or "data", "source": "body"}],
        ) from None
    except msgspec.DecodeError as exc:
        raise not_json(request, body, exc) from None


_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def _refuse_fields_of_no_body(request: Request[Any, Any, Any]) -> None:
    """A write that takes no body (invite, re-issue, resign, ...) refuses one with anything
    in it: ``{"reason": ...}`` on a resignation, or ``{"bot": ...}`` on taking a seat back,
    would otherwise be dropped unread while the client takes it as heard. Nothing at all,
    ``{}`` and ``null`` are what clients send for "no body", and are fine."""
    body = await request.body()
    if not body.strip():
        return
    try:
        raw = _decode_shallow(body)
    except msgspec.DecodeError as exc:
        raise not_json(request, body, exc) from None
    if raw is None or raw == {}:
        return
    fields = ", ".join(sorted(map(str, raw))) if isinstance(raw, dict) else "a body"
    raise ValidationException(
        detail=f"{request.method} {request.url.path} takes no body",
        extra=[{"message": f"this operation reads no body, so not {fields}", "key": "data",
                "source": "body"}],
    )  # fmt: skip


_BOM = b"\xef\xbb\xbf"


def not_json(request: Request[Any, Any, Any], body: bytes, exc: Exception) -> ValidationException:
    """The 400 for a body that does not decode, saying why where a client can fix it: a
    UTF-8 byte order mark, which RFC 8259 (8.1) forbids a sender to add (a decoder may skip
    it; this API reads bodies exactly, as it refuses a key named twice), or a charset other
    than UTF-8, the only encoding of JSON between systems; else the decoder's words."""
    charset = request.headers.get("content-type", "").lower().partition("charset=")[2]
    charset = charset.partition(";")[0].strip().strip('"')
    if body.startswith(_BOM):
        reason = "it starts with a UTF-8 byte order mark (EF BB BF): send the JSON without one"
    elif charset not in ("", "utf-8", "utf8"):
        reason = f"JSON is sent as UTF-8 (RFC 8259), not {charset}"
    else:
        reason = str(exc)
    return ValidationException(detail=f"the body is not valid JSON: {reason}")


def _decode_shallow(body: bytes) -> Any:
    """The decoded body, refused when it nests deeper than any request of the API needs:
    deep enough, it exhausts the decoder's recursion, and whatever walks it afterwards."""
    too_deep = ValidationException(
        detail=f"the body nests deeper than {MAX_BODY_DEPTH} levels of objects and arrays"
    )
    try:
        raw = msgspec.json.decode(body)
    except RecursionError:
        raise too_deep from None
    level = [raw] if isinstance(raw, dict | list) else []
    for _ in range(MAX_BODY_DEPTH):
        if not level:
            return raw
        level = [
            inner
            for value in level
            for inner in (value.values() if isinstance(value, dict) else value)
            if isinstance(inner, dict | list)
        ]
    if level:
        raise too_deep
    return raw


def _refuse_repeated_keys(body: bytes) -> None:
    """A 400 for an object that names a key twice (:func:`api.request_checks.repeated_key`).
    Called on a body the shallow decode accepted (valid JSON, not too deep)."""
    key = repeated_key(body)
    if key is not None:
        raise ValidationException(
            detail=f"the body names the key {key!r} twice in one object",
            extra=[{"message": f"the key {key!r} is repeated: send it once", "key": key,
                    "source": "body"}],
        )  # fmt: skip


def _integral(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def refuse_unknown_query_parameters(request: Request[Any, Any, Any]) -> None:
    """A 400 for a query parameter the API operation does not declare, or one given twice.

    A misspelt or unsupported filter (``?open=true`` for ``?open_seats=true``) would
    otherwise be ignored, and the client would take an unfiltered answer for a filtered one.
    Only documented operations are checked: the web table's pages may carry cache-busting
    queries.
    """
    handler = request.route_handler
    if not handler.include_in_schema or not request.query_params:
        return
    known = _declared_query_parameters(handler, request.path_params)
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise BadRequest(
            "unknown_query_parameter",
            f"{request.method} {request.url.path} has no query parameter "
            f"{', '.join(unknown)} (it takes: {allowed})",
        )
    # Every parameter is one value: of ``?status=open&status=finished`` all but one would
    # be ignored, and the client would take one filter's answer for the other's.
    query = request.query_params
    repeated = sorted(name for name in set(query) if len(query.getall(name)) > 1)
    if repeated:
        raise BadRequest(
            "repeated_query_parameter",
            f"{request.method} {request.url.path} takes {', '.join(repeated)} once, not repeated",
        )


def refuse_unhonoured_idempotency_key(request: Request[Any, Any, Any]) -> None:
    """A 400 for an ``Idempotency-Key`` on a write that does not take one (an invite, a
    re-issue, a resignation...): the client would take a retry with it as safe, while each
    retry of an invite or a re-issue makes a new secret and the retried one stops working."""
    if request.method not in _WRITES or "idempotency-key" not in request.headers:
        return
    handler = request.route_handler
    if not handler.include_in_schema or "idempotency_key" in handler.parsed_fn_signature.parameters:
        return
    raise BadRequest(
        "idempotency_key_unsupported",
        f"{request.method} {request.url.path} takes no Idempotency-Key: a retry of it is not "
        "recognised as one; send the request without it",
    )


def _declared_query_parameters(handler: Any, path_params: dict[str, Any]) -> frozenset[str]:
    """The query parameters ``handler`` takes, worked out once and kept in its ``opt``."""
    names = handler.opt.get(_QUERY_NAMES)
    if names is None:
        model = handler.create_kwargs_model(path_parameters=dict.fromkeys(path_params))
        names = frozenset(p.field_alias for p in model.expected_query_params)
        handler.opt[_QUERY_NAMES] = names
    return names


_QUERY_NAMES = "ironworks_query_parameters"


def refuse_malformed_authorization(request: Request[Any, Any, Any]) -> None:
    """A malformed Authorization header is refused on every documented route, also where no
    token is needed: served as if it had sent none, the client would never learn its header
    is broken (and would take a spectator's answer for its seat's). The health probes are
    the exception: a load balancer or proxy may forward its own credentials to them, and
    liveness must not depend on a header the service never reads there."""
    handler = request.route_handler
    if handler.include_in_schema and "service" not in (handler.tags or ()):
        bearer_token(request)


def refuse_repeated_headers(request: Request[Any, Any, Any]) -> None:
    """A 400 for a header the API reads one value of sent twice (two tokens, two keys):
    one would be used and the other dropped unread, and which one is nobody's guess (a
    proxy in between may read the other). The health probes read none of them (and may get
    a proxy's own Authorization beside the client's)."""
    handler = request.route_handler
    if not handler.include_in_schema or "service" in (handler.tags or ()):
        return
    for name in ONE_VALUE_HEADERS:
        count = len(request.headers.getall(name, []))
        if count > 1:
            raise BadRequest(
                "repeated_header",
                f"{request.method} {request.url.path} takes one {name} header, not {count}",
            )


def refuse_control_characters_in_path(request: Request[Any, Any, Any]) -> None:
    """A 404 for a path with a control character in it (``/matches/%00``): no match, game,
    hook or file is named so, and the backends each choked on it their own way (a static
    file's lookup, PostgreSQL's text) with a 500. (The move lane, in front of Litestar,
    does not come here: a well-formed move to such a path is the lane's to refuse.)"""
    if CONTROL_CHARACTER.search(request.url.path):
        raise NotFound(
            "not_found",
            f"nothing answers {request.method} {request.url.path!r}: no path holds a "
            "control character",
        )


async def check_request(request: Request[Any, Any, Any]) -> None:
    refuse_control_characters_in_path(request)
    refuse_repeated_headers(request)
    refuse_malformed_authorization(request)
    refuse_unknown_query_parameters(request)
    refuse_unhonoured_idempotency_key(request)
    await refuse_non_json_body(request)
    await decode_body_strictly(request)


def _allow_every_method(app: Litestar) -> None:
    """Make each path's ``OPTIONS`` answer list all of the path's methods.

    Litestar writes a path's ``OPTIONS`` handler when the path's first handler is
    registered, over that first route; registering a second handler on the path (``POST``
    beside ``GET /matches``) builds a new route but keeps the old handler, which goes on
    reading the first route's methods (``Allow: OPTIONS, POST`` on ``/matches``). A client
    (or a CORS-less browser tool) asking what a path takes would be told less than it can
    do. The old route serves nothing else, so it is given the full route's methods.
    """
    for route in app.routes:
        if not isinstance(route, HTTPRoute) or "OPTIONS" not in route.route_handler_map:
            continue
        handler, _ = route.route_handler_map["OPTIONS"]
        for cell in getattr(handler.fn, "__closure__", None) or ():
            first = cell.cell_contents
            if isinstance(first, HTTPRoute) and first is not route:
                first.methods = route.methods


def create_app(
    service: MatchService,
    *,
    max_body_bytes: int = MAX_BODY_BYTES,
    cors_origins: Sequence[str] = (),
    log_format: LogFormat | None = None,
    log_level: str = "info",
) -> Litestar:
    """The app. ``cors_origins``: browser origins (``https://host:port``, or ``*``) allowed
    to call the API from their own pages; none by default (the web table at ``/`` is on
    the API's own origin and needs none). ``log_format``: configure the whole process's
    logging (see :mod:`api.logging_setup`); by default Litestar's own logging is kept."""

    def provide_service() -> MatchService:
        return service

    def provide_token(
        request: Request[Any, Any, Any], service: NamedDependency[MatchService]
    ) -> str | None:
        # Depends on the service only to be resolved after it: Litestar resolves the
        # dependencies of one level together in a task group, which costs more per request
        # than both of these calls.
        return bearer_token(request)

    cors = None
    if cors_origins:
        cors = CORSConfig(
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID"],
            # What a client must read beyond the CORS-safelisted few: when to retry a 503,
            # the request id to quote, the server's clock (the table's deadlines use it),
            # how to authenticate after a 401.
            expose_headers=["Location", "Retry-After", "X-Request-ID", "Date", "WWW-Authenticate"],
            max_age=600,
        )
    observe_service()
    middleware = [RequestLog(), prometheus_config().middleware]
    logging = Empty if log_format is None else logging_config(log_format, log_level)
    with retiring_replaced_log_listeners():
        app = Litestar(
            route_handlers=[
                *described(HEALTH_ROUTES),
                *described(ROUTES),
                *described(RECORD_ROUTES),
                *described(SEAT_ROUTES),
                *described(HOOK_ROUTES),
                *web_routes(),
                MetricsController,
            ],
            middleware=middleware,
            cors_config=cors,
            dependencies={
                "service": Provide(provide_service, use_cache=True, sync_to_thread=False),
                "token": Provide(provide_token, sync_to_thread=False),
            },
            exception_handlers=EXCEPTION_HANDLERS,
            before_request=check_request,
            on_startup=[service.aopen],
            on_shutdown=[service.aclose],
            request_max_body_size=max_body_bytes,
            state=State({"service": service}),
            openapi_config=OpenAPIConfig(
                title="ironworks",
                version=package_version(),
                description="Event-sourced board game service: create matches, claim seats, "
                "play moves, follow the log. Errors are RFC 9457 problem documents with a "
                "stable `code`.",
                path=DOCS_PATH,
                render_plugins=[
                    GameAwareSwaggerPlugin(path="/", **SWAGGER_ASSETS),
                    GameAwareJsonPlugin(),
                ],
                components=Components(security_schemes=SECURITY_SCHEMES),
                create_examples=False,
            ),
            logging_config=logging,
        )
    _allow_every_method(app)
    app.asgi_handler = MoveLane(app, service, middleware, max_body_bytes, MAX_BODY_DEPTH)
    if isinstance(logging, StructLoggingConfig):
        # Litestar configures structlog; the standard library's loggers are ours to set.
        assert logging.standard_lib_logging_config is not None
        with retiring_replaced_log_listeners():
            logging.standard_lib_logging_config.configure()
        observe_moves_in_logs()
    return app
