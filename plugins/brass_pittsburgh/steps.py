"""Pittsburgh's step kinds on the family turn engine (see :mod:`.engine` for what each
step's fields mean).

* :class:`Payment` (``cube``, ``metal``, ``oil``): each unit from a chosen source
  (rulebook "Sourcing Resources", "Build Action" step 3, "Sell Action" step 3);
* :class:`Produce` (``produce``): a new tile's cubes sold to connected markets ("Build
  Action" step 4); ``bonus``, ``merchant`` and ``flip`` pay rewards and need no choice;
* :class:`Offer` (``more_link``, ``more_develop``, ``free_develop``, ``more_sell``,
  ``bonus_sell``, ``quality``): an optional continuation, asked only while it has an
  answer besides ``done``.

Listing is the hot path: the answers of the dear kinds (``REMEMBERED_STEPS``) are read
from the state's remembered listing when there is one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from plugins.brass import events as fev
from plugins.brass.actions import StepKind
from plugins.brass.events import Step
from plugins.brass.moves import Done
from plugins.brass.resolver import discard_options
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.actions import reward
from plugins.brass_pittsburgh.actions.network import place_link
from plugins.brass_pittsburgh.actions.sell import quality_refusal, sale
from plugins.brass_pittsburgh.engine import (
    OFFERS,
    flip_events,
    gained,
    offer_answers,
    offers_any,
    pay_options,
    remembered_listing,
    sale_plans_of,
    taking,
)
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.rewards import Gains, gains
from plugins.brass_pittsburgh.selling import merchant_reward

if TYPE_CHECKING:
    from collections.abc import Sequence

    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


class Answers(StepKind):
    """A step whose answers are worked out from the whole queue (:meth:`answers`)."""

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        """The engine moves that answer ``queue[0]``."""
        return []

    def options(self, v: Variant, s: Any, seat: int, step: Step) -> list[Any]:
        known = remembered_listing(v.d, s, seat)
        return list(known) if known is not None else self.answers(v, s, seat, s.pending)

    def refusal(self, v: Variant, s: Any, m: Any) -> tuple[str, str]:
        k = s.pending[0].kind
        return (self.reason[0], self.reason[1].format(kind=k))


class Discard(Answers):
    """Which card pays (the family resolver asks it and applies the answer)."""

    reason = ("discard_a_card", "choose a card from your hand to discard for this action")

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        return discard_options(s, seat)  # type: ignore[return-value]


class Payment(Answers):
    reason = (
        "bad_source",
        "take the resource from a listed source: your resource train, a connected tile "
        "(before any market), a connected market, Vanderbilt; oil through a pipeline",
    )

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        return pay_options(v.d, s, seat, queue)  # type: ignore[return-value]

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        if step.n <= 0:
            queue.pop(0)
            return False
        options = pay_options(r.d, r.s, r.seat, queue)
        if len(options) != 1:
            return True
        self.answer(r, options[0], queue)
        return False

    def answer(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        step = queue[0]
        r.emit_all(taking(r.d, r.s, r.seat, m))
        if step.n <= 1:
            queue.pop(0)
        else:
            queue[0] = Step(step.kind, step.n - 1, step.a, step.b)


PENDING = ("decision_pending", "answer the pending {kind} decision with one of the legal moves")


class Produce(Answers):
    reason = PENDING

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        return [mv.SellProduced(list(p)) for p in sale_plans_of(v.d, s, queue[0].a)]

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        plans = sale_plans_of(r.d, r.s, step.a)
        if len(plans) > 1:
            return True
        queue.pop(0)
        sell_produced(r, step.a, plans[0] if plans else ())
        return False

    def answer(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        sell_produced(r, queue.pop(0).a, m.plan)


def sell_produced(r: TurnResolver, slot: int, plan: Sequence[int]) -> None:
    """The new tile on ``slot`` sells ``plan[i]`` cubes to the ``i``-th connected market;
    its owner gains the money and VP, and the tile flips when emptied."""
    rules, s = r.d, r.s
    board = rules.board_of(s.side)
    tile = rules.data.mat.tiles[s.slot_tile[slot]]
    (resource,) = tile.produces
    markets = board.markets_connected(board.labels(s.line_owner), board.slot_node[slot], resource)
    money = vp = sold = 0
    for m, k in zip(markets, plan, strict=True):
        if k:
            got = rules.ladders[s.side][m][resource].sell(s.market_cubes[m][resource], k)
            r.emit(ev.CubesSold(slot, m, resource, k))
            money, vp, sold = money + got.money, vp + got.vp, sold + k
    r.emit_all(gained(s.slot_owner[slot], Gains(money=money, vp=vp)))
    if sold and s.slot_cubes[slot] == 0:
        r.emit_all(flip_events(rules, s, slot))


class Bonus(StepKind):
    """A new train's line bonus and a heavy train's reward."""

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        queue.pop(0)
        rules, s = r.d, r.s
        bonus = rules.board_of(s.side).lines[step.a].bonus
        got = gains([bonus]) if bonus is not None else Gains()
        link = s.line_link[step.a]
        if link != LIGHT:
            got += gains(rules.data.heavy_trains[link].reward)
        reward(r, r.seat, got, queue)
        return False


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


class Offer(Answers):
    """An optional continuation: asked while it has an answer besides ``done``; a move
    :attr:`take` taking it up meets the rules of the action :attr:`of`."""

    reason = PENDING
    take: ClassVar[type]
    of: ClassVar[type]

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        return offer_answers(v.d, s, seat, queue)

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        if offers_any(r.d, r.s, r.seat, queue):
            return True
        queue.pop(0)
        return False

    def answer(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        if isinstance(m, Done):
            queue.pop(0)
        else:
            self.take_up(r, m, queue)

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        """Apply ``m`` (not ``done``) to the offer ``queue[0]``."""

    def refusal(self, v: Variant, s: Any, m: Any) -> tuple[str, str]:
        if type(m) is not self.take:
            return super().refusal(v, s, m)
        action: Any = v.action_of[self.of]
        return action.diagnosis(v.d, s, s.current, m, s.pending) or action.general


class MoreLink(Offer):
    take, of = mv.SecondLink, mv.Network

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        queue.pop(0)
        r.emit(fev.Paid(r.seat, r.d.data.constants.second_link_extra_money))
        queue[0:0] = place_link(r, m.link, m.site)


class MoreDevelop(Offer):
    take, of = mv.DevelopAlso, mv.Develop

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        queue.pop(0)
        r.emit(ev.TileTaken(r.seat, m.space))
        queue.insert(0, Step("metal", 1))


class FreeDevelop(Offer):
    take, of = mv.FreeDevelop, mv.Develop

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        step = queue.pop(0)
        r.emit(ev.TileTaken(r.seat, m.space))
        if step.n > 1:
            queue.insert(0, Step("free_develop", step.n - 1))


class MoreSell(Offer):
    take, of = mv.SellAlso, mv.Sell

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        sold = queue.pop(0).n
        oil, merchant, more, quality, flip = sale(r, m.slot, m.merchant, sold + 1)
        # The first quality step is this sale's: an enclosing sale (a bonus sell met
        # while selling) has claimed its own already or waits behind this one.
        at = next(i for i, st in enumerate(queue) if st.kind == "quality")
        queue[at] = Step("quality", queue[at].n + quality.n)
        # After this sale's flips, before an enclosing sale's (a queue saved before
        # ``n`` counted the tiles has no enclosing flips: the end is right).
        queue.insert(at + 1 + sold if sold else len(queue), flip)
        queue[0:0] = [oil, merchant, more]


class BonusSell(Offer):
    take, of = mv.BonusSell, mv.Sell

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        queue.pop(0)
        queue[0:0] = sale(r, m.slot, m.merchant)


class Quality(Offer):
    take = mv.ClaimQuality

    def refusal(self, v: Variant, s: Any, m: Any) -> tuple[str, str]:
        if type(m) is not self.take:
            return super().refusal(v, s, m)
        return quality_refusal(v.d, s, s.current, m, s.pending[0].n) or (
            "quality_not_allowed",
            "claim one face-up Quality Rewards tile whose stars your sale (plus whiskey) meets",
        )

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        step = queue.pop(0)
        s = r.s
        tile = r.d.data.quality_rewards[s.quality_rewards[m.index]]
        needed = max(0, tile.stars_required - step.n)
        if needed:
            r.emit(ev.WhiskeySpent(r.seat, needed))
        r.emit(ev.QualityClaimed(m.index))
        reward(r, r.seat, gains(tile.reward), queue)


def step_kinds() -> dict[str, StepKind]:
    """Every step kind of a Pittsburgh action, by ``Step.kind``."""
    pay = Payment()
    offers = {
        "more_link": MoreLink(),
        "more_develop": MoreDevelop(),
        "free_develop": FreeDevelop(),
        "more_sell": MoreSell(),
        "bonus_sell": BonusSell(),
        "quality": Quality(),
    }
    assert set(offers) == OFFERS
    return {
        "discard": Discard(),
        "cube": pay,
        "metal": pay,
        "oil": pay,
        "produce": Produce(),
        "bonus": Bonus(),
        "merchant": Merchant(),
        "flip": Flip(),
        **offers,
    }
