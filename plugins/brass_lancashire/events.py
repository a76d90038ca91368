"""Brass: Lancashire events: the family's (:mod:`plugins.brass.events`) and three of its own.
Its pending step kinds are the family's plus ``demand`` (the mill on slot ``a`` is being
sold to the distant market: the server draws a demand tile, a chance move)."""

from __future__ import annotations

import msgspec

from plugins.brass import events as f


class Started(f.Started, frozen=True):
    """The first deal: hands, the cards under the Deck tile (``facedown``, set aside for
    the Canal Era) and the deck; the turn order."""


class DoubleActionTaken(msgspec.Struct, tag="double_action_taken", frozen=True):
    """The seat spends both actions of its turn on one Double Action Build (the action's
    ``action_done`` counts the second)."""

    seat: int


class DemandTileDrawn(msgspec.Struct, tag="demand_tile_drawn", frozen=True):
    """A distant-market sale of the mill on ``slot``: the tile drawn moves the demand marker
    down ``tile`` spaces; unless it reaches X, the seller gains the income spaces beside its
    new space (the mill's flip follows as its own event)."""

    seat: int
    slot: int
    tile: int


class MoneyScored(msgspec.Struct, tag="money_scored", frozen=True):
    """The game's end: each seat's VP for its money (1 per full £10)."""

    vp: list[int]


Event = (
    Started | f.Discarded | f.Paid | f.TilePlaced | f.LinkPlaced | f.TileDeveloped | f.CubeTaken
    | f.MarketBought | f.Produced | f.Flipped | f.LoanTaken | DoubleActionTaken
    | DemandTileDrawn | f.Awaiting | f.ActionDone | f.Drew | f.Liquidated | f.RoundEnded
    | f.EraScored | MoneyScored | f.EraBegan | f.GameEnded
)  # fmt: skip
