"""Game records: a match as its start and the moves played, chance outcomes included.

A record is what a tournament sheet or a bug report holds: the game, the players, where it
started (the options, or a position document) and every move in order, each with its actor
(a seat, or :data:`core.game.SYSTEM` for the game's own steps). A system move that draws
chance carries its outcome as a field (a deal, dice, cubes from the bag): importing replays
the moves through ``decide`` exactly, so the imported match's log is the record, and
exporting reads the same format back from any stored match. The setup's own draws (the
first deal, turn order, tiles) are the record's ``setup``: the outcome a game's ``setup``
takes instead of drawing (its ``SetupOutcome``), which the ``setup_outcome`` hook reads back
from the setup's events.

Exporting does not need the moves stored: at each point of the log it finds the move whose
events are the ones stored next (a seat's legal moves, or the pending system move with the
outcome the game's ``chance_outcome`` hook reads from the events).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import msgspec

from core.errors import Conflict, IllegalMove, IronworksError, NotFound
from core.events import StoredEvent
from core.game import SYSTEM
from core.match import CORE_PREFIX, MatchCreated, core_decoder, decoder_for

if TYPE_CHECKING:
    from core.service import MatchService

RECORD_FORMAT: Final = "ironworks-record/1"
_encoder = msgspec.json.Encoder()


class RecordedMove(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    actor: int
    """The seat that played it, or -1 for the game's own step (era scoring, a deal, dice)."""
    move: dict[str, Any]
    """One of the game's moves (the ``<game>.Move`` schemas); a chance move may carry its
    outcome (see the game's client guide), else the server draws it."""


class Record(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A whole match: ``POST /matches/import`` plays it, ``GET /matches/{id}/record`` gives
    it back in the same form."""

    format: Literal["ironworks-record/1"] = RECORD_FORMAT
    game: str
    players: Annotated[int, msgspec.Meta(ge=1, le=64)]
    """The bounds of ``POST /matches``: the document says which counts may be sent."""
    options: dict[str, Any] | None = None
    """The match's options (defaults if absent)."""
    setup: dict[str, Any] | None = None
    """With ``options``: the chance outcome of the game's setup (the first deal, turn order,
    tiles: the game's ``SetupOutcome``, see its client guide); without it the server draws
    them."""
    position: dict[str, Any] | None = None
    """The start position (the game's position document) instead of options: it fixes the
    setup's draws too. An exported record starts from the options and setup of a match
    started from options, and from a position otherwise."""
    moves: list[RecordedMove] = msgspec.field(default_factory=list)


class RecordRefused(IllegalMove):
    """A move of a record that its game refuses there: nothing is imported."""

    code = "record_move_refused"

    def __init__(self, index: int, refusal: IronworksError, actor: int) -> None:
        who = "the game's own step" if actor == SYSTEM else f"seat {actor}'s move"
        super().__init__(
            "record_move_refused",
            f"move {index} of the record ({who}) is refused: {refusal.code}: {refusal.message}",
            index=index, refusal=refusal.code,
        )  # fmt: skip


class SetupRefused(IllegalMove):
    """A record's ``setup`` outcome that its game's setup cannot deal: nothing is imported."""

    code = "record_setup_refused"

    def __init__(self, refusal: IronworksError) -> None:
        super().__init__(
            "record_setup_refused",
            f"the record's setup is refused: {refusal.code}: {refusal.message}",
            refusal=refusal.code,
        )


def setup_outcome(game: Any, doc: dict[str, Any]) -> Any:
    """The game's ``SetupOutcome`` from a record's ``setup``; ``SetupRefused`` for a game
    whose setup takes none, or a document of another shape."""
    kind = getattr(game, "SetupOutcome", None)
    try:
        if kind is None:
            raise IllegalMove(
                "no_setup_outcome", f"{game.title} takes no setup outcome; leave 'setup' out"
            )
        try:
            return msgspec.convert(doc, kind, strict=True)
        except msgspec.ValidationError as exc:
            raise IllegalMove("bad_setup", f"not a {game.title} setup outcome: {exc}") from None
    except IllegalMove as exc:
        raise SetupRefused(exc) from None


def run_setup(game: Any, options: Any, players: int, rng: Random, outcome: Any = None) -> list:
    """``game.setup``, dealing ``outcome`` when given (a game's ``SetupOutcome``); an
    impossible one is a :class:`SetupRefused`."""
    if outcome is None:
        return list(game.setup(options, players, rng))
    try:
        return list(game.setup(options, players, rng, outcome=outcome))
    except IllegalMove as exc:
        raise SetupRefused(exc) from None


def play_moves(
    game: Any,
    state: Any,
    moves: Sequence[RecordedMove],
    players: int,
    decode: Callable[[bytes], Any],
    rng_at: Callable[[int], Random],
    version: int,
) -> list[tuple[int, list[Any]]]:
    """Decide every move of a record from ``state`` (the stream at ``version``); returns
    each move's actor and events. ``decode`` turns a move's JSON into the game's move;
    ``rng_at(v)`` is the generator of a decision at version ``v`` (it draws the outcomes a
    record leaves out). Raises :class:`RecordRefused` at the first move refused."""
    played: list[tuple[int, list[Any]]] = []
    for index, recorded in enumerate(moves):
        actor = recorded.actor
        try:
            if not (actor == SYSTEM or 0 <= actor < players):
                raise IllegalMove(
                    "bad_actor",
                    f"an actor is a seat from 0 to {players - 1}, or -1 for the game's own step",
                )
            move = decode(_encoder.encode(recorded.move))
            events = game.decide(state, actor, move, rng_at(version))
        except IronworksError as exc:
            refusal = exc
            if game.result(state) is not None:
                # Each game words a move after its end its own way (``not_playing``,
                # ``game_over``, ``not_now``); a record's reader hears what a live match says.
                refusal = Conflict("match_over", "the game is over: a record ends with its end")
            raise RecordRefused(index, refusal, actor) from None
        for event in events:
            state = game.evolve(state, event)
        version += len(events)
        played.append((actor, events))
    return played


def export_record(service: MatchService, match_id: str) -> Record:
    """The record of a stored match: its start position and every move, with the chance
    outcomes its log shows. Raises ``Conflict("record_unavailable")`` for a log that no
    move of the installed game explains (events of older rules)."""
    stored = service.store.read(match_id)
    if not stored:
        raise NotFound("match_not_found", f"no match {match_id!r}")
    created = core_decoder.decode(stored[0].data)
    assert isinstance(created, MatchCreated)
    game = service.games.get(created.game)
    decoder = decoder_for(game)
    log = [(s, decoder.decode(s.data)) for s in stored if not s.type.startswith(CORE_PREFIX)]
    state = None if created.position is None else game.load_position(created.position)
    at = 0
    while at < len(log) and log[at][0].actor is None:  # the setup's events
        state = game.evolve(state, log[at][1])
        at += 1
    start: dict[str, Any] = {"options": None, "setup": None, "position": None}
    outcome = _setup_of(game, created, [event for _, event in log[:at]])
    if outcome is not None:
        start.update(options=created.options, setup=msgspec.to_builtins(outcome))
    else:  # an independent copy: folding goes on in place
        start["position"] = msgspec.json.decode(_encoder.encode(game.export_position(state)))
    moves: list[RecordedMove] = []
    while at < len(log):
        actor = log[at][0].actor
        move, events = _explain(game, state, actor, log[at:])
        moves.append(RecordedMove(actor=actor, move=msgspec.to_builtins(move)))
        for event in events:
            state = game.evolve(state, event)
        at += len(events)
    return Record(game=created.game, players=created.players, moves=moves, **start)


def _setup_of(game: Any, created: MatchCreated, events: list[Any]) -> Any:
    """The setup outcome a record of this match starts with, or ``None`` when it must start
    from a position: the match started from one, or its game reads no outcome back, or
    the setup with that outcome deals other events than the stored ones (older rules)."""
    read = getattr(game, "setup_outcome", None)
    if created.position is not None or read is None or not events:
        return None
    outcome = read(events)
    try:
        options = msgspec.convert(created.options, game.Options)
        again = game.setup(options, created.players, Random(0), outcome=outcome)
    except (IronworksError, msgspec.ValidationError):
        return None
    if [_encoder.encode(e) for e in again] != [_encoder.encode(e) for e in events]:
        return None
    return outcome


def _explain(
    game: Any, state: Any, actor: int | None, rest: list[tuple[StoredEvent, Any]]
) -> tuple[Any, list[Any]]:
    """The move of ``actor`` on ``state`` whose events are the first ones of ``rest``
    (the longest such, should two moves begin alike), and those events."""
    if actor == SYSTEM:
        outcome = getattr(game, "chance_outcome", None)
        later = [event for _, event in rest]
        candidates = [
            task.move if outcome is None else outcome(state, task.move, later)
            for task in game.pending_tasks(state)
            if task.kind == "system"
        ]
    elif actor is not None:
        candidates = game.legal_moves(state, actor)
    else:
        candidates = []
    best: tuple[Any, list[Any]] | None = None
    for move in candidates:
        try:
            events = game.decide(state, actor, move, Random(0))
        except IllegalMove:
            continue
        if len(events) > len(rest) or (best is not None and len(events) <= len(best[1])):
            continue
        if all(_encoder.encode(e) == s.data for e, (s, _) in zip(events, rest, strict=False)):
            best = (move, events)
    if best is None or not best[1]:
        raise Conflict(
            "record_unavailable",
            f"the log at version {rest[0][0].version} is no move of {game.title} as "
            f"installed (rules version {game.rules_version}); this match has no record",
        )
    return best


__all__ = ["RECORD_FORMAT", "Record", "RecordRefused", "RecordedMove", "SetupRefused",
           "export_record", "play_moves", "run_setup", "setup_outcome"]  # fmt: skip
