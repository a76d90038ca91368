"""Lancashire's selling and scoring rules beyond :mod:`test_bl_rules` (reference
``rules.sell``, ``rules.ports_vs_distant_market``, ``rules.market_trade_icon``,
``scoring``), one test each, named after the rule."""

from __future__ import annotations

from bl_helpers import GAME, act, draw, era_end, load, refused, slot, tile

from core.game import SYSTEM
from plugins.brass import events as fev
from plugins.brass.moves import ScoreEra
from plugins.brass_lancashire import events as ev
from plugins.brass_lancashire import moves as mv

YORKSHIRE = [{"link": "colne~yorkshire", "owner": 1}]


def test_each_mill_sold_to_the_distant_market_draws_its_owntile() -> None:
    mills = [tile("colne:0", "cotton"), tile("colne:1", "cotton")]
    s = load(hands={0: ["wigan"] * 2}, era="rail", tiles=mills, links=YORKSHIRE)
    s, _ = act(s, 0, mv.Sell("colne:0", "distant_market"))
    s, _ = draw(s, 1)
    assert s.demand == 1 and s.pending[0].kind == "more_sell"
    s, _ = act(s, 0, mv.SellAlso("colne:1", "distant_market"))
    s, events = draw(s, 3)
    assert ev.DemandTileDrawn(0, slot("colne:1"), 3) in events
    # +3 beside space 1, +1 beside space 4, and each mill's own 4 spaces
    assert s.demand == 4 and s.income[0] == 10 + 3 + 4 + 1 + 4
    assert s.slot_flipped[slot("colne:0")] and s.slot_flipped[slot("colne:1")]


def test_a_port_tile_flipped_or_not_is_a_trade_icon_for_the_distant_market() -> None:
    for flipped in (False, True):
        port = tile("preston:2", "port", owner=1, flipped=flipped)
        s = load(hands={0: ["wigan"] * 2}, tiles=[tile("preston:0", "cotton"), port])
        s, _ = act(s, 0, mv.Sell("preston:0", "distant_market"))
        s, _ = draw(s, 0)
        # the port is reached, not sold through: it stays as it was
        assert s.slot_flipped[slot("preston:0")]
        assert s.slot_flipped[slot("preston:2")] == flipped and s.income[1] == 10


def test_a_distant_market_closed_at_x_refuses_every_later_sale_this_era() -> None:
    s = load(hands={0: ["wigan"] * 2}, era="rail", tiles=[tile("colne:1", "cotton")],
             links=YORKSHIRE, distant_market={"marker": 8, "tiles_left": [0, 1]})  # fmt: skip
    assert refused(s, 0, mv.Sell("colne:1", "distant_market")) == "distant_market_closed"
    assert mv.Sell("colne:1", "distant_market") not in GAME.legal_moves(s, 0)


def test_links_score_flipped_tiles_of_any_owner_and_printed_icons_but_not_unflipped_tiles() -> None:
    tiles = [
        tile("bolton:0", "cotton", owner=1, flipped=True),
        tile("manchester:0", "cotton", owner=0),
        tile("colne:0", "cotton", owner=1),
    ]
    links = [{"link": "bolton~manchester", "owner": 0}, {"link": "colne~yorkshire", "owner": 0}]
    s = era_end("canal", [30, 30], tiles=tiles, links=links)
    _s, events = act(s, SYSTEM, ScoreEra())
    # bolton~manchester: Bolton's flipped mill 1; colne~yorkshire: Yorkshire's printed 2
    assert fev.EraScored(0, [1 + 2, 0], [0, 5]) in events


def test_shipyard_i_scores_its_vp_then_leaves_at_the_canal_eras_end() -> None:
    yard = tile("liverpool:2", "shipyard", level=1, flipped=True)
    s, events = act(era_end("canal", [30, 30], tiles=[yard]), SYSTEM, ScoreEra())
    assert fev.EraScored(0, [0, 0], [10, 0]) in events
    assert s.slot_owner[slot("liverpool:2")] == -1
