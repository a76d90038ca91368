"""Brass: Birmingham as a variant of the family engine: its tables and its own rules.

What Birmingham adds to the family (:mod:`plugins.brass.variant`): beer (breweries'
barrels and the merchants' own, needed to sell and for a double rail), merchants as the
trade points and sale targets with their beer bonuses, and the Scout action. Everything
else is the family rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from plugins.brass import events as ev
from plugins.brass.actions import Refusal, StepKind
from plugins.brass.actions import develop as dev
from plugins.brass.actions.develop import Develop
from plugins.brass.actions.loan import Loan
from plugins.brass.actions.network import Network
from plugins.brass.actions.pass_ import Pass
from plugins.brass.facts import Facts
from plugins.brass.steps import Offer
from plugins.brass.turn import TurnResolver
from plugins.brass.variant import Variant
from plugins.brass_birmingham import internal_moves as im
from plugins.brass_birmingham import moves as pm
from plugins.brass_birmingham.data import (
    BREWERY,
    COAL,
    INDUSTRIES,
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
        super().__init__(d, names, lambda st, e: apply(d, st, e))
        self.industries = INDUSTRIES
        self.coal, self.iron = COAL, IRON
        self.sellable = frozenset(SELLABLE)
        self.trade_points = d.merchant_nodes
        self.overbuild_opponent = frozenset((COAL, IRON))
        self.actions = (
            Network(im.Network, pm.Network),
            Develop(im.Develop, pm.Develop),
            Loan(im.Loan, pm.Loan),
            Pass(im.Pass, pm.Pass),
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

    def own_steps(self) -> dict[str, StepKind]:
        return {**super().own_steps(), "free_develop": FreeDevelop()}


class FreeDevelop(Offer):
    """Gloucester's beer bonus: one development that costs no iron (``free_develop``)."""

    move = im.FreeDevelop
    reason = ("develop_illegal", "choose a tile to develop for free or done")

    def offers(self, v: Variant, s: Any, seat: int, step: ev.Step) -> list[Any]:
        return [im.FreeDevelop(i) for i in dev.industries(v, v.facts(s), seat, free=True)]

    def take_up(self, r: TurnResolver, m: Any, queue: list[ev.Step]) -> None:
        dev.develop(r, m.industry)

    def specific(self, v: Variant, s: Any, m: Any) -> Refusal:
        return dev.refusal(v, v.facts(s), s.current, m.industry, free=True)


@cache
def birmingham_variant(d: Birmingham) -> BirminghamVariant:
    """The variant of data ``d`` (the shipped data's uses the shipped names), built once."""
    return BirminghamVariant(d, shipped_names() if d is birmingham() else Names(d))
