"""The command service: load a match, decide, append, enqueue follow-up work.

This is the only place where games meet I/O. Every move goes through
:meth:`MatchService.apply` (player moves, bot moves and system tasks alike), so
optimistic concurrency and idempotency hold for all of them; seat changes go through
:meth:`MatchService._append_core`, which retries them on a version conflict instead.

A change, once stored, is answered as a success even if the jobs it calls for cannot be
queued (the queue or the store went away meanwhile): the reconciler
(:mod:`worker.reconciler`) finds the match waiting and queues them later, and so does
:meth:`MatchService.settle` for the matches this process knows about, among them those whose
append failed without telling whether it was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import Any, NamedTuple

import msgspec

from core import clock
from core.bots import bot_view
from core.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    InvalidPosition,
    IronworksError,
    NotFound,
    ServiceUnavailable,
    Unauthorized,
    VersionConflict,
)
from core.events import AppendResult, NewEvent, StoredEvent
from core.game import Result, Task, event_type
from core.live import SNAPSHOT_EVERY, LiveMatches, Snapshots, as_stored
from core.match import (
    CORE_PREFIX,
    MatchCreated,
    MatchState,
    SeatClaimed,
    core_decoder,
    core_encoder,
    decoder_for,
    fold,
)
from core.observe import APPEND_OBSERVERS, JOB_OBSERVERS, MOVE_OBSERVERS, MoveSeen, notify
from core.ownership import (
    SeatCommands,
    bot_choice,
    hash_secret,
    is_owner,
    keyed_owner_token,
    matches,
)
from core.record import RecordedMove, play_moves, run_setup, setup_outcome
from core.registry import GameRegistry
from core.resignation import match_result
from core.rng import decision_rng, new_seed
from core.seating import MatchRules, SeatInvited, SeatResigned, SeatTokenReissued, TurnTimedOut
from core.steps import Call, Offload, Steps, arun, run
from core.store.base import EventStore, replay
from core.tasks import Job, NullRunner, TaskRunner, enqueue_blocks
from core.webhooks import Webhooks

log = logging.getLogger(__name__)
_encoder = msgspec.json.Encoder()
_decode_any = msgspec.json.Decoder().decode
_SEAT_CHANGE_RETRIES = 20
EARLY_GRACE = 2.0
"""Seconds a timeout job that runs before its deadline waits for it, rather than going back
to its runner (clocks of two machines differ a little)."""


class SubmitResult(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    first_version: int
    version: int
    """The stream version right after this command's events."""
    replayed: bool = False


class _CoreChange(NamedTuple):
    """A seat change as :meth:`MatchService._append_core` stored it."""

    result: AppendResult
    after: MatchState
    """The match with the change folded on, as it was appended."""


class MatchService(SeatCommands):
    def __init__(
        self,
        store: EventStore,
        games: GameRegistry,
        runner: TaskRunner | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        client_seeds: bool = True,
    ) -> None:
        """``client_seeds=False`` refuses matches whose creator chooses the seed."""
        self.store = store
        self.client_seeds = client_seeds
        self._unsettled: set[str] = set()
        """Matches that may wait for jobs nobody queued (see :meth:`settle`)."""
        self.games = games
        self.runner: TaskRunner = runner or NullRunner()
        self.live = LiveMatches(games)
        self.snapshots = Snapshots(store, games, snapshot_every)
        self._move_decoders: dict[str, msgspec.json.Decoder] = {}
        self.now: Callable[[], float] = time.time
        """The wall clock that deadlines are compared with (tests replace it)."""
        self.webhooks: Webhooks | None = None
        """The matches' webhooks (:mod:`core.webhooks`); ``None``: this service has none."""

    # --- reading -------------------------------------------------------------------------

    def load(self, match_id: str) -> MatchState:
        """The match folded to the newest stored event: this process's live state with the
        events stored since folded on, else the stored snapshot's (:mod:`core.live`).
        The state is shared: read it, never change it."""
        return run(self._load(match_id))

    async def aload(self, match_id: str) -> MatchState:
        """:meth:`load` on the event loop (:mod:`core.steps`)."""
        return await arun(self._load(match_id), self.store)

    def _load(self, match_id: str) -> Steps[MatchState]:
        match = self.live.get(match_id)
        if match is None:
            match = yield from self.snapshots.load_steps(match_id)
        after = 0 if match is None else match.version
        events = yield Call(self.store, "read", (match_id, after))
        if match is None:
            if not events:
                raise NotFound("match_not_found", f"no match {match_id!r}")
        elif not events:
            self.live.keep(match)
            return match
        match = self.live.advanced(match, events)
        self.live.keep(match)
        yield from self.snapshots.offer_steps(match, since=after)
        return match

    async def aopen(self) -> None:
        """Serve on the running event loop: a runner that runs jobs on one is handed it
        (:class:`worker.inprocess.InProcessRunner`)."""
        serve_on = getattr(self.runner, "serve_on", None)
        if serve_on is not None:
            serve_on(asyncio.get_running_loop())

    async def aclose(self) -> None:
        """Take the runner off the running event loop (once the jobs it runs there are
        done) and release what the stores' async twins hold for it."""
        leave_loop = getattr(self.runner, "leave_loop", None)
        if leave_loop is not None:
            await leave_loop()
        await self.store.aio.aclose()
        if self.webhooks is not None:
            await self.webhooks.store.aio.aclose()

    def load_at(self, match_id: str, version: int) -> MatchState:
        """The match folded up to ``version`` (for replays): an older state, never cached."""
        return run(self._load_at(match_id, version))

    def _load_at(self, match_id: str, version: int) -> Steps[MatchState]:
        events = yield Call(self.store, "read", (match_id, 0, version))
        if not events:
            raise NotFound("match_not_found", f"no match {match_id!r}")
        match = fold(self.games, events)
        if match.version < version:
            raise NotFound(
                "version_not_found",
                f"match {match_id} is at version {match.version}, not {version}",
            )
        if match.game_state is None:
            raise NotFound(
                "version_not_found",
                f"version {version} of match {match_id} precedes the game's setup; "
                f"ask for version {version + 1} or later",
            )
        return match

    def game_of(self, match: MatchState) -> Any:
        return self.games.get(match.game_id)

    def seat_for_token(self, match: MatchState, token: str | None) -> int | None:
        """The seat a bearer token belongs to; ``None`` for no token (a spectator) and for
        the owner's token (the owner watches as a spectator until claiming a seat)."""
        if not token or is_owner(match, token):
            return None
        return _seat_of(match, token)

    def require_seat(self, match: MatchState, token: str | None) -> int:
        """The token's seat, for requests that only a seat may make."""
        if not token:
            raise Unauthorized(
                "token_required", "send the seat's token as 'Authorization: Bearer …'"
            )
        if is_owner(match, token):
            raise Forbidden(
                "owner_token_is_no_seat",
                "this is the match's owner token, which plays no seat: claim a seat to play",
            )
        return _seat_of(match, token)

    def view(self, match: MatchState, seat: int | None) -> dict[str, Any]:
        return self.game_of(match).view(match.game_state, seat)

    def view_for_bot(self, match: MatchState, seat: int) -> dict[str, Any]:
        """What a bot playing ``seat`` reads (:func:`core.bots.bot_view`)."""
        return bot_view(self.game_of(match), match.game_state, seat)

    def legal_moves(self, match: MatchState, seat: int) -> list[Any]:
        return self.game_of(match).legal_moves(match.game_state, seat)

    def result(self, match: MatchState) -> Result | None:
        """The game's result, ranking resigned seats last (:mod:`core.resignation`);
        ``None`` while the match goes on, and for an abandoned match."""
        if match.abandoned:
            return None
        game = self.game_of(match)
        if not match.resigned:
            return game.result(match.game_state)
        if not match.ended_early and game.result(match.game_state) is None:
            return None
        return match_result(game, match.game_state, match.resigned, match.players)

    def over(self, match: MatchState) -> bool:
        """Whether nothing more happens in the match: it has a result, or was abandoned."""
        return match.abandoned or self.result(match) is not None

    def tasks(self, match: MatchState) -> list[Task]:
        """What the match waits for; nothing once it ended early (resignations, abandon)."""
        if match.ended_early:
            return []
        return self.game_of(match).pending_tasks(match.game_state)

    def deadline(self, match: MatchState, seat: int) -> float | None:
        """When the seat's running turn times out (see :mod:`core.clock`)."""
        return clock.deadline(match, seat)

    def redacted_events(
        self,
        match_id: str,
        seat: int | None,
        after: int = 0,
        limit: int | None = None,
        *,
        match: MatchState | None = None,
    ) -> list[dict[str, Any]]:
        """The log as ``seat`` may see it (core events without their secrets).

        ``match`` is the match when the caller has just loaded it, to spare a second load;
        its state is what an optional ``redact_in_match`` hook names things from.
        """
        if match is None:
            match = self.load(match_id)
        game = self.game_of(match)
        return [
            self.redact(game, stored, seat, match.game_state)
            for stored in self.store.read(match_id, after, limit)
        ]

    def redact(
        self, game: Any, stored: StoredEvent, seat: int | None, state: Any = None
    ) -> dict[str, Any]:
        """One stored event as ``seat`` may see it; ``state`` feeds ``redact_in_match``."""
        if stored.type.startswith(CORE_PREFIX):
            event = core_decoder.decode(stored.data)
            if isinstance(event, MatchCreated):
                # The seed and the position document would reveal hidden information.
                payload: dict[str, Any] = {
                    "game": event.game, "players": event.players, "options": event.options,
                    "from_position": event.position is not None,
                    "client_seed": event.client_seed, "imported": bool(event.imported),
                }  # fmt: skip
                if event.rules is not None:
                    payload["rules"] = msgspec.to_builtins(event.rules)
            elif isinstance(event, SeatClaimed | SeatInvited | SeatTokenReissued):
                payload = {"seat": event.seat}  # hashes of secrets stay on the server
            else:
                payload = msgspec.to_builtins(event)
        else:
            event = decoder_for(game).decode(stored.data)
            # Optional hook: a game whose log names depend on the match (a board side).
            in_match = getattr(game, "redact_in_match", None)
            if in_match is not None and state is not None:
                payload = in_match(state, event, seat)
            else:
                payload = game.redact(event, seat)
        return {
            "version": stored.version,
            "type": stored.type,
            "actor": stored.actor,
            "timestamp": stored.timestamp,
            "rules_version": stored.rules_version,
            "payload": payload,
        }

    # --- writing -------------------------------------------------------------------------

    def create_match(
        self,
        game_id: str,
        players: int,
        options: dict[str, Any] | None = None,
        seed: str | None = None,
        position: dict[str, Any] | None = None,
        match_id: str | None = None,
        moves: Sequence[RecordedMove] | None = None,
        rules: MatchRules | None = None,
        owner_token: str | None = None,
        setup: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> MatchState:
        """A new match from ``options`` (dealt by ``setup``; ``setup`` is a record's outcome
        of its draws, see :mod:`core.record`) or from ``position``; with
        ``moves`` (a record's, see :mod:`core.record`) those are played through ``decide``
        first and stored with the start in one append, so nothing is stored when one of
        them is refused. ``owner_token`` (stored hashed) is the key of its owner
        (:mod:`core.ownership`), ``rules`` how the service runs it.

        With ``idempotency_key`` the match's id is derived from the key and its owner token
        is :func:`core.ownership.keyed_owner_token` (``owner_token`` must not be given), so
        a retry with the same request gets the match as first stored instead of a second
        match, and the same key with another request is ``idempotency_key_reused``. Two
        racing copies both append at version 0 of that id: the store lets one in and
        answers the other as its retry."""
        return run(self._create_steps(
            game_id, players, options=options, seed=seed, position=position,
            match_id=match_id, moves=moves, rules=rules, owner_token=owner_token, setup=setup,
            idempotency_key=idempotency_key,
        ))  # fmt: skip

    async def acreate_match(
        self,
        game_id: str,
        players: int,
        options: dict[str, Any] | None = None,
        seed: str | None = None,
        position: dict[str, Any] | None = None,
        match_id: str | None = None,
        moves: Sequence[RecordedMove] | None = None,
        rules: MatchRules | None = None,
        owner_token: str | None = None,
        setup: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> MatchState:
        """:meth:`create_match` on the event loop (:mod:`core.steps`)."""
        return await arun(self._create_steps(
            game_id, players, options=options, seed=seed, position=position,
            match_id=match_id, moves=moves, rules=rules, owner_token=owner_token, setup=setup,
            idempotency_key=idempotency_key,
        ), self.store)  # fmt: skip

    def _create_steps(
        self,
        game_id: str,
        players: int,
        options: dict[str, Any] | None = None,
        seed: str | None = None,
        position: dict[str, Any] | None = None,
        match_id: str | None = None,
        moves: Sequence[RecordedMove] | None = None,
        rules: MatchRules | None = None,
        owner_token: str | None = None,
        setup: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Steps[MatchState]:
        """:meth:`create_match` as steps (:mod:`core.steps`)."""
        digest = None
        if idempotency_key is not None:
            if owner_token is not None or match_id is not None:
                raise ValueError("a keyed create derives its match id and owner token")
            match_id = keyed_match_id(idempotency_key)
            # Fields left out and fields sent at their defaults are the same request: a
            # retry rebuilt by another client library (``"options": {}`` for none) is a retry.
            said_rules = None if rules == MatchRules() else rules
            digest = _create_digest(
                idempotency_key, game_id, players, options or None, seed, position, moves,
                said_rules, setup,
            )  # fmt: skip
            seen = yield Call(self.store, "lookup", (match_id, idempotency_key))
            if seen is not None:
                return (yield from self._load_at(match_id, replay(seen, digest).last_version))
        game = self.games.get(game_id)
        if not game.min_players <= players <= game.max_players:
            raise BadRequest(
                "bad_player_count",
                f"{game.title} takes {game.min_players} to {game.max_players} players, "
                f"not {players}",
            )
        if position is not None and options:
            # The position carries the match's settings (map, board side); options beside
            # it would be logged as if they applied while play ignores them.
            raise BadRequest(
                "options_with_position",
                "a match started from a position takes its settings from the position; "
                "send either options or a position, not both",
            )
        if position is not None and setup is not None:
            raise BadRequest(
                "setup_with_position",
                "a position fixes the setup's draws already; send either a setup with "
                "options, or a position",
            )
        if seed and not self.client_seeds:
            raise Forbidden(
                "client_seed_refused",
                "this server deals every match from a seed of its own: send no seed",
            )
        opts = _convert_options(game, options or {})
        outcome = None if setup is None else setup_outcome(game, setup)
        if rules is not None:
            _check_rules(game, rules)
        client_seed, seed = bool(seed), seed or new_seed()
        match_id = match_id or uuid.uuid4().hex
        if idempotency_key is not None:
            owner_token = keyed_owner_token(seed, match_id, idempotency_key)
        state = None
        if position is not None:
            position = _bare_position(position, game_id, players)
            state = _playable_position(game, position, players)
            if getattr(state, "players", players) != players:
                raise BadRequest("bad_player_count", "the position is for another player count")
            # Optional hook: the settings a position carries (a map, a board side), so the
            # log says what is played rather than the defaults.
            position_options = getattr(game, "position_options", None)
            if position_options is not None:
                opts = position_options(state)
        created = MatchCreated(
            game=game_id, players=players, options=msgspec.to_builtins(opts), seed=seed,
            position=position, client_seed=client_seed,
            imported=True if moves is not None else None,
            owner_hash=None if owner_token is None else hash_secret(owner_token), rules=rules,
        )  # fmt: skip
        new = [NewEvent(type=created.__struct_config__.tag, data=core_encoder.encode(created))]
        if position is None:
            first = run_setup(game, opts, players, decision_rng(seed, 0, "setup"), outcome)
            new += self._game_events(game, first, actor=None)
            for event in first:
                state = game.evolve(state, event)
        if moves:
            played = play_moves(
                game, state, moves, players, partial(self.decode_move, game),
                partial(decision_rng, seed), len(new),
            )  # fmt: skip
            for actor, events in played:
                new += self._game_events(game, events, actor=actor)
        first = self.live.advanced(None, as_stored(match_id, 1, new, idempotency_key))
        appended = yield from self._append_steps(
            match_id, 0, new, idempotency_key, digest, bool(self.jobs_for(first))
        )
        if appended.replayed:  # a copy of this request created it since the lookup above
            return (yield from self._load_at(match_id, appended.last_version))
        try:
            match = yield from self._load(match_id)
        except ServiceUnavailable as exc:
            # Stored, so answered as created: the match as it was appended, and its first
            # jobs (the deal) left to the reconciler.
            self._unsettle(match_id, exc)
            return first
        yield from self._enqueue_steps(match)
        return match

    def submit(
        self,
        match_id: str,
        token: str | None,
        move: bytes | Any,
        expected_version: int,
        idempotency_key: str | None = None,
    ) -> SubmitResult:
        """A player's move: authenticate the token, then :meth:`apply`."""
        return run(self._submit_steps(match_id, token, move, expected_version, idempotency_key))

    async def asubmit(
        self,
        match_id: str,
        token: str | None,
        move: bytes | Any,
        expected_version: int,
        idempotency_key: str | None = None,
    ) -> SubmitResult:
        """:meth:`submit` on the event loop (:mod:`core.steps`)."""
        return await arun(
            self._submit_steps(match_id, token, move, expected_version, idempotency_key),
            self.store,
        )

    def _submit_steps(
        self,
        match_id: str,
        token: str | None,
        move: bytes | Any,
        expected_version: int,
        idempotency_key: str | None,
    ) -> Steps[SubmitResult]:
        live = self.live.get(match_id)
        if live is not None and live.version == expected_version:
            # One store round trip: the append checks this state is still the newest.
            try:
                seat = self._seat_to_play(live, token)
                return (
                    yield from self.apply_steps(live, seat, move, expected_version, idempotency_key)
                )
            except ServiceUnavailable:
                raise  # the append may have been stored: never try it twice
            except IronworksError:
                pass  # refused on a state the store did not confirm: check, then answer
        if idempotency_key is not None:
            replay = yield from self._replay(match_id, idempotency_key, move, token)
            if replay is not None:
                return replay
        match = yield from self._load(match_id)
        seat = self._seat_to_play(match, token)
        return (yield from self.apply_steps(match, seat, move, expected_version, idempotency_key))

    def _seat_to_play(self, match: MatchState, token: str | None) -> int:
        """The token's seat, when a person may play it now; else the refusal."""
        seat = self.require_seat(match, token)
        info = match.seats[seat]
        if match.ended_early:
            raise Conflict("match_over", "the match is over")
        if info.resigned:
            raise Conflict("seat_resigned", f"seat {seat} has resigned")
        if info.stand_in_turn:
            raise Conflict(
                "turn_timed_out", f"seat {seat}'s turn timed out: the stand-in bot plays it"
            )
        if info.bot:
            raise Conflict("seat_is_bot", f"seat {seat} is played by a bot")
        # A move after the game's own end keeps the game's documented refusal (Brass
        # ``not_playing``, Age of Steam ``game_over``, each game's CLIENTS.md): clients and
        # scenario checks read it there; ``match_over`` is for ends the service makes.
        return seat

    def time_out(self, match: MatchState, job: Job) -> str:
        """Run a ``timeout`` job: once the seat's deadline has passed, append
        ``core.turn_timed_out`` (and, for ``on_timeout: resign``, the resignation) at the
        job's version, with the job's id as idempotency key, so of any number of workers
        racing, and of any retries, exactly one records it. Returns the job's outcome."""
        seat = job.seat
        due = None if seat is None else clock.deadline(match, seat)
        control = match.rules.clock
        if seat is None or due is None or control is None or match.version != job.version:
            return "stale"
        early = due - self.now()
        if early > EARLY_GRACE:
            self.runner.enqueue(job)  # back to wait for its time
            return "early"
        if early > 0:
            time.sleep(early)
        events: list[Any] = [TurnTimedOut(seat=seat, action=control.on_timeout, deadline=due)]
        if control.on_timeout == "resign":
            events.append(SeatResigned(seat=seat, reason="timeout"))
        new = [NewEvent(type=e.__struct_config__.tag, data=core_encoder.encode(e)) for e in events]
        try:
            appended = self._append(match.match_id, match.version, new, job.id)
        except VersionConflict:
            return "stale"
        if not appended.replayed:
            self._follow_up(match.match_id)
        return "done" if not appended.replayed else "stale"

    def load_for_write(self, match_id: str, version: int) -> MatchState:
        """The match to decide on at ``version``: the live state when it is at that version,
        unchecked, since the append that follows checks it; else :meth:`load`."""
        live = self.live.get(match_id)
        return live if live is not None and live.version == version else self.load(match_id)

    def load_for_write_steps(self, match_id: str, version: int) -> Steps[MatchState]:
        """:meth:`load_for_write` as steps (:mod:`core.steps`)."""
        live = self.live.get(match_id)
        if live is not None and live.version == version:
            return live
        return (yield from self._load(match_id))

    def apply(
        self,
        match: MatchState,
        actor: int,
        move: bytes | Any,
        expected_version: int,
        idempotency_key: str | None = None,
        enqueue: bool = True,
    ) -> SubmitResult:
        """Decide ``move`` (a move struct or its JSON) for ``actor`` on ``match``, append the
        events and enqueue the jobs the new version calls for (unless ``enqueue`` is false:
        a bot playing its whole turn in one job enqueues once, when the turn is over).

        ``expected_version`` must be the match's version; a stale one is a conflict, unless
        ``idempotency_key`` shows that this very request won the race meanwhile.
        """
        return run(self.apply_steps(match, actor, move, expected_version, idempotency_key, enqueue))

    def apply_steps(
        self,
        match: MatchState,
        actor: int,
        move: bytes | Any,
        expected_version: int,
        idempotency_key: str | None = None,
        enqueue: bool = True,
    ) -> Steps[SubmitResult]:
        """:meth:`apply` as steps (:mod:`core.steps`)."""
        game = self.game_of(match)
        move_type = None
        try:
            move = self._as_move(game, move)
            move_type = event_type(move)
            digest = _digest(move, actor)
            try:
                if expected_version != match.version:
                    raise VersionConflict(match.match_id, expected_version, match.version)
                rng = decision_rng(match.seed, match.version)
                decide_evolved = getattr(game, "decide_evolved", None)
                if decide_evolved is None:
                    events, evolved = game.decide(match.game_state, actor, move, rng), None
                else:
                    events, evolved = decide_evolved(match.game_state, actor, move, rng)
                new = self._game_events(game, events, actor=actor)
                # Stored a moment later under the store's own timestamp, as ``as_stored``.
                after = self.live.moved(match, events, evolved, time.time())
                jobs = self.jobs_for(after)
                appended = yield from self._append_steps(
                    match.match_id, match.version, new, idempotency_key, digest, bool(jobs)
                )
            except VersionConflict:
                if idempotency_key is None:
                    raise
                # This very request (same key) may have won the race meanwhile, before
                # ``match`` was loaded or before this append: either way, answer as a retry.
                seen = yield Call(self.store, "lookup", (match.match_id, idempotency_key))
                if seen is None:
                    raise
                appended = replay(seen, digest)
            else:
                if not appended.replayed:
                    # Folded onto a copy: callers may still hold and reuse ``match``.
                    self.live.keep(after)
                    yield from self.snapshots.offer_steps(after, since=match.version)
                    if enqueue:
                        yield from self._enqueue_steps(after, jobs, appended.watched)
        except IronworksError as exc:
            notify(MOVE_OBSERVERS, MoveSeen(
                match_id=match.match_id, game=game.id, actor=actor, move_type=move_type,
                outcome="refused", code=exc.code,
            ))  # fmt: skip
            raise
        outcome = "replayed" if appended.replayed else "accepted"
        notify(MOVE_OBSERVERS, MoveSeen(
            match_id=match.match_id, game=game.id, actor=actor, move_type=move_type,
            outcome=outcome, code=outcome,
        ))  # fmt: skip
        return self._submit_result(appended)

    def decode_move(self, game: Any, data: bytes) -> Any:
        """The game's move struct from request JSON; a clear ``bad_move`` when it is not one."""
        decoder = self._move_decoders.get(game.id)
        if decoder is None:
            decoder = self._move_decoders[game.id] = msgspec.json.Decoder(game.Move)
        try:
            move = decoder.decode(data)
        except msgspec.DecodeError as exc:
            raise BadRequest("bad_move", _why_not_a_move(game, data, exc)) from None
        _refuse_unknown_move_fields(game, move, data)
        return move

    def resume(self, match_id: str) -> None:
        """Enqueue whatever the match is waiting for (after a crash or lost job)."""
        self._enqueue_tasks(self.load(match_id))

    def settle(self) -> int:
        """Queue the jobs of the matches whose jobs this process could not queue, or whose
        last append failed without telling whether it was stored; returns how many matches
        it queued jobs for. The ones that fail again stay for the next call."""
        settled = 0
        for match_id in list(self._unsettled):
            self._unsettled.discard(match_id)
            # NotFound: the append that failed was the match's first, and it never was.
            with contextlib.suppress(NotFound):
                settled += self._follow_up(match_id)
        return settled

    def jobs_for(self, match: MatchState) -> list[Job]:
        """Work the match waits for that no person does: system steps and bot seats' turns."""
        jobs = []
        for task in self.tasks(match):
            if task.kind == "system":
                jobs.append(
                    Job(match_id=match.match_id, version=match.version, kind="system",
                        move=_encoder.encode(task.move))
                )  # fmt: skip
            elif task.seat is not None and match.bot_for(task.seat) is not None:
                jobs.append(
                    Job(match_id=match.match_id, version=match.version, kind="bot", seat=task.seat)
                )
        if match.rules.clock is None:  # no seat's turn times out
            return jobs
        for seat in range(match.players):
            due = clock.deadline(match, seat)
            if due is not None:
                jobs.append(
                    Job(match_id=match.match_id, version=match.version, kind="timeout",
                        seat=seat, due=due)
                )  # fmt: skip
        return jobs

    # --- internals -----------------------------------------------------------------------

    def _enqueue_tasks(self, match: MatchState, jobs: list[Job] | None = None) -> bool:
        """Queue the match's jobs (``jobs``, when the caller has them already); a queue that
        is down only delays them (see the module). Returns whether it queued them."""
        return run(self._enqueue_steps(match, jobs))

    def _enqueue_steps(
        self, match: MatchState, jobs: list[Job] | None = None, watched: bool | None = None
    ) -> Steps[bool]:
        """:meth:`_enqueue_tasks`; ``watched``: what the append that made ``match`` said
        of the match's hooks mark (:attr:`AppendResult.watched`). Unmarked in a store the
        webhooks mark, the match has no hook: a registration marks it before it stores
        the hook, so the hooks' store is not read (a statement fewer a move)."""
        try:
            jobs = self.jobs_for(match) if jobs is None else jobs
            if jobs:
                yield from self._handed(self._queue, jobs)
            hooks = self.webhooks
            if (
                hooks is not None
                and (watched is not False or hooks.matches is not self.store)
                and (yield from hooks.watches_steps(match.match_id))
            ):
                # Its hooks may have news: a worker looks (worker.deliveries).
                hooks = Job(match_id=match.match_id, version=match.version, kind="hooks")
                yield from self._handed(self.runner.enqueue, hooks)
        except ServiceUnavailable as exc:
            self._unsettle(match.match_id, exc)
            return False
        return True

    def _handed(self, enqueue: Callable[[Any], None], jobs: Any) -> Steps[None]:
        """``enqueue(jobs)``: offloaded when the runner may block (RQ talks to Redis, the
        inline runner runs the job), else called in place, so the in-process runner's
        jobs are queued from the event loop without a thread hop (and its system steps
        run there, see :class:`worker.inprocess.InProcessRunner`)."""
        if enqueue_blocks(self.runner):
            yield Offload(enqueue, (jobs,))
        else:
            enqueue(jobs)

    def _queue(self, jobs: list[Job]) -> None:
        for job in jobs:
            self.runner.enqueue(job)
            notify(JOB_OBSERVERS, job.kind, "queued")

    def _follow_up(self, match_id: str) -> bool:
        """Queue the jobs of a match whose change was just stored."""
        return run(self._follow_up_steps(match_id))

    def _follow_up_steps(self, match_id: str) -> Steps[bool]:
        try:
            match = yield from self._load(match_id)
        except ServiceUnavailable as exc:
            self._unsettle(match_id, exc)
            return False
        return (yield from self._enqueue_steps(match))

    def _append(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        """``store.append``, noting a match whose append may have been stored unanswered."""
        return run(
            self._append_steps(
                match_id, expected_version, events, idempotency_key, request_digest, waiting
            )
        )

    def _append_steps(
        self,
        match_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None,
        request_digest: str | None,
        waiting: bool | None,
    ) -> Steps[AppendResult]:
        started = time.perf_counter()
        args = (match_id, expected_version, events, idempotency_key, request_digest, waiting)
        try:
            result = yield Call(self.store, "append", args)
        except ServiceUnavailable as exc:
            self._unsettle(match_id, exc)
            raise
        except IronworksError:  # a conflict or a reused key is an answer of the store too
            self._appended_in(started)
            raise
        self._appended_in(started)
        return result

    def _appended_in(self, started: float) -> None:
        notify(APPEND_OBSERVERS, _store_kind(type(self.store)), time.perf_counter() - started)

    def _unsettle(self, match_id: str, exc: ServiceUnavailable) -> None:
        log.warning("match %s: jobs left to the reconciler: %s", match_id, exc.message)
        self._unsettled.add(match_id)

    def _replay(
        self, match_id: str, key: str, move: bytes | Any, token: str | None
    ) -> Steps[SubmitResult | None]:
        seen = yield Call(self.store, "lookup", (match_id, key))
        if seen is None:
            return None
        match = yield from self._load(match_id)
        seat = self.require_seat(match, token)
        move = self._as_move(self.game_of(match), move)
        return self._submit_result(replay(seen, _digest(move, seat)))

    def _as_move(self, game: Any, move: bytes | Any) -> Any:
        """Workers and tests hand in move structs; the API hands in the request's JSON."""
        if isinstance(move, bytes | bytearray | memoryview):
            return self.decode_move(game, bytes(move))
        return move

    @staticmethod
    def _submit_result(result: AppendResult) -> SubmitResult:
        return SubmitResult(
            match_id=result.stream_id, first_version=result.first_version,
            version=result.last_version, replayed=result.replayed,
        )  # fmt: skip

    @staticmethod
    def _game_events(game: Any, events: list[Any], actor: int | None) -> list[NewEvent]:
        return [
            NewEvent(
                type=event_type(ev), data=_encoder.encode(ev), actor=actor,
                rules_version=game.rules_version,
            )
            for ev in events
        ]  # fmt: skip

    def _append_core(
        self,
        match_id: str,
        make: Callable[[MatchState], list[Any]],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
    ) -> _CoreChange:
        """Append the core events ``make`` builds from the newest state (it raises to
        refuse), all in one append.

        Seat changes do not depend on game moves, so a race with a bot's move is retried on
        the new version instead of failing the caller.
        """
        return run(self._append_core_steps(match_id, make, idempotency_key, request_digest))

    def _append_core_steps(
        self,
        match_id: str,
        make: Callable[[MatchState], list[Any]],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
    ) -> Steps[_CoreChange]:
        """:meth:`_append_core` as steps (:mod:`core.steps`)."""
        for _ in range(_SEAT_CHANGE_RETRIES):
            match = yield from self._load(match_id)
            new = [
                NewEvent(type=event.__struct_config__.tag, data=core_encoder.encode(event))
                for event in make(match)
            ]
            after = self.live.advanced(match, as_stored(match_id, match.version + 1, new, None))
            try:
                appended = yield from self._append_steps(
                    match_id, match.version, new, idempotency_key, request_digest,
                    bool(self.jobs_for(after)),
                )  # fmt: skip
            except VersionConflict:
                continue
            # The version moved, so jobs computed for the old one are void: compute them anew.
            if not appended.replayed:
                yield from self._follow_up_steps(match_id)
            return _CoreChange(appended, after)
        raise Conflict("busy", "the match kept changing meanwhile; try again")

    def _after_core_change(self, match_id: str, change: _CoreChange) -> MatchState:
        """The match after a stored seat change; as it was appended when the store cannot be
        read again, since a change that was stored is answered as a success."""
        try:
            return self.load(match_id)
        except ServiceUnavailable:
            if change.result.replayed:
                raise
            return change.after


def _check_rules(game: Any, rules: MatchRules) -> None:
    """Refuse rules the service cannot follow: a stand-in bot the game lacks, a time control
    of no kind or two."""
    stand_in = rules.stand_in
    bot_choice(game, stand_in.bot, stand_in.level, stand_in.think_ms)
    if rules.clock is not None:
        clock.check(rules.clock)


_EXPORT_FIELDS = frozenset({"match_id", "game", "players", "version", "position"})


def _bare_position(position: dict[str, Any], game_id: str, players: int) -> dict[str, Any]:
    """The position document itself, when ``position`` is what ``GET /matches/{id}/position``
    answers (the document with its match's facts around it), so an export starts a match as
    it is; those facts must then agree with the match asked for."""
    if set(position) != _EXPORT_FIELDS or not isinstance(position["position"], dict):
        return position
    if position["game"] != game_id:
        raise InvalidPosition(
            "position_of_another_game",
            f"this position was exported from a {position['game']} match, not {game_id}",
        )
    if position["players"] != players:
        raise BadRequest("bad_player_count", "the position is for another player count")
    return position["position"]


def _playable_position(game: Any, position: dict[str, Any], players: int) -> Any:
    """Refuse a position the game loads but then cannot play (a seat to act that does not
    exist, a view that fails): stored, it would break every later request on the match.
    The game's own ``load_position`` errors pass through unchanged."""
    try:
        state = game.load_position(position)
        seats = range(getattr(state, "players", players))
        for task in game.pending_tasks(state):
            if task.seat is not None and task.seat not in seats:
                raise ValueError(f"seat {task.seat} is to act")
        for seat in (None, *seats):
            game.view(state, seat)
        for seat in seats:
            game.legal_moves(state, seat)
        game.result(state)
        return state
    except IronworksError:
        raise
    except Exception as exc:  # whatever the plugin trips over, the document is to blame
        raise InvalidPosition(
            "position_not_playable",
            f"{game.title} loads this position but cannot play it ({type(exc).__name__})",
        ) from None


def _convert_options(game: Any, options: Any) -> Any:
    """Validated options. Unknown fields are refused here too, so a game whose Options
    struct would silently drop them cannot make a misspelt option look accepted."""
    if isinstance(options, dict):
        known = {f.encode_name for f in msgspec.structs.fields(game.Options)}
        unknown = sorted(str(k) for k in options if k not in known)
        if unknown:
            raise BadRequest(
                "bad_options",
                f"options: {game.title} has no option {', '.join(map(repr, unknown))}; "
                f"known: {', '.join(sorted(known)) or 'none'}",
            )
    try:
        return msgspec.convert(options, game.Options, strict=True)
    except msgspec.ValidationError as exc:
        raise BadRequest("bad_options", f"options: {exc}") from None


@cache
def _field_names(kind: type) -> frozenset[str]:
    """The field names a move type has on the wire, its tag included (msgspec builds a
    struct's config and reads its annotations afresh on every ``__struct_config__`` or
    ``fields`` call, a cost on every move)."""
    names = {f.encode_name for f in msgspec.structs.fields(kind)}
    names.add(kind.__struct_config__.tag_field or "type")  # type: ignore[attr-defined]
    return frozenset(names)


@cache
def _wire_fields(kind: type) -> frozenset[str] | None:
    """:func:`_field_names`, or ``None`` when the type forbids unknown fields itself."""
    if kind.__struct_config__.forbid_unknown_fields:  # type: ignore[attr-defined]
        return None
    return _field_names(kind)


def _refuse_unknown_move_fields(game: Any, move: Any, data: bytes) -> None:
    """A move struct that does not forbid unknown fields would drop a misspelt field and
    play the move without it; refuse such a move for every game alike."""
    known = _wire_fields(type(move))
    if known is None:
        return
    raw = _decode_any(data)
    if known.issuperset(raw):
        return
    raise BadRequest("bad_move", _no_such_fields(game, event_type(move), known, raw))


def _no_such_fields(game: Any, tag: str, known: frozenset[str], raw: dict[str, Any]) -> str:
    unknown = sorted(str(k) for k in raw if k not in known)
    return (
        f"not a move of {game.title}: the {tag!r} move has no field "
        f"{', '.join(map(repr, unknown))}; its fields: {', '.join(sorted(known))}"
    )


@cache
def _move_kinds(move_type: Any) -> tuple[str, dict[str, frozenset[str]]]:
    """The tag field of a game's move union and each move type's wire fields, by tag."""
    info = msgspec.inspect.type_info(move_type)
    kinds = info.types if isinstance(info, msgspec.inspect.UnionType) else (info,)
    structs = [k for k in kinds if isinstance(k, msgspec.inspect.StructType)]
    tag_field = next((k.tag_field for k in structs if k.tag_field), "type")
    return tag_field, {str(k.tag): _field_names(k.cls) for k in structs if k.tag is not None}


def _why_not_a_move(game: Any, data: bytes, exc: msgspec.DecodeError) -> str:
    """The sentence refusing a body that is no move of ``game``: naming the move types when
    its type is missing or unknown, and the type's fields when it has one of no such name,
    alike for every game (msgspec alone said "Invalid value 'teleport' - at `$.type`", or,
    for a type that forbids unknown fields, "Object contains unknown field" without which)."""
    try:
        raw = _decode_any(data)
        tag_field, kinds = _move_kinds(game.Move)
    except (msgspec.DecodeError, TypeError):
        raw, kinds = None, {}
    if isinstance(raw, dict) and kinds:
        tag = raw.get(tag_field)
        if not isinstance(tag, str) or tag not in kinds:
            said = (
                f"no move type {tag!r}" if tag_field in raw else f"a move names its {tag_field!r}"
            )
            return f"not a move of {game.title}: {said}; its move types: {', '.join(sorted(kinds))}"
        if not kinds[tag].issuperset(raw):
            return _no_such_fields(game, tag, kinds[tag], raw)
    return f"not a move of {game.title}: {exc}"


def _seat_of(match: MatchState, token: str) -> int:
    for seat, info in enumerate(match.seats):
        # Constant-time comparison, so response timing does not reveal a token hash.
        if matches(token, info.token_hash):
            return seat
    raise Forbidden("bad_token", "this token does not belong to any seat of this match")


@cache
def _store_kind(store: type) -> str:
    """The store's kind as the append observers name it (``sqlite``, ``redis``…)."""
    return store.__name__.removesuffix("Store").lower()


CREATE_KEYS = uuid.UUID("6f1c7a52-2b8e-5d4e-9a0c-3c1f0e7b9d21")
"""The namespace of the match ids derived from a create's Idempotency-Key."""


def keyed_match_id(key: str) -> str:
    """The id of the match a create with Idempotency-Key ``key`` makes: every retry of it
    names the same stream, so the store's key check and version-0 append decide them."""
    return uuid.uuid5(CREATE_KEYS, key).hex


def _create_digest(key: str, *request: Any) -> str:
    """What makes two creates "the same request": every argument. Keyed by the key, so the
    stored digest tells nothing of a client's seed to whoever reads the store."""
    body = msgspec.json.encode(list(request), order="deterministic")
    return hmac.new(key.encode(), b"create|" + body, hashlib.sha256).hexdigest()


def _digest(move: Any, actor: int) -> str:
    """What makes two submissions "the same request" for idempotency: actor and move."""
    return hashlib.sha256(f"{actor}|".encode() + _encoder.encode(move)).hexdigest()


__all__ = ["IronworksError", "MatchService", "SubmitResult"]
