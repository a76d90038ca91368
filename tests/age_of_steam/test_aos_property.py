"""Random legal games on every map and player count, checking the game's invariants.

Short by default; set AOS_PLAYOUTS=<n> for n games per map and player count (thousands in
a long run).
"""

from __future__ import annotations

import os
import random

import msgspec
import pytest
from aos_helpers import GAME, cube_total, playout

from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from plugins.age_of_steam.data import board
from plugins.age_of_steam.state import State
from plugins.age_of_steam.track import (
    HexContext,
    Plan,
    candidate_hexes,
    evaluate,
    legal_builds,
    network,
)

GAMES = int(os.environ.get("AOS_PLAYOUTS", "2"))
TABLE = [("barbados", 1), ("st_lucia", 2), ("rust_belt", 3), ("rust_belt", 4),
         ("rust_belt", 5), ("rust_belt", 6)]  # fmt: skip


def check_invariants(state: State) -> None:
    b = board(state.map_id)
    for p in state.pl:
        assert 0 <= p.shares <= 15 and 1 <= p.engine <= 6
        assert p.money >= 0
        assert p.income >= 0 or p.eliminated
    assert cube_total(state) == b.total_cubes
    assert all(n >= 0 for n in state.bag.values())
    on_board: dict[str, int] = {}
    for ht in state.track.values():
        on_board[ht.tile] = on_board.get(ht.tile, 0) + 1
    for t in b.components.tiles:
        assert state.tiles[t.name] + on_board.get(t.name, 0) == t.count, t.name
    assert sum(1 for h in state.track if b.town_at[h] >= 0) <= b.components.town_discs
    for i, col in enumerate(b.spec.display):
        assert len(state.display[i]) <= col.spaces
    net = network(b, state)
    for route in net.routes:
        owners = {state.track[h].sections[k][2] for h, k in route.sections}
        assert len(owners) == 1  # nobody's track joins another player's


@pytest.mark.parametrize("thrifty", [True, False], ids=["thrifty", "uniform"])
@pytest.mark.parametrize(("map_id", "players"), TABLE)
def test_random_games_keep_the_invariants_and_replay_to_the_same_state(map_id, players, thrifty):
    for seed in range(GAMES):
        state, events = playout(map_id, players, seed, thrifty,
                                on_step=lambda s, _e: check_invariants(s))  # fmt: skip
        result = GAME.result(state)
        assert result is not None and len(result.ranking) == players
        replay = None
        for e in msgspec.json.decode(msgspec.json.encode(events), type=list[GAME.Event]):
            replay = GAME.evolve(replay, e)
        assert GAME.export_position(replay) == GAME.export_position(state)


def test_thrifty_games_deliver_goods_and_score_track():
    delivered = 0
    sections = 0
    for seed in range(3):
        state, events = playout("rust_belt", 4, seed)
        delivered += sum(type(e).__name__ == "GoodMoved" for e in events)
        sections += len(network(board("rust_belt"), state).routes)
    assert delivered > 0 and sections > 0


def _build_states(map_id: str, players: int, seed: int) -> list[State]:
    import copy

    found: list[State] = []

    def keep(state, _events):
        wanted = state.phase == "build" and state.builds_left > 0 and len(found) < 6
        if wanted and random.Random(len(found) + seed).random() < 0.3:
            found.append(copy.deepcopy(state))

    playout(map_id, players, seed, on_step=keep)
    return found


@pytest.mark.parametrize(("map_id", "players"), [("rust_belt", 4), ("st_lucia", 2),
                                                 ("barbados", 1)])  # fmt: skip
def test_listed_builds_are_exactly_those_the_rules_accept_anywhere(map_id, players):
    b = board(map_id)
    for state in _build_states(map_id, players, seed=5):
        seat = state.queue[0]
        brute = _brute_builds(b, state, seat)
        assert set(legal_builds(b, state, seat)) == brute
        net = network(b, state)
        assert all(h in candidate_hexes(b, state, net, seat) for h, _, _ in brute)


@pytest.mark.parametrize(("map_id", "players"), [("rust_belt", 4), ("barbados", 1)])
def test_listed_builds_with_tiles_out_of_the_supply_are_exactly_those_the_rules_accept(
    map_id, players
):
    """The listing reads which tiles are left from the supply's counts (kept per counts):
    with some tiles gone, or missing from the supply, it still lists exactly what
    evaluate accepts, and again once they are back."""
    b = board(map_id)
    names = sorted(b.shapes)
    for state in _build_states(map_id, players, seed=3)[:3]:
        seat = state.queue[0]
        full = dict(state.tiles)
        for gone in (names[::2], names[1::3], []):
            state.tiles = {n: 0 if n in gone else full.get(n, 0) for n in full}
            if gone:
                del state.tiles[gone[0]]  # not listed at all: none left
            assert set(legal_builds(b, state, seat)) == _brute_builds(b, state, seat)


def test_listed_deliveries_are_exactly_those_the_rules_accept():
    from plugins.age_of_steam.goods import legal_deliveries, walk_good
    from plugins.age_of_steam.track import Refusal

    checked = 0
    for seed in range(4):
        states: list[State] = []

        def keep(state, _events, states=states):
            if state.phase == "move" and state.queue and len(states) < 5:
                import copy

                states.append(copy.deepcopy(state))

        playout("rust_belt", 4, seed, on_step=keep)
        b = board("rust_belt")
        for state in states:
            seat = state.queue[0]
            state.pl[seat].engine = min(state.pl[seat].engine, 3)
            listed = {(h, c, tuple(s)) for h, c, s in legal_deliveries(b, state, seat)}
            brute = set()
            paths = [[a] for a in range(6)]
            paths += [[a, x] for a in range(6) for x in range(6)]
            paths += [[a, x, y] for a in range(6) for x in range(6) for y in range(6)]
            for h, cubes in state.goods.items():
                for c in set(cubes):
                    for steps in paths:
                        if not isinstance(walk_good(b, state, seat, h, c, steps), Refusal):
                            brute.add((h, c, tuple(steps)))
            assert listed == brute
            checked += 1
    assert checked


def test_a_full_four_player_match_through_the_service_has_gapless_versions(registry: GameRegistry):
    from worker.inprocess import InlineRunner

    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner, snapshot_every=25)
    runner.bind(service)
    match = service.create_match("age-of-steam", 4, seed="aos-property")
    for seat in range(4):
        service.hand_to_bot(match.match_id, seat, "random", None)
    final = service.load(match.match_id)
    assert service.result(final) is not None
    versions = [e.version for e in service.store.read(match.match_id)]
    assert versions == list(range(1, len(versions) + 1))


def test_reused_build_verdicts_match_a_fresh_judgement_in_later_games():
    """legal_builds reuses verdicts on empty hexes across calls and games (see
    track._placements): after other realistic games warmed that store, every listed build
    set still equals a brute-force run of evaluate."""
    from core.game import SYSTEM
    from plugins.age_of_steam.game import Options
    from plugins.age_of_steam.playout_policy import playout_move

    checked = 0
    tables = [("rust_belt", 4), ("st_lucia", 2), ("rust_belt", 6), ("barbados", 1)]
    for seed, (map_id, players) in enumerate(tables):
        b = board(map_id)
        rng = random.Random(seed)
        state = None
        for e in GAME.setup(Options(map=map_id), players, rng):
            state = GAME.evolve(state, e)
        while tasks := GAME.pending_tasks(state):
            task = tasks[0]
            if task.kind == "system":
                events = GAME.decide(state, SYSTEM, task.move, rng)
                for e in events:
                    state = GAME.evolve(state, e)
                continue
            seat = task.seat
            legal = GAME.legal_moves(state, seat)
            if state.phase == "build" and state.builds_left > 0 and rng.random() < 0.15:
                assert set(legal_builds(b, state, seat)) == _brute_builds(b, state, seat)
                checked += 1
            for e in GAME.decide(state, seat, playout_move(state, seat, legal, rng), rng):
                state = GAME.evolve(state, e)
    assert checked >= 10


def _brute_builds(b, state: State, seat: int) -> set[tuple[int, str, int]]:
    net = network(b, state)
    found = set()
    for h in range(len(b.coords)):
        ctx = HexContext(b, state, net, h, seat)
        for name in b.shapes:
            for r in range(6):
                if isinstance(evaluate(b, state, net, ctx, name, r), Plan):
                    found.add((h, name, r))
    return found
