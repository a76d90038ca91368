"""Service-level events of a match stream and the projection that folds a whole stream.

A match stream starts with ``core.match_created``; seat claims, bot hand-overs and the seat
events of :mod:`core.seating` are core events too. Every other event belongs to the game and
goes through its ``evolve``. Matches with a clock (:mod:`core.clock`) also tick it once per
append.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from core import clock
from core.bots import BotName, LevelName
from core.events import StoredEvent
from core.seating import (
    BotChoice,
    MatchAbandoned,
    MatchRules,
    SeatBotReleased,
    SeatInvited,
    SeatRemoved,
    SeatResigned,
    SeatTokenReissued,
    TurnTimedOut,
)

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
    imported: bool | None = None
    """Whether the match was imported from a record (:mod:`core.record`): its moves, and the
    chance outcomes they carry, came from the importer."""
    owner_hash: str | None = None
    """Secret: SHA-256 of the owner token. ``None`` in matches stored before matches had
    owners (nobody can do what only an owner may)."""
    rules: MatchRules | None = None
    """``None`` in matches stored before there were rules: the defaults."""


class SeatClaimed(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_claimed"):
    seat: int
    token_hash: str
    """SHA-256 of the seat's bearer token; the token itself is never stored."""


class SeatBotted(msgspec.Struct, frozen=True, kw_only=True, tag="core.seat_bot"):
    seat: int
    bot: BotName
    level: LevelName | None = None
    """The search bot's level (:mod:`core.bots`); ``None`` for bots without levels."""
    think_ms: int | None = None
    """The seat's own think budget per decision, replacing the level's."""


CoreEvent = (
    MatchCreated | SeatClaimed | SeatBotted | SeatInvited | SeatBotReleased | SeatTokenReissued
    | SeatRemoved | SeatResigned | MatchAbandoned | TurnTimedOut
)  # fmt: skip
core_decoder = msgspec.json.Decoder(CoreEvent)
core_encoder = msgspec.json.Encoder()


class Seat(msgspec.Struct, kw_only=True):
    token_hash: str | None = None
    bot: str | None = None
    level: str | None = None
    think_ms: int | None = None
    invite_hash: str | None = None
    """Set while an invite code reserves the seat."""
    resigned: bool = False
    stand_in_turn: bool = False
    """The turn's clock ran out and the stand-in bot plays it (until the turn is over)."""
    waiting_since: float | None = None
    """When the seat's running clock started; ``None`` while it is not running."""
    bank: float | None = None
    """Seconds left in the seat's bank (a bank clock), as of its last turn."""

    @property
    def person_plays(self) -> bool:
        """Whether a person plays the seat now: claimed, and no bot, stand-in or resignation."""
        return bool(self.token_hash) and not (self.bot or self.resigned or self.stand_in_turn)


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
    owner_hash: str | None = None
    rules: MatchRules = msgspec.field(default_factory=MatchRules)
    resigned: list[int] = msgspec.field(default_factory=list)
    """Seats that resigned, first to resign first."""
    abandoned: bool = False

    @property
    def ended_early(self) -> bool:
        """Over before the game's end: abandoned, or at most one seat has not resigned."""
        return self.abandoned or (bool(self.resigned) and self.players - len(self.resigned) <= 1)

    def bot_for(self, seat: int) -> BotChoice | None:
        """The bot playing ``seat`` now: its own, or the stand-in for a resigned seat or a
        late turn; ``None`` when a person plays it (or nobody yet)."""
        info = self.seats[seat]
        if info.bot:
            return BotChoice(bot=info.bot, level=info.level, think_ms=info.think_ms)  # type: ignore[arg-type]
        if info.resigned or info.stand_in_turn:
            return self.rules.stand_in
        return None


def fold(
    games: Any,
    events: Iterable[StoredEvent],
    match: MatchState | None = None,
) -> MatchState:
    """Fold stored events onto ``match`` (or from nothing). ``games`` is the registry.
    A move's own events, as ``decide`` returned them, fold by :func:`fold_append`."""
    game = None if match is None else games.get(match.game_id)
    decoder = None if game is None else decoder_for(game)
    appended_at: float | None = None
    for stored in events:
        if appended_at is not None and stored.timestamp != appended_at:
            clock.tick(match, game, appended_at)  # the previous append is complete
        appended_at = stored.timestamp
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
                    client_seed=event.client_seed, owner_hash=event.owner_hash,
                    rules=event.rules or MatchRules(),
                )  # fmt: skip
                clock.start(match)
            else:
                _seat_event(match, event)
        else:
            match.game_state = game.evolve(match.game_state, decoder.decode(stored.data))
        match.version = stored.version
    if match is None:
        raise ValueError("a match stream must start with core.match_created")
    if appended_at is not None:
        clock.tick(match, game, appended_at)
    return match


def fold_append(
    game: Any, match: MatchState, decided: Sequence[Any], evolved: Any, at: float
) -> MatchState:
    """``match`` (changed in place) after one append of game events stored at ``at``:
    ``decided`` as ``decide`` returned them, and ``evolved`` the game state after them when
    the game built it (``decide_evolved``), else ``None``. The same as :func:`fold` of
    those events as stored, without the stored events themselves: their versions follow
    the match's, they share one timestamp, and a game event changes nothing but the game
    state, so the clocks tick once, after them all. The decider contract makes folding
    the events as ``decide`` returned them the same as folding them decoded from the store:
    events survive their JSON round trip, and ``evolve`` neither changes an event nor
    keeps a reference into it."""
    if evolved is None:
        evolved = match.game_state
        for event in decided:
            evolved = game.evolve(evolved, event)
    match.game_state = evolved
    match.version += len(decided)
    clock.tick(match, game, at)
    return match


def _seat_event(match: MatchState, event: Any) -> None:
    if isinstance(event, MatchAbandoned):
        match.abandoned = True
        return
    seat = match.seats[event.seat]
    if isinstance(event, SeatClaimed):
        # A claim with an invite code may take the seat from a bot.
        seat.token_hash, seat.invite_hash = event.token_hash, None
        seat.bot = seat.level = seat.think_ms = None
    elif isinstance(event, SeatBotted):
        seat.bot, seat.level, seat.think_ms = event.bot, event.level, event.think_ms
    elif isinstance(event, SeatInvited):
        seat.invite_hash = event.code_hash
    elif isinstance(event, SeatBotReleased):
        seat.bot = seat.level = seat.think_ms = None
    elif isinstance(event, SeatTokenReissued):
        seat.token_hash = event.token_hash
    elif isinstance(event, SeatRemoved):
        seat.token_hash = None
    elif isinstance(event, SeatResigned):
        seat.resigned = True
        match.resigned.append(event.seat)
    elif isinstance(event, TurnTimedOut) and event.action == "bot":
        seat.stand_in_turn = True


_decoders: dict[int, msgspec.json.Decoder] = {}


def decoder_for(game: Any) -> msgspec.json.Decoder:
    """A cached JSON decoder for the game's Event union."""
    dec = _decoders.get(id(game))
    if dec is None:
        dec = _decoders[id(game)] = msgspec.json.Decoder(game.Event)
    return dec
