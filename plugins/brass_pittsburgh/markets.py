"""Pittsburgh's six markets: coal and iron inside the map, coke and steel on its edge.

Each market holds one ladder per resource it trades. A ladder is a
:class:`plugins.brass.market.Market` (cubes occupy the dearest spaces; buying takes the
cheapest filled space, selling fills the dearest empty one) with the VP printed on each
space, which a seller gains for every space their cubes fill (4 VP per coke cube).

Pittsburgh's markets never sell what they do not have: an empty ladder cannot be bought
from. The player turns to another source or to Vanderbilt (see :mod:`.board`).

Produced cubes are sold only when their industry is built: as many as possible into the
connected markets, in an order the player chooses. A *plan* says how many cubes go to each
connected market; every plan sells the same number, but money and VP may differ.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import msgspec

from plugins.brass.market import Market as LadderPrices
from plugins.brass_pittsburgh.data import Ladder, Market


class Sale(msgspec.Struct, frozen=True):
    sold: int
    money: int
    vp: int


class MarketLadder:
    """One resource's ladder of one market; its state is the number of cubes on it."""

    def __init__(self, ladder: Ladder) -> None:
        self.capacity = len(ladder.prices)
        # No empty price: Pittsburgh refuses to buy from an empty ladder.
        self.prices = LadderPrices(ladder.prices, empty_price=None, vp=[ladder.vp] * self.capacity)
        self.initial = ladder.initial
        self._offers = [
            tuple(self.prices.buy_cost(held - k, 1) for k in range(held))
            for held in range(self.capacity + 1)
        ]
        self.lowest = min(self._offers[self.capacity])
        """The least this ladder ever asks for a cube."""

    def offers(self, cubes: int) -> tuple[int, ...]:
        """The prices of buying out a ladder holding ``cubes``, one cube after another
        (cheapest first)."""
        return self._offers[cubes]

    def buy_price(self, cubes: int) -> int | None:
        """Price of the next cube bought, or ``None`` when the ladder is empty."""
        return self.prices.buy_cost(cubes, 1) if cubes > 0 else None

    def vacancies(self, cubes: int) -> int:
        return self.capacity - cubes

    def sell(self, cubes: int, k: int) -> Sale:
        """Offer ``k`` cubes to a ladder holding ``cubes``: they fill the dearest empty
        spaces, each paying its price and printed VP."""
        sold, money = self.prices.sell(cubes, k)
        return Sale(sold=sold, money=money, vp=self.prices.sell_vp(cubes, k))


def sale_plans(vacancies: Sequence[int], produced: int) -> list[tuple[int, ...]]:
    """Every way to split ``produced`` cubes among markets with these vacancies so that as
    many as possible are sold: each plan gives the count per market, in order."""
    target = min(produced, sum(vacancies))
    return [
        plan
        for plan in itertools.product(*(range(v + 1) for v in vacancies))
        if sum(plan) == target
    ]


def market_ladders(markets: Sequence[Market]) -> list[dict[str, MarketLadder]]:
    """The ladders of each market of a board side, by resource."""
    return [{res: MarketLadder(ladder) for res, ladder in m.ladders.items()} for m in markets]
