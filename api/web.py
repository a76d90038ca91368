"""The web table (plain files in ``api/static/``) and the local Swagger UI assets.

The client is served as files, with no build step, and talks to the server only through
the public REST API and event stream, as any third-party client would. Swagger UI comes
from the ``swagger-ui-bundle-v2`` package, so ``/docs`` works with no internet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar.datastructures import CacheControlHeader
from litestar.response import File
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

from api.reads import get

STATIC_DIR = Path(__file__).resolve().parent / "static"
STATIC_PATH = "/static"
SWAGGER_ASSETS_PATH = "/docs/assets"
"""Swagger UI's script, preset and style sheet, from the installed package."""

_REVALIDATE = CacheControlHeader(no_cache=True)
"""Files change with every release and there is no build step to rename them: browsers may
keep them but must ask whether they changed (a cheap 304 when they did not)."""


@get(
    "/",
    include_in_schema=False,
    cache_control=_REVALIDATE,
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
            cache_control=_REVALIDATE,
        ),
        create_static_files_router(
            path=SWAGGER_ASSETS_PATH, directories=[Path(swagger_ui_path)], name="swagger-assets"
        ),
    ]  # fmt: skip


SWAGGER_ASSETS = {
    "js_url": f"{SWAGGER_ASSETS_PATH}/swagger-ui-bundle.js",
    "css_url": f"{SWAGGER_ASSETS_PATH}/swagger-ui.css",
    "standalone_preset_js_url": f"{SWAGGER_ASSETS_PATH}/swagger-ui-standalone-preset.js",
    "favicon": f"<link rel='icon' type='image/png' href='{SWAGGER_ASSETS_PATH}/favicon-32x32.png'>",
}
"""Keyword arguments of the Swagger render plugin that point it at the local files."""
