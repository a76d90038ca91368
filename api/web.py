"""The web table (plain files in ``api/static/``) and the local Swagger UI assets.

The client is served as files, with no build step, and talks to the server only through
the public REST API and event stream, as any third-party client would. Swagger UI comes
from the ``swagger-ui-bundle-v2`` package, so ``/docs`` works with no internet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar.datastructures import CacheControlHeader
from litestar.middleware import DefineMiddleware
from litestar.response import File
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path

from api.reads import get

STATIC_DIR = Path(__file__).resolve().parent / "static"
STATIC_PATH = "/static"
SWAGGER_ASSETS_PATH = "/docs/assets"
"""Swagger UI's script, preset and style sheet, from the installed package."""

_REVALIDATE = CacheControlHeader(no_cache=True)
"""Files change with every release and there is no build step to rename them: browsers may
keep them but must ask whether they changed (a cheap 304 when they did not, see
:func:`not_modified`)."""


def not_modified(app: ASGIApp) -> ASGIApp:
    """Answer a ``GET``/``HEAD`` of a file with ``304 Not Modified`` and no body when its
    ``If-None-Match`` names the file's ``ETag`` (RFC 9110 13.1.2: weak comparison, or ``*``).
    Litestar sends each file's ETag but never reads ``If-None-Match``, so a browser told to
    revalidate downloaded every module of the table again on each visit."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        # one list, however many header lines carry it
        wanted = b",".join(v for k, v in scope["headers"] if k.lower() == b"if-none-match")
        if not wanted or scope.get("method") not in ("GET", "HEAD"):
            await app(scope, receive, send)
            return
        held = False

        async def send_304_if_matching(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start" and message["status"] == 200:
                etag = _header(message["headers"], b"etag")
                if etag is not None and _matches(wanted, etag):
                    held = True
                    headers = [(k, v) for k, v in message["headers"] if k.lower() not in _BODY]
                    await send({**message, "status": 304, "headers": headers})
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
            if not held:
                await send(message)

        await app(scope, receive, send_304_if_matching)

    return middleware


_BODY = (b"content-length", b"content-type", b"content-disposition")
"""Headers that describe a body: a 304 has none."""


def _header(headers: Any, name: bytes) -> bytes | None:
    return next((v for k, v in headers if k.lower() == name), None)


def _matches(wanted: bytes, etag: bytes) -> bool:
    """Whether an ``If-None-Match`` value names ``etag`` (weakly: ``W/`` is ignored)."""
    if wanted.strip() == b"*":
        return True
    mine = etag.strip().removeprefix(b"W/")
    return any(tag.strip().removeprefix(b"W/") == mine for tag in wanted.split(b","))


_CONDITIONAL = [DefineMiddleware(not_modified)]


@get(
    "/",
    include_in_schema=False,
    cache_control=_REVALIDATE,
    middleware=_CONDITIONAL,
    media_type="text/html",
    sync_to_thread=False,
)
def web_client() -> File:
    """The web table's page: lobby, match tables, spectating and replays."""
    return File(STATIC_DIR / "index.html", content_disposition_type="inline")


def web_routes() -> list[Any]:
    return [
        web_client,
        create_static_files_router(
            path=STATIC_PATH, directories=[STATIC_DIR], name="static",
            cache_control=_REVALIDATE, middleware=_CONDITIONAL,
        ),
        create_static_files_router(
            path=SWAGGER_ASSETS_PATH, directories=[Path(swagger_ui_path)],
            name="swagger-assets", middleware=_CONDITIONAL,
        ),
    ]  # fmt: skip


SWAGGER_ASSETS = {
    "js_url": f"{SWAGGER_ASSETS_PATH}/swagger-ui-bundle.js",
    "css_url": f"{SWAGGER_ASSETS_PATH}/swagger-ui.css",
    "standalone_preset_js_url": f"{SWAGGER_ASSETS_PATH}/swagger-ui-standalone-preset.js",
    "favicon": f"<link rel='icon' type='image/png' href='{SWAGGER_ASSETS_PATH}/favicon-32x32.png'>",
}
"""Keyword arguments of the Swagger render plugin that point it at the local files."""
