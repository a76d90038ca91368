"""Service-level events of a match stream and the projection that folds a whole stream.

A match stream starts with ``core.match_created``; seat claims and bot hand-overs are core
events too. Every other event belongs to the game and goes through its ``evolve``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from core.events import StoredEvent

CORE_PREFIX = "core."


class MatchCreated(msgspec.Struct, frozen=True, kw_only=True, tag="core.match_created"):
    game: str
    players: int
    options: dict[str, Any]
    seed: str
    """Secret: never leaves the server."""
    position: dict[str, Any] | None = None
    """Set when the match starts from a position document instead of ``setup``."""
    client_seed: bool | None = None
    """Whether the creator chose ``seed`` (and so can deal the same cards again elsewhere);
    ``None`` in matches stored before this was recorded."""


class SeatClaimed(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_claimed"):
    seat: int
    token_hash: str
    """SHA-256 of the seat's bearer token; the token itself is never stored."""


class SeatBotted(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_bot"):
    seat: int
    bot: str
    level: str | None = None
    """The search bot's level (:mod:`core.bots`); ``None`` for bots without levels."""
    think_ms: int | None = None
    """The seat's own think budget per decision, replacing the level's."""


CoreEvent = MatchCreated | SeatClaimed | SeatBotted
core_decoder = msgspec.json.Decoder(CoreEvent)
core_encoder = msgspec.json.Encoder()


class Seat(msgspec.Struct, kw_only=True):
    token_hash: str | None = None
    bot: str | None = None
    level: str | None = None
    think_ms: int | None = None


class MatchState(msgspec.Struct, kw_only=True):
    """A match folded up to ``version``: service facts plus the game's own state."""

    match_id: str
    version: int
    game_id: str
    players: int
    options: Any
    seed: str
    seats: list[Seat]
    created_at: float
    game_state: Any = None
    client_seed: bool | None = None
    """See :attr:`MatchCreated.client_seed`."""


def fold(games: Any, events: Iterable[StoredEvent], match: MatchState | None = None) -> MatchState:
    """Fold stored events onto ``match`` (or from nothing). ``games`` is the registry."""
    game = None if match is None else games.get(match.game_id)
    decoder = None if game is None else decoder_for(game)
    for stored in events:
        if stored.type.startswith(CORE_PREFIX):
            event = core_decoder.decode(stored.data)
            if isinstance(event, MatchCreated):
                game = games.get(event.game)
                decoder = decoder_for(game)
                options = msgspec.convert(event.options, game.Options)
                match = MatchState(
                    match_id=stored.stream_id, version=stored.version, game_id=event.game,
                    players=event.players, options=options, seed=event.seed,
                    seats=[Seat() for _ in range(event.players)], created_at=stored.timestamp,
                    game_state=(
                        None if event.position is None else game.load_position(event.position)
                    ),
                    client_seed=event.client_seed,
                )  # fmt: skip
            elif isinstance(event, SeatClaimed):
                match.seats[event.seat].token_hash = event.token_hash
            elif isinstance(event, SeatBotted):
                seat = match.seats[event.seat]
                seat.bot, seat.level, seat.think_ms = event.bot, event.level, event.think_ms
        else:
            match.game_state = game.evolve(match.game_state, decoder.decode(stored.data))
        match.version = stored.version
    if match is None:
        raise ValueError("a match stream must start with core.match_created")
    return match


_decoders: dict[int, msgspec.json.Decoder] = {}


def decoder_for(game: Any) -> msgspec.json.Decoder:
    """A cached JSON decoder for the game's Event union."""
    dec = _decoders.get(id(game))
    if dec is None:
        dec = _decoders[id(game)] = msgspec.json.Decoder(game.Event)
    return dec
