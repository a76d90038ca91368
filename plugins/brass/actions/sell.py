"""Sell: pay a card and sell tiles, one sale after another, each flipping its tile.

The rule ("Sell: merchant and flip" and "Sell several industries" in the Birmingham rule
text): the seat sells one of its own unflipped tiles of a sellable industry to a target
connected to it, paying whatever the sale needs; the tile flips, advancing the owner's
income. Further sales may follow in the same action, each checked and paid on its own.
Selling earns no money directly. What a tile may be sold to, and what a sale needs, are
the variant's (:meth:`Variant.sale_candidates`, :meth:`Variant.target_refusal`,
:meth:`Variant.sale_steps`: Birmingham's merchants and beer, Lancashire's ports and
distant market); :meth:`Variant.sale` orders a sale's steps (Pittsburgh: its merchants'
and Quality Rewards' steps, the flips last).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as ev
from plugins.brass import moves as fm
from plugins.brass.actions import Action, Refusal, StepKind
from plugins.brass.steps import Offer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


def tile_refusal(v: Variant, f: Facts, seat: int, slot: int) -> Refusal:
    """Whether the tile on ``slot`` is one the seat may sell at all (any target)."""
    s = f.s
    if s.slot_owner[slot] != seat:
        return ("not_your_industry", "you may sell only your own industries")
    if s.slot_ind[slot] not in v.sellable:
        return ("not_sellable", v.unsellable)
    if s.slot_flipped[slot]:
        return ("already_sold", "that industry is already flipped")
    return None


def sellable_tiles(v: Variant, f: Facts, seat: int) -> list[int]:
    """The seat's unflipped tiles of sellable industries, in board order."""
    s, sellable = f.s, v.sellable
    return [
        slot for slot in f.owned(seat) if s.slot_ind[slot] in sellable and not s.slot_flipped[slot]
    ]


class Sell(Action):
    tag = "sell"

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        return v.sale_refusal(f, seat, m.slot, m.merchant)

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        return v.sale_moves(f, seat, self.named)

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        return r.v.sale(r, m.slot, m.merchant)

    def step_kinds(self) -> dict[str, StepKind]:
        return {"more_sell": MoreSell()}


class MoreSell(Offer):
    """The offer of another sale in the same action (``sell_also``)."""

    move = fm.SellAlso
    reason = ("sale_illegal", "choose another legal sale or done")

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[ev.Step]) -> list[Any]:
        return [fm.SellAlso(slot, t) for slot, t in v.sale_options(v.facts(s), seat)]

    def take_up(self, r: TurnResolver, m: Any, queue: list[ev.Step], step: ev.Step) -> None:
        queue[:0] = r.v.sale(r, m.slot, m.merchant)

    def specific(self, v: Variant, s: Any, m: Any) -> Refusal:
        return v.sale_refusal(v.facts(s), s.current, m.slot, m.merchant)
