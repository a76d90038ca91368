"""Routes of seat ownership: invites, taking seats back from bots, re-issued tokens,
removals and resignations (who may do what: :mod:`core.ownership`)."""

from __future__ import annotations

from typing import Any

from litestar import delete, post

from api.auth import OWNER_REQUIRED, SEAT_OR_OWNER, SEAT_REQUIRED
from api.bodies import InviteCode, SeatsChanged, SeatToken
from api.problems import problem_responses
from api.routes import MatchId, SeatNo, Service, Token, match_status, seat_infos
from core.match import MatchState
from core.service import MatchService

_REFUSALS = (404, 401, 403, 409)


def _changed(service: MatchService, match: MatchState) -> SeatsChanged:
    return SeatsChanged(
        match_id=match.match_id, version=match.version, seats=seat_infos(service, match),
        status=match_status(service, match),
    )  # fmt: skip


@post(
    "/matches/{match_id:str}/seats/{seat:int}/invite",
    operation_id="inviteToSeat",
    summary="Invite a person to a seat",
    sync_to_thread=True,
    tags=["seats"],
    status_code=201,
    security=OWNER_REQUIRED,
    responses=problem_responses(*_REFUSALS),
)
def invite_to_seat(match_id: MatchId, seat: SeatNo, service: Service, token: Token) -> InviteCode:
    """The owner keeps a seat for one person: the answer's invite code (shown once) claims
    it (``POST …/claim`` with ``{"invite": code}``), and nobody claims it without the code.
    A free seat, or a bot's: the bot plays on until the invited person claims the seat.
    A new invite replaces the seat's earlier code. A seat with a player is refused
    (``seat_taken``): re-issue its token, or remove the player first."""
    code, match = service.invite(match_id, seat, token)
    return InviteCode(match_id=match_id, seat=seat, invite=code, version=match.version)


@post(
    "/matches/{match_id:str}/seats/{seat:int}/reissue",
    operation_id="reissueSeatToken",
    summary="Re-issue a seat's token",
    sync_to_thread=True,
    tags=["seats"],
    status_code=201,
    security=OWNER_REQUIRED,
    responses=problem_responses(*_REFUSALS),
)
def reissue_seat_token(
    match_id: MatchId, seat: SeatNo, service: Service, token: Token
) -> SeatToken:
    """The owner gives a claimed seat a new token, for a player who lost theirs: the old
    token stops working at once. A seat nobody claimed is refused (``seat_not_claimed``)."""
    fresh = service.reissue_token(match_id, seat, token)
    return SeatToken(match_id=match_id, seat=seat, token=fresh)


@post(
    "/matches/{match_id:str}/seats/{seat:int}/remove",
    operation_id="removePlayer",
    summary="Remove an absent player",
    sync_to_thread=True,
    tags=["seats"],
    status_code=200,
    security=OWNER_REQUIRED,
    responses=problem_responses(*_REFUSALS),
)
def remove_player(match_id: MatchId, seat: SeatNo, service: Service, token: Token) -> SeatsChanged:
    """The owner removes a seat's player: the player's token stops working and, by the
    match's ``rules.absent``, the stand-in bot takes the seat (``bot``; the owner may
    invite a person into it later) or the match is abandoned (``abandon``)."""
    return _changed(service, service.remove_player(match_id, seat, token))


@post(
    "/matches/{match_id:str}/seats/{seat:int}/resign",
    operation_id="resignSeat",
    summary="Resign",
    sync_to_thread=True,
    tags=["seats"],
    status_code=200,
    security=SEAT_REQUIRED,
    responses=problem_responses(*_REFUSALS),
)
def resign_seat(match_id: MatchId, seat: SeatNo, service: Service, token: Token) -> SeatsChanged:
    """The seat's player resigns (with the seat's own token). The result ranks a resigned
    seat below every seat still in (``details.resigned`` lists them); while the match goes
    on, the stand-in bot plays the seat's turns, and once at most one seat has not
    resigned the match is over."""
    return _changed(service, service.resign(match_id, seat, token))


@delete(
    "/matches/{match_id:str}/seats/{seat:int}/bot",
    operation_id="takeSeatFromBot",
    summary="Take a seat back from its bot",
    sync_to_thread=True,
    tags=["seats"],
    status_code=200,
    security=SEAT_OR_OWNER,
    responses=problem_responses(*_REFUSALS),
)
def take_seat_from_bot(
    match_id: MatchId, seat: SeatNo, service: Service, token: Token
) -> SeatsChanged:
    """The seat's bot stops. With the seat's own token (a player who handed their seat to
    a bot) the player plays it again; with the owner token the seat is its token holder's
    again, or free for a person to claim (to hand it to one person, invite them instead:
    the bot plays on until they claim it)."""
    return _changed(service, service.release_bot(match_id, seat, token))


SEAT_ROUTES: list[Any] = [
    invite_to_seat,
    reissue_seat_token,
    remove_player,
    resign_seat,
    take_seat_from_bot,
]
