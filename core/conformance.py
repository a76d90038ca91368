"""The plugin conformance suite: generic checks every :class:`core.game.Game` must pass.

In the spirit of OpenSpiel's generic game tests, nothing here knows any rules. Seeded random
playouts are driven the way the service drives a match (system tasks run with the SYSTEM
actor, otherwise a random seat with a turn task picks a random listed move), and each
``check_*`` function verifies one property over them, failing with a message that names the
game, the player count, the seed and the step.

It is installed with ironworks, so a plugin author needs no source checkout: run
``ironworks check-plugin GAME`` on an installed game (see :func:`run_checks`), or use it
from any test module::

    from core.conformance import CHECKS, params_for

    @pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
    def test_my_game_conforms(check):
        check(MyGame(), params_for(MyGame()))

Per-game parameters come from ``game.metadata["conformance"]`` (see :class:`Params`), so a
slow game can ask for fewer playouts or fewer probed states. ``metadata["hidden_information"]``
(True or False) says whether the game hides anything; when it is absent, hidden information is
inferred from two viewers ever being shown different redactions of an event (views are not
used for this: they may differ in harmless per-seat conveniences such as "you are seat 2").
With hidden information the suite insists that ``sample_hidden`` really redraws something.

How the leak checks are built, and why they are sound:

* ``view``: a seat cannot tell ``state`` from ``game.sample_hidden(state, seat, rng)``, so
  its view of both must be identical; the spectator sees no more than any seat, so its view
  must survive a resample made for an arbitrary seat. (If ``sample_hidden`` redraws nothing,
  this proves nothing, hence the "it differs at least once" requirement for games with hidden
  information.)
* ``redact``: the log a viewer receives may tell it no more than its sequence of views does.
  At every probed step of a playout we resample the hidden parts for the viewer, apply the same move
  with the same random draws to both states, and whenever the viewer's views of the two
  outcomes are identical (it cannot tell them apart), the redacted events of both must be
  identical too. A second, whole-match twin is played from another seed with the same moves
  for as long as they stay legal; while a viewer's views of the two matches agree step by
  step, its redacted logs must agree. A redaction that leaks another seat's hidden data makes
  two indistinguishable histories look different and fails. (An event that shows something
  only for a moment, never reflected in any view, would be flagged too; such a game should
  keep the shown thing in its view.)

Conventions checked that the Game docstrings leave implicit: a seat has legal moves exactly
when ``pending_tasks`` lists a turn task for it; rankings are competition style (a seat's
place is 1 + the number of seats strictly ahead of it, so ties share a place and the next
place is skipped); ``evolve`` never modifies the event it applies and leaves the state sharing
no mutable object with it, because the same event objects are folded again by replays and by
bots' playouts; moves and events survive a JSON round trip through ``Move``/``Event``.
"""

from __future__ import annotations

import copy
import hashlib
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any, get_args

import msgspec

from core.errors import IllegalMove, InvalidPosition
from core.game import SYSTEM, Result, Task
from core.playout import advance
from core.rng import decision_rng

Viewer = int | None


class Params(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """How hard to run the suite on one game; set in ``game.metadata["conformance"]``."""

    players: list[int] | None = None
    """Player counts to test; default every count from min_players to max_players."""
    playouts: int = 2
    """Seeded random playouts per player count."""
    max_moves: int = 2000
    """A playout that has not ended after this many decisions fails."""
    seed: int = 0
    """Playout ``i`` uses seed ``seed + i``."""
    options: dict[str, Any] = {}
    """Match options for the playouts (converted to ``game.Options``)."""
    states_per_playout: int = 200
    """The expensive per-state checks probe at most about this many states of a playout,
    evenly spaced (the final state always among them)."""
    moves_per_state: int = 16
    """Listed moves decided per probed state and seat (a random sample when there are more)."""
    unlisted_per_state: int = 16
    """Unlisted move candidates tried per probed state."""
    empty_decisions: bool = False
    """The game documents accepted moves that produce no events."""


def params_for(game: Any) -> Params:
    raw = getattr(game, "metadata", {}).get("conformance", {})
    try:
        return msgspec.convert(raw, Params)
    except msgspec.ValidationError as exc:
        raise AssertionError(f"{game.id}: bad metadata['conformance']: {exc}") from None


# --- playouts -------------------------------------------------------------------------------


@dataclass
class Step:
    actor: int
    """A seat, or SYSTEM."""
    move: Any
    events: list[Any]


@dataclass
class Playout:
    game: Any
    players: int
    seed: int
    options: Any
    setup_events: list[Any]
    steps: list[Step] = field(default_factory=list)
    ended: bool = False
    final: dict[str, Any] | None = None
    """``export_position`` of the live state at the end."""

    @property
    def label(self) -> str:
        return f"{self.game.id} players={self.players} seed={self.seed}"

    def events(self) -> list[Any]:
        return self.setup_events + [ev for step in self.steps for ev in step.events]

    def states(self) -> Iterator[tuple[int, Any]]:
        """``(i, state before step i)`` for every step, then ``(len(steps), final state)``.

        One state object is folded forward: use each before asking for the next.
        """
        state = fold(self.game, self.setup_events)
        for i, step in enumerate(self.steps):
            yield i, state
            state = fold(self.game, step.events, state)
        yield len(self.steps), state


class PlayoutFailed(AssertionError):
    pass


def fold(game: Any, events: list[Any], state: Any = None) -> Any:
    for event in events:
        state = game.evolve(state, event)
    return state


def step_rng(seed: int, step: int) -> Random:
    return decision_rng(f"conformance-{seed}", step)


def setup_rng(seed: int) -> Random:
    return decision_rng(f"conformance-{seed}", 0, "setup")


def choose(game: Any, state: Any, rng: Random) -> tuple[int, Any] | None:
    """The next decision the service would make: a system task first, else a random seat
    with a turn task picks a random listed move. ``None`` when nothing is pending."""
    tasks: list[Task] = game.pending_tasks(state)
    if not tasks:
        return None
    system = [t for t in tasks if t.kind == "system"]
    if system:
        return SYSTEM, rng.choice(system).move
    seat = rng.choice(sorted({t.seat for t in tasks}))
    legal = game.legal_moves(state, seat)
    if not legal:
        raise PlayoutFailed(f"seat {seat} has a turn task but no legal moves")
    return seat, rng.choice(legal)


def play(game: Any, players: int, seed: int, params: Params) -> Playout:
    label = f"{game.id} players={players} seed={seed}"
    try:
        options = msgspec.convert(params.options, game.Options)
        setup_events = game.setup(options, players, setup_rng(seed))
    except Exception as exc:
        raise PlayoutFailed(
            f"{label}: setup failed with options {params.options}: {type(exc).__name__}: {exc} "
            "(metadata['conformance'] can choose the player counts and options to test)"
        ) from None
    out = Playout(game, players, seed, options, list(setup_events))
    state = fold(game, setup_events)
    picker = Random(f"conformance-choices-{seed}")
    for i in range(params.max_moves + 1):
        try:
            decision = choose(game, state, picker)
        except PlayoutFailed as exc:
            raise PlayoutFailed(f"{out.label} step {i}: {exc}") from None
        except Exception as exc:
            raise PlayoutFailed(
                f"{out.label} step {i}: pending_tasks or legal_moves raised "
                f"{type(exc).__name__}: {exc}"
            ) from None
        if decision is None:
            out.ended = True
            break
        if i == params.max_moves:
            break
        actor, move = decision
        try:
            events = game.decide(state, actor, move, step_rng(seed, i))
        except IllegalMove as exc:
            raise PlayoutFailed(
                f"{out.label} step {i}: decide refused {move!r} by actor {actor}, which "
                f"pending_tasks/legal_moves offered: {exc.code}: {exc.message}"
            ) from None
        except Exception as exc:
            raise PlayoutFailed(
                f"{out.label} step {i}: decide({move!r}) by actor {actor} raised "
                f"{type(exc).__name__}: {exc}"
            ) from None
        out.steps.append(Step(actor, move, list(events)))
        try:
            state = fold(game, events, state)
        except Exception as exc:
            raise PlayoutFailed(
                f"{out.label} step {i}: evolve raised on the events of {move!r}: "
                f"{type(exc).__name__}: {exc}"
            ) from None
    out.final = game.export_position(state)
    return out


_PLAYOUTS: dict[tuple[int, int, int, bytes], tuple[Any, Playout | PlayoutFailed]] = {}


def playouts(game: Any, params: Params) -> list[Playout]:
    """The seeded playouts for ``params``, cached because several checks walk the same ones
    (keyed by the game object's id, since games need not be hashable; the entry keeps the
    game alive, so the id cannot be reused)."""
    counts = params.players or list(range(game.min_players, game.max_players + 1))
    key = msgspec.json.encode(params)
    out = []
    for n in counts:
        for seed in range(params.seed, params.seed + params.playouts):
            entry = _PLAYOUTS.get((id(game), n, seed, key))
            if entry is None:
                try:
                    entry = (game, play(game, n, seed, params))
                except PlayoutFailed as exc:
                    entry = (game, exc)
                _PLAYOUTS[(id(game), n, seed, key)] = entry
            cached = entry[1]
            if isinstance(cached, PlayoutFailed):
                raise PlayoutFailed(f"random playout failed: {cached}")
            out.append(cached)
    return out


def probed(playout: Playout, params: Params) -> Iterator[tuple[int, Any]]:
    """The states the expensive checks look at (see ``Params.states_per_playout``)."""
    stride = max(1, -(-len(playout.steps) // max(1, params.states_per_playout)))
    for i, state in playout.states():
        if i % stride == 0 or i == len(playout.steps):
            yield i, state


def viewers(players: int) -> list[Viewer]:
    return [*range(players), None]


def norm(value: Any) -> Any:
    """``value`` as it looks after a JSON round trip (tuples become lists, and so on)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def export(game: Any, state: Any) -> bytes:
    """A state's position document, canonically encoded for equality tests."""
    return msgspec.json.encode(game.export_position(state), order="sorted")


# --- checks ---------------------------------------------------------------------------------


def check_playouts_reach_the_end(game: Any, params: Params) -> None:
    """Every playout ends within the move cap with a valid result, and at every state the
    tasks agree with the legal moves."""
    for p in playouts(game, params):
        assert p.ended, (
            f"{p.label}: no result after {params.max_moves} decisions; raise "
            f"metadata['conformance']['max_moves'] if the game is simply long"
        )
        for i, state in p.states():
            where = f"{p.label} step {i}"
            tasks = game.pending_tasks(state)
            turn_seats = {t.seat for t in tasks if t.kind == "turn"}
            for task in tasks:
                assert isinstance(task, Task), f"{where}: pending_tasks returned {task!r}"
                if task.kind == "turn":
                    assert isinstance(task.seat, int) and 0 <= task.seat < p.players, (
                        f"{where}: turn task for a seat that does not exist: {task!r}"
                    )
                else:
                    _assert_system_move_accepted(game, state, task.move, where)
            for seat in range(p.players):
                legal = game.legal_moves(state, seat)
                assert bool(legal) == (seat in turn_seats), (
                    f"{where}: seat {seat} has {len(legal)} legal moves but "
                    f"{'a' if seat in turn_seats else 'no'} turn task"
                )
            result = game.result(state)
            if i < len(p.steps):
                assert result is None, f"{where}: result() is set while tasks are pending"
            else:
                assert not tasks, f"{where}: tasks pending at the end: {tasks!r}"
                _assert_valid_result(result, p.players, where)


def _assert_system_move_accepted(game: Any, state: Any, move: Any, where: str) -> None:
    assert move is not None, f"{where}: a system task without a move"
    _assert_move_round_trips(game, move, where)
    before = export(game, state)
    try:
        game.decide(state, SYSTEM, move, Random(0))
    except IllegalMove as exc:
        raise AssertionError(
            f"{where}: decide refused the pending system move {move!r}: {exc.code}"
        ) from None
    assert export(game, state) == before, f"{where}: decide({move!r}) changed the state"


def _assert_valid_result(result: Result | None, players: int, where: str) -> None:
    assert isinstance(result, Result), f"{where}: the match is over but result() is {result!r}"
    assert len(result.scores) == players, f"{where}: {players} seats, scores {result.scores}"
    assert all(isinstance(s, int) for s in result.scores), f"{where}: scores {result.scores}"
    ranking = result.ranking
    assert len(ranking) == players, f"{where}: {players} seats, ranking {ranking}"
    expected = [1 + sum(other < mine for other in ranking) for mine in ranking]
    assert ranking == expected and min(ranking) == 1, (
        f"{where}: ranking {ranking} is not places from 1 with shared ties"
    )
    msgspec.json.encode(result)


def check_replay_gives_the_live_state(game: Any, params: Params) -> None:
    """Folding the log from nothing, also after a JSON or msgpack round trip of every event
    and from a pickled snapshot, gives the state the playout reached."""
    json_dec = msgspec.json.Decoder(game.Event)
    pack_dec = msgspec.msgpack.Decoder(game.Event)
    for p in playouts(game, params):
        events = p.events()
        live = norm(p.final)
        assert _replayed(game, events, p.label) == live, (
            f"{p.label}: folding the log again gives another state"
        )
        via_json = []
        for event in events:
            decoded = json_dec.decode(msgspec.json.encode(event))
            assert decoded == event, f"{p.label}: {event!r} changes in a JSON round trip"
            via_json.append(decoded)
        assert _replayed(game, via_json, p.label) == live, (
            f"{p.label}: folding the JSON-decoded log gives another state (does evolve keep "
            "references into events, or decide return the state's own objects?)"
        )
        via_pack = [pack_dec.decode(msgspec.msgpack.encode(ev)) for ev in events]
        assert _replayed(game, via_pack, p.label) == live, (
            f"{p.label}: folding the msgpack-decoded log gives another state"
        )
        # The service's snapshots are pickles of a folded state, folded on from there.
        half = len(events) // 2
        snapshot = pickle.loads(pickle.dumps(fold(game, via_json[:half])))
        resumed = fold(game, via_json[half:], snapshot)
        assert norm(game.export_position(resumed)) == live, (
            f"{p.label}: a state pickled after {half} events and folded on differs"
        )


def _replayed(game: Any, events: list[Any], label: str) -> Any:
    """The normalised position after folding ``events`` from nothing."""
    try:
        return norm(game.export_position(fold(game, events)))
    except Exception as exc:
        raise AssertionError(
            f"{label}: folding the log again raised {type(exc).__name__}: {exc} (does evolve "
            "keep references into events, or decide return the state's own objects?)"
        ) from None


def check_listed_moves_accepted(game: Any, params: Params) -> None:
    """Every listed move is accepted without touching the state, its events evolve cleanly,
    and it survives the API's JSON round trip."""
    for p in playouts(game, params):
        rng = Random(f"listed-{p.seed}")
        for i, state in probed(p, params):
            before = export(game, state)
            for seat in range(p.players):
                where = f"{p.label} step {i} seat {seat}"
                legal = game.legal_moves(state, seat)
                assert len({msgspec.json.encode(m) for m in legal}) == len(legal), (
                    f"{where}: legal_moves lists a move twice"
                )
                for move in _sample(legal, params.moves_per_state, rng):
                    _assert_move_round_trips(game, move, where)
                    try:
                        events = game.decide(state, seat, move, step_rng(p.seed, i))
                    except IllegalMove as exc:
                        raise AssertionError(
                            f"{where}: decide refused listed move {move!r}: {exc.code}: "
                            f"{exc.message}"
                        ) from None
                    assert export(game, state) == before, (
                        f"{where}: decide({move!r}) changed the state it was given"
                    )
                    _assert_json(events, f"{where}: events of {move!r}")


def check_decided_events_evolve(game: Any, params: Params) -> None:
    """Whatever decide returns for an accepted move (listed or system) is a non-empty list
    of events that evolve applies without raising; a game with ``decide_evolved`` returns
    the same events with it, and a new state equal to their fold, leaving its own alone."""
    for p in playouts(game, params):
        rng = Random(f"evolve-{p.seed}")
        for i, state in probed(p, params):
            offered = [(SYSTEM, t.move) for t in game.pending_tasks(state) if t.kind == "system"]
            for seat in range(p.players):
                legal = game.legal_moves(state, seat)
                offered += [(seat, m) for m in _sample(legal, params.moves_per_state, rng)]
            for actor, move in offered:
                where = f"{p.label} step {i} actor {actor} move {move!r}"
                events = game.decide(state, actor, move, step_rng(p.seed, i))
                assert isinstance(events, list), f"{where}: decide returned {events!r}"
                assert events or params.empty_decisions, (
                    f"{where}: decide accepted the move but returned no events (set "
                    "metadata['conformance']['empty_decisions'] if that is documented)"
                )
                folded = _assert_events_evolve(game, state, events, where)
                if hasattr(game, "decide_evolved"):
                    _assert_decide_evolved_agrees(
                        game, state, actor, move, step_rng(p.seed, i), events, folded, where
                    )


def _assert_decide_evolved_agrees(
    game: Any, state: Any, actor: int, move: Any, rng: Random, events: list[Any], folded: Any,
    where: str,
) -> None:  # fmt: skip
    before = export(game, state)
    got, after = game.decide_evolved(state, actor, move, rng)
    assert got == events, f"{where}: decide_evolved's events {got!r} differ from decide's"
    assert after is not state, f"{where}: decide_evolved returned the state it was given"
    assert export(game, state) == before, f"{where}: decide_evolved changed the state given"
    assert export(game, after) == export(game, folded), (
        f"{where}: decide_evolved's state differs from its events folded by evolve"
    )


def _assert_move_round_trips(game: Any, move: Any, where: str) -> None:
    try:
        back = msgspec.json.decode(msgspec.json.encode(move), type=game.Move)
    except (msgspec.DecodeError, TypeError) as exc:
        raise AssertionError(f"{where}: move {move!r} fails a JSON round trip: {exc}") from None
    assert back == move, f"{where}: move {move!r} comes back from JSON as {back!r}"


def _assert_events_evolve(game: Any, state: Any, events: list[Any], where: str) -> Any:
    """The state ``events`` folded onto a copy of ``state`` give."""
    scratch = copy.deepcopy(state)
    for event in events:
        assert isinstance(event, get_args(game.Event) or game.Event), (
            f"{where}: decide produced {event!r}, which is not one of the game's Event types"
        )
        try:
            scratch = game.evolve(scratch, event)
        except Exception as exc:
            raise AssertionError(
                f"{where}: evolve raised on {event!r}, which decide produced: "
                f"{type(exc).__name__}: {exc}"
            ) from None
    return scratch


def check_unlisted_moves_refused(game: Any, params: Params) -> None:
    """Moves that are not listed for a seat are refused with IllegalMove (a code and a
    sentence), never another exception, and refusing leaves the state alone.

    Candidates for a seat: other seats' listed moves and pending system moves, moves listed
    at earlier states but not now, and field mutations of its listed moves. For the SYSTEM
    actor: system moves pending earlier but not now (a late or duplicated job) and mutations
    of the pending ones.
    """
    for p in playouts(game, params):
        rng = Random(f"unlisted-{p.seed}")
        seen: dict[bytes, Any] = {}
        seen_system: dict[bytes, Any] = {}
        for i, state in probed(p, params):
            before = export(game, state)
            legal = {seat: game.legal_moves(state, seat) for seat in range(p.players)}
            legal[SYSTEM] = [t.move for t in game.pending_tasks(state) if t.kind == "system"]
            pool = [m for moves in legal.values() for m in moves]
            candidates: list[tuple[int, Any]] = []
            k = params.unlisted_per_state
            for actor, moves in legal.items():
                listed = {msgspec.json.encode(m) for m in moves}
                others = seen_system.values() if actor == SYSTEM else [*pool, *seen.values()]
                mine: list[Any] = _sample(list(others), 4 * k, rng)
                for move in _sample(moves, k, rng):
                    mine += mutations(move)
                for move in mine:
                    key = msgspec.json.encode(move)
                    if key not in listed and _decodes(game, key):
                        candidates.append((actor, move))
            for actor, move in _sample(candidates, params.unlisted_per_state, rng):
                where = f"{p.label} step {i} actor {actor}"
                try:
                    events = game.decide(state, actor, move, step_rng(p.seed, i))
                except IllegalMove as exc:
                    assert exc.code and exc.message and exc.message != exc.code, (
                        f"{where}: refusal of {move!r} needs a code and a sentence, got "
                        f"{exc.code!r}: {exc.message!r}"
                    )
                except Exception as exc:
                    raise AssertionError(
                        f"{where}: unlisted move {move!r} raised {type(exc).__name__}: {exc} "
                        "instead of IllegalMove"
                    ) from None
                else:
                    raise AssertionError(
                        f"{where}: decide accepted unlisted move {move!r} -> {events!r}"
                    )
                assert export(game, state) == before, (
                    f"{where}: refusing {move!r} changed the state"
                )
            for move in pool:
                seen.setdefault(msgspec.json.encode(move), move)
            for move in legal[SYSTEM]:
                seen_system.setdefault(msgspec.json.encode(move), move)
            for kept in (seen, seen_system):
                while len(kept) > 64:
                    kept.pop(next(iter(kept)))


def _decodes(game: Any, data: bytes) -> bool:
    """Whether the API would let this move through to ``decide`` at all."""
    try:
        msgspec.json.decode(data, type=game.Move)
    except msgspec.ValidationError:
        return False
    return True


def mutations(move: Any, depth: int = 2) -> list[Any]:
    """Variants of a move Struct with one field changed: ints moved by one and out of
    range, strings made junk, lists shortened or emptied, flags flipped, nested Structs
    mutated in turn."""
    out: list[Any] = []
    if depth == 0 or not isinstance(move, msgspec.Struct):
        return out
    for name in move.__struct_fields__:
        value = getattr(move, name)
        for new in _field_variants(value, depth):
            try:
                out.append(msgspec.structs.replace(move, **{name: new}))
            except (TypeError, ValueError):
                continue
    return out


def _field_variants(value: Any, depth: int) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, -1, 10**6]
    if isinstance(value, str):
        return ["", "no-such-thing"]
    if isinstance(value, list | tuple):
        variants: list[Any] = [type(value)()] if value else []
        if len(value) > 1:
            variants.append(value[:-1])
        if value:
            variants.append(type(value)([*value, value[-1]]))
            variants += [type(value)([v, *value[1:]]) for v in _field_variants(value[0], depth)]
        return variants
    if isinstance(value, msgspec.Struct):
        return mutations(value, depth - 1)
    if value is None:
        return [0, ""]
    return []


def check_hidden_information_stays_hidden(game: Any, params: Params) -> None:
    """``view`` cannot tell a state from its resample for the viewer, and view and redact
    give JSON documents; games with hidden information really resample something."""
    declared = getattr(game, "metadata", {}).get("hidden_information")
    for p in playouts(game, params):
        rng = Random(f"hidden-{p.seed}")
        hidden = bool(declared)
        resampled_differs = False
        for i, state in probed(p, params):
            before = export(game, state)
            views = {v: game.view(state, v) for v in viewers(p.players)}
            for v, seen in views.items():
                _assert_json(seen, f"{p.label} step {i}: view for {v}")
            for v in viewers(p.players):
                where = f"{p.label} step {i} viewer {v}"
                seat = v if v is not None else rng.randrange(p.players)
                other = game.sample_hidden(state, seat, rng)
                assert export(game, state) == before, f"{where}: sample_hidden changed the state"
                assert other is not state, f"{where}: sample_hidden returned the state itself"
                if export(game, other) != before:
                    resampled_differs = True
                assert norm(game.view(other, v)) == norm(views[v]), (
                    f"{where}: the view changes when hidden parts are redrawn for seat {seat}: "
                    "it shows something this viewer may not see"
                )
        for event in p.events():
            shown = [game.redact(event, v) for v in viewers(p.players)]
            for v, redacted in zip(viewers(p.players), shown, strict=True):
                _assert_json(redacted, f"{p.label}: redact({event!r}, {v})")
            if declared is None and any(norm(r) != norm(shown[0]) for r in shown):
                hidden = True  # viewers get different log entries: something is hidden
        if hidden:
            assert resampled_differs, (
                f"{p.label}: the game has hidden information (metadata['hidden_information'] "
                "or log entries that differ between viewers) but sample_hidden never redrew "
                "anything, so the view check proved nothing"
            )


def check_search_hooks_see_only_the_view(game: Any, params: Params) -> None:
    """The search bot's hooks, where a game has them (see :mod:`core.game`):
    ``determinize`` rebuilds a state the seat cannot tell from the real one, from the view
    alone (the same view and rng give the same state whatever the hidden truth was), and it
    plays on; ``clone`` copies without sharing; ``evaluate`` scores every seat."""
    determinize = getattr(game, "determinize", None)
    clone = getattr(game, "clone", None)
    evaluate = getattr(game, "evaluate", None)
    if determinize is None and clone is None and evaluate is None:
        return
    for p in playouts(game, params):
        rng = Random(f"search-{p.seed}")
        for i, state in probed(p, params):
            where = f"{p.label} step {i}"
            before = export(game, state)
            if evaluate is not None:
                values = evaluate(state)
                assert len(values) == p.players and all(
                    isinstance(x, int | float) and x == x for x in values
                ), f"{where}: evaluate gave {values!r}, not one number per seat"
            if clone is not None:
                copied = clone(state)
                assert copied is not state and export(game, copied) == before, (
                    f"{where}: clone is not an equal copy"
                )
                _play_on(game, copied, rng, 3, where)
                assert export(game, state) == before, f"{where}: playing a clone changed it"
            if determinize is None:
                continue
            for seat in range(p.players):
                seen = game.view(state, seat)
                seed = rng.random()
                det = determinize(copy.deepcopy(seen), Random(seed))
                assert export(game, state) == before, f"{where}: determinize changed the state"
                assert norm(game.view(det, seat)) == norm(seen), (
                    f"{where}: seat {seat}'s view of its determinization differs from its view"
                )
                assert norm(game.legal_moves(det, seat)) == norm(game.legal_moves(state, seat)), (
                    f"{where}: seat {seat} has other legal moves in its determinization"
                )
                twin = game.sample_hidden(state, seat, rng)
                again = determinize(game.view(twin, seat), Random(seed))
                assert export(game, again) == export(game, det), (
                    f"{where}: determinize for seat {seat} depends on hidden parts of the state"
                )
                _play_on(game, det, rng, 3, where)


def _play_on(game: Any, state: Any, rng: Random, steps: int, where: str) -> None:
    """A few steps of random play from ``state``: it must be a state the rules accept."""

    def choose(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        assert legal, f"{where}: seat {seat} has a turn but no legal move"
        return legal[rng.randrange(len(legal))]

    advance(game, state, rng, steps, choose)


def _assert_json(value: Any, where: str) -> None:
    try:
        msgspec.json.encode(value)
    except (TypeError, msgspec.EncodeError) as exc:
        raise AssertionError(f"{where}: not JSON-encodable: {exc}") from None


def check_redact_leaks_nothing_a_view_hides(game: Any, params: Params) -> None:
    """Two histories a viewer cannot tell apart through its views give it the same redacted
    events (see the module docstring for why this is sound)."""
    for p in playouts(game, params):
        _check_one_step_twins(game, p, params)
        _check_twin_match(game, p)


def _check_one_step_twins(game: Any, p: Playout, params: Params) -> None:
    rng = Random(f"redact-{p.seed}")
    for i, state in probed(p, params):
        if i == len(p.steps):
            break
        step = p.steps[i]
        after = fold(game, step.events, copy.deepcopy(state))
        for v in viewers(p.players):
            twin = game.sample_hidden(state, v if v is not None else rng.randrange(p.players), rng)
            if not _offered(game, twin, step.actor, step.move):
                continue
            events = game.decide(twin, step.actor, step.move, step_rng(p.seed, i))
            twin_after = fold(game, events, twin)
            if norm(game.view(twin_after, v)) != norm(game.view(after, v)):
                continue
            mine = [norm(game.redact(e, v)) for e in step.events]
            theirs = [norm(game.redact(e, v)) for e in events]
            assert mine == theirs, (
                f"{p.label} step {i} viewer {v}: {step.move!r} by {step.actor} gives events "
                f"redacted differently in two states this viewer cannot tell apart: {mine!r} "
                f"vs {theirs!r}"
            )


def _offered(game: Any, state: Any, actor: int, move: Any) -> bool:
    if actor == SYSTEM:
        return any(t.kind == "system" and t.move == move for t in game.pending_tasks(state))
    return move in game.legal_moves(state, actor)


def _check_twin_match(game: Any, p: Playout) -> None:
    """Replay the playout's moves in a match set up from another seed, drawing other random
    numbers, for as long as the moves stay legal there."""
    twin_seed = p.seed + 10_007
    ours = p.setup_events
    theirs = game.setup(p.options, p.players, setup_rng(twin_seed))
    state, twin = fold(game, ours), fold(game, theirs)
    blind = set(viewers(p.players))  # viewers that could not tell the matches apart so far
    for i in range(len(p.steps) + 1):
        for v in list(blind):
            if norm(game.view(state, v)) != norm(game.view(twin, v)):
                blind.discard(v)
                continue
            mine = [norm(game.redact(e, v)) for e in ours]
            other = [norm(game.redact(e, v)) for e in theirs]
            assert mine == other, (
                f"{p.label} twin from seed {twin_seed}, step {i}, viewer {v}: the views agree "
                f"but the redacted events differ: {mine!r} vs {other!r}"
            )
        if i == len(p.steps) or not blind:
            return
        step = p.steps[i]
        if not _offered(game, twin, step.actor, step.move):
            return
        ours = step.events
        theirs = game.decide(twin, step.actor, step.move, step_rng(twin_seed, i))
        state = fold(game, ours, state)
        twin = fold(game, theirs, twin)


def check_positions_round_trip(game: Any, params: Params) -> None:
    """A position document survives JSON and ``load_position``, and the loaded state
    behaves like the original; corrupted documents raise InvalidPosition only."""
    for p in playouts(game, params):
        rng = Random(f"positions-{p.seed}")
        for i, state in probed(p, params):
            where = f"{p.label} step {i}"
            doc = norm(game.export_position(state))
            try:
                loaded = game.load_position(copy.deepcopy(doc))
            except InvalidPosition as exc:
                raise AssertionError(
                    f"{where}: load_position refused a real position: {exc.code}: {exc.message}"
                ) from None
            assert norm(game.export_position(loaded)) == doc, (
                f"{where}: export_position(load_position(doc)) differs from doc"
            )
            assert norm(game.pending_tasks(loaded)) == norm(game.pending_tasks(state)), (
                f"{where}: a loaded position has other pending tasks"
            )
            assert norm(game.result(loaded)) == norm(game.result(state)), (
                f"{where}: a loaded position has another result"
            )
            for v in viewers(p.players):
                assert norm(game.view(loaded, v)) == norm(game.view(state, v)), (
                    f"{where}: a loaded position shows viewer {v} another view"
                )
                if v is not None:
                    assert norm(game.legal_moves(loaded, v)) == norm(game.legal_moves(state, v)), (
                        f"{where}: a loaded position offers seat {v} other moves"
                    )
            for label, bad, must_refuse in _sample(corruptions(doc), 12, rng):
                _assert_corruption_handled(game, bad, must_refuse, f"{where}: {label}")


def corruptions(doc: Any) -> list[tuple[str, Any, bool]]:
    """Broken variants of a position document: ``(what, document, must be refused)``.

    A dropped key may have a default, so it need only not crash; a value of the wrong type
    must be refused.
    """
    out: list[tuple[str, Any, bool]] = [
        ("not an object", [], True),
        ("a string", "position", True),
    ]
    if not isinstance(doc, dict):
        return out
    for key, value in doc.items():
        out.append((f"without {key!r}", {k: v for k, v in doc.items() if k != key}, False))
        out.append((f"{key!r} of the wrong type", {**doc, key: _wrong_type(value)}, True))
        if isinstance(value, dict):
            for inner, inner_value in value.items():
                changed = {**value, inner: _wrong_type(inner_value)}
                out.append((f"{key}.{inner} of the wrong type", {**doc, key: changed}, True))
        if isinstance(value, list) and value:
            changed_list = [_wrong_type(value[0]), *value[1:]]
            out.append((f"{key}[0] of the wrong type", {**doc, key: changed_list}, True))
    return out


def _wrong_type(value: Any) -> Any:
    if isinstance(value, str):
        return {"not": "a string"}
    if isinstance(value, list):
        return "not a list"
    if isinstance(value, dict):
        return ["not", "an", "object"]
    return "not a number"


def _assert_corruption_handled(game: Any, bad: Any, must_refuse: bool, where: str) -> None:
    try:
        game.load_position(bad)
    except InvalidPosition as exc:
        assert exc.code and exc.message, f"{where}: InvalidPosition without code or message"
        return
    except Exception as exc:
        raise AssertionError(
            f"{where}: load_position raised {type(exc).__name__}: {exc} instead of InvalidPosition"
        ) from None
    assert not must_refuse, f"{where}: load_position accepted it"


def check_same_seed_same_log(game: Any, params: Params) -> None:
    """Setup and decide are functions of the seed and the moves: replaying a playout's
    moves with the same seeds gives a byte-identical log."""
    enc = msgspec.json.Encoder()

    def same(first: list[Any], again: list[Any], where: str) -> None:
        assert [enc.encode(e) for e in first] == [enc.encode(e) for e in again], (
            f"{where}: the same seed and moves gave another event log: {first!r} vs {again!r}"
        )

    for p in playouts(game, params):
        setup = game.setup(p.options, p.players, setup_rng(p.seed))
        same(p.setup_events, setup, f"{p.label} setup")
        state = fold(game, setup)
        for i, step in enumerate(p.steps):
            try:
                events = game.decide(state, step.actor, step.move, step_rng(p.seed, i))
            except IllegalMove as exc:
                raise AssertionError(
                    f"{p.label} step {i}: the same seed and moves gave another event log: "
                    f"{step.move!r} is refused the second time ({exc.code})"
                ) from None
            same(step.events, events, f"{p.label} step {i}")
            state = fold(game, events, state)


def check_log_independent_of_hash_seed(game: Any, params: Params) -> None:
    """The log does not depend on Python's string hash seed (set or dict-of-set iteration
    order leaking into events). Runs one playout in two fresh interpreters."""
    first = playouts(game, params)[0]
    where = f"{type(game).__module__}:{type(game).__qualname__}"
    args = [
        where,
        game.id,
        str(first.players),
        str(first.seed),
        msgspec.json.encode(params).decode(),
    ]
    digests = {_digest_in_subprocess(args, hash_seed) for hash_seed in ("1", "2")}
    assert len(digests) == 1, (
        f"{game.id}: the same seed gives other logs under other PYTHONHASHSEEDs "
        "(iterating a set or hashing strings somewhere in setup/decide?)"
    )


def _digest_in_subprocess(args: list[str], hash_seed: str) -> str:
    # The child imports what this process can: the same path, whatever put the game on it,
    # led by the folder the game's module was imported from, so that the names it imports
    # (a test module's ``conftest``, say) resolve there as they did here.
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    env["PYTHONPATH"] = os.pathsep.join([*_import_root(args[0]), *(p for p in sys.path if p)])
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; from core import conformance; conformance._digest_main(sys.argv[1:])",
         *args],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, f"digest subprocess failed:\n{done.stderr[-2000:]}"
    return done.stdout.strip()


def _import_root(where: str) -> list[str]:
    """The folder on the path that the module of ``module:qualname`` was imported from."""
    name = where.partition(":")[0]
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    if not file:
        return []
    root = Path(file).resolve().parent
    if Path(file).name == "__init__.py":
        root = root.parent
    for _ in range(name.count(".")):
        root = root.parent
    return [str(root)]


def _digest_main(argv: list[str]) -> None:
    where, game_id, players, seed, params_json = argv
    game = _import_game(where, game_id)
    params = msgspec.json.decode(params_json, type=Params)
    p = play(game, int(players), int(seed), params)
    enc = msgspec.json.Encoder()
    print(hashlib.sha256(b"".join(enc.encode(e) + b"\n" for e in p.events())).hexdigest())


def _import_game(where: str, game_id: str) -> Any:
    """The game class at ``module:qualname``, made with no arguments; failing that, the
    installed game with that id."""
    import importlib

    from core.registry import default_registry

    module, _, qualname = where.partition(":")
    try:
        target: Any = importlib.import_module(module)
        for part in qualname.split("."):
            target = getattr(target, part)
        return target()
    except Exception:
        return default_registry().get(game_id)


def _sample(items: list[Any], k: int, rng: Random) -> list[Any]:
    return items if len(items) <= k else rng.sample(items, k)


CHECKS: list[Callable[[Any, Params], None]] = [
    check_playouts_reach_the_end,
    check_replay_gives_the_live_state,
    check_listed_moves_accepted,
    check_unlisted_moves_refused,
    check_decided_events_evolve,
    check_hidden_information_stays_hidden,
    check_search_hooks_see_only_the_view,
    check_redact_leaks_nothing_a_view_hides,
    check_positions_round_trip,
    check_same_seed_same_log,
    check_log_independent_of_hash_seed,
]
"""Every check, in the order a failing game is best debugged in."""


def run_checks(game: Any, params: Params, report: Callable[[str], None] = print) -> bool:
    """Every check on ``game``, each reported as it ends (``ok`` or ``FAIL`` with the
    reason); whether all passed. What ``ironworks check-plugin`` runs."""
    import time

    passed = True
    for check in CHECKS:
        name = check.__name__.removeprefix("check_")
        started = time.perf_counter()
        try:
            check(game, params)
        except AssertionError as exc:
            passed = False
            report(f"FAIL {name}: {exc}")
            continue
        except Exception as exc:  # a crash in the game is a failure of the check too
            passed = False
            report(f"FAIL {name}: {type(exc).__name__}: {exc}")
            continue
        report(f"ok   {name} ({time.perf_counter() - started:.1f} s)")
    return passed
