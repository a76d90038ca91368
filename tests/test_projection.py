"""Projections: the snapshot cache must give exactly the state a full replay gives, and
must let a read fold only the events that came after the snapshot."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.events import StoredEvent
from core.match import CORE_PREFIX, MatchState, SnapshotCache, fold
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
        # Load twice: the second load starts from a snapshot whenever there is one.
        for _ in range(2):
            cached = service.load(match_id)
            replayed = fold(registry, store.read(match_id))
            assert document(service, cached) == document(service, replayed)

    moves = play(service, match_id, rng, compare)

    assert moves == players * rounds
    assert service.result(service.load(match_id)) is not None
    snapshot = service.snapshots.get(match_id)
    assert snapshot is not None and store.version(match_id) - snapshot.version < every


@pytest.mark.parametrize("every", [1, 3, 5])
def test_a_snapshot_is_taken_each_time_n_more_events_have_been_folded(
    registry: GameRegistry, every: int
) -> None:
    service, store = make_service(registry, every=1000)  # play without snapshots
    match_id = service.create_match("highcard", 3, {"rounds": 3}, seed="snap").match_id
    play(service, match_id, Random(1), lambda: None)
    events = store.read(match_id)
    cache = SnapshotCache(every)

    taken = []
    for version in range(1, len(events) + 1):
        cache.offer(fold(registry, events[:version]))
        snapshot = cache.get(match_id)
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
        snapshot = service.snapshots.get(match_id)
        since = 0 if snapshot is None else snapshot.version
        store.reads.clear()
        evolved.clear()

        match = service.load(match_id)

        assert [after for after, _ in store.reads] == [since]
        new = store.reads[0][1]
        assert [e.version for e in new] == list(range(since + 1, match.version + 1))
        assert len(evolved) == sum(not e.type.startswith(CORE_PREFIX) for e in new)
        # The service loads (and offers a snapshot) after each of its own appends.
        assert len(new) < 4
        checked.append(since)

    play(service, match_id, Random(7), load_and_count)

    assert len(checked) == 9 and max(checked) > 4
