"""Request and response bodies of the REST API.

Request structs refuse unknown fields, so a misspelt field is an error, never ignored.
Game-specific parts (a move, a view, an event payload) are plain JSON objects here; the
OpenAPI document links them to each game's own schemas (see :mod:`api.openapi_doc`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from core.bots import BotInfo, BotKind, BotLevel, BotName, LevelName, ThinkMs
from core.game import Result
from core.seating import MatchRules

MAX_VERSION = 2**53
"""The greatest version a client may name (JSON numbers are exact up to here)."""
Version = Annotated[int, msgspec.Meta(ge=0, le=MAX_VERSION, description="A match stream version")]


class RequestBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base of request bodies."""


class CreateMatch(RequestBody):
    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    players: Annotated[int, msgspec.Meta(ge=1, le=64)]
    options: dict[str, Any] | None = None
    """The chosen game's options (``options_schema`` in ``GET /games``, ``<game>.Options`` in
    the OpenAPI document); defaults if absent."""
    seed: Annotated[str, msgspec.Meta(min_length=1, max_length=128)] | None = None
    """Makes the match reproducible; kept server-side, never shown again, but the match then
    says ``client_seed: true`` to everybody. A server may refuse it (``client_seed_refused``)."""
    position: dict[str, Any] | None = None
    """Start from this position document (the game's ``export_position`` format)."""
    rules: MatchRules | None = None
    """How the service runs the match: invite-only seats, what removing an absent player
    does, the stand-in bot, the clock. Defaults: public seats, absent players' seats to a
    greedy bot, no clock."""


class ClaimSeat(RequestBody):
    invite: Annotated[str, msgspec.Meta(min_length=1, max_length=128)] | None = None
    """The seat's invite code, from the match's owner: needed for a seat the owner invited
    someone to, and for every seat of an invite-only match."""


class SubmitMove(RequestBody):
    move: dict[str, Any]
    """One of the match's game moves (see the ``<game>.Move`` schemas)."""
    expected_version: Version
    """The match version the move was chosen at; a stale one is a 409."""


class HandToBot(RequestBody):
    bot: BotName = "random"
    """``random``, ``greedy`` or ``search`` (see each game's ``bots`` in ``GET /games``)."""
    level: LevelName | None = None
    """The search bot's level (default ``medium``); refused for the other bots."""
    think_ms: ThinkMs | None = None


class Health(msgspec.Struct, kw_only=True):
    ok: bool
    """Whether every check passed: requests can be served."""
    store: str
    """Event store backend: ``memory``, ``sqlite`` or ``redis``."""
    games: list[str]
    plugin_problems: list[PluginProblem]
    """Plugins that were skipped, and why."""
    checks: dict[str, HealthCheck]
    """``store`` and ``queue``: whether each answered just now."""


class HealthCheck(msgspec.Struct, kw_only=True, omit_defaults=True):
    ok: bool
    code: str | None = None
    """Why not: ``store_unavailable`` or ``queue_unavailable``."""
    detail: str | None = None


class Liveness(msgspec.Struct, kw_only=True):
    ok: bool
    """Always true: an answer at all is the news."""
    version: str
    """The ironworks version serving."""


class PluginProblem(msgspec.Struct, kw_only=True):
    plugin: str
    error: str


class GameInfo(msgspec.Struct, kw_only=True):
    id: str
    title: str
    rules_version: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any]
    """JSON Schema of the game's options."""
    metadata: dict[str, Any]
    bots: list[BotInfo]
    """The bot kinds a seat of this game can be handed to, with their levels."""
    guide: str | None = None
    """Path of the game's client guide (Markdown) on this server, if it ships one."""


class PositionBody(msgspec.Struct, kw_only=True):
    match_id: str
    game: str
    players: int
    version: int
    position: dict[str, Any]
    """The game's position document; ``POST /matches`` with it (or with this whole answer)
    as ``position`` starts a match there, with the settings it carries."""


class SeatInfo(msgspec.Struct, kw_only=True):
    seat: int
    claimed: bool
    """A person holds the seat's token (a player's seat even while a bot plays it)."""
    bot: BotKind | None = None
    """The bot playing the seat now: its own, or the match's stand-in for a resigned seat
    or a turn whose clock ran out."""
    level: BotLevel | None = None
    invited: bool = False
    """An invite code keeps the seat for the person it was given to."""
    resigned: bool = False
    deadline: float | None = None
    """When the seat's running turn times out (seconds since the epoch); ``null`` while
    its clock is not running."""
    bank_seconds: float | None = None
    """A bank clock's seconds left for the seat, as of the start of its running turn (or
    of its last turn); ``null`` without a bank clock."""


class MatchCreatedBody(msgspec.Struct, kw_only=True):
    id: str
    game: str
    players: int
    version: int
    seats: list[SeatInfo]
    owner_token: str
    """Secret, shown only once: the owner's key (invite, hand free seats to bots, take seats
    back from bots, re-issue lost seat tokens, remove absent players). Send it as
    ``Authorization: Bearer <token>``; it plays no seat."""
    rules: MatchRules
    client_seed: bool | None
    """True when the creator chose the match's seed, and so could deal the same cards again
    in a match of their own; ``null`` for a match stored before this was recorded."""


MatchStatus = Literal["open", "playing", "finished", "abandoned", "unavailable"]


class MatchSummary(msgspec.Struct, kw_only=True):
    id: str
    game: str
    players: int
    version: int
    finished: bool
    created_at: float
    """Seconds since the epoch."""
    status: MatchStatus = "playing"
    """``open``: a seat is neither claimed nor played by a bot; ``playing``: every seat is
    taken; ``finished``: the game is over (or the resignations ended it); ``abandoned``: its
    owner removed a player and the match's rules abandon it then; ``unavailable``: its game
    is not installed."""
    seats: list[SeatInfo] = msgspec.field(default_factory=list)
    """Empty when the match is ``unavailable``."""
    to_act: list[int] = msgspec.field(default_factory=list)
    """Seats whose move the match waits for."""
    client_seed: bool | None
    """True when the creator chose the match's seed, and so could deal the same cards again
    in a match of their own; ``null`` for a match stored before this was recorded."""
    rules: MatchRules | None = None
    """``null`` when the match is ``unavailable``."""


class MatchPage(msgspec.Struct, kw_only=True):
    total: int
    offset: int
    limit: int
    items: list[MatchSummary]


class SeatToken(msgspec.Struct, kw_only=True):
    match_id: str
    seat: int
    token: str
    """Secret: send it as ``Authorization: Bearer <token>``. Shown only once."""


class MatchView(msgspec.Struct, kw_only=True):
    id: str
    game: str
    players: int
    version: int
    seats: list[SeatInfo]
    you: int | None
    """The caller's seat; ``null`` for a spectator."""
    to_act: list[int]
    """Seats whose move the match waits for."""
    finished: bool
    """Nothing more happens: the match has a result, or was abandoned."""
    status: MatchStatus
    result: Result | None
    """Ranks resigned seats last and lists them in ``details.resigned``."""
    view: dict[str, Any]
    """What the caller may see of the game state (the game's ``view``)."""
    rules: MatchRules
    client_seed: bool | None
    """True when the creator chose the match's seed, and so could deal the same cards again
    in a match of their own; ``null`` for a match stored before this was recorded."""


class StreamTicket(msgspec.Struct, kw_only=True):
    match_id: str
    seat: int
    ticket: str
    """Open the seat's stream with ``GET /matches/{id}/stream?ticket=…`` (for clients such
    as a browser's EventSource that cannot send an Authorization header)."""
    expires_in: int
    """Seconds the ticket opens a stream for; an open stream outlives it."""


class LegalMoves(msgspec.Struct, kw_only=True):
    match_id: str
    seat: int
    version: int
    moves: list[Any]
    """Every legal move now, in the game's move format; empty when it is not your turn
    or a bot plays your seat. The game's move structs themselves: encoded as they are,
    they are the JSON objects converting them first would make, at a quarter of the cost."""


class MoveAccepted(msgspec.Struct, kw_only=True):
    match_id: str
    first_version: int
    version: int
    """The match version right after this move's events."""
    replayed: bool
    """True when this answers a retried ``Idempotency-Key``: nothing new was appended."""


class BotSeat(msgspec.Struct, kw_only=True):
    match_id: str
    seat: int
    bot: BotKind
    level: BotLevel | None = None
    think_ms: int | None = None
    version: int


class InviteCode(msgspec.Struct, kw_only=True):
    match_id: str
    seat: int
    invite: str
    """Secret, shown only once: give it to the invited person, who claims the seat with
    ``{"invite": …}``. A new invite to the seat replaces it."""
    version: int


class SeatsChanged(msgspec.Struct, kw_only=True):
    match_id: str
    version: int
    """The match version right after the change."""
    seats: list[SeatInfo]
    status: MatchStatus


class LogEvent(msgspec.Struct, kw_only=True):
    version: int
    type: str
    actor: int | None
    """The seat that caused it, -1 for the game's system steps, ``null`` for the service."""
    timestamp: float
    rules_version: str
    payload: dict[str, Any]
    """The event as the caller may see it (the game's ``redact``)."""


class EventPage(msgspec.Struct, kw_only=True):
    match_id: str
    version: int
    """The match version when the page was read."""
    events: list[LogEvent]
