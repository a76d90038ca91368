"""The decorator of read routes: Litestar's ``get`` that answers ``HEAD`` too.

RFC 9110 expects ``HEAD`` wherever ``GET`` works (a client checks a resource's headers,
its size or type, without its body); Litestar answers 405 to it unless a route names both
methods. The server sends the GET answer's headers only. The document keeps one operation
per route: ``HEAD`` is implied by ``GET``, and :mod:`api.openapi_doc` leaves it out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Request, route
from litestar.enums import HttpMethod
from litestar.handlers import HTTPRouteHandler

HEAD_SUFFIX = "Head"
"""Ends the operation id Litestar is given for a route's ``HEAD`` (ids must be unique)."""


def get(path: str, *, operation_id: str | None = None, **kwargs: Any) -> Callable[..., Any]:
    """``@get`` for a route answering GET and HEAD alike."""

    def operation_ids(handler: HTTPRouteHandler, method: str, components: list[str]) -> str:
        name = operation_id or handler.handler_name
        return name if method == HttpMethod.GET else name + HEAD_SUFFIX

    return route(
        path, http_method=[HttpMethod.GET, HttpMethod.HEAD], operation_id=operation_ids, **kwargs
    )


def is_head(request: Request[Any, Any, Any]) -> bool:
    """A HEAD request: a route that streams or waits answers it at once, without a body."""
    return request.method == HttpMethod.HEAD
