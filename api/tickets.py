"""Stream tickets: short-lived stand-ins for a seat token in an event-stream URL.

A browser's ``EventSource`` cannot send an ``Authorization`` header, and the long-lived seat
token must never sit in a URL (URLs end up in logs and histories). A ticket names the match,
the seat and an expiry, signed with HMAC-SHA-256 keyed by the seat's stored token hash: it
needs no server-side storage or shared secret (any API process can check it), only the
token's holder can have one made, and a forged or altered ticket does not verify.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time

from core.errors import Unauthorized
from core.match import MatchState

TICKET_SECONDS = 60
"""How long a ticket opens a stream; an open stream outlives it."""
_VERSION = "t1"


def issue_ticket(
    match: MatchState, seat: int, now: float | None = None, ttl: int = TICKET_SECONDS
) -> str:
    """A ticket for ``seat`` (whose token the caller has shown) valid for ``ttl`` seconds."""
    expires = int(now if now is not None else time.time()) + ttl
    return f"{_VERSION}.{seat}.{expires}.{_signature(match, seat, expires)}"


def seat_for_ticket(match: MatchState, ticket: str, now: float | None = None) -> int:
    """The seat a ticket opens the stream for; 401 when it is malformed, forged or old."""
    parts = ticket.split(".")
    if len(parts) != 4 or parts[0] != _VERSION or not parts[1].isdigit():
        raise Unauthorized("bad_ticket", "this is not a stream ticket of this server")
    seat, expires = int(parts[1]), parts[2]
    if not expires.isdigit() or not 0 <= seat < len(match.seats):
        raise Unauthorized("bad_ticket", "this is not a stream ticket of this server")
    expected = _signature(match, seat, int(expires))
    if not expected or not hmac.compare_digest(expected, parts[3]):
        raise Unauthorized("bad_ticket", "this stream ticket is not valid for this match")
    if int(expires) < (now if now is not None else time.time()):
        raise Unauthorized("ticket_expired", "this stream ticket has expired; ask for a new one")
    return seat


def _signature(match: MatchState, seat: int, expires: int) -> str:
    token_hash = match.seats[seat].token_hash
    if not token_hash:
        return ""
    message = f"{match.match_id}|{seat}|{expires}".encode()
    digest = hmac.new(bytes.fromhex(token_hash), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
