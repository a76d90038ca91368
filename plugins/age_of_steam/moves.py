"""Moves (commands) of Age of Steam. Hexes are given as ``col``/``row`` of the map grid."""

from __future__ import annotations

from typing import Literal

import msgspec

from plugins.age_of_steam.data import Action


class IssueShares(msgspec.Struct, tag="issue_shares", forbid_unknown_fields=True):
    """Issue ``count`` shares now (0 to issue none); each gives $5."""

    count: int


class BuyFirst(msgspec.Struct, tag="buy_first", forbid_unknown_fields=True):
    """St. Lucia: pay $5 to go first this turn."""


class DeclineFirst(msgspec.Struct, tag="decline_first", forbid_unknown_fields=True):
    """St. Lucia: do not pay for the first place."""


class Bid(msgspec.Struct, tag="bid", forbid_unknown_fields=True):
    amount: int


class DropOut(msgspec.Struct, tag="drop_out", forbid_unknown_fields=True):
    """Leave the turn-order auction."""


class TurnOrderPass(msgspec.Struct, tag="turn_order_pass", forbid_unknown_fields=True):
    """The Turn Order action's privilege: pass once without dropping out."""


class SelectAction(msgspec.Struct, tag="select_action", forbid_unknown_fields=True):
    action: Action


class Urbanize(msgspec.Struct, tag="urbanize", forbid_unknown_fields=True):
    """Place New City ``city`` (its letter) on the town at col/row, before building."""

    col: int
    row: int
    city: str


class Build(msgspec.Struct, tag="build", forbid_unknown_fields=True):
    """Lay, upgrade or redirect one tile: ``tile`` by name at ``rotation`` (clockwise sixths
    of a turn, the smallest rotation that gives the wanted picture)."""

    col: int
    row: int
    tile: str
    rotation: int


class DoneBuilding(msgspec.Struct, tag="done_building", forbid_unknown_fields=True):
    pass


class MoveGood(msgspec.Struct, tag="move_good", forbid_unknown_fields=True):
    """Move one ``color`` cube from col/row. ``steps`` lists, for each link, the side
    (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW) through which the cube leaves the city or town it is
    in; from a track hex (St. Lucia) the first step is the side it leaves that hex by."""

    col: int
    row: int
    color: str
    steps: list[int]


class RaiseEngine(msgspec.Struct, tag="raise_engine", forbid_unknown_fields=True):
    """Instead of moving a good this round, advance the engine by one link."""


class PassMove(msgspec.Struct, tag="pass_move", forbid_unknown_fields=True):
    pass


class PlaceCube(msgspec.Struct, tag="place_cube", forbid_unknown_fields=True):
    """Production: put the next drawn cube on an empty space of display column ``column``."""

    column: str


class DrawProduction(msgspec.Struct, tag="draw_production", forbid_unknown_fields=True):
    """System: draw the Production cubes from the bag.

    A chance move: ``cubes`` are the colours drawn, in order (two, or fewer when the
    display or the bag has less room or fewer cubes); the server draws them unless an
    imported record gives them."""

    cubes: list[str] | None = None


class Settle(msgspec.Struct, tag="settle", forbid_unknown_fields=True):
    """System: collect income, pay expenses, reduce income."""


class GrowGoods(msgspec.Struct, tag="grow_goods", forbid_unknown_fields=True):
    """System: roll the goods-growth dice and end the turn.

    A chance move: ``light`` and ``dark`` are the dice rolled (1 to 6, as many as the map
    rolls; an empty list for a set of columns the map does not have); the server rolls
    them unless an imported record gives both."""

    light: list[int] | None = None
    dark: list[int] | None = None


Move = (
    IssueShares | BuyFirst | DeclineFirst | Bid | DropOut | TurnOrderPass | SelectAction
    | Urbanize | Build | DoneBuilding | MoveGood | RaiseEngine | PassMove | PlaceCube
    | DrawProduction | Settle | GrowGoods
)  # fmt: skip

SystemMove = DrawProduction | Settle | GrowGoods
Kind = Literal["place", "upgrade", "redirect", "town", "town_upgrade"]
