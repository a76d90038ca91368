"""Seat tokens: the bearer token a seat got when it was claimed, read from each request."""

from __future__ import annotations

import re
from typing import Any

from litestar import Request
from litestar.openapi.spec import SecurityScheme

from core.errors import Unauthorized

SCHEME = "seatToken"
OWNER_SCHEME = "ownerToken"

SECURITY_SCHEMES = {
    SCHEME: SecurityScheme(
        type="http",
        scheme="bearer",
        description="The token returned when the seat was claimed "
        "(POST /matches/{match_id}/seats/{seat}/claim).",
    ),
    OWNER_SCHEME: SecurityScheme(
        type="http",
        scheme="bearer",
        description="The match's owner token, returned once by POST /matches (`owner_token`).",
    ),
}
SEAT_REQUIRED: list[dict[str, list[str]]] = [{SCHEME: []}]
SEAT_OPTIONAL: list[dict[str, list[str]]] = [{}, {SCHEME: []}]
"""Reads: with a token you see your seat's view, without one a spectator's."""
OWNER_REQUIRED: list[dict[str, list[str]]] = [{OWNER_SCHEME: []}]
SEAT_OR_OWNER: list[dict[str, list[str]]] = [{SCHEME: []}, {OWNER_SCHEME: []}]
ANYBODY_SEAT_OR_OWNER: list[dict[str, list[str]]] = [{}, {SCHEME: []}, {OWNER_SCHEME: []}]


def bearer_token(request: Request[Any, Any, Any]) -> str | None:
    """The caller's bearer token (a seat's or the owner's), ``None`` when no Authorization
    header was sent."""
    return parse_bearer(request.headers.get("authorization"))


B64TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
"""A bearer token's characters (RFC 6750, 2.1): no blank, quote or comma can be in one."""


def parse_bearer(header: str | None) -> str | None:
    """The token in an Authorization header's value (see :func:`bearer_token`). A value
    that is no ``Bearer <token>`` is a 401 ``bad_authorization``, also when something
    follows the token (``Bearer <token> <more>``, a quoted token): that was taken for a
    token of its own and refused as a wrong one (403), sending the client to look for
    another token instead of mending its header."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not B64TOKEN.fullmatch(token):
        raise Unauthorized(
            "bad_authorization", "the Authorization header must be 'Bearer <seat token>'"
        )
    return token
