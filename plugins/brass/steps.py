"""The step kinds every action shares: paying cards, taking cubes, producing, flipping,
optional continuations, and selling tiles off for an unpaid income.

* ``discard`` -- ``n`` cards pay for the action; the family resolver asks which when the
  hand holds more than one kind (:class:`Discard`).
* ``coal``, ``link_coal``, ``iron`` -- ``n`` cubes to take (:class:`TakeCubes`): coal from
  the nearest connected mines with coal (to location ``a``, or to link ``a``), iron from
  any works; the player chooses only among tied sources; with none on the board the rest
  is bought from the market at once (the action's check made sure it can be).
* ``produce`` -- the new tile on slot ``a`` receives its cubes (:meth:`Variant.produce`).
* ``flip`` -- the sold tile on slot ``a`` flips.
* offers (``more_link``, ``more_sell``, ``more_develop``...) -- :class:`Offer`: the action
  may go on; asked only while a continuation is possible, ``done`` declines.
* ``liquidate`` -- round end, income unpaid: the seat (``a``) owing ``n`` removes its own
  tiles one at a time for part of their cost (:meth:`Variant.liquidate`) until it can pay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from plugins.brass import events as ev
from plugins.brass import moves as fm
from plugins.brass.actions import Refusal, StepKind
from plugins.brass.resolver import discard_options

if TYPE_CHECKING:
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


class Discard(StepKind):
    """Which card pays; the family resolver resolves and applies it."""

    reason = ("card_not_in_hand", "discard a card you hold to pay for this action")

    def options(self, v: Variant, s: Any, seat: int, step: ev.Step) -> list[Any]:
        return discard_options(s, seat)  # type: ignore[return-value]


class TakeCubes(StepKind):
    """``n`` cubes of one resource, one source at a time (see the module text)."""

    def __init__(self, pick: type, reason: tuple[str, str]) -> None:
        self.pick, self.reason = pick, reason  # type: ignore[misc]

    def resolve(self, r: TurnResolver, step: ev.Step, queue: list[ev.Step]) -> bool:
        if step.n <= 0:
            queue.pop(0)
            return False
        sources = r.v.sources(r.s, r.seat, step)
        if len(sources) > 1:
            return True
        if sources:
            self.take(r, queue, sources[0])
        else:
            self.buy(r, step)
            queue.pop(0)
        return False

    def options(self, v: Variant, s: Any, seat: int, step: ev.Step) -> list[Any]:
        pick = self.pick
        return [pick(src) for src in v.sources(s, seat, step)]

    def answer(self, r: TurnResolver, m: Any, queue: list[ev.Step]) -> None:
        self.take(r, queue, m.slot)

    def take(self, r: TurnResolver, queue: list[ev.Step], source: int) -> None:
        """Take one cube for ``queue[0]`` from the tile on ``source``; emptied, it flips."""
        step = queue[0]
        queue[0] = ev.Step(step.kind, step.n - 1, step.a, step.b)
        r.emit(ev.CubeTaken(source))
        if not r.s.slot_cubes[source]:
            r.emit(ev.Flipped(source))

    def buy(self, r: TurnResolver, step: ev.Step) -> None:
        """The step's remaining cubes from the market, paying its price for them."""
        d, s = r.d, r.s
        if step.kind == "iron":
            cost = d.iron_market.buy_cost(s.iron_market, step.n)
            resource = "iron"
        else:
            cost = d.coal_market.buy_cost(s.coal_market, step.n)
            resource = "coal"
        if cost:
            r.emit(ev.Paid(r.seat, cost))
        r.emit(ev.MarketBought(resource, step.n))


class Produce(StepKind):
    def resolve(self, r: TurnResolver, step: ev.Step, queue: list[ev.Step]) -> bool:
        queue.pop(0)
        r.v.produce(r, step.a)
        return False


class Flip(StepKind):
    def resolve(self, r: TurnResolver, step: ev.Step, queue: list[ev.Step]) -> bool:
        queue.pop(0)
        r.emit(ev.Flipped(step.a))
        return False


class Offer(StepKind):
    """An optional continuation of the action in progress: asked while :meth:`offers`
    lists one, answered by one of them or ``done``."""

    move: ClassVar[type]
    """The engine move that takes the offer up."""

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[ev.Step]) -> list[Any]:
        """The continuations allowed now (``done`` not included); ``queue[0]`` is the offer,
        the rest the action's steps still to come (Pittsburgh: a sale's tiles)."""
        raise NotImplementedError

    def has_offer(self, v: Variant, s: Any, seat: int, queue: Sequence[ev.Step]) -> bool:
        """Whether :meth:`offers` lists any (asked before each offer: a variant may tell
        more cheaply)."""
        return bool(self.offers(v, s, seat, queue))

    def take_up(self, r: TurnResolver, m: Any, queue: list[ev.Step], step: ev.Step) -> None:
        """Apply continuation ``m`` to the offer ``step``, already off the queue."""
        raise NotImplementedError

    def specific(self, v: Variant, s: Any, m: Any) -> Refusal:
        """The rule a continuation of the right kind breaks."""
        return None

    def resolve(self, r: TurnResolver, step: ev.Step, queue: list[ev.Step]) -> bool:
        if self.has_offer(r.v, r.s, r.seat, queue):
            return True
        queue.pop(0)
        return False

    def options(self, v: Variant, s: Any, seat: int, step: ev.Step) -> list[Any]:
        return [*self.offers(v, s, seat, s.pending), fm.Done()]

    def answer(self, r: TurnResolver, m: Any, queue: list[ev.Step]) -> None:
        step = queue.pop(0)
        if type(m) is not fm.Done:
            self.take_up(r, m, queue, step)

    def refusal(self, v: Variant, s: Any, m: Any) -> tuple[str, str]:
        specific = self.specific(v, s, m) if isinstance(m, self.move) else None
        return specific or self.reason


class Liquidate(StepKind):
    """Round end: which of its tiles the indebted seat removes next."""

    reason = ("liquidate_own_industry", "your income is unpaid: remove one of your "
              "own industries for half its cost")  # fmt: skip

    def resolve(self, r: TurnResolver, step: ev.Step, queue: list[ev.Step]) -> bool:
        s = r.s
        owned = [i for i, o in enumerate(s.slot_owner) if o == step.a]
        if s.money[step.a] >= step.n or not owned:
            queue.pop(0)
            return False
        if len(owned) > 1:
            return True
        r.v.liquidate(r, owned[0])
        return False

    def options(self, v: Variant, s: Any, seat: int, step: ev.Step) -> list[Any]:
        return [fm.Liquidate(i) for i, o in enumerate(s.slot_owner) if o == step.a]

    def answer(self, r: TurnResolver, m: Any, queue: list[ev.Step]) -> None:
        r.v.liquidate(r, m.slot)


def family_steps() -> dict[str, StepKind]:
    """The shared step kinds by ``Step.kind`` (actions add their offers)."""
    coal = TakeCubes(fm.PickCoal, ("coal_not_nearest", "coal comes from the nearest connected "
                     "mine with coal; choose one of the tied nearest mines"))  # fmt: skip
    link_coal = TakeCubes(fm.PickCoal, ("coal_not_nearest", "rail coal comes from the nearest "
                          "mine connected to the new rail; choose one of the tied nearest "
                          "mines"))  # fmt: skip
    iron = TakeCubes(fm.PickIron, ("iron_source", "choose an iron works on the board that "
                     "still has iron"))  # fmt: skip
    return {
        "discard": Discard(),
        "coal": coal,
        "link_coal": link_coal,
        "iron": iron,
        "produce": Produce(),
        "flip": Flip(),
        "liquidate": Liquidate(),
    }
