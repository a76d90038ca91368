"""The service's rules of a match (who may sit, what a missing player's seat becomes, the
clock) and the core events that change its seats after ``core.match_created``.

Every seat change is an event in the match's stream, folded by :func:`core.match.fold`;
:mod:`core.ownership` decides who may append which.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from core.bots import BotName, LevelName, ThinkMs
from core.clock import TimeControl, TimeoutAction

AbsentRule = Literal["bot", "abandon"]


class BotChoice(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A bot, its level and think budget (as ``POST /matches/{id}/seats/{seat}/bot`` takes)."""

    bot: BotName = "greedy"
    """``random``, ``greedy`` or ``search`` (each game's ``bots`` in ``GET /games``)."""
    level: LevelName | None = None
    """The search bot's level (default ``medium``); refused for the other bots."""
    think_ms: ThinkMs | None = None


class MatchRules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How the service runs a match (the game's own settings are its ``options``)."""

    invite_only: bool = False
    """Seats are claimed only with an invite code from the owner; free seats are handed to
    bots only by the owner."""
    absent: AbsentRule = "bot"
    """What removing an absent player does: ``bot``: the stand-in bot takes the seat (the
    owner may invite a person into it later); ``abandon``: the match is abandoned."""
    stand_in: BotChoice = msgspec.field(default_factory=BotChoice)
    """The bot that plays a removed player's seat, a resigned seat's remaining turns, and a
    turn whose clock ran out (``on_timeout: bot``)."""
    clock: TimeControl | None = None
    """The time control; none by default (a turn may take forever)."""


class SeatInvited(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_invited"):
    """The seat is reserved for whoever holds the invite code; a later invite replaces it."""

    seat: int
    code_hash: str
    """SHA-256 of the invite code; the code itself is never stored."""


class SeatBotReleased(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_bot_released"):
    """The seat's bot stops: the seat is its token holder's again, or free."""

    seat: int


class SeatTokenReissued(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_token_reissued"):
    """The seat has a new token; the old one no longer works."""

    seat: int
    token_hash: str


class SeatRemoved(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_removed"):
    """The owner removed the seat's player: its token no longer works."""

    seat: int


ResignReason = Literal["resigned", "timeout"]


class SeatResigned(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_resigned"):
    """The seat is out: ranked below every seat still in; the stand-in bot plays its turns
    while the match goes on."""

    seat: int
    reason: ResignReason = "resigned"


class MatchAbandoned(msgspec.Struct, frozen=True, kw_only=True, tag="core.match_abandoned"):
    """The match stops without a result."""

    reason: Literal["player_removed"]
    seat: int | None = None


class TurnTimedOut(msgspec.Struct, frozen=True, kw_only=True, tag="core.turn_timed_out"):
    """The seat's clock ran out. ``action`` says what follows: the stand-in bot plays the
    turn (``bot``), or the seat resigns (``resign``, with a ``core.seat_resigned`` next)."""

    seat: int
    action: TimeoutAction
    deadline: float
    """When the turn was due (seconds since the epoch); the event's timestamp is when the
    timeout was recorded."""


SEAT_EVENTS = (
    SeatInvited, SeatBotReleased, SeatTokenReissued, SeatRemoved, SeatResigned, MatchAbandoned,
    TurnTimedOut,
)  # fmt: skip
