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
from plugins.brass.evaluation import BoardEvaluation
from plugins.brass.knowledge import Knowledge, Line, TileFacts
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import COAL, INDUSTRIES, IRON, Lancashire

FLIPS = {"sold": "sell", "sold_through": "sell", "emptied": "deplete", "built": "built"}
NO_BONUS = {"kind": "none", "amount": 0}
SHORTFALL_VP = 0.5
"""VP a seat is expected to lose per £1 of future negative income it has no money for."""


def knowledge_of(d: Lancashire) -> Knowledge:
    names = [loc.id for loc in d.locations]
    tiles = {
        f"{INDUSTRIES[k]}:{t.level}": TileFacts(
            industry=INDUSTRIES[k], level=t.level, money=t.money,
            cubes={r: n for r, n in (("coal", t.coal), ("iron", t.iron)) if n}, income=t.income,
            vp=t.vp, icons=t.link_icons, produces=(t.cubes, t.cubes),
            resource={COAL: "coal", IRON: "iron"}.get(k, ""), flip=FLIPS[d.kinds[k].flips],  # type: ignore[arg-type]
            eras=(t.canal, t.rail), develop=t.develop, leaves_after_first_era=t.level == 1)
        for k, rows in enumerate(d.tiles) for t in rows
    }  # fmt: skip
    r = d.rules
    big = max(r.loans, key=lambda loan: loan.money)
    return Knowledge(
        tiles=tiles, printed_icons=dict(zip(names, d.loc_icons, strict=True)),
        lines={n: Line(ends=tuple(names[x] for x in nodes), eras=(c, rl)) for n, nodes, c, rl
               in zip(d.link_names, d.link_nodes, d.link_canal, d.link_rail, strict=True)},
        slots={names[loc]: tuple(tuple(INDUSTRIES[k] for k in d.slot_icons[s]) for s in slots)
               for loc, slots in enumerate(d.loc_slots) if slots},
        income_levels=tuple(d.income.levels),
        rounds_per_era={int(p): n for p, n in r.rounds_per_era.items()},
        loan_amount=big.money, loan_levels=big.levels,
        link_money=(r.canal_link_cost, r.rail_link_cost), link_cubes=(0, r.coal_per_rail),
        second_link_money=r.double_rail_cost - r.rail_link_cost,
        stacks={INDUSTRIES[k]: tuple(seq) for k, seq in enumerate(d.stacks.sequence)},
        game="birmingham",
    )  # fmt: skip


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
    rounds = {int(p): n for p, n in d.rules.rounds_per_era.items()}
    flips = [FLIPS[kind.flips] for kind in d.kinds]
    return BoardEvaluation(d, era_points, flips, rounds, shortfall_vp=SHORTFALL_VP)
