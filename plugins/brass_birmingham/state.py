"""The game state (flat lists of ints) and the reducer that folds events into it.

The shared fields and events (cards, money, income, turns, rounds, eras) are the family's
(:mod:`plugins.brass.state`); this adds the board. ``apply`` is the only code that changes
a state; ``decide`` runs it on a copy to see a move's consequences, so they cannot disagree.
"""

from __future__ import annotations

from typing import Any

from plugins.brass import events as fev
from plugins.brass.state import OVER, PLAY, SCORING, BrassState, apply_core, core_fields
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham.data import COAL, IRON, Birmingham

CANAL, RAIL = 0, 1
__all__ = ["CANAL", "OVER", "PLAY", "RAIL", "SCORING", "State", "apply"]


class State(BrassState, kw_only=True):
    """Shared fields plus the board: per build space (slot) its owner (-1 empty),
    industry, level, cubes or barrels and flip; per link line its owner; the markets;
    per merchant space its tile (-1 none) and beer barrel.
    ``wild_supply`` is ``[wild location cards, wild industry cards]``."""

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
    merchant_tile: list[int]
    merchant_beer: list[int]

    def clone(self) -> State:
        return State(
            **self.core_copy(), mat=[m[:] for m in self.mat], slot_owner=self.slot_owner[:],
            slot_ind=self.slot_ind[:], slot_level=self.slot_level[:],
            slot_cubes=self.slot_cubes[:], slot_flipped=self.slot_flipped[:],
            link_owner=self.link_owner[:], coal_market=self.coal_market,
            iron_market=self.iron_market, merchant_tile=self.merchant_tile[:],
            merchant_beer=self.merchant_beer[:],
        )  # fmt: skip


def initial_state(d: Birmingham, e: ev.Started) -> State:
    ns = d.n_slots
    core = core_fields(
        d.turn_rules, e.players, e.order, e.deck, e.hands, e.facedown,
        d.rules.starting_money, d.income.start_space, d.wild_supply,
    )  # fmt: skip
    return State(
        **core, mat=[[0] * 6 for _ in range(e.players)], slot_owner=[-1] * ns,
        slot_ind=[-1] * ns, slot_level=[0] * ns, slot_cubes=[0] * ns,
        slot_flipped=[False] * ns, link_owner=[-1] * d.n_links, coal_market=d.coal_initial,
        iron_market=d.iron_initial, merchant_tile=list(e.merchants),
        merchant_beer=[int(t >= 0 and bool(d.merchant_accepts[t])) for t in e.merchants],
    )  # fmt: skip


def clear_slot(s: State, slot: int) -> None:
    s.slot_owner[slot] = -1
    s.slot_ind[slot] = -1
    s.slot_level[slot] = 0
    s.slot_cubes[slot] = 0
    s.slot_flipped[slot] = False


def apply(d: Birmingham, s: State | None, e: Any) -> State:
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
            # the canal era's end: level I tiles leave, merchant beer is refilled
            for slot in range(d.n_slots):
                if s.slot_owner[slot] >= 0 and s.slot_level[slot] == 1:
                    clear_slot(s, slot)
            for m, tile in enumerate(s.merchant_tile):
                if tile >= 0 and d.merchant_accepts[tile]:
                    s.merchant_beer[m] = 1
    elif t is ev.Flipped:
        s.slot_flipped[e.slot] = True
        owner = s.slot_owner[e.slot]
        tile = d.tile(s.slot_ind[e.slot], s.slot_level[e.slot])
        s.income[owner] = d.income.advance(s.income[owner], tile.income)
    elif t is ev.TilePlaced:
        d.stacks.take(s.mat[e.seat], e.industry)
        s.slot_owner[e.slot] = e.seat
        s.slot_ind[e.slot] = e.industry
        s.slot_level[e.slot] = e.level
        s.slot_cubes[e.slot] = 0
        s.slot_flipped[e.slot] = False
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
    elif t is ev.MerchantBeerTaken:
        s.merchant_beer[e.merchant] = 0
    elif t is ev.BonusGained:
        s.money[e.seat] += e.money
        s.vp[e.seat] += e.vp
        s.income[e.seat] = d.income.advance(s.income[e.seat], e.income)
    elif t is ev.LoanTaken:
        s.money[e.seat] += e.amount
        s.income[e.seat] = e.space
    elif t is ev.Scouted:
        s.wild_supply[0] -= 1
        s.wild_supply[1] -= 1
        s.hands[e.seat] += [d.cards.wild_location, d.cards.wild_industry]
        s.hands[e.seat].sort()
    elif t is ev.Liquidated:
        clear_slot(s, e.slot)
        s.money[e.seat] += e.refund
    return s
