"""Brass: Pittsburgh markets: buying, selling produced cubes with money and printed VP.

Prices are those of the PROVISIONAL data set (0.1.0): coal 5/4/3/2, coke 10/9/8 at 4 VP.
"""

from __future__ import annotations

import pytest

from plugins.brass_pittsburgh.data import default_data
from plugins.brass_pittsburgh.markets import MarketLadder, sale_plans


def ladder(market: int, resource: str) -> MarketLadder:
    return MarketLadder(default_data().sides["main"].markets[market].ladders[resource])


@pytest.fixture
def coal() -> MarketLadder:
    return ladder(0, "coal")


@pytest.fixture
def coke() -> MarketLadder:
    return ladder(3, "coke")


def test_buying_takes_the_cheapest_filled_space(coal: MarketLadder) -> None:
    assert [coal.buy_price(n) for n in (4, 3, 2, 1)] == [2, 3, 4, 5]


def test_an_empty_market_sells_nothing(coal: MarketLadder) -> None:
    assert coal.buy_price(0) is None


def test_coke_market_starts_with_one_cube_in_its_top_space(coke: MarketLadder) -> None:
    assert coke.initial == 1
    assert coke.buy_price(coke.initial) == 10


def test_selling_coke_pays_the_space_price_and_four_vp_per_cube(coke: MarketLadder) -> None:
    sale = coke.sell(1, 2)
    assert (sale.sold, sale.money, sale.vp) == (2, 9 + 8, 8)


def test_selling_coal_earns_no_vp(coal: MarketLadder) -> None:
    sale = coal.sell(1, 2)
    assert (sale.sold, sale.money, sale.vp) == (2, 4 + 3, 0)


def test_a_full_market_takes_no_more_cubes() -> None:
    steel = ladder(3, "steel")
    assert steel.sell(steel.initial, 2).sold == 0


def test_produced_cubes_sell_as_many_as_possible() -> None:
    assert sorted(sale_plans([2, 1], 2)) == [(1, 1), (2, 0)]
    assert sale_plans([2, 1], 5) == [(2, 1)]
    assert sale_plans([0, 0], 3) == [(0, 0)]
