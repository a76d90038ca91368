"""Events of Age of Steam. Each carries the facts it records (dice, draws, payments), so
folding them never decides anything again."""

from __future__ import annotations

from typing import Any

import msgspec


class Started(msgspec.Struct, tag="started", kw_only=True):
    map: str
    players: int
    options: dict[str, Any]
    order: list[int]
    display: list[list[str]]
    goods: list[tuple[int, int, list[str]]]
    """(col, row, cubes) for every hex that starts with cubes."""


class SharesIssued(msgspec.Struct, tag="shares_issued"):
    seat: int
    count: int


class FirstBought(msgspec.Struct, tag="first_bought"):
    seat: int
    order: list[int]


class FirstDeclined(msgspec.Struct, tag="first_declined"):
    seat: int
    order: list[int] | None = None
    """Set when this decline settles the order."""


class BidPlaced(msgspec.Struct, tag="bid_placed"):
    seat: int
    amount: int


class PassedOnce(msgspec.Struct, tag="passed_once"):
    seat: int


class DroppedOut(msgspec.Struct, tag="dropped_out"):
    seat: int


class OrderDecided(msgspec.Struct, tag="order_decided"):
    order: list[int]
    paid: list[int]
    """What each seat paid for its place (seat-indexed)."""


class ActionSelected(msgspec.Struct, tag="action_selected"):
    seat: int
    action: str


class Urbanized(msgspec.Struct, tag="urbanized"):
    seat: int
    col: int
    row: int
    city: str


class TrackBuilt(msgspec.Struct, tag="track_built", kw_only=True):
    seat: int
    col: int
    row: int
    tile: str
    rotation: int
    kind: str
    cost: int
    sections: list[list[int]]
    """The hex's sections after the build: [side_a, side_b or 6 for a town spoke, owner,
    turn laid]."""
    claimed: list[tuple[int, int, int]] = []
    """(col, row, side) of each ownerless section this build made the builder's."""
    returned: str | None = None
    """The tile taken off the board by an upgrade or redirect, back to the supply."""


class BuildingDone(msgspec.Struct, tag="building_done", kw_only=True):
    seat: int
    abandoned: list[tuple[int, int, int]] = []
    """(col, row, side) of each section of this seat's unfinished track that was not
    extended in time and became ownerless."""


class GoodMoved(msgspec.Struct, tag="good_moved", kw_only=True):
    seat: int
    col: int
    row: int
    color: str
    steps: list[int]
    to_col: int
    to_row: int
    income: list[tuple[int, int]]
    """(seat, income gained) per link owner."""


class EngineRaised(msgspec.Struct, tag="engine_raised"):
    seat: int
    during_move: bool = True


class MovePassed(msgspec.Struct, tag="move_passed"):
    seat: int


class ProductionDrawn(msgspec.Struct, tag="production_drawn"):
    seat: int
    cubes: list[str]


class CubePlaced(msgspec.Struct, tag="cube_placed"):
    seat: int
    column: str
    color: str


class IncomeCollected(msgspec.Struct, tag="income_collected"):
    amounts: list[int]


class ExpensesPaid(msgspec.Struct, tag="expenses_paid"):
    paid: list[int]
    income_lost: list[int]
    eliminated: list[int]


class IncomeReduced(msgspec.Struct, tag="income_reduced"):
    amounts: list[int]


class GoodsGrown(msgspec.Struct, tag="goods_grown"):
    light: list[int]
    dark: list[int]


class TurnEnded(msgspec.Struct, tag="turn_ended"):
    turn: int
    game_over: bool
    scores: list[int] | None = None


Event = (
    Started | SharesIssued | FirstBought | FirstDeclined | BidPlaced | PassedOnce | DroppedOut
    | OrderDecided | ActionSelected | Urbanized | TrackBuilt | BuildingDone | GoodMoved
    | EngineRaised | MovePassed | ProductionDrawn | CubePlaced | IncomeCollected
    | ExpensesPaid | IncomeReduced | GoodsGrown | TurnEnded
)  # fmt: skip
