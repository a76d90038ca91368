"""Lancashire's build, overbuild, coal and iron, network and develop rules (reference
``rules.build``, ``rules.overbuild``, ``rules.consume_coal``, ``rules.consume_iron``,
``rules.coal_and_iron_on_build``, ``rules.network``, ``rules.develop``,
``special_connections``), one test each, named after the rule."""

from __future__ import annotations

from bl_helpers import GAME, act, load, refused, slot, tile

from plugins.brass import events as fev
from plugins.brass_lancashire import moves as mv

TO_THE_MIDLANDS = [{"link": "macclesfield~stockport", "owner": 1},
                   {"link": "macclesfield~the_midlands", "owner": 1}]  # fmt: skip
"""Stockport's way to a market trade icon (an opponent's canals)."""


def _built(s, seat: int, move):  # type: ignore[no-untyped-def]
    """Decide ``move`` and the choices it leaves open, taking the first listed each time."""
    s, events = act(s, seat, move)
    while s.pending and s.pending[0].kind != "demand":
        s, more = act(s, seat, GAME.legal_moves(s, seat)[0])
        events += more
    return s, events


# --- where a card builds ----------------------------------------------------------------------


def test_industry_card_builds_only_in_the_network() -> None:
    s = load(hands={0: ["cotton", "wigan"]}, tiles=[tile("wigan:0", "coal", cubes=1)],
             links=[{"link": "blackburn~wigan", "owner": 0}])  # fmt: skip
    assert refused(s, 0, mv.Build("industry:cotton", "stockport:0", "cotton")) == "not_in_network"
    assert mv.Build("industry:cotton", "blackburn:0", "cotton") in GAME.legal_moves(s, 0)


def test_location_card_builds_in_its_town_outside_the_network() -> None:
    s = load(hands={0: ["stockport", "wigan"]}, tiles=[tile("bolton:0", "coal", cubes=1)])
    s, _ = act(s, 0, mv.Build("location:stockport", "stockport:0", "cotton"))
    assert s.slot_owner[slot("stockport:0")] == 0


def test_first_build_anywhere_with_an_industry_card_while_no_tile_is_on_the_board() -> None:
    s = load(hands={0: ["cotton", "wigan"]})
    assert mv.Build("industry:cotton", "stockport:0", "cotton") in GAME.legal_moves(s, 0)
    # a link on the board is presence too: then the card builds in the network only
    with_link = load(
        hands={0: ["cotton", "wigan"]}, links=[{"link": "colne~yorkshire", "owner": 0}]
    )
    assert refused(with_link, 0, mv.Build("industry:cotton", "stockport:0", "cotton"))
    assert mv.Build("industry:cotton", "colne:0", "cotton") in GAME.legal_moves(with_link, 0)


def test_a_shared_space_may_be_taken_while_a_single_icon_space_is_free() -> None:
    # Lancaster: a port-only space and a cotton-or-port space (no Birmingham space rule)
    s = load(hands={0: ["lancaster"] * 2})
    s, _ = act(s, 0, mv.Build("location:lancaster", "lancaster:1", "port"))
    assert s.slot_owner[slot("lancaster:1")] == 0 and s.slot_owner[slot("lancaster:0")] == -1


def test_canal_era_allows_one_own_industry_tile_per_location() -> None:
    s = load(hands={0: ["bolton", "wigan"]}, tiles=[tile("bolton:0", "coal", cubes=1)])
    assert refused(s, 0, mv.Build("location:bolton", "bolton:1", "cotton")) == (
        "one_industry_per_location"
    )
    rail = load(
        hands={0: ["bolton", "wigan"]},
        era="rail",
        tiles=[tile("bolton:0", "coal", cubes=1)],
        mat=[{"cotton": 3}, {}, {}, {}],
    )
    s, _ = _built(rail, 0, mv.Build("location:bolton", "bolton:1", "cotton"))
    assert s.slot_owner[slot("bolton:1")] == 0


def test_shipyard_i_is_built_in_the_canal_era_only() -> None:
    port = tile("liverpool:0", "port", owner=1, level=1)
    s = load(hands={0: ["liverpool"] * 2}, tiles=[port], mat=[{"shipyard": 2}, {}, {}, {}])
    s, _ = act(s, 0, mv.Build("location:liverpool", "liverpool:2", "shipyard"))
    assert s.slot_level[slot("liverpool:2")] == 1
    rail = load(hands={0: ["liverpool"] * 2}, era="rail", tiles=[tile("liverpool:0", "port")],
                mat=[{"shipyard": 2}, {}, {}, {}])  # fmt: skip
    assert refused(rail, 0, mv.Build("location:liverpool", "liverpool:2", "shipyard")) == (
        "tile_wrong_era"
    )


def test_shipyard_ii_is_built_in_the_rail_era_with_coal_and_iron() -> None:
    mine = tile("liverpool:0", "port", owner=1)
    s = load(hands={0: ["liverpool"] * 2}, era="rail", tiles=[mine],
             mat=[{"shipyard": 4}, {}, {}, {}])  # fmt: skip
    s, events = _built(s, 0, mv.Build("location:liverpool", "liverpool:2", "shipyard"))
    assert fev.Flipped(slot("liverpool:2")) in events
    # £25, the coal bought through the port (£1), the iron from the market (£1)
    assert s.money[0] == 30 - 25 - 1 - 1 and s.income[0] == 10 + 1


def test_the_virtual_link_liverpool_birkenhead_is_not_in_the_standard_game() -> None:
    s = load(
        hands={0: ["shipyard", "wigan"]},
        era="rail",
        tiles=[tile("liverpool:0", "port", level=2)],
        mat=[{"shipyard": 4}, {}, {}, {}],
    )
    assert refused(s, 0, mv.Build("industry:shipyard", "birkenhead:0", "shipyard")) == (
        "not_in_network"
    )


# --- overbuilding --------------------------------------------------------------------------------


def test_overbuild_own_tile_of_any_industry_with_a_higher_level() -> None:
    mill = tile("stockport:0", "cotton", level=1)
    s = load(hands={0: ["stockport"] * 2}, tiles=[mill], links=TO_THE_MIDLANDS,
             mat=[{"cotton": 3}, {}, {}, {}])  # fmt: skip
    s, _ = _built(s, 0, mv.Build("location:stockport", "stockport:0", "cotton"))
    assert s.slot_level[slot("stockport:0")] == 2 and s.slot_owner[slot("stockport:0")] == 0


def test_overbuilt_tile_leaves_the_game_its_cubes_to_the_supply_its_income_kept() -> None:
    mine = tile("wigan:0", "coal", level=1, cubes=2)
    s = load(hands={0: ["wigan"] * 2}, tiles=[mine], income=[14, 10, 10, 10],
             markets={"coal": 8, "iron": 8}, mat=[{"coal": 1}, {}, {}, {}])  # fmt: skip
    s, events = act(s, 0, mv.Build("location:wigan", "wigan:0", "coal"))
    # the level 2 mine carries its own 3 coal; the old 2 go back to the supply, not the
    # full market, and the income the old tile gave stays
    assert fev.Produced(slot("wigan:0"), 3, 0, 0) in events
    assert s.slot_cubes[slot("wigan:0")] == 3 and s.coal_market == 8 and s.income[0] == 14


def test_opponents_cotton_mill_and_port_are_never_overbuilt() -> None:
    mill = tile("stockport:0", "cotton", owner=1, level=1)
    s = load(hands={0: ["stockport"] * 2}, tiles=[mill], mat=[{"cotton": 3}, {}, {}, {}])
    assert refused(s, 0, mv.Build("location:stockport", "stockport:0", "cotton")) == (
        "overbuild_opponent"
    )


def test_opponents_coal_mine_is_overbuilt_only_when_no_coal_is_left_anywhere() -> None:
    empty = tile("wigan:0", "coal", owner=1, level=1, flipped=True)
    tiles = [empty, tile("bolton:0", "coal", owner=2, cubes=1)]
    mat = [{"coal": 1}, {}, {}, {}]
    s = load(hands={0: ["wigan"] * 2}, tiles=tiles, markets={"coal": 0, "iron": 8}, mat=mat)
    assert refused(s, 0, mv.Build("location:wigan", "wigan:0", "coal")) == (
        "overbuild_resource_left"
    )
    in_market = load(hands={0: ["wigan"] * 2}, tiles=[empty], markets={"coal": 1, "iron": 8},
                     mat=mat)  # fmt: skip
    assert refused(in_market, 0, mv.Build("location:wigan", "wigan:0", "coal")) == (
        "overbuild_resource_left"
    )
    none = load(hands={0: ["wigan"] * 2}, tiles=[empty], markets={"coal": 0, "iron": 8}, mat=mat)
    s, _ = _built(none, 0, mv.Build("location:wigan", "wigan:0", "coal"))
    assert s.slot_owner[slot("wigan:0")] == 0


# --- coal and iron ----------------------------------------------------------------------------


def test_coal_comes_free_from_the_nearest_connected_mine() -> None:
    tiles = [tile("wigan:0", "coal", owner=1, cubes=2), tile("bolton:0", "coal", owner=1, cubes=2)]
    links = [{"link": "bolton~manchester", "owner": 1}, {"link": "bolton~wigan", "owner": 1}]
    s = load(hands={0: ["manchester"] * 2}, era="rail", tiles=tiles, links=links,
             mat=[{"cotton": 3}, {}, {}, {}])  # fmt: skip
    s, events = _built(s, 0, mv.Build("location:manchester", "manchester:0", "cotton"))
    assert fev.CubeTaken(slot("bolton:0")) in events and s.money[0] == 30 - 14


def test_coal_from_the_market_needs_a_connection_to_a_market_trade_icon() -> None:
    s = load(hands={0: ["stockport"] * 2}, mat=[{"cotton": 3}, {}, {}, {}])
    assert refused(s, 0, mv.Build("location:stockport", "stockport:0", "cotton")) == "no_coal"
    linked = load(hands={0: ["stockport"] * 2}, links=TO_THE_MIDLANDS,
                  mat=[{"cotton": 3}, {}, {}, {}])  # fmt: skip
    s, events = _built(linked, 0, mv.Build("location:stockport", "stockport:0", "cotton"))
    assert fev.MarketBought("coal", 1) in events and s.money[0] == 30 - 14 - 1


def test_empty_coal_market_still_sells_at_five_pounds() -> None:
    s = load(hands={0: ["stockport"] * 2}, links=TO_THE_MIDLANDS, mat=[{"cotton": 3}, {}, {}, {}],
             markets={"coal": 0, "iron": 8})  # fmt: skip
    s, _ = _built(s, 0, mv.Build("location:stockport", "stockport:0", "cotton"))
    assert s.money[0] == 30 - 14 - 5


def test_iron_comes_from_any_iron_works_without_a_connection() -> None:
    works = tile("barrow_in_furness:1", "iron", owner=1, cubes=2)
    s = load(hands={0: ["wigan"] * 2}, tiles=[works])
    s, events = _built(s, 0, mv.Develop("cotton"))
    assert fev.CubeTaken(slot("barrow_in_furness:1")) in events and s.money[0] == 30


def test_new_iron_works_sells_its_iron_to_the_market_without_a_connection() -> None:
    s = load(hands={0: ["bolton"] * 2}, tiles=[tile("bolton:0", "coal", owner=1, cubes=1)],
             markets={"coal": 8, "iron": 6})  # fmt: skip
    _s, events = _built(s, 0, mv.Build("location:bolton", "bolton:2", "iron"))
    produced = next(e for e in events if type(e) is fev.Produced)
    assert produced.sold == 2 and produced.money == 1 + 1


def test_new_coal_mine_without_a_trade_connection_keeps_its_coal() -> None:
    s = load(hands={0: ["wigan"] * 2}, markets={"coal": 4, "iron": 8})
    _s, events = act(s, 0, mv.Build("location:wigan", "wigan:0", "coal"))
    assert next(e for e in events if type(e) is fev.Produced).sold == 0


# --- network and develop ----------------------------------------------------------------------


def test_new_link_must_touch_the_network() -> None:
    s = load(hands={0: ["wigan"] * 2}, tiles=[tile("wigan:0", "coal", cubes=1)])
    assert refused(s, 0, mv.Network("macclesfield~stockport")) == "link_not_in_network"


def test_barrow_and_birkenhead_take_no_canal() -> None:
    s = load(hands={0: ["wigan"] * 2}, tiles=[tile("lancaster:0", "port")])
    assert refused(s, 0, mv.Network("barrow_in_furness~lancaster")) == "link_wrong_era"


def test_rail_needs_coal_connected_after_placement() -> None:
    mine = tile("wigan:0", "coal", owner=1, cubes=2)
    s = load(hands={0: ["wigan"] * 2}, era="rail", tiles=[mine, tile("stockport:0", "cotton")])
    # Stockport~Macclesfield reaches no mine: the coal comes from the market only through a
    # trade icon, and Macclesfield's neighbour The Midlands is not yet joined
    assert refused(s, 0, mv.Network("macclesfield~stockport")) == "no_coal"


def test_develop_removes_the_lowest_tile_for_one_iron_each() -> None:
    s = load(hands={0: ["wigan"] * 2})
    s, events = act(s, 0, mv.Develop("shipyard"))
    s, more = act(s, 0, mv.DevelopAlso("shipyard"))
    events += more
    assert s.mat[0][GAME.v.industries.index("shipyard")] == 2  # both level 0 tiles gone
    assert events.count(fev.MarketBought("iron", 1)) == 2 and s.money[0] == 30 - 1 - 1
