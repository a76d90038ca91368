"""The network kept across a build (``track.Extended``) is the one worked out afresh."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from aos_helpers import GAME

from core.game import SYSTEM
from plugins.age_of_steam.data import board
from plugins.age_of_steam.lookahead import clone
from plugins.age_of_steam.playout_policy import playout_move
from plugins.age_of_steam.state import State
from plugins.age_of_steam.track import Extended, Net, _build_net, network


def _net_facts(net: Net) -> tuple[object, ...]:
    """Everything a network holds: routes in their order, the dicts' items (only looked
    up, or read sorted)."""
    routes = [(r.sections, r.ends, r.owner, r.last_turn) for r in net.routes]
    dicts = (net.sec_route, net.ends_at, net.links, net.open_at)
    return routes, *(sorted(d.items()) for d in dicts)


def _play(
    map_id: str,
    players: int,
    seed: int,
    choose: Callable[[State, int, list[Any], random.Random], Any],
    before_listing: Callable[[State], None] = lambda state: None,
    after_event: Callable[[Any, Any, State], None] = lambda net, event, state: None,
) -> None:
    """One seeded game, each decision chosen by ``choose`` from the listing. ``before_listing`` sees
    the state a player's listing will read; ``after_event`` the network before an event,
    the event and the state after it."""
    rng = random.Random(seed)
    state: State | None = None
    for e in GAME.setup(GAME.Options(map=map_id), players, rng):
        state = GAME.evolve(state, e)
    assert state is not None
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            before_listing(state)
            legal = GAME.legal_moves(state, task.seat)
            events = GAME.decide(state, task.seat, choose(state, task.seat, legal, rng), rng)
        for e in events:
            before = state.net
            state = GAME.evolve(state, e)
            after_event(before, e, state)


def _same_as_rebuilt(state: State, net: Net) -> None:
    fresh = clone(state)
    fresh.net = None
    assert _net_facts(net) == _net_facts(_build_net(board(state.map_id), fresh))


def _at_random(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
    return rng.choice(legal)


@pytest.mark.parametrize(("map_id", "players"), [("rust_belt", 3), ("rust_belt", 6),
                                                 ("st_lucia", 2), ("barbados", 1)])  # fmt: skip
def test_a_network_extended_after_a_build_equals_the_one_rebuilt(map_id: str, players: int):
    extended = 0

    def check(state: State) -> None:
        nonlocal extended
        if type(state.net) is Extended:
            extended += 1
            _same_as_rebuilt(state, network(board(state.map_id), state))

    for seed in range(3):
        _play(map_id, players, seed, playout_move, before_listing=check)
    assert extended > 10


def test_a_network_extended_after_a_town_tile_equals_the_one_rebuilt():
    """A town tile on a town with no track ends its spokes' routes at the town: the kept
    network, extended by those spokes, is the one worked out afresh (St. Lucia's playouts
    build many towns)."""
    towns = 0

    def check(net: Any, e: Any, state: State) -> None:
        nonlocal towns
        if getattr(e, "kind", None) == "town" and type(state.net) is Extended:
            towns += 1
            _same_as_rebuilt(state, network(board(state.map_id), state))

    for seed in range(4):
        _play("st_lucia", 2, seed, playout_move, after_event=check)
    assert towns > 5


@pytest.mark.parametrize(("map_id", "players"), [("rust_belt", 4), ("rust_belt", 6),
                                                 ("barbados", 1)])  # fmt: skip
def test_a_network_kept_when_track_turns_ownerless_equals_the_one_rebuilt(
    map_id: str, players: int
):
    """Abandoned track, and the track of a player out of the game, keeps its routes with
    no owner (``track.disowned``): the network is then the one worked out afresh. Players
    moving at random abandon track and go bankrupt early."""
    kept = 0

    def check(before: Any, e: Any, state: State) -> None:
        nonlocal kept
        if getattr(e, "abandoned", None) or getattr(e, "eliminated", None):
            assert type(before) is not Net or type(state.net) is Net
            if type(state.net) is Net:
                kept += 1
                _same_as_rebuilt(state, state.net)

    for seed in range(6):
        _play(map_id, players, seed, _at_random, after_event=check)
    assert kept > 5
