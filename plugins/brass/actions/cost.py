"""Paying for a tile, a link or a development: money, plus coal and iron cubes.

The rule ("Coal: nearest first", "Iron: no connection", "Market buying and replenishment"
in the Birmingham rule text): cubes on the board are free. Coal must come from a mine
connected to where it is used; what the connected mines lack is bought from the coal
market, which needs a connection to a trade point. Iron comes from any works, connected or
not, and what the board lacks is bought from the iron market, which needs no connection.
A market with no cube left still sells at its empty price.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from plugins.brass.actions import Refusal

if TYPE_CHECKING:
    from plugins.brass.facts import Facts
    from plugins.brass.variant import Variant


def cost_floor(v: Variant, f: Facts, money: int, iron: int) -> int:
    """The least a cost of ``money`` and ``iron`` (plus any coal) can come to anywhere:
    iron needs no connection, and the coal may all come free from a connected mine."""
    short = iron - f.board_iron() if iron else 0
    return money + v.d.iron_market.buy_cost(f.s.iron_market, short) if short > 0 else money


def cost_total(
    v: Variant, f: Facts, nodes: Sequence[int], money: int, coal: int, iron: int
) -> int | None:
    """What ``money`` plus ``coal`` delivered to ``nodes`` and ``iron`` comes to with the
    cubes bought, or ``None`` when the coal cannot be had at all."""
    extra = coal_cost(v, f, nodes, coal) if coal else 0
    return None if extra is None else cost_floor(v, f, money, iron) + extra


def coal_cost(v: Variant, f: Facts, nodes: Sequence[int], coal: int) -> int | None:
    """What ``coal`` delivered to ``nodes`` adds to :func:`cost_floor`: the market price
    of what the connected mines lack, or ``None`` when the market is out of reach. (A
    listing asks it once per connected group and amount, for every tile it settles.)"""
    short = coal - f.board_coal(nodes)
    if short <= 0:
        return 0
    if not f.reaches_trade(nodes):
        return None
    return v.d.coal_market.buy_cost(f.s.coal_market, short)


def cost_code(
    v: Variant, f: Facts, seat: int, nodes: Sequence[int], money: int, coal: int, iron: int
) -> str | None:
    """Can ``seat`` pay ``money`` plus ``coal`` delivered to ``nodes`` and ``iron``? The
    refusal's code only (a listing discards it): :func:`cost_refusal` adds the words."""
    total = cost_total(v, f, nodes, money, coal, iron)
    if total is None:
        return "no_coal"
    if total > f.s.money[seat]:
        return "cannot_afford"
    return None


def cost_refusal(
    v: Variant, f: Facts, seat: int, nodes: Sequence[int], money: int, coal: int, iron: int
) -> Refusal:
    """:func:`cost_code`, with the rule in words."""
    code = cost_code(v, f, seat, nodes, money, coal, iron)
    if code == "no_coal":
        return (
            code,
            "coal must come from a connected mine, or from the market through a "
            "connection to a merchant location; neither is available",
        )
    if code == "cannot_afford":
        total = cost_total(v, f, nodes, money, coal, iron)
        return (code, f"this costs £{total} with resources; you have £{f.s.money[seat]}")
    return None
