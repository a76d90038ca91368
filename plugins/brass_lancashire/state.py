"""The game state (flat lists of ints) and the reducer that folds events into it.

The shared fields and events are the family's (:mod:`plugins.brass.state`); this adds the
board (Birmingham's board fields, without merchants) and the distant market: the demand
marker's space (``len(income_spaces)`` is X) and the demand tiles still in the bag.
"""

from __future__ import annotations

from typing import Any

from plugins.brass import events as fev
from plugins.brass.state import BrassState, apply_core, core_fields
from plugins.brass_lancashire import events as ev
from plugins.brass_lancashire.data import COAL, INDUSTRIES, IRON, Lancashire


class State(BrassState, kw_only=True):
    mat: list[list[int]]
    """Per seat, per industry: tiles already taken off that stack."""
    slot_owner: list[int]
    slot_ind: list[int]
    slot_level: list[int]
    slot_cubes: list[int]
    slot_flipped: list[bool]
    link_owner: list[int]
    coal_market: int
    iron_market: int
    demand: int
    """The distant market's marker: a space of the track from the top, X past the last."""
    demand_left: list[int]
    """The demand tiles still to draw this era (spaces each moves the marker), sorted."""

    def clone(self) -> State:
        return State(
            **self.core_copy(), mat=[m[:] for m in self.mat], slot_owner=self.slot_owner[:],
            slot_ind=self.slot_ind[:], slot_level=self.slot_level[:],
            slot_cubes=self.slot_cubes[:], slot_flipped=self.slot_flipped[:],
            link_owner=self.link_owner[:], coal_market=self.coal_market,
            iron_market=self.iron_market, demand=self.demand, demand_left=self.demand_left[:],
        )  # fmt: skip


def initial_state(d: Lancashire, e: ev.Started) -> State:
    ns, m = d.n_slots, d.markets
    core = core_fields(d.turn_rules, e.players, e.order, e.deck, e.hands, e.facedown,
                       d.rules.starting_money, d.income.start_space)  # fmt: skip
    return State(
        **core, mat=[[0] * len(INDUSTRIES) for _ in range(e.players)], slot_owner=[-1] * ns,
        slot_ind=[-1] * ns, slot_level=[0] * ns, slot_cubes=[0] * ns,
        slot_flipped=[False] * ns, link_owner=[-1] * d.n_links, coal_market=m.coal.initial,
        iron_market=m.iron.initial, demand=d.distant_market.start,
        demand_left=list(d.demand_tiles[e.players]),
    )  # fmt: skip


def clear_slot(s: State, slot: int) -> None:
    s.slot_owner[slot], s.slot_ind[slot], s.slot_level[slot] = -1, -1, 0
    s.slot_cubes[slot], s.slot_flipped[slot] = 0, False


def apply(d: Lancashire, s: State | None, e: Any) -> State:
    """Fold one event into ``s`` in place and return it (``s`` is None for ``Started``)."""
    t = type(e)
    if t is ev.Started:
        return initial_state(d, e)
    assert s is not None
    if t is ev.CubeTaken:
        s.slot_cubes[e.slot] -= 1
    elif apply_core(d.turn_rules, s, e):
        if t is fev.EraScored:
            s.link_owner = [-1] * d.n_links
        elif t is fev.EraBegan:
            # the Canal Era's end: level 1 tiles leave, the distant market starts afresh
            gone = d.rules.level_removed_after_canal_era
            for slot in range(d.n_slots):
                if s.slot_owner[slot] >= 0 and s.slot_level[slot] == gone:
                    clear_slot(s, slot)
            s.demand, s.demand_left = d.distant_market.start, list(d.demand_tiles[s.players])
    elif t is ev.Flipped:
        s.slot_flipped[e.slot] = True
        owner = s.slot_owner[e.slot]
        tile = d.tile(s.slot_ind[e.slot], s.slot_level[e.slot])
        s.income[owner] = d.income.advance(s.income[owner], tile.income)
    elif t is ev.TilePlaced:
        d.stacks.take(s.mat[e.seat], e.industry)
        s.slot_owner[e.slot], s.slot_ind[e.slot], s.slot_level[e.slot] = e.seat, e.industry, e.level
        s.slot_cubes[e.slot], s.slot_flipped[e.slot] = 0, False
    elif t is ev.LinkPlaced:
        s.link_owner[e.link] = e.seat
    elif t is ev.MarketBought:
        if e.resource == "coal":
            s.coal_market = max(0, s.coal_market - e.count)
        else:
            s.iron_market = max(0, s.iron_market - e.count)
    elif t is ev.Produced:
        s.slot_cubes[e.slot] = e.cubes - e.sold
        if s.slot_ind[e.slot] == COAL:
            s.coal_market += e.sold
        elif s.slot_ind[e.slot] == IRON:
            s.iron_market += e.sold
        s.money[s.slot_owner[e.slot]] += e.money
    elif t is ev.TileDeveloped:
        d.stacks.take(s.mat[e.seat], e.industry)
    elif t is ev.LoanTaken:
        s.money[e.seat] += e.amount
        s.income[e.seat] = e.space
    elif t is ev.DoubleActionTaken:
        s.actions_left -= 1
    elif t is ev.DemandTileDrawn:
        s.demand_left.remove(e.tile)
        spaces = d.distant_market.income_spaces
        s.demand = min(len(spaces), s.demand + e.tile)
        if s.demand < len(spaces):
            s.income[e.seat] = d.income.advance(s.income[e.seat], spaces[s.demand])
    elif t is ev.MoneyScored:
        for seat, vp in enumerate(e.vp):
            s.vp[seat] += vp
    elif t is ev.Liquidated:
        clear_slot(s, e.slot)
        s.money[e.seat] += e.refund
    return s
