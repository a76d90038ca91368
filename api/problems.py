"""RFC 9457 problem documents for every failure, so clients always get a stable ``code``.

Service errors carry their own status and code; Litestar's own errors (routing, request
validation, body size) get a code per status; anything else is a bug, logged in full and
answered with a 500 problem that reveals nothing about the cause. A backend that is down
or stalled is a 503 with ``Retry-After``, which every route may answer.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec

from core.errors import IronworksError, ServiceUnavailable

log = logging.getLogger(__name__)

PROBLEM_MEDIA_TYPE = "application/problem+json"

_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request body too large",
    415: "Unsupported media type",
    422: "Unprocessable request",
    500: "Internal server error",
    503: "Service unavailable",
}

_HTTP_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}
"""Codes for errors raised by Litestar itself, which know only their status."""


class Problem(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem document. Extension members depend on the ``code``."""

    type: str
    """A URI naming the problem kind: ``urn:ironworks:problem:<code>``."""
    title: str
    status: int
    detail: str
    code: str
    """Stable, machine-readable; never changes meaning between releases."""
    current_version: int | None = None
    """``version_conflict``: the match's version now."""
    expected_version: int | None = None
    """``version_conflict``: the version the request was based on."""
    errors: list[dict[str, Any]] | None = None
    """``invalid_request``: what was wrong with which part of the request."""
    index: int | None = None
    """``record_move_refused``: the refused move's index in the record's ``moves``."""
    refusal: str | None = None
    """``record_move_refused``: the code the game refused that move with."""


def problem(status: int, code: str, detail: str, **extra: Any) -> Response[Problem]:
    body = Problem(
        type=f"urn:ironworks:problem:{code}",
        title=_TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        code=code,
        **extra,
    )
    return Response(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE)


_EXTENSIONS = ("current_version", "expected_version", "index", "refusal")


def _as_get(request: Request[Any, Any, Any], detail: str) -> str:
    """``detail`` as the GET of a HEAD request words it: a HEAD answers with the GET's
    headers, Content-Length included, so its problem must be the GET's to the byte."""
    if request.method != "HEAD":
        return detail
    path = request.url.path
    return detail.replace(f"HEAD {path}", f"GET {path}")


def challenge(code: str) -> str:
    """The ``WWW-Authenticate`` of a 401 with ``code``: RFC 9110 has every 401 name how to
    authenticate, and RFC 6750 says it for bearer tokens (no ``error`` when none was sent;
    ``invalid_request`` for a header that is no ``Bearer <token>``; ``invalid_token`` for
    a stream ticket that is not, or no longer, one)."""
    error = {"bad_authorization": "invalid_request", "bad_ticket": "invalid_token",
             "ticket_expired": "invalid_token"}.get(code)  # fmt: skip
    return 'Bearer realm="ironworks"' + (f', error="{error}"' if error else "")


def ironworks_error(request: Request[Any, Any, Any], exc: IronworksError) -> Response[Problem]:
    known = {k: v for k, v in exc.extra.items() if k in _EXTENSIONS}
    response = problem(exc.status, exc.code, _as_get(request, exc.message), **known)
    if isinstance(exc, ServiceUnavailable):
        response.headers["Retry-After"] = str(exc.retry_after)
    if exc.status == 401:
        response.headers["WWW-Authenticate"] = challenge(exc.code)
    return response


def http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Problem]:
    status = exc.status_code
    if status >= 500:
        log.error("internal HTTP error: %s", exc.detail)
        return problem(500, "internal_error", "the server failed; the error was logged")
    code = _HTTP_CODES.get(status, "client_error")
    errors = None
    if isinstance(exc, ValidationException) and isinstance(exc.extra, list):
        errors = [e for e in exc.extra if isinstance(e, dict)] or None
    detail = _said(request, exc) or exc.detail or _TITLES.get(status, "error")
    if status != 405:  # (a 405's names the method refused)
        detail = _as_get(request, detail)
    response = problem(status, code, detail, errors=errors)
    if status == 401:
        response.headers["WWW-Authenticate"] = challenge(code)
    if exc.headers:
        # e.g. Allow on a 405: keep what Litestar says the client may do instead
        response.headers.update(exc.headers)
    return response


def _said(request: Request[Any, Any, Any], exc: HTTPException) -> str | None:
    """What Litestar's bare refusals ("Not Found", "Method Not Allowed", "Request Entity Too
    Large") leave unsaid: which request, what the route takes instead."""
    asked = f"{request.method} {request.url.path}"
    if exc.status_code == 404 and exc.detail == "Not Found":
        return f"nothing answers {asked}: the routes are at /docs (a seat in a path is a number)"
    if exc.status_code == 405:
        allowed = {k.lower(): v for k, v in (exc.headers or {}).items()}.get("allow", "")
        # Litestar lists a route's methods in no fixed order (GET and HEAD come from a set).
        methods = ", ".join(sorted(m.strip() for m in allowed.split(",") if m.strip()))
        return f"{request.url.path} takes {methods or 'other methods'}, not {request.method}"
    if exc.status_code == 413:
        limit = request.route_handler.resolve_request_max_body_size()
        return f"the body is over the {limit} bytes that {asked} takes" if limit else None
    return None


def unexpected_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem(500, "internal_error", "the server failed; the error was logged")


EXCEPTION_HANDLERS: dict[type[Exception], Any] = {
    IronworksError: ironworks_error,
    HTTPException: http_error,
    Exception: unexpected_error,
}


def exception_handler(exc: Exception) -> Any:
    """The handler in :data:`EXCEPTION_HANDLERS` for ``exc``, the most specific, as
    Litestar picks it."""
    for kind in type(exc).__mro__:
        if kind in EXCEPTION_HANDLERS:
            return EXCEPTION_HANDLERS[kind]
    return unexpected_error


def problem_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the problem documents a route may answer with."""
    common = (400, 401, 500, 503)  # 401: a malformed Authorization header, on every route
    return {
        status: ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=_TITLES.get(status, "Error"),
            generate_examples=False,
        )
        for status in sorted({*statuses, *common})
    }
