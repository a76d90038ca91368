"""Brass: Birmingham's static facts for the greedy bot (:mod:`plugins.brass.knowledge`)."""

from __future__ import annotations

from functools import cache

from plugins.brass.knowledge import Knowledge, Line, TileFacts
from plugins.brass_birmingham.data import (
    BREWERY,
    COAL,
    INDUSTRIES,
    IRON,
    SELLABLE,
    Birmingham,
    birmingham,
)

RESOURCE = {COAL: "coal", IRON: "iron", BREWERY: "beer"}


def tile_key(industry: str, level: int) -> str:
    """How the bot keys a Birmingham tile: ``"cotton:2"``."""
    return f"{industry}:{level}"


def knowledge_of(d: Birmingham) -> Knowledge:
    tiles = {}
    for ind, rows in enumerate(d.tiles):
        for t in rows:
            cubes = {k: n for k, n in (("coal", t.coal), ("iron", t.iron)) if n}
            tiles[tile_key(INDUSTRIES[ind], t.level)] = TileFacts(
                industry=INDUSTRIES[ind], level=t.level, money=t.money, cubes=cubes,
                sale_need=t.beer, income=t.income, vp=t.vp, icons=t.link_icons,
                produces=(t.produce_canal, t.produce_rail), resource=RESOURCE.get(ind, ""),
                flip="sell" if ind in SELLABLE else "deplete", eras=(t.canal, t.rail),
                develop=t.develop, leaves_after_first_era=t.level == 1,
            )  # fmt: skip
    names = [loc.id for loc in d.locations]
    lines = {
        name: Line(ends=tuple(names[n] for n in nodes), eras=(canal, rail))
        for name, nodes, canal, rail in zip(
            d.link_names, d.link_nodes, d.link_canal, d.link_rail, strict=True
        )
    }
    slots = {
        names[loc]: tuple(tuple(INDUSTRIES[k] for k in d.slot_icons[s]) for s in loc_slots)
        for loc, loc_slots in enumerate(d.loc_slots)
        if loc_slots
    }
    r = d.rules
    return Knowledge(
        tiles=tiles, lines=lines, printed_icons=dict(zip(names, d.loc_icons, strict=True)),
        slots=slots, income_levels=tuple(d.income.levels),
        rounds_per_era={p: sum(c) // (2 * p) for p, c in d.deck_copies.items()},
        loan_amount=r.loan_amount, loan_levels=r.loan_levels,
        link_money=(r.canal_link_cost, r.rail_link_cost), link_cubes=(0, r.coal_per_rail),
        second_link_money=r.double_rail_cost - r.rail_link_cost,
        stacks={INDUSTRIES[k]: tuple(seq) for k, seq in enumerate(d.stacks.sequence)},
        game="birmingham",
    )  # fmt: skip


@cache
def knowledge() -> Knowledge:
    """The shipped data's facts, built once per process."""
    return knowledge_of(birmingham())
