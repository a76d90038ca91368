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

from plugins.brass.actions import StepKind
from plugins.brass.events import Step
from plugins.brass.moves import Done
from plugins.brass.resolver import discard_options
from plugins.brass_pittsburgh.engine import (
    pay_options,
    remembered_listing,
    taking,
)

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


class Offer(Answers):
    """An optional continuation: asked while it has an answer besides ``done``; a move
    :attr:`take` taking it up meets the rules of the action :attr:`of`."""

    reason = PENDING
    take: ClassVar[type]
    of: ClassVar[type]

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        """The moves taking the offer ``queue[0]`` up now (``done`` not included)."""
        raise NotImplementedError

    def has_offer(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> bool:
        """Whether :meth:`offers` lists any (asked before every offer: a cheaper way to
        tell is welcome)."""
        return bool(self.offers(v, s, seat, queue))

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        return [*self.offers(v, s, seat, queue), Done()]

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        if self.has_offer(r.v, r.s, r.seat, queue):
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


def own_steps() -> dict[str, StepKind]:
    """The step kinds every action may meet (the actions bring their own offers)."""
    pay = Payment()
    return {"discard": Discard(), "cube": pay, "metal": pay, "oil": pay}
