"""Lancashire's rules, one test each, named after the rule: first the differences the
Pittsburgh rulebook's table "Differences in Each Brass Game" lists for Lancashire, then
the published rules the reference records (ports, the distant market, shipyards, eras)."""

from __future__ import annotations

from random import Random

import pytest
from bl_helpers import GAME, act, draw, era_end, load, refused, slot, tags

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass import events as fev
from plugins.brass.moves import Done, ScoreEra
from plugins.brass_lancashire import events as ev
from plugins.brass_lancashire import moves as mv

HAND = ["coal", "iron", "port", "shipyard", "wigan", "bolton", "bury", "oldham"]
"""Eight cards, none of which names Manchester or builds a cotton mill."""


# --- the comparison table's Lancashire column ------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_thirty_pounds(players: int) -> None:
    s = None
    for e in GAME.setup(GAME.Options(), players, Random(players)):
        s = GAME.evolve(s, e)
    assert [p["money"] for p in GAME.view(s, 0)["players"]] == [30] * players


def test_industries_are_coal_mines_iron_works_cotton_mills_ports_and_shipyards() -> None:
    assert GAME.v.industries == ("cotton", "coal", "iron", "port", "shipyard")
    icons = {i for space in GAME.metadata["board"]["spaces"] for i in space["icons"]}
    assert icons == {"cotton", "coal", "iron", "port", "shipyard"}


def test_double_action_build_uses_two_cards_as_any_location() -> None:
    s = load(hands={0: HAND, 1: ["colne"] * 2})
    # no card in hand reaches Manchester for a cotton mill...
    assert refused(s, 0, mv.Build("industry:coal", "manchester:0", "cotton"))
    assert mv.DoubleBuild("manchester:0", "cotton") in GAME.legal_moves(s, 0)
    s, events = act(s, 0, mv.DoubleBuild("manchester:0", "cotton"))
    assert s.pending[0].kind == "discard" and s.pending[0].n == 2
    s, _ = act(s, 0, mv.Discard("industry:port"))
    s, events = act(s, 0, mv.Discard("location:bury"))
    # ...both cards paid, both actions spent: the turn passes on with the hand refilled
    paid = [GAME.names.card.index_of(c) for c in ("industry:port", "location:bury")]
    assert s.discards[0] == paid
    assert s.slot_owner[slot("manchester:0")] == 0 and s.money[0] == 30 - 12
    assert s.current == 1 and len(s.hands[0]) == 8 and "drew" in tags(events)


def test_double_action_build_needs_both_actions_of_a_turn() -> None:
    s = load(hands={0: HAND}, actions_left=1)
    assert refused(s, 0, mv.DoubleBuild("manchester:0", "cotton")) == (
        "double_build_needs_both_actions"
    )
    first_round = load(hands={0: HAND}, round=1, actions_left=1)
    assert not any(type(m) is mv.DoubleBuild for m in GAME.legal_moves(first_round, 0))


@pytest.mark.parametrize(("amount", "levels"), [(10, 1), (20, 2), (30, 3)])
def test_loan_of_ten_twenty_or_thirty_pounds_costs_one_two_or_three_income_levels(
    amount: int, levels: int
) -> None:
    s = load(hands={0: ["wigan"] * 2})
    assert {m.amount for m in GAME.legal_moves(s, 0) if type(m) is mv.Loan} == {10, 20, 30}
    s, _ = act(s, 0, mv.Loan(amount))
    assert s.money[0] == 30 + amount
    assert GAME.data.income.level(s.income[0]) == -levels
    # the marker lands on the highest space of the lower level
    assert s.income[0] == 10 - levels


def test_loan_of_twenty_pounds_costs_two_income_levels() -> None:
    _s, events = act(load(hands={0: ["wigan"] * 2}), 0, mv.Loan(20))
    assert fev.LoanTaken(0, 20, 8) in events


def test_no_loans_in_the_last_four_rounds() -> None:
    rounds = GAME.data.rules.rounds_per_era["4"]
    last_allowed = load(hands={0: ["wigan"] * 2}, era="rail", round=rounds - 4)
    assert any(type(m) is mv.Loan for m in GAME.legal_moves(last_allowed, 0))
    for late in range(rounds - 3, rounds + 1):
        s = load(hands={0: ["wigan"] * 2}, era="rail", round=late)
        assert refused(s, 0, mv.Loan(10)) == "no_loans_late"
        assert not any(type(m) is mv.Loan for m in GAME.legal_moves(s, 0))


def test_loans_in_the_canal_era_last_rounds_are_allowed() -> None:
    # "the last 4 rounds" are the game's: the Canal Era's end is not one of them
    s = load(hands={0: ["wigan"] * 2}, round=8)
    assert any(type(m) is mv.Loan for m in GAME.legal_moves(s, 0))


def _mine(space: str = "wigan:0", cubes: int = 2, level: int = 2) -> dict:
    return {"space": space, "owner": 0, "industry": "coal", "level": level, "cubes": cubes}


def test_canal_costs_three_pounds_one_per_action() -> None:
    s = load(hands={0: ["wigan"] * 2}, tiles=[_mine()])
    s, events = act(s, 0, mv.Network("blackburn~wigan"))
    assert fev.Paid(0, 3) in events and s.money[0] == 27
    assert "awaiting" not in tags(events) and s.actions_left == 1  # no second canal offered
    assert refused(s, 0, mv.SecondLink("bolton~wigan")) == "no_second_rail"


def test_one_rail_costs_five_pounds_and_one_coal() -> None:
    s = load(hands={0: ["wigan"] * 2}, era="rail", tiles=[_mine()])
    s, events = act(s, 0, mv.Network("blackburn~wigan"))
    assert fev.Paid(0, 5) in events and fev.CubeTaken(slot("wigan:0")) in events
    assert s.pending[0].kind == "more_link"
    s, _ = act(s, 0, Done())
    assert s.money[0] == 25 and s.slot_cubes[slot("wigan:0")] == 1


def test_two_rails_cost_fifteen_pounds_and_two_coal() -> None:
    s = load(hands={0: ["wigan"] * 2}, era="rail", tiles=[_mine()])
    s, _ = act(s, 0, mv.Network("blackburn~wigan"))
    s, events = act(s, 0, mv.SecondLink("bolton~wigan"))
    assert s.money[0] == 30 - 15
    assert s.slot_cubes[slot("wigan:0")] == 0 and s.slot_flipped[slot("wigan:0")]
    assert fev.Paid(0, 10) in events  # the second rail's share of £15


# --- the published rules the reference records -------------------------------------------------


def _mill(space: str, owner: int = 0, level: int = 2, flipped: bool = False) -> dict:
    return {"space": space, "owner": owner, "industry": "cotton", "level": level,
            "flipped": flipped}  # fmt: skip


def test_cotton_sold_through_a_connected_port_flips_the_port_for_its_owner() -> None:
    port = {"space": "preston:2", "owner": 1, "industry": "port", "level": 1}
    s = load(hands={0: ["wigan"] * 2}, tiles=[_mill("preston:0"), port])
    assert mv.Sell("preston:0", "preston:2") in GAME.legal_moves(s, 0)
    s, _events = act(s, 0, mv.Sell("preston:0", "preston:2"))
    assert s.slot_flipped[slot("preston:2")] and s.slot_flipped[slot("preston:0")]
    assert s.income[1] == 10 + 3 and s.income[0] == 10 + 4  # port I: 3 spaces; mill II: 4
    assert refused(s, 0, mv.Sell("preston:0", "preston:2")) == "already_sold"


def test_a_flipped_or_unconnected_port_buys_no_cotton() -> None:
    used = {"space": "preston:2", "owner": 1, "industry": "port", "level": 1, "flipped": True}
    far = {"space": "fleetwood:0", "owner": 1, "industry": "port", "level": 1}
    s = load(hands={0: ["wigan"] * 2}, tiles=[_mill("preston:0"), used, far])
    assert refused(s, 0, mv.Sell("preston:0", "preston:2")) == "port_used"
    assert refused(s, 0, mv.Sell("preston:0", "fleetwood:0")) == "port_not_connected"


def _at_yorkshire(**doc):  # type: ignore[no-untyped-def]
    link = {"link": "colne~yorkshire", "owner": 0}
    return load(hands={0: ["wigan"] * 2}, tiles=[_mill("colne:0")], links=[link], **doc)


def test_distant_market_sale_draws_a_demand_tile_and_pays_the_income_beside_the_marker() -> None:
    s = _at_yorkshire()
    s, _ = act(s, 0, mv.Sell("colne:0", "distant_market"))
    # the draw is a chance move of the server: no seat has a move meanwhile
    assert [t.kind for t in GAME.pending_tasks(s)] == ["system"] and not GAME.legal_moves(s, 0)
    s, events = draw(s, 2)
    assert ev.DemandTileDrawn(0, slot("colne:0"), 2) in events
    assert s.demand == 2 and s.demand_left.count(2) == GAME.data.demand_tiles[4].count(2) - 1
    # +2 spaces beside the marker's new space, then the mill's flip (+4)
    assert s.income[0] == 10 + 2 + 4 and s.slot_flipped[slot("colne:0")]


def test_distant_market_reaching_x_ends_the_sell_action_with_the_mill_unflipped() -> None:
    s = _at_yorkshire(distant_market={"marker": 6})
    s, _ = act(s, 0, mv.Sell("colne:0", "distant_market"))
    s, events = draw(s, 2)
    assert s.demand == 8 and not s.slot_flipped[slot("colne:0")] and s.income[0] == 10
    assert "action_done" in tags(events) and not s.pending
    assert refused(s, 0, mv.Sell("colne:0", "distant_market")) == "distant_market_closed"


def test_distant_market_needs_a_connection_to_a_market_trade_icon() -> None:
    s = load(hands={0: ["wigan"] * 2}, tiles=[_mill("stockport:0")])
    assert refused(s, 0, mv.Sell("stockport:0", "distant_market")) == (
        "distant_market_not_connected"
    )


def test_demand_tile_draw_is_the_servers_and_must_be_in_the_bag() -> None:
    s = _at_yorkshire(distant_market={"marker": 0, "tiles_left": [3]})
    s, _ = act(s, 0, mv.Sell("colne:0", "distant_market"))
    with pytest.raises(IllegalMove):
        GAME.decide(s, 0, mv.DrawDemand(3), Random(0))
    with pytest.raises(IllegalMove):
        GAME.decide(s, SYSTEM, mv.DrawDemand(1), Random(0))
    events = GAME.decide(s, SYSTEM, mv.DrawDemand(), Random(0))
    assert GAME.chance_outcome(s, mv.DrawDemand(), events) == mv.DrawDemand(3)


def test_port_tile_counts_as_a_market_trade_icon() -> None:
    port = {"space": "warrington_and_runcorn:0", "owner": 1, "industry": "port", "level": 1}
    market = {"coal": 4, "iron": 8}  # room for the mine's coal
    with_port = load(hands={0: ["warrington_and_runcorn"] * 2}, tiles=[port], markets=market,
                     mat=[{"coal": 1}, {}, {}, {}])  # fmt: skip
    _, events = act(with_port, 0, mv.Build("location:warrington_and_runcorn",
                                            "warrington_and_runcorn:1", "coal"))  # fmt: skip
    produced = next(e for e in events if type(e) is fev.Produced)
    assert produced.sold == 3  # the new mine's coal goes to the market through the port
    alone = load(
        hands={0: ["warrington_and_runcorn"] * 2}, markets=market, mat=[{"coal": 1}, {}, {}, {}]
    )
    _s, events = act(alone, 0, mv.Build("location:warrington_and_runcorn",
                                       "warrington_and_runcorn:1", "coal"))  # fmt: skip
    assert next(e for e in events if type(e) is fev.Produced).sold == 0


def test_shipyard_flips_when_built() -> None:
    port = {"space": "liverpool:0", "owner": 1, "industry": "port", "level": 1}
    s = load(hands={0: ["liverpool"] * 2}, tiles=[port], mat=[{"shipyard": 2}, {}, {}, {}])
    s, events = act(s, 0, mv.Build("location:liverpool", "liverpool:2", "shipyard"))
    assert fev.Flipped(slot("liverpool:2")) in events and s.income[0] == 10 + 2


def test_level_zero_shipyards_are_only_developed_away() -> None:
    s = load(hands={0: ["liverpool"] * 2})
    assert refused(s, 0, mv.Build("location:liverpool", "liverpool:2", "shipyard")) == (
        "tile_wrong_era"
    )
    assert mv.Develop("shipyard") in GAME.legal_moves(s, 0)


def test_first_link_needs_a_tile_on_the_board() -> None:
    s = load(hands={0: ["wigan"] * 2})
    assert refused(s, 0, mv.Network("blackburn~wigan")) == "link_needs_presence"
    assert not any(type(m) is mv.Network for m in GAME.legal_moves(s, 0))


def test_canal_era_end_removes_links_and_level_one_tiles_and_resets_the_distant_market() -> None:
    tiles = [_mill("colne:0", level=1, flipped=True), _mine(cubes=1)]
    s = era_end("canal", [30, 30], tiles=tiles, links=[{"link": "colne~yorkshire", "owner": 0}],
                distant_market={"marker": 5, "tiles_left": [1, 2]})  # fmt: skip
    s, events = act(s, SYSTEM, ScoreEra())
    # the canal scores its icons (Colne's flipped mill 1, Yorkshire's printed 2), the mill 5
    assert fev.EraScored(0, [3, 0], [5, 0]) in events
    assert s.link_owner.count(0) == 0 and s.slot_owner[slot("colne:0")] == -1
    assert s.slot_owner[slot("wigan:0")] == 0  # level 2 stays
    assert s.demand == 0 and s.demand_left == GAME.data.demand_tiles[2]


def test_money_scores_one_vp_per_full_ten_pounds_at_the_games_end() -> None:
    s, events = act(era_end("rail", [35, 9]), SYSTEM, ScoreEra())
    assert ev.MoneyScored([3, 0]) in events and s.vp == [3, 0] and s.phase == "over"


def test_ties_break_on_income_then_money() -> None:
    s = era_end("rail", [35, 39], phase="over")
    s.income = [20, 12]
    assert GAME.result(s).ranking == [1, 2]  # type: ignore[union-attr]
