"""Game records over REST: import a recorded match, export one (:mod:`core.record`)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import post
from litestar.params import JSONBody

from api.bodies import MatchCreatedBody
from api.problems import problem_responses
from api.reads import get
from api.routes import (
    CreateKey,
    MatchId,
    Service,
    Token,
    created_owner_token,
    refuse_foreign_token,
    seat_infos,
)
from core.errors import Forbidden
from core.ownership import new_secret
from core.record import Record, export_record

MAX_RECORD_BYTES = 1024 * 1024
"""A record holds a whole game (hundreds of moves and a start position): more room than the
other bodies get."""


class ImportedMatch(MatchCreatedBody, kw_only=True):
    finished: bool
    """Whether the record plays the match to its end; else it goes on live from there, its
    seats free to claim."""
    to_act: list[int]
    """Seats whose move the match waits for now."""


@post(
    "/matches/import",
    operation_id="importMatch",
    summary="Import a recorded match",
    sync_to_thread=True,
    tags=["matches"],
    status_code=201,
    request_max_body_size=MAX_RECORD_BYTES,
    responses=problem_responses(403, 404, 413, 415, 422),
)
def import_match(
    data: JSONBody[Record], service: Service, idempotency_key: CreateKey = None
) -> ImportedMatch:
    """Start a match from a record (the format `GET /matches/{id}/record` gives): its start
    (options with the setup's outcome, or a start position) and every move in order, system
    moves with their chance outcomes (a deal, dice, cubes) where the record fixes them. A
    `setup` the game's setup cannot deal is a 422 `record_setup_refused` with the `refusal`
    code. The moves are played through the rules; the first one refused is a 422
    `record_move_refused` naming its `index` and the `refusal` code; nothing is stored.
    The new match's log is the record; it is finished, or goes on live with every seat free
    to claim; its ``owner_token`` (shown once) is the owner's key to those seats, as for a
    match started by `POST /matches`. An `Idempotency-Key` works as for `POST /matches`: a
    retry with the same record gets the first answer again and imports nothing."""
    owner_token = new_secret() if idempotency_key is None else None
    match = service.create_match(
        data.game, data.players, options=data.options, position=data.position,
        moves=data.moves, owner_token=owner_token, setup=data.setup,
        idempotency_key=idempotency_key,
    )  # fmt: skip
    owner_token = created_owner_token(match, owner_token, idempotency_key)
    result = service.result(match)
    return ImportedMatch(
        id=match.match_id, game=match.game_id, players=match.players, version=match.version,
        seats=seat_infos(service, match), owner_token=owner_token, rules=match.rules,
        client_seed=match.client_seed, finished=result is not None,
        to_act=[] if result is not None else [
            t.seat for t in service.tasks(match) if t.kind == "turn" and t.seat is not None
        ],
    )  # fmt: skip


@get(
    "/matches/{match_id:str}/record",
    operation_id="getRecord",
    summary="Export a match's record",
    sync_to_thread=True,
    tags=["matches"],
    responses=problem_responses(403, 404, 409),
)
def read_record(match_id: MatchId, service: Service, token: Token) -> Record:
    """The match as a record: its start (the options and the setup's draws, or the start
    position of a match started from one) and every move, chance outcomes included, in the
    form `POST /matches/import` takes. It shows every hidden card, so a game with
    hidden information gives it once the match is over (403 `record_hidden` before)."""
    match = service.load(match_id)
    refuse_foreign_token(service, match, token)
    game = service.game_of(match)
    if game.metadata.get("hidden_information", True) and not service.over(match):
        raise Forbidden(
            "record_hidden",
            f"a {game.title} record shows every hand and deal; it is available once the "
            "match is over",
        )
    return export_record(service, match_id)


def record_schema_fixes(
    schemas: dict[str, Any], move: dict[str, Any], setup: dict[str, Any]
) -> None:
    """The OpenAPI document's record schemas: closed like the other bodies, moves and
    setup outcomes typed."""
    for name in ("Record", "RecordedMove"):
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    if "RecordedMove" in schemas:
        schemas["RecordedMove"]["properties"]["move"] = msgspec.json.decode(
            msgspec.json.encode(move)
        )
    if "Record" in schemas:
        schemas["Record"]["properties"]["setup"] = setup


ROUTES: list[Any] = [import_match, read_record]
