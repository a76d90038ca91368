"""Brass: Birmingham as a variant of the family engine: its tables and its own rules.

What Birmingham adds to the family (:mod:`plugins.brass.variant`): beer (breweries'
barrels and the merchants' own, needed to sell and for a double rail), merchants as the
trade points and sale targets with their beer bonuses, and the Scout action. Everything
else is the family rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial
from typing import Any

from plugins.brass import events as ev
from plugins.brass import moves as fm
from plugins.brass.actions import Action, Refusal, StepKind
from plugins.brass.actions import develop as dev
from plugins.brass.actions.build import Build
from plugins.brass.actions.develop import Develop
from plugins.brass.actions.loan import Loan
from plugins.brass.actions.network import Network
from plugins.brass.actions.pass_ import Pass
from plugins.brass.actions.sell import Sell
from plugins.brass.facts import Facts
from plugins.brass.steps import TakeCubes
from plugins.brass.turn import TurnResolver
from plugins.brass.variant import Variant
from plugins.brass_birmingham import events as bev
from plugins.brass_birmingham import moves as pm
from plugins.brass_birmingham.data import (
    BREWERY,
    COAL,
    IRON,
    SELLABLE,
    Birmingham,
    birmingham,
)
from plugins.brass_birmingham.names import Names, shipped_names
from plugins.brass_birmingham.state import State, apply

MERCHANT_BEER = -1
"""Beer source token for the merchant's own barrel."""


class BirminghamFacts(Facts):
    """The family facts plus beer: where a seat may take barrels."""

    v: BirminghamVariant
    s: State

    def beer_sources(self, seat: int, nodes: Sequence[int]) -> list[int]:
        """Breweries with beer ``seat`` may use at ``nodes``: its own anywhere, opponents'
        connected to one of ``nodes``."""
        s, d = self.s, self.d
        comps = self.comps(nodes)
        return [
            slot
            for slot, ind in enumerate(s.slot_ind)
            if ind == BREWERY
            and s.slot_cubes[slot]
            and (s.slot_owner[slot] == seat or self.comp[d.slot_loc[slot]] in comps)
        ]

    def beer(self, seat: int, nodes: Sequence[int], merchant: int = -1) -> int:
        """Barrels available: :meth:`beer_sources` plus merchant space ``merchant``'s."""
        total = self.s.merchant_beer[merchant] if merchant >= 0 else 0
        return total + sum(self.s.slot_cubes[i] for i in self.beer_sources(seat, nodes))


class BirminghamVariant(Variant):
    """Birmingham's tables and overrides."""

    d: Birmingham
    names: Names

    def __init__(self, d: Birmingham, names: Names) -> None:
        super().__init__(d, names, partial(apply, d))  # no frame of its own per event
        self.sellable = frozenset(SELLABLE)
        self.unsellable = "only cotton mills, manufacturers and potteries are sold"
        self.sale_target_names = names.merchant
        self.no_sale_target = "no such build space or merchant space"
        self.trade_points = d.merchant_nodes
        self.overbuild_opponent = frozenset((COAL, IRON))
        self.actions = (
            Build(fm.Build, pm.Build),
            Network(fm.Network, pm.Network),
            Develop(fm.Develop, pm.Develop),
            Sell(fm.Sell, pm.Sell),
            Loan(fm.Loan, pm.Loan),
            Scout(pm.Scout, pm.Scout),
            Pass(fm.Pass, pm.Pass),
        )
        self.finish()

    def facts(self, s: State) -> BirminghamFacts:  # type: ignore[override]
        return BirminghamFacts(self, s)

    def second_link_refusal(self, f: Facts, seat: int, link: int) -> Refusal:
        """A double rail needs beer from the seat's brewery or one connected to the second
        rail (never a merchant's)."""
        assert isinstance(f, BirminghamFacts)
        if f.beer(seat, self.d.link_nodes[link]) < self.d.rules.double_rail_beer:
            return (
                "no_beer_for_double_rail",
                "a double rail needs beer from your brewery or a brewery connected to the "
                "second rail (merchant beer does not count)",
            )
        return None

    def second_link_steps(self, link: int) -> list[ev.Step]:
        return [ev.Step("rail_beer", self.d.rules.double_rail_beer, link)]

    # --- selling to merchants, with beer ----------------------------------------------

    def target_refusal(self, f: Facts, seat: int, slot: int, target: int) -> Refusal:
        """A sale to the merchant on space ``target``: its tile buys the good, it is
        connected to the seller's tile, and the beer the tile needs is there (the seller's
        breweries, connected ones, the merchant's own barrel)."""
        assert isinstance(f, BirminghamFacts)
        d, s = self.d, f.s
        ind = s.slot_ind[slot]
        tile = s.merchant_tile[target]
        if tile < 0 or ind not in d.merchant_accepts[tile]:
            return ("merchant_refuses", f"that merchant does not buy {self.name(ind)}")
        loc = d.slot_loc[slot]
        if f.comp[loc] != f.comp[d.merchant_loc[target]]:
            return ("merchant_not_connected", "the industry is not connected to that merchant")
        need = d.tile(ind, s.slot_level[slot]).beer
        if need > f.beer(seat, (loc,), target):
            return (
                "not_enough_beer",
                f"this sale needs {need} beer from your breweries, connected breweries or "
                "the merchant's barrel",
            )
        return None

    def sale_candidates(self, f: Facts, slot: int) -> list[int]:
        """The merchant spaces connected to the tile on ``slot``."""
        c = f.comp[self.d.slot_loc[slot]]
        return [m for m, loc in enumerate(self.d.merchant_loc) if f.comp[loc] == c]

    def sale_steps(self, r: TurnResolver, slot: int, target: int) -> list[ev.Step]:
        s = r.s
        need = self.d.tile(s.slot_ind[slot], s.slot_level[slot]).beer
        return [ev.Step("beer", need, slot, target)] if need else []

    def sources(self, s: State, seat: int, step: ev.Step) -> list[int]:
        """Beer: the seat's breweries anywhere, opponents' connected to where it is used
        (the sold tile, or the second rail), and for a sale the merchant's own barrel."""
        k = step.kind
        if k not in BEER_STEPS:
            return super().sources(s, seat, step)
        d = self.d
        nodes = d.link_nodes[step.a] if k == "rail_beer" else (d.slot_loc[step.a],)
        out = self.facts(s).beer_sources(seat, nodes)
        if k == "beer" and s.merchant_beer[step.b]:
            out.append(MERCHANT_BEER)
        return out

    def bonus(self, r: TurnResolver, merchant: int, queue: list[ev.Step]) -> None:
        """The merchant location's beer bonus: a free development, VP, money or income."""
        bonus = self.d.loc_bonus[self.d.merchant_loc[merchant]]
        assert bonus is not None
        if bonus.kind == "develop":
            queue.insert(0, ev.Step("free_develop"))
        else:  # the bonus kinds vp, money and income are the event's fields
            r.emit(bev.BonusGained(r.seat, **{bonus.kind: bonus.amount}))

    def own_steps(self) -> dict[str, StepKind]:
        beer = TakeBeer(("beer_source", "beer comes from your brewery, a connected opponent's "
                         "brewery or the barrel of the merchant you sell to"))  # fmt: skip
        rail_beer = TakeBeer(("beer_source", "double-rail beer comes from your brewery or a "
                              "brewery connected to the second rail, never from a "
                              "merchant"))  # fmt: skip
        return {**super().own_steps(), "beer": beer, "rail_beer": rail_beer, "bonus": Bonus(),
                "free_develop": FreeDevelop()}  # fmt: skip


class Scout(Action):
    """Scout ("Scout: three for two" in the rule text): discard three cards for one wild
    location card and one wild industry card from their supplies; not while holding a
    wild card, and only while both supplies have one."""

    tag = "scout"
    cards = 3

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        cards, s = v.d.cards, f.s
        hand = s.hands[seat]
        if cards.wild_location in hand or cards.wild_industry in hand:
            return ("scout_holding_wild", "you cannot scout while holding a wild card")
        if len(hand) < 3:
            return ("scout_needs_three_cards", "scouting discards three cards")
        if min(s.wild_supply) < 1:
            return ("no_wild_cards", "no wild card is left in the supply")
        return None

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        return [self.named()] if self.refusal(v, f, seat, None) is None else []

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        return [ev.Step("scout")]

    def step_kinds(self) -> dict[str, StepKind]:
        return {"scout": Scouted()}


class Scouted(StepKind):
    """Once the three cards are paid, the two wild cards join the hand."""

    def resolve(self, r: TurnResolver, step: ev.Step, queue: list[ev.Step]) -> bool:
        queue.pop(0)
        r.emit(bev.Scouted(r.seat))
        return False


BEER_STEPS = frozenset({"beer", "rail_beer"})


class TakeBeer(TakeCubes):
    """Barrels for a sale (``beer``: ``n`` to sell slot ``a`` to merchant space ``b``) or a
    double rail (``rail_beer``: to link ``a``); a merchant's barrel brings its bonus."""

    def __init__(self, reason: tuple[str, str]) -> None:
        super().__init__(pm.BeerAt, reason)

    def options(self, v: Variant, s: Any, seat: int, step: ev.Step) -> list[Any]:
        return [
            pm.MerchantBeer() if src == MERCHANT_BEER else pm.BeerAt(src)
            for src in v.sources(s, seat, step)
        ]

    def answer(self, r: TurnResolver, m: Any, queue: list[ev.Step]) -> None:
        self.take(r, queue, MERCHANT_BEER if type(m) is pm.MerchantBeer else m.slot)

    def take(self, r: TurnResolver, queue: list[ev.Step], source: int) -> None:
        if source != MERCHANT_BEER:
            super().take(r, queue, source)
            return
        step = queue[0]
        queue[0] = ev.Step(step.kind, step.n - 1, step.a, step.b)
        r.emit(bev.MerchantBeerTaken(step.b))
        at = next(i for i, q in enumerate(queue) if q.kind == "flip")
        queue.insert(at + 1, ev.Step("bonus", b=step.b))

    def buy(self, r: TurnResolver, step: ev.Step) -> None:
        raise AssertionError("the checks make sure no beer step runs dry")


class Bonus(StepKind):
    """The merchant's beer bonus (``bonus``: merchant space ``b``), after the flip."""

    def resolve(self, r: TurnResolver, step: ev.Step, queue: list[ev.Step]) -> bool:
        queue.pop(0)
        assert isinstance(r.v, BirminghamVariant)
        r.v.bonus(r, step.b, queue)
        return False


class FreeDevelop(dev.FreeDevelop):
    """Gloucester's beer bonus: one development that costs no iron."""

    move = pm.FreeDevelopOf


@cache
def birmingham_variant(d: Birmingham) -> BirminghamVariant:
    """The variant of data ``d`` (the shipped data's uses the shipped names), built once."""
    return BirminghamVariant(d, shipped_names() if d is birmingham() else Names(d))
