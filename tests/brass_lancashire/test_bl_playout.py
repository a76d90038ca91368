"""Random legal games (one greedy seat) to the end, checked after every move: conservation,
positions that round-trip, a move for exactly the seat to act (BL_PLAYOUTS=N games per
player count)."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from bl_helpers import GAME, D, playout

from plugins.brass_lancashire.state import State

GAMES = int(os.environ.get("BL_PLAYOUTS", "2"))


def check_invariants(s: State) -> None:
    n = s.players
    assert all(m >= 0 for m in s.money) and all(v >= 0 for v in s.vp)
    assert all(0 <= x <= D.income.last_space for x in s.income)
    assert GAME.export_position(GAME.load_position(GAME.export_position(s))) == (
        GAME.export_position(s)
    )
    cards = Counter(s.deck)
    for i in range(n):
        cards.update(s.hands[i] + s.discards[i] + s.facedown[i])
    assert sum(cards.values()) == sum(D.deck_copies[n])
    assert 0 <= s.coal_market <= 8 and 0 <= s.iron_market <= 8
    assert Counter(s.demand_left) <= Counter(D.demand_tiles[n])
    assert s.demand <= len(D.distant_market.income_spaces)
    for slot, owner in enumerate(s.slot_owner):
        if owner >= 0 and D.kinds[s.slot_ind[slot]].flips == "built" and not s.pending:
            assert s.slot_flipped[slot], "a shipyard is flipped from the moment it is built"
        if owner >= 0 and s.era == 1:
            assert s.slot_level[slot] > 1, "level 1 tiles left at the Canal Era's end"
    if s.phase == "play":
        demand = s.pending and s.pending[0].kind == "demand"
        assert bool(GAME.legal_moves(s, s.current)) != bool(demand)
        assert all(not GAME.legal_moves(s, i) for i in range(n) if i != s.current)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_the_end_with_every_invariant_kept(players: int) -> None:
    for seed in range(GAMES):
        tags, state = playout(players, 1000 * players + seed, each_move=check_invariants)
        assert state.phase == "over" and GAME.result(state) is not None
        assert tags["era_scored"] == 2 and tags["money_scored"] == 1
        assert tags["sell"] and tags["draw_demand"] == tags["demand_tile_drawn"]
