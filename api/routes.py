"""The REST routes. Handlers are thin: parse, call :class:`MatchService`, shape the answer.

Most service calls block (SQLite, Redis), so most handlers run on worker threads. The hot
ones — a move, reading a match, listing the legal moves — await the service's async
commands (:meth:`MatchService.aload`, :meth:`MatchService.asubmit`) on the event loop
instead, which never wait there on a store that is down or stalled (:mod:`core.steps`).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
import msgspec
from litestar import Request, post
from litestar.di import NamedDependency
from litestar.params import HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent

from api.auth import ANYBODY_SEAT_OR_OWNER, SEAT_OPTIONAL, SEAT_REQUIRED
from api.bodies import (
    MAX_VERSION,
    BotSeat,
    ClaimSeat,
    CreateMatch,
    EventPage,
    GameInfo,
    HandToBot,
    LegalMoves,
    LogEvent,
    MatchCreatedBody,
    MatchPage,
    MatchStatus,
    MatchSummary,
    MatchView,
    MoveAccepted,
    PositionBody,
    SeatInfo,
    SeatToken,
    StreamTicket,
    SubmitMove,
)
from api.metrics import counted_stream
from api.problems import problem_responses
from api.reads import get, is_head
from api.sse import event_stream, resume_point, waiters
from api.tickets import TICKET_SECONDS, issue_ticket, seat_for_ticket
from core.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    IronworksError,
    NotFound,
    ServiceUnavailable,
)
from core.match import MatchState, core_decoder
from core.ownership import keyed_owner_token, new_secret
from core.service import MatchService
from worker.bots import describe as describe_bots

MatchId = Annotated[str, PathParameter(description="Match id", min_length=1, max_length=64)]
GameId = Annotated[str, PathParameter(description="Game id", min_length=1, max_length=64)]
SeatNo = Annotated[int, PathParameter(description="Seat number, from 0")]


def key_header(description: str) -> HeaderParameter:
    """The ``Idempotency-Key`` header, worded for what a retry with it gives back."""
    return HeaderParameter(
        name="Idempotency-Key", min_length=1, max_length=128, required=False,
        description=description,
    )  # fmt: skip


IdempotencyKey = Annotated[
    str | None,
    key_header("Retrying with the same key returns the first answer and moves nothing."),
]
ClaimKey = Annotated[
    str | None,
    key_header(
        "Retrying with the same key (and the same invite code) returns the same token. "
        "Whoever repeats the key gets the token, so it must be unguessable: a random UUID."
    ),
]
CreateKey = Annotated[
    str | None,
    key_header(
        "Retrying with the same key and the same body returns the first answer (the same "
        "match and owner token) and creates nothing. Whoever repeats the key gets the owner "
        "token, so it must be unguessable: a random UUID."
    ),
]
# A string here, so an empty header (what EventSource may send) is no error; the document
# types it as the version it carries (see api.openapi_doc).
LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        required=False,
        description="Resume after this version (the `id` of the last message received); "
        "wins over `after`. An empty value counts as absent.",
    ),
]
MAX_WAIT_SECONDS = 60
"""The longest long poll (``GET /matches/{id}/events?wait=``)."""
AfterVersion = Annotated[
    int, QueryParameter(ge=0, le=MAX_VERSION, description="Only events with a greater version.")
]

Service = NamedDependency[MatchService]
Token = NamedDependency[str | None]
"""The caller's seat token (see :func:`api.auth.bearer_token`)."""

GUIDE_FILE = "CLIENTS.md"
_BODY = (413, 415, 422)
_MATCH = (404,)
_TOKEN = (401, 403)


@get(
    "/games",
    operation_id="listGames",
    summary="List the installed games",
    sync_to_thread=False,
    tags=["games"],
    responses=problem_responses(),
)
def list_games(service: Service) -> list[GameInfo]:
    """Installed games with their player counts and option schemas."""
    return [_game_info(game) for game in service.games.games()]


@get(
    "/games/{game_id:str}",
    operation_id="getGame",
    summary="Read one game",
    sync_to_thread=False,
    tags=["games"],
    responses=problem_responses(404),
)
def read_game(game_id: GameId, service: Service) -> GameInfo:
    """One installed game: player counts, option schema, metadata (board data, move form)."""
    return _game_info(service.games.get(game_id))


@get(
    "/games/{game_id:str}/guide",
    operation_id="getGameGuide",
    summary="Read a game's client guide",
    sync_to_thread=True,
    tags=["games"],
    media_type="text/markdown",
    response_description="The game's guide for client authors (Markdown): names, view, "
    "moves, decision sequence, refusal codes, worked examples.",
    responses=problem_responses(404),
)
def read_game_guide(game_id: GameId, service: Service) -> str:
    """The client guide the game ships (``CLIENTS.md`` next to its code)."""
    path = guide_path(service.games.get(game_id))
    if path is None:
        raise NotFound("no_guide", f"{game_id} ships no client guide")
    return path.read_text(encoding="utf-8")


def guide_path(game: Any) -> Path | None:
    """``CLIENTS.md`` in the game's package, where plugins keep their client guide."""
    try:
        path = Path(inspect.getfile(type(game))).parent / GUIDE_FILE
    except (TypeError, OSError):
        return None
    return path if path.is_file() else None


def _game_info(game: Any) -> GameInfo:
    return GameInfo(
        id=game.id, title=game.title, rules_version=game.rules_version,
        min_players=game.min_players, max_players=game.max_players,
        options_schema=msgspec.json.schema(game.Options), metadata=dict(game.metadata),
        bots=describe_bots(game),
        guide=f"/games/{game.id}/guide" if guide_path(game) else None,
    )  # fmt: skip


@post(
    "/matches",
    operation_id="createMatch",
    summary="Create a match",
    tags=["matches"],
    status_code=201,
    responses=problem_responses(403, 404, *_BODY),
)
async def create_match(
    data: JSONBody[CreateMatch], service: Service, idempotency_key: CreateKey = None
) -> MatchCreatedBody:
    """Start a match. Seats are free until claimed or handed to a bot. The answer's
    ``owner_token`` (shown once) is the owner's key to the seats; a client that never uses
    it gets a public match where anybody may claim a free seat or hand it to a bot. With an
    `Idempotency-Key` (as unguessable as a token: a random UUID), a retry with the same body
    gets the first answer again, the same match and owner token, and creates nothing; the
    same key with another body is a 422 `idempotency_key_reused`."""
    owner_token = new_secret() if idempotency_key is None else None
    match = await service.acreate_match(
        data.game, data.players, options=data.options, seed=data.seed, position=data.position,
        rules=data.rules, owner_token=owner_token, idempotency_key=idempotency_key,
    )  # fmt: skip
    owner_token = created_owner_token(match, owner_token, idempotency_key)
    return MatchCreatedBody(
        id=match.match_id, game=match.game_id, players=match.players, version=match.version,
        seats=seat_infos(service, match), client_seed=match.client_seed,
        owner_token=owner_token, rules=match.rules,
    )  # fmt: skip


@get(
    "/matches",
    operation_id="listMatches",
    summary="List matches (the lobby)",
    sync_to_thread=True,
    tags=["matches"],
    responses=problem_responses(),
)
def list_matches(
    service: Service,
    offset: Annotated[
        int, QueryParameter(ge=0, le=2**31, description="Matches to skip (newest first).")
    ] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=100, description="Matches per page.")] = 20,
    game: Annotated[
        str | None,
        QueryParameter(min_length=1, max_length=64, description="Only matches of this game id."),
    ] = None,
    status: Annotated[
        MatchStatus | None, QueryParameter(description="Only matches in this status.")
    ] = None,
    open_seats: Annotated[
        bool | None,
        QueryParameter(
            description="`true`: only matches a newcomer can join: not finished, not "
            "invite-only, with a seat nobody claimed, handed to a bot or keeps for an "
            "invited player; `false`: only the others."
        ),
    ] = None,
) -> MatchPage:
    """Matches, newest first, with their seats and status: the lobby. The filters combine;
    ``total`` counts the matches that pass them, ``offset`` and ``limit`` page through those.
    An unknown query parameter is a 400 (``unknown_query_parameter``), never ignored, and so
    is one given twice (``repeated_query_parameter``); so is a `game` that names no
    installed game and no stored match (``unknown_game``, naming the installed ones)."""
    if game is None and status is None and open_seats is None:
        streams = service.store.list_streams(offset, limit)
        return MatchPage(
            total=service.store.count_streams(), offset=offset, limit=limit,
            items=[_summary(service, s.stream_id, s.version, s.created_at) for s in streams],
        )  # fmt: skip
    # The store keeps no index by game or status: the filtered lobby folds every match.
    of_game = [s for s in _all_summaries(service) if game is None or s.game == game]
    if game is not None and game not in service.games and not of_game:
        # A misspelt id would read as an empty lobby; an uninstalled game's stored matches
        # (``unavailable``) are still found by their id.
        installed = ", ".join(g.id for g in service.games.games())
        raise BadRequest(
            "unknown_game", f"no game {game!r} is installed, nor any match of it stored "
            f"here; installed: {installed}"
        )  # fmt: skip
    wanted = [
        summary
        for summary in of_game
        if (status is None or summary.status == status)
        and (open_seats is None or _has_open_seat(summary) == open_seats)
    ]
    return MatchPage(
        total=len(wanted), offset=offset, limit=limit, items=wanted[offset : offset + limit]
    )


_SCAN_PAGE = 100


def _all_summaries(service: MatchService) -> Iterator[MatchSummary]:
    offset = 0
    while streams := service.store.list_streams(offset, _SCAN_PAGE):
        for s in streams:
            yield _summary(service, s.stream_id, s.version, s.created_at)
        offset += len(streams)


def _has_open_seat(summary: MatchSummary) -> bool:
    """A seat a newcomer can take: free, not kept for an invited player, in a public match."""
    public = summary.rules is None or not summary.rules.invite_only
    return (
        summary.status == "open"
        and public
        and any(not s.claimed and s.bot is None and not s.invited for s in summary.seats)
    )


@post(
    "/matches/{match_id:str}/seats/{seat:int}/claim",
    operation_id="claimSeat",
    summary="Claim a free seat",
    tags=["seats"],
    status_code=201,
    responses=problem_responses(*_MATCH, *_TOKEN, 409, *_BODY),
)
async def claim_seat(
    match_id: MatchId,
    seat: SeatNo,
    service: Service,
    token: Token,
    data: JSONBody[ClaimSeat | None] = None,
    idempotency_key: ClaimKey = None,
) -> SeatToken:
    """Claim a free seat (no body needed), or with ``{"invite": code}`` the seat an owner
    invited you to (taking it from a bot playing it meanwhile). Every seat of an
    invite-only match needs its invite code (403 ``invite_required``). The token in the
    answer is the seat's only key: keep it. With an `Idempotency-Key` (as unguessable as a
    token: a random UUID), a retry with the same body gets the same token back, so a claim
    whose answer was lost is not lost with it."""
    if token is not None:  # most claims send none: the match is read for the check alone
        refuse_foreign_token(service, await service.aload(match_id), token)
    invite = None if data is None else data.invite
    fresh = await service.aclaim_seat(match_id, seat, invite, idempotency_key)
    return SeatToken(match_id=match_id, seat=seat, token=fresh)


@post(
    "/matches/{match_id:str}/seats/{seat:int}/bot",
    operation_id="handSeatToBot",
    summary="Hand a seat to a bot",
    sync_to_thread=True,
    tags=["seats"],
    status_code=200,
    security=ANYBODY_SEAT_OR_OWNER,
    responses=problem_responses(*_MATCH, *_TOKEN, 409, *_BODY),
)
def hand_to_bot(
    match_id: MatchId, seat: SeatNo, data: JSONBody[HandToBot], service: Service, token: Token
) -> BotSeat:
    """Let a bot play a seat. A claimed seat: with its own token. A free seat: by anybody
    in a public match; in an invite-only match, or a seat kept for an invited player, only
    with the owner token (403 ``owner_only``). ``DELETE`` takes the seat back."""
    match = service.hand_to_bot(match_id, seat, data.bot, token, data.level, data.think_ms)
    info = match.seats[seat]
    return BotSeat(
        match_id=match_id, seat=seat, bot=info.bot, level=info.level, think_ms=info.think_ms,
        version=match.version,
    )  # fmt: skip


@get(
    "/matches/{match_id:str}",
    operation_id="getMatch",
    summary="Read a match and its view",
    tags=["matches"],
    security=SEAT_OPTIONAL,
    responses=problem_responses(*_MATCH, *_TOKEN),
)
async def read_match(
    match_id: MatchId,
    service: Service,
    token: Token,
    at: Annotated[
        int | None,
        QueryParameter(
            ge=1,
            le=2**53,
            description="Replay: the match as of this version, as a spectator sees it (the "
            "token is not needed). For a game with hidden information only once the match "
            "is over (403 `history_hidden` before); 404 `version_not_found` past the newest "
            "version or before the game's setup.",
        ),
    ] = None,
) -> MatchView:
    """The match as the caller may see it: a seat's view with its token, else a spectator's."""
    if at is None:
        match = await service.aload(match_id)
        seat = service.seat_for_token(match, token)
    else:  # folds the log from its start: off the event loop
        match = await anyio.to_thread.run_sync(_replay_point, service, match_id, at, token)
        seat = None
    result = service.result(match)
    return MatchView(
        id=match.match_id, game=match.game_id, players=match.players, version=match.version,
        seats=seat_infos(service, match), you=seat, to_act=_to_act(service, match),
        finished=service.over(match), status=match_status(service, match), result=result,
        view=service.view(match, seat), client_seed=match.client_seed, rules=match.rules,
    )  # fmt: skip


def _replay_point(
    service: MatchService, match_id: str, version: int, token: str | None
) -> MatchState:
    """The match at an older ``version``, when its history may be shown to anybody: always
    for a game without hidden information, otherwise once it is over (an older state would
    show a hand by what the next events reveal). A replay needs no token, but a wrong one
    is refused as everywhere else, not served as if none were sent."""
    latest = service.load(match_id)
    refuse_foreign_token(service, latest, token)
    game = service.game_of(latest)
    # Over, not merely scored: an abandoned match (no result) is as finished as the web
    # table's replay slider and the view's ``finished`` say.
    if game.metadata.get("hidden_information", True) and not service.over(latest):
        raise Forbidden(
            "history_hidden",
            f"{game.title} has hidden information: older states of a match are shown once "
            "it is over",
        )
    return latest if version == latest.version else service.load_at(match_id, version)


@get(
    "/matches/{match_id:str}/position",
    operation_id="getPosition",
    summary="Export a match's position",
    sync_to_thread=True,
    tags=["matches"],
    responses=problem_responses(*_MATCH, *_TOKEN),
)
def read_position(match_id: MatchId, service: Service, token: Token) -> PositionBody:
    """The full position document (the game's documented JSON form), to start a new match
    from it with ``POST /matches`` — for puzzles, lessons and bug reports. It holds every
    hidden part, so a game with hidden information gives it only once the match is over."""
    match = service.load(match_id)
    refuse_foreign_token(service, match, token)
    game = service.game_of(match)
    hidden = game.metadata.get("hidden_information", True)
    if hidden and not service.over(match):  # abandoned counts: no play is left to help
        raise Forbidden(
            "position_hidden",
            f"a {game.title} position shows hands and the deck; it is available once the "
            "match is over",
        )
    return PositionBody(
        match_id=match.match_id, game=match.game_id, players=match.players,
        version=match.version, position=game.export_position(match.game_state),
    )  # fmt: skip


@get(
    "/matches/{match_id:str}/moves",
    operation_id="listLegalMoves",
    summary="List the caller's legal moves",
    tags=["moves"],
    security=SEAT_REQUIRED,
    responses=problem_responses(*_MATCH, *_TOKEN),
)
async def legal_moves(match_id: MatchId, service: Service, token: Token) -> LegalMoves:
    """Every legal move of the caller's seat now."""
    match = await service.aload(match_id)
    seat = service.require_seat(match, token)
    # A seat handed to a bot cannot move by hand (a submit is refused with seat_is_bot), so
    # listing the bot's options would offer moves that are refused.
    playable = match.bot_for(seat) is None and not match.ended_early
    moves = service.legal_moves(match, seat) if playable else []
    return LegalMoves(match_id=match_id, seat=seat, version=match.version, moves=moves)


@post(
    "/matches/{match_id:str}/moves",
    operation_id="submitMove",
    summary="Submit a move",
    tags=["moves"],
    status_code=200,
    security=SEAT_REQUIRED,
    responses=problem_responses(*_MATCH, *_TOKEN, 409, *_BODY),
)
async def submit_move(
    match_id: MatchId,
    data: JSONBody[SubmitMove],
    service: Service,
    token: Token,
    idempotency_key: IdempotencyKey = None,
) -> MoveAccepted:
    """Play a move for the caller's seat at ``expected_version``."""
    result = await service.asubmit(
        match_id, token, msgspec.json.encode(data.move), data.expected_version, idempotency_key
    )
    return MoveAccepted(
        match_id=result.match_id, first_version=result.first_version, version=result.version,
        replayed=result.replayed,
    )  # fmt: skip


@get(
    "/matches/{match_id:str}/events",
    operation_id="listEvents",
    summary="Read a match's event log",
    tags=["events"],
    security=SEAT_OPTIONAL,
    responses=problem_responses(*_MATCH, *_TOKEN, 409),
)
async def read_events(
    request: Request[Any, Any, Any],
    match_id: MatchId,
    service: Service,
    token: Token,
    after: AfterVersion = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=500, description="Events per page.")] = 100,
    wait: Annotated[
        int,
        QueryParameter(
            ge=0,
            le=MAX_WAIT_SECONDS,
            description="Long polling: when no event follows `after` yet, wait up to this "
            "many seconds for one and answer as soon as it exists (an empty page once the "
            f"wait is over). At most {MAX_WAIT_SECONDS}; 0, the default, answers at once. "
            "A finished match answers at once. An `after` past the match's newest version "
            "is a 409 `after_past_end` (with `current_version`) instead of a wait.",
        ),
    ] = 0,
) -> EventPage:
    """The match's log after version ``after``, as the caller may see it; with ``wait``,
    a long poll for clients that cannot hold an event stream open."""
    match, events = await anyio.to_thread.run_sync(
        _events_page, service, match_id, token, after, limit
    )
    if wait and after > match.version:
        raise _past_end(match, after)
    if not events and wait and service.result(match) is None and not is_head(request):
        # Parked in the store's wake-up (as the event stream is), not on a request thread.
        with anyio.move_on_after(wait):
            await anyio.to_thread.run_sync(
                service.store.wait, match_id, after, wait,
                abandon_on_cancel=True, limiter=waiters,
            )  # fmt: skip
        match, events = await anyio.to_thread.run_sync(
            _events_page, service, match_id, token, after, limit
        )
    return EventPage(
        match_id=match_id, version=match.version,
        events=[msgspec.convert(e, LogEvent) for e in events],
    )  # fmt: skip


def _past_end(match: MatchState, seen: int) -> Conflict:
    """A wait for events after a version the match never reached. The client's version
    comes from elsewhere (another match, a store that was reset): waiting would spend the
    wait on events it cannot place, and a stream would hang until the match caught up."""
    return Conflict(
        "after_past_end",
        f"match {match.match_id} is at version {match.version}: there is no version {seen} "
        "to wait after; read the log again from a version it has",
        current_version=match.version,
    )


def _events_page(
    service: MatchService, match_id: str, token: str | None, after: int, limit: int
) -> tuple[MatchState, list[dict[str, Any]]]:
    match = service.load(match_id)
    seat = service.seat_for_token(match, token)
    return match, service.redacted_events(match_id, seat, after, limit, match=match)


@get(
    "/matches/{match_id:str}/stream",
    operation_id="streamEvents",
    summary="Stream a match's events (SSE)",
    media_type="text/event-stream",
    response_description="A stream of messages: `id` is the event's version, `data` a "
    "`LogEvent` as JSON; comment lines keep idle connections open.",
    tags=["events"],
    security=SEAT_OPTIONAL,
    responses=problem_responses(*_MATCH, *_TOKEN, 409),
)
async def stream_events(
    request: Request[Any, Any, Any],
    match_id: MatchId,
    service: Service,
    token: Token,
    last_event_id: LastEventId = None,
    after: Annotated[
        int | None, QueryParameter(ge=0, le=MAX_VERSION, description="Same as Last-Event-ID.")
    ] = None,
    until_version: Annotated[
        int | None, QueryParameter(ge=0, description="End the stream once this version was sent.")
    ] = None,
    ticket: Annotated[
        str | None,
        QueryParameter(
            min_length=1,
            max_length=256,
            description="A stream ticket (`POST /matches/{id}/stream-ticket`) instead of the "
            "Authorization header: streams that seat's view.",
        ),
    ] = None,
) -> ServerSentEvent:
    """Server-sent events of the log as the caller may see it; each ``id`` is the event's
    version. Ends when the match is over and fully sent (or at ``until_version``). Resuming
    after a version the match never reached is a 409 ``after_past_end``. Given both,
    ``Last-Event-ID`` wins over ``after``: a reconnecting ``EventSource`` sends it with the
    URL it first opened, whose ``after`` is older."""
    match = await anyio.to_thread.run_sync(service.load, match_id)
    if ticket is not None and token is not None:
        raise BadRequest(
            "ticket_and_token", "send a stream ticket or an Authorization header, not both"
        )
    if ticket is not None:
        seat = seat_for_ticket(match, ticket)
    else:
        seat = service.seat_for_token(match, token)
    start = resume_point(last_event_id, after)
    if start > match.version:
        raise _past_end(match, start)
    if is_head(request):  # the stream's headers, without holding it open
        return ServerSentEvent(iter(()))
    holder = None if seat is None else match.seats[seat].token_hash
    stream = event_stream(service, match_id, seat, start, until_version, holder=holder)
    return ServerSentEvent(counted_stream(stream))


@post(
    "/matches/{match_id:str}/stream-ticket",
    operation_id="createStreamTicket",
    summary="Create a stream ticket",
    sync_to_thread=True,
    tags=["events"],
    status_code=200,
    security=SEAT_REQUIRED,
    responses=problem_responses(*_MATCH, *_TOKEN),
)
def create_stream_ticket(match_id: MatchId, service: Service, token: Token) -> StreamTicket:
    """A short-lived ticket that opens this seat's event stream from a URL
    (``GET /matches/{id}/stream?ticket=…``), for clients that cannot send headers there,
    such as a browser's EventSource. Keeps the seat token itself out of URLs."""
    match = service.load(match_id)
    seat = service.require_seat(match, token)
    return StreamTicket(
        match_id=match_id, seat=seat, ticket=issue_ticket(match, seat),
        expires_in=TICKET_SECONDS,
    )  # fmt: skip


def refuse_foreign_token(service: MatchService, match: MatchState, token: str | None) -> None:
    """Routes that need no token still refuse one of no seat of the match (nor its owner's),
    as those that read one do (403 ``bad_token``): the caller holds the wrong token, or a
    token of another match, and should hear so."""
    service.seat_for_token(match, token)


def created_owner_token(match: MatchState, token: str | None, key: str | None) -> str:
    """The owner token a create answers with: its fresh one, or the one its key gives."""
    if token is not None:
        return token
    assert key is not None
    return keyed_owner_token(match.seed, match.match_id, key)


def seat_infos(service: MatchService, match: MatchState) -> list[SeatInfo]:
    infos = []
    for i, info in enumerate(match.seats):
        bot = match.bot_for(i)
        infos.append(
            SeatInfo(
                seat=i, claimed=info.token_hash is not None,
                bot=None if bot is None else bot.bot, level=None if bot is None else bot.level,
                invited=info.invite_hash is not None, resigned=info.resigned,
                deadline=service.deadline(match, i), bank_seconds=info.bank,
            )
        )  # fmt: skip
    return infos


def match_status(service: MatchService, match: MatchState) -> MatchStatus:
    if match.abandoned:
        return "abandoned"
    if service.result(match) is not None:
        return "finished"
    if any(not s.token_hash and not s.bot for s in match.seats):
        return "open"
    return "playing"


def _summary(service: MatchService, match_id: str, version: int, created: float) -> MatchSummary:
    try:
        match = service.load(match_id)
    except ServiceUnavailable:
        raise
    except IronworksError:
        # Its game is no longer installed, so it cannot be folded: one broken match must not
        # fail the whole listing, and the first event still names its game and player count.
        first = core_decoder.decode(service.store.read(match_id, 0, 1)[0].data)
        return MatchSummary(
            id=match_id, game=first.game, players=first.players, version=version,
            finished=False, created_at=created, status="unavailable",
            client_seed=first.client_seed,
        )  # fmt: skip
    finished = service.over(match)
    return MatchSummary(
        id=match_id, game=match.game_id, players=match.players, version=match.version,
        finished=finished, created_at=created, status=match_status(service, match),
        seats=seat_infos(service, match), to_act=[] if finished else _to_act(service, match),
        client_seed=match.client_seed, rules=match.rules,
    )  # fmt: skip


def _to_act(service: MatchService, match: MatchState) -> list[int]:
    return [t.seat for t in service.tasks(match) if t.kind == "turn" and t.seat is not None]


ROUTES: list[Any] = [
    list_games, read_game, read_game_guide, create_match, list_matches, claim_seat,
    hand_to_bot, read_match, read_position, legal_moves, submit_move, read_events,
    stream_events, create_stream_ticket,
]  # fmt: skip
