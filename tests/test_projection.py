"""Projections: the live states and the stored snapshots must give exactly the state a full
replay gives, must let a read fold only the events that came after them, and must never be
trusted past what the store confirms."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from random import Random
from typing import Any

import msgspec
import pytest
from conftest import installed_game_ids
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import BadRequest, VersionConflict
from core.events import Snapshot, StoredEvent
from core.live import Snapshots, snapshot_format
from core.match import CORE_PREFIX, MatchState, fold
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from worker.inprocess import InlineRunner


class CountingStore(MemoryStore):
    """Remembers every read as ``(after, events returned)``."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[tuple[int, list[StoredEvent]]] = []

    def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        events = super().read(stream_id, after, limit)
        self.reads.append((after, events))
        return events


def make_service(registry: GameRegistry, every: int) -> tuple[MatchService, CountingStore]:
    store = CountingStore()
    runner = InlineRunner()  # deals (system tasks) run as soon as they are due
    service = MatchService(store, registry, runner, snapshot_every=every)
    runner.bind(service)
    return service, store


def document(service: MatchService, match: MatchState) -> dict[str, Any]:
    """Everything a folded match holds, with the game state as its position document."""
    doc = msgspec.to_builtins(msgspec.structs.replace(match, game_state=None))
    doc["position"] = service.game_of(match).export_position(match.game_state)
    return doc


def play(service: MatchService, match_id: str, rng: Random, before_move: Callable[[], None]) -> int:
    """Claim every seat and play random legal moves to the end, calling ``before_move``
    before each one and once at the end. Returns the number of moves played."""
    match = service.load(match_id)
    tokens = [service.claim_seat(match_id, seat) for seat in range(match.players)]
    moves = 0
    while True:
        before_move()
        match = service.load(match_id)
        turns = [t.seat for t in service.tasks(match) if t.kind == "turn"]
        if not turns:
            return moves
        seat = turns[0]
        assert seat is not None
        move = rng.choice(service.legal_moves(match, seat))
        service.submit(match_id, tokens[seat], move, match.version)
        moves += 1


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    every=st.integers(1, 7),
    players=st.integers(2, 4),
    rounds=st.integers(1, 4),
    hand_size=st.integers(1, 3),
)
def test_snapshot_path_and_full_replay_give_the_same_state(
    registry: GameRegistry, seed: int, every: int, players: int, rounds: int, hand_size: int
) -> None:
    service, store = make_service(registry, every)
    options = {"rounds": rounds, "hand_size": hand_size}
    match_id = service.create_match("highcard", players, options, seed=str(seed)).match_id
    rng = Random(seed)

    def compare() -> None:
        # The live state, then a cold load from the stored snapshot when there is one.
        for cold in (False, True):
            if cold:
                service.live.clear()
            cached = service.load(match_id)
            replayed = fold(registry, store.read(match_id))
            assert document(service, cached) == document(service, replayed)

    moves = play(service, match_id, rng, compare)

    assert moves == players * rounds
    assert service.result(service.load(match_id)) is not None
    snapshot = store.load_snapshot(match_id)
    assert snapshot is not None and store.version(match_id) - snapshot.version < every


@pytest.mark.parametrize("every", [1, 3, 5])
def test_a_snapshot_is_taken_each_time_n_more_events_have_been_folded(
    registry: GameRegistry, every: int
) -> None:
    service, store = make_service(registry, every=1000)  # play without snapshots
    match_id = service.create_match("highcard", 3, {"rounds": 3}, seed="snap").match_id
    play(service, match_id, Random(1), lambda: None)
    events = store.read(match_id)
    fresh = MemoryStore()
    snapshots = Snapshots(fresh, registry, every)

    taken = []
    for version in range(1, len(events) + 1):
        snapshots.offer(fold(registry, events[:version]), since=version - 1)
        snapshot = fresh.load_snapshot(match_id)
        if snapshot is not None and (not taken or taken[-1] != snapshot.version):
            taken.append(snapshot.version)

    assert taken == list(range(every, len(events) + 1, every))


def test_a_load_after_a_snapshot_folds_only_the_newer_events(
    registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, store = make_service(registry, every=4)
    game = registry.get("highcard")
    evolved: list[Any] = []
    real_evolve = game.evolve

    def counting_evolve(state: Any, event: Any) -> Any:
        evolved.append(event)
        return real_evolve(state, event)

    monkeypatch.setattr(game, "evolve", counting_evolve)
    match_id = service.create_match("highcard", 2, {"rounds": 4}, seed="fold").match_id
    checked = []

    def load_and_count() -> None:
        service.live.clear()  # as a process that has not served the match yet
        snapshot = store.load_snapshot(match_id)
        since = 0 if snapshot is None else snapshot.version
        store.reads.clear()
        evolved.clear()

        match = service.load(match_id)

        assert [after for after, _ in store.reads] == [since]
        new = store.reads[0][1]
        assert [e.version for e in new] == list(range(since + 1, match.version + 1))
        assert len(evolved) == sum(not e.type.startswith(CORE_PREFIX) for e in new)
        # A snapshot is stored each time a change passes a multiple of 4 events.
        assert len(new) < 4
        checked.append(since)

    play(service, match_id, Random(7), load_and_count)

    assert len(checked) == 9 and max(checked) > 4


def _played(registry: GameRegistry, every: int = 4) -> tuple[MatchService, CountingStore, str]:
    service, store = make_service(registry, every)
    match_id = service.create_match("highcard", 2, {"rounds": 3}, seed="snap").match_id
    play(service, match_id, Random(3), lambda: None)
    return service, store, match_id


def test_a_snapshot_taken_under_another_plugin_version_is_ignored(
    registry: GameRegistry,
) -> None:
    service, store, match_id = _played(registry)
    kept = store.load_snapshot(match_id)
    assert kept is not None and kept.format == snapshot_format(registry.get("highcard"))
    # Same bytes, another format: as if taken before the plugin changed its state.
    store._snapshots[match_id] = Snapshot(version=kept.version, format="0:old", data=kept.data)
    service.live.clear()
    store.reads.clear()

    match = service.load(match_id)

    assert [after for after, _ in store.reads] == [0]
    assert document(service, match) == document(service, fold(registry, store.read(match_id)))


def test_a_snapshot_that_does_not_load_is_ignored(registry: GameRegistry) -> None:
    service, store, match_id = _played(registry)
    kept = store.load_snapshot(match_id)
    assert kept is not None
    store._snapshots[match_id] = msgspec.structs.replace(kept, data=b"not a pickle")
    service.live.clear()
    store.reads.clear()

    match = service.load(match_id)

    assert [after for after, _ in store.reads] == [0]
    assert match.version == store.version(match_id)


def test_a_snapshot_is_used_only_as_the_version_it_was_taken_at(registry: GameRegistry) -> None:
    """A snapshot whose state claims another version than the one it was stored at (a
    damaged row) is not trusted."""
    service, store, match_id = _played(registry)
    kept = store.load_snapshot(match_id)
    assert kept is not None and kept.version > 1
    store._snapshots[match_id] = msgspec.structs.replace(kept, version=kept.version - 1)
    service.live.clear()
    store.reads.clear()

    service.load(match_id)

    assert [after for after, _ in store.reads] == [0]


def test_a_live_state_is_never_used_after_another_process_appended(
    registry: GameRegistry,
) -> None:
    """Two services on one store, as two processes: each one's live state is checked
    against the store before it is read or written on."""
    store = CountingStore()
    here, there = (MatchService(store, registry, InlineRunner()) for _ in range(2))
    for service in (here, there):
        service.runner.bind(service)  # type: ignore[attr-defined]
    match_id = here.create_match("highcard", 2, {"rounds": 2}, seed="two").match_id
    tokens = [here.claim_seat(match_id, seat) for seat in range(2)]
    seen_here = here.load(match_id)
    match = there.load(match_id)
    seat = next(t.seat for t in there.tasks(match) if t.kind == "turn")
    assert seat is not None
    there.submit(match_id, tokens[seat], there.legal_moves(match, seat)[0], match.version)

    # A read sees the move made elsewhere.
    assert here.load(match_id).version == store.version(match_id) > seen_here.version
    # A write decided on the state this process had is refused, not stored.
    here.live._states[match_id] = seen_here  # its live state as it was before that read
    with pytest.raises(VersionConflict):
        here.submit(match_id, tokens[seat], here.legal_moves(seen_here, seat)[0],
                    seen_here.version)  # fmt: skip
    assert store.version(match_id) == there.load(match_id).version


def test_a_loaded_state_stays_as_it_was_when_the_match_moves_on(registry: GameRegistry) -> None:
    service, _ = make_service(registry, every=1000)
    match_id = service.create_match("highcard", 2, {"rounds": 2}, seed="cow").match_id
    tokens = [service.claim_seat(match_id, seat) for seat in range(2)]
    held = service.load(match_id)
    before = document(service, held)
    seat = next(t.seat for t in service.tasks(held) if t.kind == "turn")
    assert seat is not None

    service.submit(match_id, tokens[seat], service.legal_moves(held, seat)[0], held.version)

    assert document(service, held) == before
    assert service.load(match_id).version > held.version


@pytest.mark.parametrize("game_id", installed_game_ids())
def test_the_live_state_a_move_folded_from_its_decided_events_is_the_stored_logs_fold(
    registry: GameRegistry, game_id: str
) -> None:
    # The service folds a move's events as ``decide`` returned them, not decoded from the
    # store, or keeps the state ``decide_evolved`` built with them: either way the state it
    # keeps must be the one a cold load folds from the log.
    service, store = make_service(registry, every=1000)
    game = registry.get(game_id)
    # The fewest players above one the game's default options take.
    for players in range(max(2, game.min_players), game.max_players + 1):
        with contextlib.suppress(BadRequest):
            match_id = service.create_match(game_id, players, seed="live-fold").match_id
            break
    tokens = [service.claim_seat(match_id, seat) for seat in range(players)]
    rng = Random(7)
    # To the end: the era ends and draws (system moves, run inline) are decided too.
    while True:
        match = service.load(match_id)
        seat = next((t.seat for t in service.tasks(match) if t.kind == "turn"), None)
        if seat is None:
            assert service.over(match)
            break
        move = rng.choice(service.legal_moves(match, seat))
        service.submit(match_id, tokens[seat], move, match.version)
        live = service.live.get(match_id)
        assert live is not None
        replayed = fold(registry, store.read(match_id))
        assert document(service, live) == document(service, replayed)
        if hasattr(game, "decide_evolved"):  # its state was built apart: all of it
            assert live.game_state == replayed.game_state
