"""What clients read: the view document, the pending decision in words, the readable log,
its payload shapes and the static board; every id is a name the moves accept."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from plugins.brass import client as fc
from plugins.brass import events as fev
from plugins.brass.hidden import dealt
from plugins.brass.layout import served
from plugins.brass.log import redact_log
from plugins.brass.log_payloads import _Payload, family_payloads
from plugins.brass.log_payloads import served as payload
from plugins.brass.mat import EMPTY
from plugins.brass_lancashire import events as ev
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire
from plugins.brass_lancashire.names import Names
from plugins.brass_lancashire.state import State

ERAS = ("canal", "rail")
ACTIONS = ["build", "double_build", "network", "develop", "sell", "loan", "pass"]


class Decision(fc.Decision, kw_only=True):
    location: str | None = None
    space: str | None = None
    link: str | None = None


class PlayerView(fc.PlayerCore, kw_only=True):
    hand_count: int
    discards: list[str]
    facedown_count: int
    """Cards under the Deck tile (Canal Era), unseen by all."""
    next_tiles: dict[str, int | None]
    """Level of the lowest tile left on each industry stack (``None``: stack empty)."""
    tiles_left: dict[str, int]
    links_left: int


class TileView(fc.Doc, kw_only=True):
    space: str
    location: str
    owner: int
    industry: str
    level: int
    flipped: bool
    resources: int
    """Coal cubes on a mine, iron on a works; 0 on other tiles."""


class LinkView(fc.Doc, kw_only=True):
    link: str
    ends: list[str]
    owner: int
    kind: Literal["canal", "rail"]


class MarketView(fc.Doc, kw_only=True):
    cubes: int
    capacity: int
    buy_price: int
    sell_price: int | None


class DistantMarketView(fc.Doc, kw_only=True):
    marker: int
    """The demand marker's space from the top (0); ``len(income_spaces)`` is X."""
    closed: bool
    income: int | None
    """Income spaces a sale now would pay were the tile drawn a 0 (``None`` at X)."""
    income_spaces: list[int]
    tiles_left: list[int]
    """The demand tiles still in the bag (spaces each moves the marker down), sorted."""


class ViewDoc(fc.Doc, kw_only=True):
    seat: int | None
    era: Literal["canal", "rail"]
    round: int
    phase: Literal["play", "scoring", "over"]
    order: list[int]
    turn_seat: int | None
    actions_left: int
    decision: Decision
    pending: list[fc.StepView]
    players: list[PlayerView]
    hand: list[str] | None
    deck_count: int
    tiles: list[TileView]
    links: list[LinkView]
    markets: dict[str, MarketView]
    distant_market: DistantMarketView


def describe(d: Lancashire, names: Names, step: fev.Step, actions_left: int = 0) -> Decision:
    """The pending step as a decision a client can act on."""
    k, n = step.kind, step.n
    if k == "discard":
        return Decision(kind="discard", moves=["discard"], count=n, prompt=f"discard {n} "
                        f"card{'s' if n > 1 else ''} to pay for the action")  # fmt: skip
    if k in ("coal", "link_coal"):
        where = names.location[step.a] if k == "coal" else names.link[step.a]
        return Decision(kind="pick_coal", moves=["pick_coal"], count=n,
                        location=where if k == "coal" else None,
                        link=where if k == "link_coal" else None,
                        prompt=f"{n} coal still needed for {where}: choose among the tied "
                        "nearest connected mines (by space)")  # fmt: skip
    if k == "iron":
        return Decision(kind="pick_iron", moves=["pick_iron"], count=n, prompt=f"{n} iron "
                        "still needed: choose the iron works (by space)")  # fmt: skip
    if k == "demand":
        return Decision(kind="demand_draw", moves=[], space=names.space[step.a], prompt="the "
                        "server draws a distant-market demand tile for this sale")  # fmt: skip
    offers = {"more_link": ("second_link", "add a second rail (£10 more and its coal)"),
              "more_sell": ("sell_also", "sell another cotton mill in this action"),
              "more_develop": ("develop_also", "develop a second tile (one more iron)")}
    if k in offers:
        kind, what = offers[k]
        return Decision(kind=kind, moves=[kind, "done"], prompt=f"{what}, or finish with done")
    if k == "liquidate":
        return Decision(kind="liquidate", moves=["liquidate"], count=n, prompt=f"£{n} of "
                        "income cannot be paid: remove one of your industries (by space) for "
                        "half its cost")  # fmt: skip
    return Decision(kind="action", moves=ACTIONS,
                    prompt=f"choose an action ({actions_left} left this turn)")  # fmt: skip


def _market(market: Any, cubes: int) -> MarketView:
    sold, money = market.sell(cubes, 1)
    return MarketView(cubes=cubes, capacity=market.capacity, buy_price=market.buy_cost(cubes, 1),
                      sell_price=money if sold else None)  # fmt: skip


def view(d: Lancashire, names: Names, s: State, seat: int | None) -> dict[str, Any]:
    kind, spaces = ERAS[s.era], d.distant_market.income_spaces
    closed = s.demand >= len(spaces)
    doc = ViewDoc(
        seat=seat, era=kind, **fc.turn_fields(s, seat, names.card),
        decision=fc.current_decision(s, lambda st, left: describe(d, names, st, left), Decision),
        players=[
            PlayerView(
                **fc.player_fields(d.income, s, i, names.card),
                next_tiles={n: None if lvl == EMPTY else lvl for n, lvl in zip(INDUSTRIES, (
                    d.stacks.top_level(k, t) for k, t in enumerate(s.mat[i])), strict=True)},
                tiles_left={n: d.stacks.sizes[k] - s.mat[i][k] for k, n in enumerate(INDUSTRIES)},
                links_left=max(0, d.rules.link_tiles - s.link_owner.count(i)),
            )
            for i in range(s.players)
        ],
        tiles=[TileView(space=names.space[slot], location=names.location[d.slot_loc[slot]],
                        owner=o, industry=INDUSTRIES[s.slot_ind[slot]], level=s.slot_level[slot],
                        flipped=s.slot_flipped[slot], resources=s.slot_cubes[slot])
               for slot, o in enumerate(s.slot_owner) if o >= 0],
        links=[LinkView(link=names.link[li], ends=[names.location[n] for n in d.link_nodes[li]],
                        owner=o, kind=kind) for li, o in enumerate(s.link_owner) if o >= 0],
        markets={"coal": _market(d.coal_market, s.coal_market),
                 "iron": _market(d.iron_market, s.iron_market)},
        distant_market=DistantMarketView(
            marker=s.demand, closed=closed, income=None if closed else spaces[s.demand],
            income_spaces=list(spaces), tiles_left=list(s.demand_left)),
    )  # fmt: skip
    return msgspec.to_builtins(doc)


# --- the event log --------------------------------------------------------------------------

_SPACE = {"slot": "space"}
_SPACE_EVENTS = (fev.CubeTaken, fev.Flipped, fev.Produced, fev.Liquidated, fev.TilePlaced,
                 ev.DemandTileDrawn)  # fmt: skip


def redact(d: Lancashire, names: Names, e: Any, seat: int | None) -> dict[str, Any]:
    """Event ``e`` as ``seat`` may read it, ids as names: hidden cards only as counts."""
    card = names.card.__getitem__
    if type(e) is ev.Started:
        return {"players": e.players, "order": e.order,
                **dealt(e.deck, e.hands, e.facedown, seat, card)}  # fmt: skip
    return redact_log(e, seat, card, lambda st: describe(d, names, st),
                      lambda e, out: _named(names, e, out))  # fmt: skip


def _named(names: Names, e: Any, out: dict[str, Any]) -> dict[str, Any]:
    t = type(e)
    if t in _SPACE_EVENTS:
        out = {("space" if k == "slot" else k): v for k, v in out.items()}
        out["space"] = names.space[e.slot]
    if t is fev.TilePlaced or t is fev.TileDeveloped:
        out["industry"] = INDUSTRIES[e.industry]
    elif t is fev.LinkPlaced:
        out["link"] = names.link[e.link]
    elif t is fev.LoanTaken:
        out = {("income_space" if k == "space" else k): v for k, v in out.items()}
    return out


class StartedLog(_Payload, kw_only=True):
    players: int
    order: list[int]
    deck_count: int
    hand_counts: list[int]
    facedown_counts: list[int]
    hand: list[str] | None


PAYLOADS: dict[str, type[msgspec.Struct]] = {
    **family_payloads(Decision),
    "started": StartedLog,
    "tile_placed": payload(fev.TilePlaced, _SPACE, {"space": str, "industry": str}),
    "link_placed": payload(fev.LinkPlaced, retyped={"link": str}),
    "tile_developed": payload(fev.TileDeveloped, retyped={"industry": str}),
    "cube_taken": payload(fev.CubeTaken, _SPACE, {"space": str}),
    "market_bought": payload(fev.MarketBought),
    "produced": payload(fev.Produced, _SPACE, {"space": str}),
    "flipped": payload(fev.Flipped, _SPACE, {"space": str}),
    "loan_taken": payload(fev.LoanTaken, {"space": "income_space"}),
    "liquidated": payload(fev.Liquidated, _SPACE, {"space": str}),
    "double_action_taken": payload(ev.DoubleActionTaken),
    "demand_tile_drawn": payload(ev.DemandTileDrawn, _SPACE, {"space": str}),
    "money_scored": payload(ev.MoneyScored),
}
"""What the log serves for each stored event (``Game.LogPayloads``)."""


def board(d: Lancashire, names: Names) -> dict[str, Any]:
    """The static board by the ids moves and views use, and where each part is drawn."""
    return {
        "locations": [{"location": loc.id, "name": loc.name, "kind": loc.kind,
                       "trade_icon": loc.market_trade_icon} for loc in d.locations],
        "spaces": [{"space": names.space[slot], "location": names.location[d.slot_loc[slot]],
                    "icons": [INDUSTRIES[k] for k in d.slot_icons[slot]]}
                   for slot in range(d.n_slots)],
        "links": [{"link": names.link[li], "ends": [names.location[n] for n in nodes],
                   "canal": d.link_canal[li], "rail": d.link_rail[li]}
                  for li, nodes in enumerate(d.link_nodes)],
        "coal_market": {"prices": d.coal_market.prices, "empty_price": d.coal_market.empty_price},
        "iron_market": {"prices": d.iron_market.prices, "empty_price": d.iron_market.empty_price},
        "distant_market": {"income_spaces": d.distant_market.income_spaces},
        "layout": served(d.layout),
    }  # fmt: skip
