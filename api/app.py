"""Assembling the Litestar app around a :class:`core.service.MatchService`."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any

from litestar import Litestar, Request
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components

from api.auth import SECURITY_SCHEMES, bearer_token
from api.openapi_doc import GameAwareJsonPlugin, GameAwareSwaggerPlugin
from api.problems import EXCEPTION_HANDLERS
from api.routes import ROUTES
from core.service import MatchService

MAX_BODY_BYTES = 64 * 1024
DOCS_PATH = "/docs"
"""Interactive docs (Swagger UI) here, the OpenAPI document at ``/docs/openapi.json``."""

_JSON_TYPES = ("application/json",)


def _package_version() -> str:
    try:
        return version("ironworks")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


async def refuse_non_json_body(request: Request[Any, Any, Any]) -> None:
    """Bodies must be JSON: a form or text body gets a clear 415 instead of a parse error."""
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


def create_app(service: MatchService, *, max_body_bytes: int = MAX_BODY_BYTES) -> Litestar:
    def provide_service() -> MatchService:
        return service

    return Litestar(
        route_handlers=ROUTES,
        dependencies={
            "service": Provide(provide_service, use_cache=True, sync_to_thread=False),
            "token": Provide(bearer_token, sync_to_thread=False),
        },
        exception_handlers=EXCEPTION_HANDLERS,
        before_request=refuse_non_json_body,
        request_max_body_size=max_body_bytes,
        state=State({"service": service}),
        openapi_config=OpenAPIConfig(
            title="ironworks",
            version=_package_version(),
            description="Event-sourced board game service: create matches, claim seats, "
            "play moves, follow the log. Errors are RFC 9457 problem documents with a "
            "stable `code`.",
            path=DOCS_PATH,
            render_plugins=[GameAwareSwaggerPlugin(path="/"), GameAwareJsonPlugin()],
            components=Components(security_schemes=SECURITY_SCHEMES),
            create_examples=False,
        ),
    )
