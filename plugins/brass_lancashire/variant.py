"""Brass: Lancashire as a variant of the family engine: its tables and its own rules.

What Lancashire changes in the family (:mod:`plugins.brass.variant`, ``ENGINE_PLAN.md``
§5): cotton is its only good, sold through a connected unflipped port (the port flips too,
for its owner) or to the distant market, whose demand tiles may close it for the era; the
market trade icons are Scotland, Yorkshire, The Midlands and every town holding a port
tile; shipyards flip as they are built; a loan is £10, £20 or £30 for one to three income
levels, none in the game's last four rounds; the Double Action Build; no first link without
a tile on the board; money scores at the game's end. The rest is the family rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, partial
from typing import Any

from plugins.brass import events as ev
from plugins.brass import moves as fm
from plugins.brass.actions import Action, DrawnStep, Refusal, StepKind
from plugins.brass.actions.build import (
    Build,
    affordable,
    paid_at,
    place,
    place_refusal,
    showing,
    space_refusal,
)
from plugins.brass.actions.develop import Develop
from plugins.brass.actions.loan import Loan
from plugins.brass.actions.network import Network
from plugins.brass.actions.pass_ import Pass
from plugins.brass.actions.sell import Sell
from plugins.brass.facts import Facts
from plugins.brass.turn import TurnResolver
from plugins.brass.variant import RAIL, LoanOption, Variant
from plugins.brass_lancashire import events as lev
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import COTTON, PORT, Lancashire
from plugins.brass_lancashire.data import lancashire as shipped
from plugins.brass_lancashire.names import Names
from plugins.brass_lancashire.state import State, apply

DEMAND = "demand"


class LancashireVariant(Variant):
    d: Lancashire

    def __init__(self, d: Lancashire, names: Names) -> None:
        super().__init__(d, names, partial(apply, d))  # no frame of its own per event
        self.sellable = frozenset((COTTON,))
        self.unsellable = "only cotton mills are sold (ports are sold through)"
        self.sale_target_names = names.target
        self.no_sale_target = "no such build space, port or market"
        self.distant_market = d.n_slots
        """The sale target index of the distant market (the others are port slots)."""
        self.trade_points = d.trade_icon_locs
        self.take_switches(d.rules)
        self.actions = (
            Build(fm.Build, pm.Build),
            DoubleBuild(pm.DoubleBuildAt, pm.DoubleBuild),
            Network(fm.Network, pm.Network),
            Develop(fm.Develop, pm.Develop),
            Sell(fm.Sell, pm.Sell),
            Loan(pm.LoanOf, pm.Loan),
            Pass(fm.Pass, pm.Pass),
        )
        self.finish()

    def trade_nodes(self, s: State) -> Iterable[int]:
        """The market trade icons: Scotland, Yorkshire, The Midlands and every town
        holding a port tile (flipped or not)."""
        locs = self.d.slot_loc
        return [*self.trade_points, *(locs[i] for i, k in enumerate(s.slot_ind) if k == PORT)]

    def flips_when_built(self, ind: int, level: int) -> bool:
        return self.d.kinds[ind].flips == "built"

    # --- selling cotton: ports and the distant market ----------------------------------

    def target_refusal(self, f: Facts, seat: int, slot: int, target: int) -> Refusal:
        """A sale of the mill on ``slot`` through the port on slot ``target``, or to the
        distant market (``target`` = :attr:`distant_market`)."""
        d, s = self.d, f.s
        loc = d.slot_loc[slot]
        if target == self.distant_market:
            if s.demand >= len(d.distant_market.income_spaces) or not s.demand_left:
                return ("distant_market_closed", "the distant market's demand is at X: it "
                        "buys no more cotton this era")  # fmt: skip
            if not f.reaches_trade((loc,)):
                return (
                    "distant_market_not_connected",
                    "the mill must be connected to a "
                    "market trade icon (Scotland, Yorkshire, The Midlands or a port tile)",
                )
            return None
        if s.slot_ind[target] != PORT:
            return ("not_a_port", "cotton is sold through a port tile or to the distant market")
        if s.slot_flipped[target]:
            return ("port_used", "that port is flipped: it takes no more cotton")
        if f.comp[loc] != f.comp[d.slot_loc[target]]:
            return ("port_not_connected", "the mill is not connected to that port")
        return None

    def sale_candidates(self, f: Facts, slot: int) -> list[int]:
        """The ports connected to the mill on ``slot``, then the distant market."""
        locs, c = self.d.slot_loc, f.comp[self.d.slot_loc[slot]]
        ports = [i for i, k in enumerate(f.s.slot_ind) if k == PORT and f.comp[locs[i]] == c]
        return [*ports, self.distant_market]

    def sale_steps(self, r: TurnResolver, slot: int, target: int) -> list[ev.Step]:
        if target == self.distant_market:
            return [ev.Step(DEMAND, a=slot)]
        return [ev.Step("flip", a=target)]

    def own_steps(self) -> dict[str, StepKind]:
        return {**super().own_steps(), DEMAND: DemandDraw()}

    # --- loans, the game's end ---------------------------------------------------------

    def loan_refusal(self, s: State, seat: int, loan: LoanOption) -> Refusal:
        late = self.d.rules.no_loans_final_rounds_rail_era
        if s.era == RAIL and s.round > self.d.rules.rounds_per_era[str(s.players)] - late:
            return ("no_loans_late", f"no loans in the game's last {late} rounds")
        return super().loan_refusal(s, seat, loan)

    def era_change(self, r: TurnResolver, era: int) -> None:
        """After the Rail Era's scores: 1 VP per full £10 (the Canal Era's changes are the
        reducer's part of ``EraBegan``)."""
        if era + 1 >= self.d.turn_rules.eras:
            mv = self.d.rules.money_vp
            r.emit(lev.MoneyScored([m // mv.per * mv.vp for m in r.s.money]))


class DemandDraw(DrawnStep):
    """``demand``: the server draws a demand tile (a chance move, :class:`pm.DrawDemand`);
    at X the whole Sell action ends with the mill unflipped, else the seller gains the
    income beside the marker and the mill flips (the next step)."""

    reason = ("demand_draw_pending", "the server is drawing the distant market's demand tile")
    move, field, event = pm.DrawDemand, "tile", lev.DemandTileDrawn
    system_only = ("system_only", "the demand tile is drawn by the game")
    not_waiting = ("no_demand_draw", "no distant-market sale waits for a tile")

    def outcomes(self, s: State) -> list[int]:
        return s.demand_left

    def gone(self, outcome: Any) -> tuple[str, str]:
        return ("demand_tile_gone", f"no demand tile {outcome} is left in the bag")

    def answer(self, r: TurnResolver, m: Any, queue: list[ev.Step]) -> None:
        r.emit(lev.DemandTileDrawn(r.seat, queue[0].a, m.tile))
        if r.s.demand >= len(r.d.distant_market.income_spaces):
            queue.clear()
        else:
            queue.pop(0)


class DoubleBuild(Action):
    """The Double Action Build: both actions of a turn and any two cards (the ``discard``
    step), played as one location card of the chosen space's location: any space with the
    industry's icon, in the network or not; the tile, space and cost rules as for a build."""

    tag = "double_build"
    cards = 2

    def turn_refusal(self, v: Variant, s: Any, seat: int) -> Refusal:
        rule = v.d.rules.double_action_build
        if s.actions_left < rule.actions:
            return ("double_build_needs_both_actions", "a double action build takes both "
                    "actions of a turn (none in the one-action first round)")  # fmt: skip
        if len(s.hands[seat]) < rule.cards:
            return ("double_build_needs_two_cards", "a double action build discards two cards")
        return None

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        return self.turn_refusal(v, f.s, seat) or place_refusal(v, f, seat, m)

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        if self.turn_refusal(v, f.s, seat):
            return []
        # place_refusal's parts, each asked once for all it settles: the tile and the least
        # cost per industry, the coal per amount and connected group (as the build listing
        # does), the space per space; codes only, since a listing shows no refusal.
        d, space, industry = v.d, v.names.space, v.names.industry
        levels, lowest = affordable(v, f, seat), f.lowest(seat)
        prices: dict[tuple[int, int], int] = {}
        out = []
        for loc in sorted(showing(d, levels)):
            for slot, k in d.loc_pairs[loc]:
                need = levels.get(k)
                if (
                    need is not None
                    and paid_at(v, f, seat, loc, need, prices)
                    and space_refusal(v, f, seat, slot, k, lowest[k]) is None
                ):
                    out.append(self.named(space[slot], industry[k]))
        return out

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        r.emit(lev.DoubleActionTaken(r.seat))
        return place(r, m.slot, m.industry)


@cache
def lancashire_variant(d: Lancashire | None = None) -> LancashireVariant:
    """The variant of data ``d`` (the shipped data by default) with its names, built once."""
    d = d or shipped()
    return LancashireVariant(d, Names(d))
