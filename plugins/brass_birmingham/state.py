"""The game state (flat lists of ints) and the reducer that folds events into it.

The shared fields, the board and their events (cards, money, income, turns, rounds, eras,
tiles, links, cubes, markets) are the family's (:mod:`plugins.brass.state`,
:mod:`plugins.brass.board_state`); this adds the merchants. ``apply`` is the only code that
changes a state; ``decide`` runs it on a copy to see a move's consequences, so they cannot
disagree.
"""

from __future__ import annotations

from typing import Any

from plugins.brass import events as fev
from plugins.brass.board_state import BoardState, apply_board, start_fields
from plugins.brass.state import OVER, PLAY, SCORING
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham.data import COAL, IRON, Birmingham

CANAL, RAIL = 0, 1
__all__ = ["CANAL", "OVER", "PLAY", "RAIL", "SCORING", "State", "apply"]


class State(BoardState, kw_only=True):
    """The family board plus, per merchant space, its tile (-1 none) and beer barrel.
    ``wild_supply`` is ``[wild location cards, wild industry cards]``."""

    merchant_tile: list[int]
    merchant_beer: list[int]


def initial_state(d: Birmingham, e: ev.Started) -> State:
    return State(
        **start_fields(d, e, d.wild_supply), merchant_tile=list(e.merchants),
        merchant_beer=[int(t >= 0 and bool(d.merchant_accepts[t])) for t in e.merchants],
    )  # fmt: skip


def apply(d: Birmingham, s: State | None, e: Any) -> State:
    """Fold one event into ``s`` in place and return it (``s`` is None for ``Started``)."""
    t = type(e)
    if t is ev.Started:
        return initial_state(d, e)
    assert s is not None
    if apply_board(d, COAL, IRON, s, e):
        if t is fev.EraBegan:
            # the canal era's end also refills the merchants' beer
            for m, tile in enumerate(s.merchant_tile):
                if tile >= 0 and d.merchant_accepts[tile]:
                    s.merchant_beer[m] = 1
    elif t is ev.MerchantBeerTaken:
        s.merchant_beer[e.merchant] = 0
    elif t is ev.BonusGained:
        s.money[e.seat] += e.money
        s.vp[e.seat] += e.vp
        s.income[e.seat] = d.income.advance(s.income[e.seat], e.income)
    elif t is ev.Scouted:
        s.wild_supply[0] -= 1
        s.wild_supply[1] -= 1
        s.hands[e.seat] += [d.cards.wild_location, d.cards.wild_industry]
        s.hands[e.seat].sort()
    return s
