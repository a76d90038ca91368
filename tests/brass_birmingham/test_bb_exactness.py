"""legal_moves is exact: over the whole move space, decide accepts a move if and only if
it is listed (sampled states of random games; BB_EXACT_STATES=N probes more)."""

from __future__ import annotations

import os

import pytest
from bb_helpers import GAME, act, load

from plugins.brass_birmingham import moves as mv
from tests.brass_exactness import assert_exact, sampled_states

STATES = int(os.environ.get("BB_EXACT_STATES", "6"))


def move_space(s) -> list:  # type: ignore[no-untyped-def]
    """Every move of every shape with known names (plus one unknown name of each kind)."""
    names = GAME.names
    cards = [*names.card, "location:atlantis"]
    spaces = [*names.space, "atlantis:0"]
    merchants = [*names.merchant, "atlantis:0"]
    links = [*names.link, "atlantis~birmingham"]
    inds = [*names.industry, "steel"]
    out: list = [mv.Loan(), mv.Scout(), mv.Pass(), mv.Done()]
    if s.pending:
        out += [mv.Discard(c) for c in cards]
        out += [m(sp) for m in (mv.PickCoal, mv.PickIron, mv.Liquidate) for sp in spaces]
        out += [mv.PickBeer(source) for source in [*spaces, *merchants]]
        out += [mv.SecondLink(li) for li in links]
        out += [mv.SellAlso(sp, m) for sp in spaces for m in merchants]
        out += [f(i) for f in (mv.DevelopAlso, mv.FreeDevelop) for i in inds]
    else:
        hand = {names.card[c] for c in s.hands[s.current]} | {cards[0], cards[-1]}
        out += [mv.Build(c, sp, i) for c in hand for sp in spaces for i in inds]
        out += [mv.Network(li) for li in links]
        out += [mv.Develop(i) for i in inds]
        out += [mv.Sell(sp, m) for sp in spaces for m in merchants]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_decide_accepts_exactly_the_listed_moves(players: int) -> None:
    for s in sampled_states(GAME, players, 77 + players, STATES):
        assert_exact(GAME, s, move_space)


def test_round_end_liquidation_lists_exactly_the_own_industries() -> None:
    tiles = [
        {"space": "dudley:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 1},
        {"space": "coventry:0", "owner": 0, "industry": "pottery", "level": 1},
        {"space": "redditch:1", "owner": 1, "industry": "iron", "level": 1, "cubes": 1},
    ]
    s = load(hands={0: ["coventry"] * 2, 1: ["dudley"] * 2}, turn=1, actions_left=1,
             income=[5, 10], money=[1, 17], tiles=tiles)  # fmt: skip
    s, _ = act(s, 1, mv.Pass())
    assert s.pending and s.current == 0
    assert_exact(GAME, s, move_space)
