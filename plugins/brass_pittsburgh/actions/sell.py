"""Sell (rulebook "Sell Action" steps 1-6): a card, then one or more of one's unflipped
sellable tiles, each to a connected merchant showing its icon (another tile: the
``more_sell`` offer), with the oil it needs through pipelines; the merchants' rewards; one
Quality Rewards tile the sale's stars (plus whiskey) meet (the ``quality`` offer); then the
tiles flip and pay their rewards. A bonus sell takes the same steps without a card.

The action is the family's (:mod:`plugins.brass.actions.sell`), over the hooks of
:class:`..variant.PittsburghVariant` (``sale_options``, ``sale_refusal``, ``sale``); here
are the sale's steps and its refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass.actions import Refusal, StepKind
from plugins.brass.events import Step
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.actions import in_range, reward
from plugins.brass_pittsburgh.choices import oil_available, sale_candidates
from plugins.brass_pittsburgh.rewards import claimable_quality_rewards, gains
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.selling import merchant_reward, oil_needed
from plugins.brass_pittsburgh.state import State
from plugins.brass_pittsburgh.steps import Offer, pending

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


def sale(r: TurnResolver, slot: int, merchant: int, sold: int = 1) -> list[Step]:
    """A sale's steps for the tile on ``slot``, its ``sold``-th tile: oil, merchant, the
    offer of another tile, one Quality Reward, then the flip. A bonus sell takes the same
    steps (only its card is spared), so it may sell several tiles too."""
    tile = r.d.data.mat.tiles[r.s.slot_tile[slot]]
    return [
        Step("oil", oil_needed(tile), slot),
        Step("merchant", a=slot, b=merchant),
        # n: tiles of this sale so far, whose flips follow its quality step
        Step("more_sell", sold),
        Step("quality", tile.quality_stars),
        Step("flip", a=slot),
    ]


def sale_refusal(
    rules: Rules, s: State, seat: int, slot: int, merchant: int, selling: Iterable[int] = ()
) -> Refusal:
    """Why the tile on ``slot`` may not be sold to ``merchant``, besides the ``selling``
    tiles of this sale."""
    data, board = rules.data, rules.board_of(s.side)
    if not in_range(slot, len(board.slot_node)) or s.slot_owner[slot] != seat:
        return ("not_your_tile", "you may sell only your own tiles")
    tile = data.mat.tiles[s.slot_tile[slot]]
    if not data.industries[tile.industry].sellable:
        return ("not_sellable", f"{tile.industry} is not sold: it flips when its cubes are used")
    if s.slot_flipped[slot]:
        return ("already_flipped", "that tile is already flipped")
    if slot in selling:
        return ("already_in_sale", "that tile is already part of this sale")
    if not in_range(merchant, len(s.merchant_tile)) or not s.merchant_tile[merchant]:
        return ("no_merchant", "there is no merchant tile on that space")
    if tile.industry not in data.merchant_tiles[s.merchant_tile[merchant]].accepts:
        return ("merchant_wrong_icon", f"that merchant shows no {tile.industry} icon")
    labels = board.labels(s.line_owner)
    if labels[board.merchant_spaces[merchant][0]] != labels[board.slot_node[slot]]:
        return (
            "merchant_not_connected",
            "the tile sold must be connected to the merchant by train links (anyone's)",
        )
    need = oil_needed(tile)
    if need > oil_available(rules, s, seat, board.slot_node[slot]):
        return (
            "not_enough_oil",
            f"selling this tile needs {need} oil, more than reaches it through pipelines "
            "(and your oil trains)",
        )
    return None


def in_sale(queue: Iterable[Step]) -> set[int]:
    """The tiles of the sale in progress (their flips wait in ``queue``)."""
    return {st.a for st in queue if st.kind == "flip"}


def step_kinds() -> dict[str, StepKind]:
    """A sale's steps (Pittsburgh's ``more_sell`` in place of the family's)."""
    return {
        "merchant": Merchant(),
        "more_sell": MoreSell(),
        "bonus_sell": BonusSell(),
        "quality": Quality(),
        "flip": Flip(),
    }


def quality_refusal(rules: Rules, s: State, seat: int, m: Any, stars: int) -> Refusal:
    if not in_range(m.index, len(s.quality_rewards)) or not s.quality_faceup[m.index]:
        return ("quality_reward_taken", "that Quality Rewards tile is not face up")
    tile = rules.data.quality_rewards[s.quality_rewards[m.index]]
    if not claimable_quality_rewards(stars, s.whiskey[seat], [tile]):
        return (
            "not_enough_stars",
            f"that tile needs {tile.stars_required} stars; your sale shows {stars} and each "
            f"of your {s.whiskey[seat]} whiskey adds one",
        )
    return None


class Merchant(StepKind):
    """The merchant sold to rewards the sale and turns face down (face up only)."""

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        queue.pop(0)
        s = r.s
        if s.merchant_faceup[step.b]:
            r.emit(ev.MerchantFlipped(step.b))
            reward(r, r.seat, merchant_reward(r.d.data, s.merchant_tile[step.b], True), queue)
        return False


class Flip(StepKind):
    """A sold tile flips and pays its reward."""

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        queue.pop(0)
        tile = r.d.data.mat.tiles[r.s.slot_tile[step.a]]
        r.emit(ev.TileFlipped(step.a))
        level = r.d.income.level(r.s.income[r.seat])
        reward(r, r.seat, gains(tile.flip_reward, level), queue)
        return False


class MoreSell(Offer):
    move = mv.SellAlso
    reason = pending("more_sell")

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        """Each further tile to each merchant, the tiles of this sale excepted."""
        sold, make = in_sale(queue), self.move
        return [
            make(c.slot, m)
            for c in sale_candidates(v.d, s, seat)
            if c.slot not in sold
            for m in c.merchants
        ]

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step], step: Step) -> None:
        sold = step.n
        oil, merchant, more, quality, flip = sale(r, m.slot, m.merchant, sold + 1)
        # The first quality step is this sale's: an enclosing sale (a bonus sell met
        # while selling) has claimed its own already or waits behind this one.
        at = next(i for i, st in enumerate(queue) if st.kind == "quality")
        queue[at] = Step("quality", queue[at].n + quality.n)
        # After this sale's flips, before an enclosing sale's (a queue saved before
        # ``n`` counted the tiles has no enclosing flips: the end is right).
        queue.insert(at + 1 + sold if sold else len(queue), flip)
        queue[0:0] = [oil, merchant, more]

    def specific(self, v: Variant, s: Any, m: Any) -> Refusal:
        return sale_refusal(v.d, s, s.current, m.slot, m.merchant, in_sale(s.pending))


class BonusSell(MoreSell):
    move = mv.BonusSell
    reason = pending("bonus_sell")

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step], step: Step) -> None:
        queue[0:0] = sale(r, m.slot, m.merchant)


class Quality(Offer):
    move = mv.ClaimQuality
    reason = pending("quality")

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        """The face-up tiles the sale's stars (``n``) and the seat's whiskey meet."""
        rules = v.d
        faceup = [
            (i, rules.data.quality_rewards[t])
            for i, t in enumerate(s.quality_rewards)
            if s.quality_faceup[i]
        ]
        stars, whiskey = queue[0].n, s.whiskey[seat]
        ok = {t.id for t, _ in claimable_quality_rewards(stars, whiskey, [t for _, t in faceup])}
        return [mv.ClaimQuality(i) for i, t in faceup if t.id in ok]

    def specific(self, v: Variant, s: Any, m: Any) -> Refusal:
        return quality_refusal(v.d, s, s.current, m, s.pending[0].n) or (
            "quality_not_allowed",
            "claim one face-up Quality Rewards tile whose stars your sale (plus whiskey) meets",
        )

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step], step: Step) -> None:
        s = r.s
        tile = r.d.data.quality_rewards[s.quality_rewards[m.index]]
        needed = max(0, tile.stars_required - step.n)
        if needed:
            r.emit(ev.WhiskeySpent(r.seat, needed))
        r.emit(ev.QualityClaimed(m.index))
        reward(r, r.seat, gains(tile.reward), queue)
