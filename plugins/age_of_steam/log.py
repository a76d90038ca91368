"""The event log as clients read it (``GET /matches/{id}/events``, field ``payload``).

Stored events keep compact facts (hexes as two integers, sections as integer lists with
sentinels for a town spoke and ownerless track). The log shows them in the view's terms:
hexes as ``"col,row"``, sections as ``{sides, owner, laid}`` with ``owner`` ``None`` for
ownerless track, seats as integers and per-seat figures as lists indexed by seat. Every
die and draw stays visible: nothing in Age of Steam is hidden. ``CLIENTS.md`` (The event
log) documents each form; its tests check every type of a full game against it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from plugins.age_of_steam import events as ev
from plugins.age_of_steam.data import board
from plugins.age_of_steam.state import OWNERLESS, TOWN


class _Log(msgspec.Struct, kw_only=True):
    pass


class HexSide(_Log, kw_only=True):
    hex: str
    side: int


class Section(_Log, kw_only=True):
    """As in the view's ``track``: one side for a town spoke, else the two sides joined."""

    sides: list[int]
    owner: int | None
    laid: int


class Gain(_Log, kw_only=True):
    seat: int
    amount: int


class StartedLog(_Log, kw_only=True):
    map: str
    players: int
    options: dict[str, Any]
    order: list[int]
    display: dict[str, list[str]]
    """Goods display column -> its cubes, bottom first (as in the view)."""
    goods: dict[str, list[str]]
    """Hex -> the cubes it starts with."""


class SeatCount(_Log, kw_only=True):
    seat: int
    count: int


class SeatOrder(_Log, kw_only=True):
    seat: int
    order: list[int] | None


class SeatAmount(_Log, kw_only=True):
    seat: int
    amount: int


class SeatOnly(_Log, kw_only=True):
    seat: int


class OrderLog(_Log, kw_only=True):
    order: list[int]
    paid: list[int]


class ActionLog(_Log, kw_only=True):
    seat: int
    action: str


class UrbanizedLog(_Log, kw_only=True):
    seat: int
    hex: str
    city: str


class TrackLog(_Log, kw_only=True):
    seat: int
    hex: str
    tile: str
    rotation: int
    kind: str
    cost: int
    sections: list[Section]
    claimed: list[HexSide]
    returned: str | None


class BuildingDoneLog(_Log, kw_only=True):
    seat: int
    abandoned: list[HexSide]


class GoodLog(_Log, kw_only=True):
    seat: int
    color: str
    start: str
    steps: list[int]
    end: str
    income: list[Gain]


class EngineLog(_Log, kw_only=True):
    seat: int
    during_move: bool


class DrawnLog(_Log, kw_only=True):
    seat: int
    cubes: list[str]


class PlacedLog(_Log, kw_only=True):
    seat: int
    column: str
    color: str


class IncomeLog(_Log, kw_only=True):
    income: list[int]


class ExpensesLog(_Log, kw_only=True):
    paid: list[int]
    income_lost: list[int]
    eliminated: list[int]


class ReducedLog(_Log, kw_only=True):
    reduced: list[int]


class GrowthLog(_Log, kw_only=True):
    light: list[int]
    dark: list[int]


class TurnLog(_Log, kw_only=True):
    turn: int
    game_over: bool
    scores: list[int] | None


FORMS: dict[str, type[_Log]] = {
    "started": StartedLog, "shares_issued": SeatCount, "first_bought": SeatOrder,
    "first_declined": SeatOrder, "bid_placed": SeatAmount, "passed_once": SeatOnly,
    "dropped_out": SeatOnly, "order_decided": OrderLog, "action_selected": ActionLog,
    "urbanized": UrbanizedLog, "track_built": TrackLog, "building_done": BuildingDoneLog,
    "good_moved": GoodLog, "engine_raised": EngineLog, "move_passed": SeatOnly,
    "production_drawn": DrawnLog, "cube_placed": PlacedLog, "income_collected": IncomeLog,
    "expenses_paid": ExpensesLog, "income_reduced": ReducedLog, "goods_grown": GrowthLog,
    "turn_ended": TurnLog,
}  # fmt: skip
"""Event type -> the Struct its log payload follows."""


def _hex(col: int, row: int) -> str:
    return f"{col},{row}"


def _sides(cells: list[tuple[int, int, int]]) -> list[HexSide]:
    return [HexSide(hex=_hex(col, row), side=side) for col, row, side in cells]


def _section(a: int, b: int, owner: int, laid: int) -> Section:
    return Section(
        sides=[a] if b == TOWN else [a, b], owner=None if owner == OWNERLESS else owner, laid=laid
    )


def readable(event: Any) -> _Log:
    """The log form of one stored event."""
    match event:
        case ev.Started():
            columns = zip(board(event.map).display_ids, event.display, strict=True)
            return StartedLog(
                map=event.map, players=event.players, options=dict(event.options),
                order=list(event.order), display={cid: list(c) for cid, c in columns},
                goods={_hex(col, row): list(cubes) for col, row, cubes in event.goods},
            )  # fmt: skip
        case ev.SharesIssued(seat=seat, count=count):
            return SeatCount(seat=seat, count=count)
        case ev.FirstBought(seat=seat, order=order) | ev.FirstDeclined(seat=seat, order=order):
            return SeatOrder(seat=seat, order=None if order is None else list(order))
        case ev.BidPlaced(seat=seat, amount=amount):
            return SeatAmount(seat=seat, amount=amount)
        case ev.PassedOnce(seat=seat) | ev.DroppedOut(seat=seat) | ev.MovePassed(seat=seat):
            return SeatOnly(seat=seat)
        case ev.OrderDecided(order=order, paid=paid):
            return OrderLog(order=list(order), paid=list(paid))
        case ev.ActionSelected(seat=seat, action=action):
            return ActionLog(seat=seat, action=action)
        case ev.Urbanized(seat=seat, col=col, row=row, city=city):
            return UrbanizedLog(seat=seat, hex=_hex(col, row), city=city)
        case ev.TrackBuilt():
            return TrackLog(
                seat=event.seat, hex=_hex(event.col, event.row), tile=event.tile,
                rotation=event.rotation, kind=event.kind, cost=event.cost,
                sections=[_section(*s) for s in event.sections],
                claimed=_sides(event.claimed), returned=event.returned,
            )  # fmt: skip
        case ev.BuildingDone(seat=seat, abandoned=abandoned):
            return BuildingDoneLog(seat=seat, abandoned=_sides(abandoned))
        case ev.GoodMoved():
            return GoodLog(
                seat=event.seat, color=event.color, start=_hex(event.col, event.row),
                steps=list(event.steps), end=_hex(event.to_col, event.to_row),
                income=[Gain(seat=s, amount=x) for s, x in event.income],
            )  # fmt: skip
        case ev.EngineRaised(seat=seat, during_move=during):
            return EngineLog(seat=seat, during_move=during)
        case ev.ProductionDrawn(seat=seat, cubes=cubes):
            return DrawnLog(seat=seat, cubes=list(cubes))
        case ev.CubePlaced(seat=seat, column=column, color=color):
            return PlacedLog(seat=seat, column=column, color=color)
        case ev.IncomeCollected(amounts=amounts):
            return IncomeLog(income=list(amounts))
        case ev.ExpensesPaid(paid=paid, income_lost=lost, eliminated=out):
            return ExpensesLog(paid=list(paid), income_lost=list(lost), eliminated=list(out))
        case ev.IncomeReduced(amounts=amounts):
            return ReducedLog(reduced=list(amounts))
        case ev.GoodsGrown(light=light, dark=dark):
            return GrowthLog(light=list(light), dark=list(dark))
        case ev.TurnEnded(turn=turn, game_over=over, scores=scores):
            return TurnLog(
                turn=turn, game_over=over, scores=None if scores is None else list(scores)
            )
    raise TypeError(f"not an Age of Steam event: {type(event).__name__}")


def redact(event: Any) -> dict[str, Any]:
    return msgspec.to_builtins(readable(event))
