"""legal_moves is exact: over the whole move space, decide accepts a move if and only if
it is listed (sampled states of random games; BL_EXACT_STATES=N probes more)."""

from __future__ import annotations

import os

import pytest
from bl_helpers import GAME, load

from plugins.brass_lancashire import moves as mv
from tests.brass_exactness import assert_exact, sampled_states

STATES = int(os.environ.get("BL_EXACT_STATES", "6"))


def move_space(s) -> list:  # type: ignore[no-untyped-def]
    """Every move of every shape with known names (plus one unknown name of each kind)."""
    names = GAME.names
    cards = [*names.card, "location:atlantis"]
    spaces = [*names.space, "atlantis:0"]
    targets = [*names.target, "atlantis:0"]
    links = [*names.link, "atlantis~bolton"]
    inds = [*names.industry, "brewery"]
    out: list = [mv.Loan(a) for a in (10, 20, 30)] + [mv.Pass(), mv.Done(), mv.DrawDemand()]
    if s.pending:
        out += [mv.Discard(c) for c in cards]
        out += [m(sp) for m in (mv.PickCoal, mv.PickIron, mv.Liquidate) for sp in spaces]
        out += [mv.SecondLink(li) for li in links]
        out += [mv.SellAlso(sp, t) for sp in spaces for t in targets]
        out += [mv.DevelopAlso(i) for i in inds]
    else:
        hand = {names.card[c] for c in s.hands[s.current]} | {cards[0], cards[-1]}
        out += [mv.Build(c, sp, i) for c in hand for sp in spaces for i in inds]
        out += [mv.DoubleBuild(sp, i) for sp in spaces for i in inds]
        out += [mv.Network(li) for li in links]
        out += [mv.Develop(i) for i in inds]
        out += [mv.Sell(sp, t) for sp in spaces for t in targets]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_decide_accepts_exactly_the_listed_moves(players: int) -> None:
    for s in sampled_states(GAME, players, 77 + players, STATES):
        assert_exact(GAME, s, move_space)


def test_sales_and_the_double_build_list_exactly_what_decide_accepts() -> None:
    tiles = [
        {"space": "colne:0", "owner": 0, "industry": "cotton", "level": 2},
        {"space": "preston:0", "owner": 0, "industry": "cotton", "level": 2},
        {"space": "preston:2", "owner": 1, "industry": "port", "level": 1},
        {"space": "lancaster:0", "owner": 1, "industry": "port", "level": 1, "flipped": True},
        {"space": "wigan:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 2},
    ]
    links = [{"link": "colne~yorkshire", "owner": 0}, {"link": "lancaster~preston", "owner": 1}]
    s = load(hands={0: ["wigan", "colne", "cotton", "port"]}, tiles=tiles, links=links,
             money=[12, 30, 30, 30])  # fmt: skip
    assert any(type(m) is mv.DoubleBuild for m in GAME.legal_moves(s, 0))
    assert {(m.space, m.to) for m in GAME.legal_moves(s, 0) if type(m) is mv.Sell} == {
        ("colne:0", "distant_market"), ("preston:0", "preston:2"),
        ("preston:0", "distant_market"),  # Preston's own port is a trade icon
    }  # fmt: skip
    assert_exact(GAME, s, move_space)
