"""Pittsburgh's actions on the family engine: Build, Network, Develop, Sell, Loan and Pass
are the family's (:mod:`plugins.brass.actions`) with the overrides of
:class:`..variant.PittsburghVariant`; their rules are here, one module each where they are
long: a build's in :mod:`.build`, a link's in :mod:`.network`, a sale's own steps in
:mod:`.sell`. Each diagnoses a refused move by the rule text's steps in order (the card,
where the tile or link goes, then the cost; the codes are documented in CLIENTS.md,
"Refusals"), exactly: a move no rule refuses is listed (``tests/test_bp_refusals.py``).
Here: what they share, the costs, rewards and flips.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from plugins.brass.actions import Refusal
from plugins.brass.events import Step
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh.choices import payment_table
from plugins.brass_pittsburgh.finance import drop_income
from plugins.brass_pittsburgh.rewards import Gains, gains
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State

if TYPE_CHECKING:
    from plugins.brass.turn import TurnResolver


def in_range(index: int, size: int) -> bool:
    return 0 <= index < size


def income_floor(rules: Rules, s: State, seat: int, levels: int, what: str) -> Refusal:
    """Nothing may take an income level below -10."""
    if drop_income(rules.income, s.income[seat], levels) is None:
        return (
            "income_floor",
            f"{what} would take your income level below -10 (it costs {levels} levels)",
        )
    return None


def cost_refusal(
    rules: Rules,
    s: State,
    seat: int,
    money: int,
    cubes: Iterable[tuple[str, int]],
    nodes: Iterable[int],
    exclude_line: int = -1,
    worst: int = 0,
) -> Refusal:
    """Money first, then the cheapest delivery of each cube (Vanderbilt reaches anywhere, so
    a cube always has a source: what can fail is the price). ``worst``: the cubes all
    bought from Vanderbilt, the most they cost: a seat who can pay that can pay the
    cheapest plan, not worked out then (as the listings settle it)."""
    have = s.money[seat]
    if money > have:
        return ("cannot_afford", f"this costs ${money} and you have ${have}")
    if worst and money + worst <= have:
        return None
    cubes = list(cubes)
    if not cubes:
        return None
    table = payment_table(rules, s, seat)
    nodes = sorted(nodes)
    prices = {cube: table.cheapest(nodes, cube, n, exclude_line) for cube, n in cubes}
    if money + sum(prices.values()) > have:
        named = ", ".join(f"{n} {cube} (${prices[cube]})" for cube, n in cubes)
        return (
            "resources_unaffordable",
            f"with ${money} to pay, you cannot also buy {named} delivered at the cheapest "
            f"(markets or Vanderbilt): you have ${have}",
        )
    return None


def reward(r: TurnResolver, seat: int, g: Gains, queue: list[Step], front: bool = True) -> None:
    """Pay ``g``; free develops and bonus sells become offers to the acting seat, before
    the rest of ``queue`` (``front``) or after it."""
    r.emit_all(gained(seat, g))
    offers = []
    if g.free_develops:
        offers.append(Step("free_develop", g.free_develops))
    offers += [Step("bonus_sell") for _ in range(g.bonus_sells)]
    if offers and front:
        queue[0:0] = offers
    elif offers:
        queue += offers


def gained(seat: int, g: Gains) -> list[ev.Gained]:
    if not (g.money or g.income_spaces or g.vp or g.whiskey):
        return []
    return [
        ev.Gained(
            seat=seat, money=g.money, income_spaces=g.income_spaces, vp=g.vp, whiskey=g.whiskey
        )
    ]


def flip_events(rules: Rules, s: State, slot: int) -> list[Any]:
    """A tile emptied of its cubes flips and pays its owner (income, money)."""
    tile = rules.data.mat.tiles[s.slot_tile[slot]]
    owner = s.slot_owner[slot]
    level = rules.income.level(s.income[owner])
    return [ev.TileFlipped(slot), *gained(owner, gains(tile.flip_reward, level))]
