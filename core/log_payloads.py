"""What the log serves for each core event (``GET /matches/{id}/events``, ``payload``), as
types the OpenAPI document describes: the counterpart of a game's ``LogPayloads`` for the
service's own events, written by :meth:`core.service.MatchService.redact`.

A core event is served as stored (its ``type`` tag included), except those whose secrets
``redact`` leaves out: those have their served struct here.
"""

from __future__ import annotations

import typing
from typing import Any

import msgspec

from core import match as core_match
from core import seating


class _Payload(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class MatchCreatedLog(_Payload, kw_only=True):
    """``core.match_created`` without the seed and the position document."""

    game: str
    players: int
    options: dict[str, Any]
    from_position: bool
    client_seed: bool | None
    imported: bool
    """Whether the match was imported from a record."""
    rules: seating.MatchRules | None = None
    """How the service runs the match (absent: the defaults)."""


class SeatClaimedLog(_Payload, kw_only=True):
    """``core.seat_claimed`` without the token's hash."""

    seat: int


class SeatInvitedLog(_Payload, kw_only=True):
    """``core.seat_invited`` without the invite code's hash."""

    seat: int


class SeatTokenReissuedLog(_Payload, kw_only=True):
    """``core.seat_token_reissued`` without the new token's hash."""

    seat: int


_REDACTED: dict[type, type] = {
    core_match.MatchCreated: MatchCreatedLog,
    core_match.SeatClaimed: SeatClaimedLog,
    seating.SeatInvited: SeatInvitedLog,
    seating.SeatTokenReissued: SeatTokenReissuedLog,
}


def core_log_payloads() -> dict[str, type]:
    """Core event type -> the struct its served payload follows, for every core event."""
    return {
        event.__struct_config__.tag: _REDACTED.get(event, event)
        for event in typing.get_args(core_match.CoreEvent)
    }
