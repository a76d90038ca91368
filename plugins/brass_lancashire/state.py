"""The game state (flat lists of ints) and the reducer that folds events into it.

The shared and board fields and events are the family's (:mod:`plugins.brass.board_state`);
this adds the distant market: the demand marker's space (``len(income_spaces)`` is X) and
the demand tiles still in the bag.
"""

from __future__ import annotations

from typing import Any

from plugins.brass import events as fev
from plugins.brass.board_state import BoardState, apply_board, start_fields
from plugins.brass_lancashire import events as ev
from plugins.brass_lancashire.data import COAL, IRON, Lancashire


class State(BoardState, kw_only=True):
    demand: int
    """The distant market's marker: a space of the track from the top, X past the last."""
    demand_left: list[int]
    """The demand tiles still to draw this era (spaces each moves the marker), sorted."""


def apply(d: Lancashire, s: State | None, e: Any) -> State:
    """Fold one event into ``s`` in place and return it (``s`` is None for ``Started``)."""
    t = type(e)
    if t is ev.Started:
        return State(**start_fields(d, e), demand=d.distant_market.start,
                     demand_left=list(d.demand_tiles[e.players]))  # fmt: skip
    assert s is not None
    if apply_board(d, COAL, IRON, s, e):
        if t is fev.EraBegan:  # the Canal Era's end: the distant market starts afresh
            s.demand, s.demand_left = d.distant_market.start, list(d.demand_tiles[s.players])
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
    return s
