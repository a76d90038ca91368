"""Brass: Pittsburgh choices on a state: what may be sold, where links may go and at what
price, and what taking a barrel does. Board facts and prices are PROVISIONAL (0.1.0)."""

from __future__ import annotations

from random import Random

import pytest

from plugins.brass_pittsburgh.choices import (
    network_options,
    oil_available,
    sale_candidates,
    take_oil,
)
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.rewards import Gains
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import ERA2, State


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


class Table:
    def __init__(self, game: BrassPittsburgh) -> None:
        self.rules: Rules = game.rules
        (event,) = game.setup(Options(), 4, Random(5))
        self.state: State = game.evolve(None, event)
        self.board = self.rules.board_of("main")
        self.state.merchant_tile = ["MT_15", "MT_WHISKEY", "MT_INCOME", "MT_VP", "MT_DEVELOP"]

    def train(self, line_id: str, seat: int, link: str = "LT", cargo: int = 0) -> int:
        line = self.board.line_index[line_id]
        s = self.state
        s.line_owner[line], s.line_link[line], s.line_cargo[line] = seat, link, cargo
        return line

    def pipeline(self, route_id: str, seat: int, pipe: str) -> int:
        route = self.board.route_index[route_id]
        self.state.route_owner[route], self.state.route_pipeline[route] = seat, pipe
        return route

    def tile(self, city: str, k: int, seat: int, tile: str, flipped: bool = False) -> int:
        slot = self.board.city_slots[self.board.node[city]][k]
        s = self.state
        s.slot_owner[slot], s.slot_tile[slot], s.slot_flipped[slot] = seat, tile, flipped
        return slot

    def field(self, name: str) -> int:
        return self.board.oilfield_index[name]


def test_sale_needs_a_connected_merchant_showing_the_icon_and_enough_oil(
    game: BrassPittsburgh,
) -> None:
    t = Table(game)
    refinery = t.tile("cleveland", 0, 0, "K2")  # needs 1 barrel
    t.train("chicago~cleveland", 1)  # Chicago holds MT_15: Kerosene and MG
    assert sale_candidates(t.rules, t.state, 0) == []  # no oil reaches Cleveland
    t.train("cleveland~erie", 2)
    t.train("erie~warren", 3)
    t.pipeline("bradford~warren", 3, "PL_MONEY1")
    t.state.oil[t.field("bradford")] = 1
    (sale,) = sale_candidates(t.rules, t.state, 0)
    assert (sale.slot, sale.merchants, sale.oil) == (refinery, [0], 1)


def test_merchant_must_show_the_industrys_icon(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.state.era = ERA2
    t.tile("cleveland", 3, 0, "A1")
    t.train("chicago~cleveland", 1)  # MT_15 buys no Automobiles
    assert sale_candidates(t.rules, t.state, 0) == []


def test_oil_free_tiles_need_only_a_merchant(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.tile("cleveland", 1, 0, "M1")
    assert sale_candidates(t.rules, t.state, 0) == []
    t.train("chicago~cleveland", 1)
    assert [c.oil for c in sale_candidates(t.rules, t.state, 0)] == [0]


def test_flipped_and_unsellable_tiles_are_not_sold(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.tile("cleveland", 1, 0, "M1", flipped=True)
    t.tile("cleveland", 2, 0, "S2")
    t.train("chicago~cleveland", 1)
    assert sale_candidates(t.rules, t.state, 0) == []


def test_own_oil_train_counts_but_not_someone_elses(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.train("chicago~cleveland", 0, "HT_OIL", cargo=2)
    cleveland = t.board.node["cleveland"]
    assert oil_available(t.rules, t.state, 0, cleveland) == 2
    assert oil_available(t.rules, t.state, 1, cleveland) == 0


def test_an_oilfield_reached_by_two_pipelines_counts_once(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.pipeline("oil_creek~titusville", 0, "PL_MONEY1")
    t.pipeline("bradford~titusville", 1, "PL_MONEY1")
    t.train("titusville~warren", 2)
    t.pipeline("bradford~warren", 2, "PL_VP1")
    t.state.oil[t.field("bradford")] = 3
    t.state.oil[t.field("oil_creek")] = 1
    assert oil_available(t.rules, t.state, 0, t.board.node["titusville"]) == 4


def test_each_barrel_pays_the_owner_of_the_pipeline_it_travels_through(
    game: BrassPittsburgh,
) -> None:
    t = Table(game)
    route = t.pipeline("bradford~warren", 2, "PL_VP2")
    t.state.oil[t.field("bradford")] = 2
    taken = take_oil(t.rules, t.state, route)
    assert (taken.pipeline_owner, taken.reward, taken.oil_city_flipped) == (2, Gains(vp=2), False)


def test_the_oil_citys_last_barrel_flips_it(game: BrassPittsburgh) -> None:
    t = Table(game)
    route = t.pipeline("bradford~warren", 2, "PL_MONEY1")
    field = t.field("bradford")
    t.state.oil[field], t.state.oil_city_owner[field] = 1, 3
    assert take_oil(t.rules, t.state, route).oil_city_flipped


def test_no_oil_through_a_reserve_pipeline(game: BrassPittsburgh) -> None:
    t = Table(game)
    route = t.pipeline("bradford~warren", 2, "PL_RESERVE")
    t.state.oil[t.field("bradford")] = 2
    with pytest.raises(ValueError, match="no oil"):
        take_oil(t.rules, t.state, route)


def test_first_links_go_anywhere_when_affordable(game: BrassPittsburgh) -> None:
    t = Table(game)
    options = network_options(t.rules, t.state, 0)
    lines = {site for link, site in options if link == "LT"}
    routes = {site for link, site in options if link == "PL_MONEY1"}
    assert lines == set(range(len(t.board.lines)))
    assert routes == set(range(len(t.board.routes)))
    assert {link for link, _ in options} == {
        "LT", "HT_DOUBLE", "HT_WHISKEY", "PL_MONEY1", "PL_RESERVE"
    }  # fmt: skip


def test_a_link_needing_vanderbilt_coal_costs_more_than_market_coal(
    game: BrassPittsburgh,
) -> None:
    t = Table(game)
    t.state.money[0] = 5  # market coal at $2 is affordable, Vanderbilt's $7 is not
    market_cities = {t.board.node[c] for c in ("franklin", "greensburg", "washington")}
    lines = {site for link, site in network_options(t.rules, t.state, 0) if link == "LT"}
    assert lines == {i for i, ends in enumerate(t.board.line_nodes) if set(ends) & market_cities}


def test_a_second_link_costs_ten_dollars_more(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.state.money[0] = 12
    first = {s for link, s in network_options(t.rules, t.state, 0) if link == "LT"}
    second = {s for link, s in network_options(t.rules, t.state, 0, second=True) if link == "LT"}
    assert second < first and second


def test_the_link_tiles_offered_are_those_of_the_supply_as_it_is_now(
    game: BrassPittsburgh,
) -> None:
    # Each listing's link tiles and costs are kept by the supply's content: a tile
    # placed or the light trains used up must leave the next listing at once.
    t = Table(game)
    assert {link for link, _ in network_options(t.rules, t.state, 0)} >= {"LT", "HT_DOUBLE"}
    t.state.link_supply[0] = [x for x in t.state.link_supply[0] if x != "HT_DOUBLE"]
    t.state.light_trains[0] = 0
    links = {link for link, _ in network_options(t.rules, t.state, 0)}
    assert "HT_DOUBLE" not in links and "LT" not in links
    assert links == set(t.state.link_supply[0])


def test_the_develop_listing_follows_the_mat_as_it_is_now(game: BrassPittsburgh) -> None:
    # A mat's develop moves are kept by its content: a tile leaving the mat (its space
    # empties, opening the spaces it points to) changes the next listing.
    from plugins.brass_pittsburgh.building import develop_spaces
    from plugins.brass_pittsburgh.engine import Facts

    t = Table(game)
    v, s = t.rules.variant, t.state
    tables = t.rules.move_tables[s.side]  # the engine's moves
    s.money[0] = 100  # iron or steel affordable
    before = [m.space for m in v.develop_moves(Facts(t.rules, s, 0), 0, tables)]
    assert before == develop_spaces(t.rules, s, 0)
    s.mat[0][before[0]] = 0
    after = [m.space for m in v.develop_moves(Facts(t.rules, s, 0), 0, tables)]
    assert after == develop_spaces(t.rules, s, 0)
    assert before[0] not in after
