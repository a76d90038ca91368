"""The board every Brass game on the family engine keeps, and the reducer of its events.

:class:`BoardState` adds to the shared :class:`~plugins.brass.state.BrassState` the
player mats, the build spaces ("slots": owner, industry, level, cubes, flip), the link
lines and the coal and iron markets, as flat lists of ints; :func:`apply_board` folds the
family's board events (:mod:`plugins.brass.events`) into it. A game subclasses
:class:`BoardState` for its own fields (Birmingham's merchants) and calls
:func:`apply_board` from its reducer.

The era change the family folds into the events: a scored era's links leave the board
(``EraScored``) and, when the next era begins (``EraBegan``), every level 1 tile leaves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plugins.brass import events as ev
from plugins.brass.state import BrassState, apply_core, core_fields


class BoardState(BrassState, kw_only=True):
    """Shared fields plus the board: per build space (slot) its owner (-1 empty),
    industry, level, cubes and flip; per link line its owner; the markets' cubes."""

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


def board_fields(d: Any, players: int, industries: int) -> dict[str, Any]:
    """Keyword arguments of an empty board at the start of the game."""
    ns = d.n_slots
    return dict(
        mat=[[0] * industries for _ in range(players)], slot_owner=[-1] * ns,
        slot_ind=[-1] * ns, slot_level=[0] * ns, slot_cubes=[0] * ns,
        slot_flipped=[False] * ns, link_owner=[-1] * d.n_links, coal_market=d.coal_initial,
        iron_market=d.iron_initial,
    )  # fmt: skip


def start_fields(d: Any, e: Any, wild_supply: Sequence[int] = ()) -> dict[str, Any]:
    """Keyword arguments of the state a board's first deal ``e`` (its ``Started`` event:
    players, order, deck, hands, facedown) starts: the family's fields and an empty board
    (``d``: the board data, with ``turn_rules``, ``rules.starting_money`` and ``income``)."""
    core = core_fields(d.turn_rules, e.players, e.order, e.deck, e.hands, e.facedown,
                       d.rules.starting_money, d.income.start_space, wild_supply)  # fmt: skip
    return {**core, **board_fields(d, e.players, len(d.industries))}


def clear_slot(s: BoardState, slot: int) -> None:
    s.slot_owner[slot] = -1
    s.slot_ind[slot] = -1
    s.slot_level[slot] = 0
    s.slot_cubes[slot] = 0
    s.slot_flipped[slot] = False


def apply_board(d: Any, coal: int, iron: int, s: BoardState, e: Any) -> bool:
    """Fold a shared or board event into ``s`` in place (``coal`` and ``iron``: those
    industries' indices); ``False`` if ``e`` is none of them."""
    t = type(e)
    if t is ev.CubeTaken:
        s.slot_cubes[e.slot] -= 1
    elif apply_core(d.turn_rules, s, e):
        if t is ev.EraScored:
            s.link_owner = [-1] * d.n_links
        elif t is ev.EraBegan:
            for slot in range(d.n_slots):
                if s.slot_owner[slot] >= 0 and s.slot_level[slot] == 1:
                    clear_slot(s, slot)
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
        if s.slot_ind[e.slot] == coal:
            s.coal_market += e.sold
        elif s.slot_ind[e.slot] == iron:
            s.iron_market += e.sold
        s.money[s.slot_owner[e.slot]] += e.money
    elif t is ev.TileDeveloped:
        d.stacks.take(s.mat[e.seat], e.industry)
    elif t is ev.LoanTaken:
        s.money[e.seat] += e.amount
        s.income[e.seat] = e.space
    elif t is ev.Liquidated:
        clear_slot(s, e.slot)
        s.money[e.seat] += e.refund
    else:
        return False
    return True
