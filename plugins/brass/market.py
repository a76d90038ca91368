"""A resource market: a ladder of spaces priced cheapest first, filled from the top.

The state of a market is one int, the number of cubes on it; cubes always occupy the most
expensive spaces, so the cheapest filled space is ``prices[len - count]``.
"""

from __future__ import annotations

from collections.abc import Sequence


class Market:
    """Prices (cheapest first), the price per cube bought beyond the market's cubes
    (``None``: the market cannot be bought from when empty), and optional VP printed on
    each space (paid with the money when a cube is sold into that space)."""

    def __init__(
        self, prices: Sequence[int], empty_price: int | None, vp: Sequence[int] = ()
    ) -> None:
        if sorted(prices) != list(prices):
            raise ValueError("market prices must be listed cheapest first")
        if vp and len(vp) != len(prices):
            raise ValueError("market VP must give one value per space")
        self.prices = list(prices)
        self.capacity = len(self.prices)
        self.empty_price = empty_price
        self.vp = list(vp) or [0] * self.capacity

    def buy_cost(self, count: int, k: int) -> int:
        """Money to buy ``k`` cubes from a market holding ``count``: cheapest first, then
        ``empty_price`` for each cube the market cannot provide."""
        if k > count and self.empty_price is None:
            raise ValueError("this market cannot sell more cubes than it holds")
        cost = 0
        for i in range(k):
            cost += self.prices[self.capacity - count + i] if i < count else self.empty_price
        return cost

    def sell(self, count: int, k: int) -> tuple[int, int]:
        """Offer ``k`` cubes to a market holding ``count``: returns ``(sold, money)``, filling
        the most expensive vacancies first."""
        sold = min(k, self.capacity - count)
        money = sum(self.prices[self.capacity - count - 1 - i] for i in range(sold))
        return sold, money

    def sell_vp(self, count: int, k: int) -> int:
        """VP printed on the spaces :meth:`sell` would fill."""
        sold = min(k, self.capacity - count)
        return sum(self.vp[self.capacity - count - 1 - i] for i in range(sold))
