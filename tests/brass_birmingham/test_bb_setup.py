"""Setup for 2, 3 and 4 players as the rules describe it."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from bb_helpers import GAME, D

from plugins.brass_birmingham import moves as mv
from plugins.brass_birmingham.state import State


def started(players: int, seed: int = 1) -> State:
    state = None
    for e in GAME.setup(GAME.Options(), players, Random(seed)):
        state = GAME.evolve(state, e)
    assert state is not None
    return state


@pytest.mark.parametrize(("players", "deck_left"), [(2, 22), (3, 27), (4, 28)])
def test_setup_deals_eight_cards_and_one_face_down_discard(players: int, deck_left: int) -> None:
    s = started(players)
    assert [len(h) for h in s.hands] == [8] * players
    assert [len(f) for f in s.facedown] == [1] * players
    assert len(s.deck) == deck_left
    cards = Counter(s.deck)
    for i in range(players):
        cards.update(s.hands[i] + s.facedown[i])
    assert cards == Counter({k: c for k, c in enumerate(D.deck_copies[players]) if c})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_money_income_vp_and_markets(players: int) -> None:
    s = started(players)
    assert s.money == [17] * players
    assert s.income == [10] * players and all(D.income.level(x) == 0 for x in s.income)
    assert s.vp == [0] * players
    # one £1 coal space and both £1 iron spaces empty
    assert (s.coal_market, s.iron_market) == (13, 8)
    assert s.wild_supply == [4, 4]
    assert s.actions_left == 1 and s.round == 1 and s.era == 0


@pytest.mark.parametrize(
    ("players", "used_locations"),
    [
        (2, {"shrewsbury", "gloucester", "oxford"}),
        (3, {"shrewsbury", "gloucester", "oxford", "warrington"}),
        (4, {"shrewsbury", "gloucester", "oxford", "warrington", "nottingham"}),
    ],
)
def test_merchants_and_their_beer_by_player_count(players: int, used_locations: set) -> None:
    s = started(players)
    placed = [t for t in s.merchant_tile if t >= 0]
    assert sorted(placed) == [i for i, t in enumerate(D.merchant_tiles) if t.min_players <= players]
    for m, tile in enumerate(s.merchant_tile):
        location = D.locations[D.merchant_loc[m]].id
        assert (tile >= 0) == (location in used_locations)
        # one beer beside each non-blank merchant, none beside blanks
        assert s.merchant_beer[m] == int(tile >= 0 and bool(D.merchant_accepts[tile]))


def test_first_round_order_is_random() -> None:
    orders = {tuple(started(4, seed).order) for seed in range(12)}
    assert len(orders) > 1
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)


def test_first_canal_round_gives_one_action_then_two() -> None:
    s = started(2)
    first = s.current
    legal = GAME.legal_moves(s, first)
    s2 = s
    for e in GAME.decide(s, first, mv.Pass(), Random(0)):
        s2 = GAME.evolve(s2, e)
    # after a single action the turn passed (a Discard step may come first if cards differ)
    while s2.pending:
        m = GAME.legal_moves(s2, first)[0]
        for e in GAME.decide(s2, first, m, Random(0)):
            s2 = GAME.evolve(s2, e)
    assert mv.Pass() in legal
    assert s2.current != first and s2.actions_left == 1
    assert len(s2.hands[first]) == 8  # refilled to eight
