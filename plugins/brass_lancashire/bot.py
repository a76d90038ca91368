"""The bots' Lancashire: the printed facts for the family's greedy bot, the view it reads
(Lancashire's sale targets shown as the merchants it knows), and ``evaluate``.

The family bot (:mod:`plugins.brass.bot`) reads Birmingham's view layout; Lancashire's
ports and distant market become merchants buying cotton (the market at each trade-icon
location while its demand lasts), and a double build is weighed as the build it makes,
only when no single build is on offer (it costs both actions); of the loans it is shown
the one its knowledge describes (£30 for three levels).
"""

from __future__ import annotations

from random import Random
from typing import Any

import msgspec

from plugins.brass import bot
from plugins.brass.board_bot import board_knowledge
from plugins.brass.evaluation import BoardEvaluation
from plugins.brass.knowledge import Knowledge
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import COAL, IRON, Lancashire

FLIPS = {"sold": "sell", "sold_through": "sell", "emptied": "deplete", "built": "built"}
NO_BONUS = {"kind": "none", "amount": 0}
SHORTFALL_VP = 0.5
"""VP a seat is expected to lose per £1 of future negative income it has no money for."""


def knowledge_of(d: Lancashire) -> Knowledge:
    """The family's facts of the board (:func:`plugins.brass.board_bot.board_knowledge`);
    the loan the bot weighs is the biggest."""
    big = max(d.rules.loans, key=lambda loan: loan.money)
    return board_knowledge(d, [FLIPS[kind.flips] for kind in d.kinds], {COAL: "coal", IRON: "iron"},
                           rounds_per_era(d), (big.money, big.levels))  # fmt: skip


def rounds_per_era(d: Lancashire) -> dict[int, int]:
    return {int(p): n for p, n in d.rules.rounds_per_era.items()}


def bot_view(d: Lancashire, view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with Lancashire's sale targets as merchants buying cotton (and unsold mills
as buyers of ports)."""
    merchants = [{"merchant": t["space"], "location": t["location"], "buys": ["cotton"],
                  "beer": False, "bonus": NO_BONUS}
                 for t in view["tiles"]
                 if t["industry"] == "port" and not t["flipped"]]  # fmt: skip
    # a port flips when a connected mill sells through it: unsold mills "buy" ports
    merchants += [{"merchant": t["space"], "location": t["location"], "buys": ["port"],
                   "beer": False, "bonus": NO_BONUS}
                  for t in view["tiles"] if t["industry"] == "cotton" and not t["flipped"]]
    if not view["distant_market"]["closed"]:
        merchants += [{"merchant": "distant_market", "location": d.locations[loc].id,
                       "buys": ["cotton"], "beer": False, "bonus": NO_BONUS}
                      for loc in sorted(d.trade_icon_locs)]  # fmt: skip
    return {**view, "merchants": merchants}


class _Sale(msgspec.Struct, tag="sell", frozen=True):
    space: str
    merchant: str


class _SaleAlso(_Sale, tag="sell_also", frozen=True):
    pass


def _proxy(m: Any) -> Any:
    """The move as the family bot reads it: sales name a merchant, a double build is the
    build it makes (its card the location's own)."""
    t = type(m)
    if t is pm.Sell or t is pm.SellAlso:
        return (_Sale if t is pm.Sell else _SaleAlso)(m.space, m.to)
    if t is pm.DoubleBuild:
        return pm.Build(f"location:{m.space.split(':')[0]}", m.space, m.industry)
    return m


def choose(d: Lancashire, k: Knowledge, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
    if any(type(m) is pm.Build for m in legal):
        legal = [m for m in legal if type(m) is not pm.DoubleBuild]
    # the family bot weighs every loan as the knowledge's one (£30 for 3 levels)
    legal = [m for m in legal if type(m) is not pm.Loan or m.amount == k.loan_amount] or legal
    proxies = {_proxy(m): m for m in legal}
    return proxies[bot.choose(bot_view(d, view), list(proxies), rng, k)]


def evaluation(d: Lancashire, era_points: Any) -> BoardEvaluation:
    """Each seat's expected final VP; negative income the purse cannot pay is counted, as
    the small loans (£10 a level) make that spiral easy to enter."""
    flips = [FLIPS[kind.flips] for kind in d.kinds]
    return BoardEvaluation(d, era_points, flips, rounds_per_era(d), shortfall_vp=SHORTFALL_VP)
