"""What clients read: the view document, the pending decision in words, the readable log,
its payload shapes and the static board; every id is a name the moves accept."""

from __future__ import annotations

from typing import Any

import msgspec

from plugins.brass import board_docs as bd
from plugins.brass import client as fc
from plugins.brass import events as fev
from plugins.brass.log import redact_log
from plugins.brass.log_payloads import served as payload
from plugins.brass_lancashire import events as ev
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire
from plugins.brass_lancashire.names import Names
from plugins.brass_lancashire.state import State

ACTIONS = ["build", "double_build", "network", "develop", "sell", "loan", "pass"]


class DistantMarketView(fc.Doc, kw_only=True):
    marker: int
    """The demand marker's space from the top (0); ``len(income_spaces)`` is X."""
    closed: bool
    income: int | None
    """Income spaces a sale now would pay were the tile drawn a 0 (``None`` at X)."""
    income_spaces: list[int]
    tiles_left: list[int]
    """The demand tiles still in the bag (spaces each moves the marker down), sorted."""


class ViewDoc(bd.BoardViewDoc, kw_only=True):
    distant_market: DistantMarketView


PROMPTS = bd.Prompts(
    discard="discard {n} card{s} to pay for the action",
    coal="{n} coal still needed for {where}: choose among the tied nearest connected mines "
    "(by space)",
    iron="{n} iron still needed: choose the iron works (by space)",
    liquidate="£{n} of income cannot be paid: remove one of your industries (by space) for "
    "half its cost",
    offers={"more_link": ("second_link", "add a second rail (£10 more and its coal), or "
                          "finish with done"),
            "more_sell": ("sell_also", "sell another cotton mill in this action, or finish "
                          "with done"),
            "more_develop": ("develop_also", "develop a second tile (one more iron), or "
                             "finish with done")},
    actions=ACTIONS,
)  # fmt: skip


def describe(d: Lancashire, names: Names, step: fev.Step, actions_left: int = 0) -> bd.Decision:
    """The pending step as a decision a client can act on: the family's steps worded by
    :data:`PROMPTS`, and the distant market's draw."""
    if step.kind == "demand":
        return bd.Decision(kind="demand_draw", moves=[], space=names.space[step.a], prompt="the "
                        "server draws a distant-market demand tile for this sale")  # fmt: skip
    return bd.describe_step(names, step, actions_left, PROMPTS, bd.Decision)


def view(d: Lancashire, names: Names, s: State, seat: int | None) -> dict[str, Any]:
    kind, spaces = bd.ERAS[s.era], d.distant_market.income_spaces
    closed = s.demand >= len(spaces)
    doc = ViewDoc(
        seat=seat, era=kind, **fc.turn_fields(s, seat, names.card),
        decision=fc.current_decision(s, lambda st, left: describe(d, names, st, left),
                                     bd.Decision),
        **bd.view_fields(d, names, s, INDUSTRIES),
        distant_market=DistantMarketView(
            marker=s.demand, closed=closed, income=None if closed else spaces[s.demand],
            income_spaces=list(spaces), tiles_left=list(s.demand_left)),
    )  # fmt: skip
    return msgspec.to_builtins(doc)


# --- the event log --------------------------------------------------------------------------

_LOG = {**bd.BOARD_LOG, ev.DemandTileDrawn: bd.ON_SLOT}


def redact(d: Lancashire, names: Names, e: Any, seat: int | None) -> dict[str, Any]:
    """Event ``e`` as ``seat`` may read it, ids as names: hidden cards only as counts."""
    card = names.card.__getitem__
    if type(e) is ev.Started:
        return bd.started_log(e, seat, card)
    return redact_log(
        e,
        seat,
        card,
        lambda st: describe(d, names, st),
        lambda e, out: bd.rename(names, INDUSTRIES, e, out, _LOG),
    )


PAYLOADS: dict[str, type[msgspec.Struct]] = {
    **bd.board_payloads(bd.Decision),
    "double_action_taken": payload(ev.DoubleActionTaken),
    "demand_tile_drawn": payload(ev.DemandTileDrawn, bd.SPACE, {"space": str}),
    "money_scored": payload(ev.MoneyScored),
}
"""What the log serves for each stored event (``Game.LogPayloads``)."""


def board(d: Lancashire, names: Names, develop: fev.Step) -> dict[str, Any]:
    """The static board by the ids moves and views use (trade icons marked), where each
    part is drawn and the printed prices (``develop``: the variant's payment for a
    development)."""
    out = bd.static_board(d, names, INDUSTRIES, develop)
    for loc in out["locations"]:
        loc["trade_icon"] = d.locations[d.loc_index[loc["location"]]].market_trade_icon
    return {**out, "distant_market": {"income_spaces": d.distant_market.income_spaces}}
