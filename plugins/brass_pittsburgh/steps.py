"""The step kinds every Pittsburgh action may meet, on the family turn engine (see
:mod:`.engine` for what each step's fields mean); an action's own steps live with it.

* :class:`Discard` (``discard``): the card paying for the action;
* :class:`Payment` (``cube``, ``metal``, ``oil``): each unit from a chosen source, never
  leaving too little money for the rest (:func:`pay_options`, :func:`taking`; rulebook
  "Sourcing Resources", "Build Action" step 3, "Sell Action" step 3);
* :class:`Offer`: the base of an action's optional continuations (``more_link``,
  ``more_develop``, ``free_develop``, ``more_sell``, ``bonus_sell``, ``quality``), asked
  only while one is possible besides ``done``.

``decide`` accepts an answer only if it is among the step's answers worked out afresh
(the family's :meth:`~plugins.brass.actions.StepKind.allows`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as fev
from plugins.brass import steps as family
from plugins.brass.actions import StepKind, develop
from plugins.brass.events import Step
from plugins.brass.moves import Done
from plugins.brass.resolver import discard_options
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.actions import flip_events, gained
from plugins.brass_pittsburgh.building import route_pipelines
from plugins.brass_pittsburgh.choices import own_trains, slot_resources, take_oil
from plugins.brass_pittsburgh.data import CUBES
from plugins.brass_pittsburgh.engine import (
    METAL,
    NETWORK,
    Facts,
    cheapest,
    consumers,
    dearest,
)
from plugins.brass_pittsburgh.rewards import gains
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.sourcing import cube_sources, oil_sources
from plugins.brass_pittsburgh.state import State, apply

if TYPE_CHECKING:
    from collections.abc import Sequence

    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


def pending(kind: str) -> tuple[str, str]:
    """Why a move that does not answer a pending ``kind`` step is refused."""
    return ("decision_pending", f"answer the pending {kind} decision with one of the legal moves")


class Answers(StepKind):
    """A step whose answers are worked out from the whole queue (:meth:`answers`)."""

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        """The engine moves that answer ``queue[0]``."""
        return []

    def options(self, v: Variant, s: Any, seat: int, step: Step) -> list[Any]:
        return self.answers(v, s, seat, s.pending)


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

    def allows(self, v: Variant, s: Any, seat: int, m: Any) -> bool:
        # The same check as the listing's, of the one source ``m`` names: decide need not
        # price every other source.
        return type(m) is mv.Pay and bool(pay_options(v.d, s, seat, s.pending, m))

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


class Offer(family.Offer, Answers):
    """The family's offer, its answers worked out from the whole queue (a sale's tiles
    still to come)."""

    options = Answers.options

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        return [*self.offers(v, s, seat, queue), Done()]


class MoreDevelop(develop.MoreDevelop, Offer):
    move, reason = mv.DevelopAlso, pending("more_develop")


class FreeDevelop(develop.FreeDevelop, Offer):
    move, reason = mv.FreeDevelop, pending("free_develop")


def own_steps() -> dict[str, StepKind]:
    """The step kinds every action may meet, and the family Develop's offers answered as
    Pittsburgh answers offers (the other actions bring their own)."""
    pay = Payment()
    return {
        "discard": Discard(),
        "cube": pay,
        "metal": pay,
        "oil": pay,
        "more_develop": MoreDevelop(),
        "free_develop": FreeDevelop(),
    }


def _budget_after(rules: Rules, s: State, seat: int, queue: Sequence[Step]) -> int:
    """Money the rest of ``queue`` needs at least (cube and metal steps)."""
    needs = [step for step in queue if step.n > 0 and step.kind in ("cube", "metal")]
    if not needs:
        return 0
    facts = Facts(rules, s, seat)
    return sum(cheapest(rules, s, seat, step, step.n, facts) for step in needs)


def pay_options(
    rules: Rules, s: State, seat: int, queue: Sequence[Step], only: mv.Pay | None = None
) -> list[mv.Pay]:
    """Sources for the next unit of ``queue[0]`` that leave enough money for the rest
    (``only``: of those, the one that move names, if it is one: ``decide``'s check)."""
    step = queue[0]
    board = rules.board_of(s.side)
    labels = board.labels(s.line_owner)
    if step.kind == "oil":
        node = board.slot_node[step.a]
        found = oil_sources(
            board, labels, node, oil=s.oil, route_pipeline=route_pipelines(s),
            own_oil_trains={
                line: n for line, (res, n) in own_trains(rules, s, seat).items() if res == "oil"
            },
        )  # fmt: skip
        pays = [mv.Pay("oil", src.kind, src.index) for src in found]
        return pays if only is None else [pay for pay in pays if pay == only]
    nodes, exclude = consumers(rules, s, seat, step.b if step.kind == "cube" else NETWORK)
    kinds = [CUBES[step.a]] if step.kind == "cube" else list(METAL)
    if only is not None:
        if only.resource not in kinds:
            return []
        kinds = [only.resource]
    rest = [Step(step.kind, step.n - 1, step.a, step.b), *queue[1:]]
    worst_rest = sum(dearest(rules, s, st, st.n) for st in rest)
    least_rest: int | None = None
    options = []
    held, trains = slot_resources(rules, s), own_trains(rules, s, seat)
    for cube in kinds:
        for src in cube_sources(
            board, labels, nodes, cube, slot_resource=held, slot_cubes=s.slot_cubes,
            own_trains=trains, ladders=rules.ladders[s.side], market_cubes=s.market_cubes,
            exclude_line=exclude,
        ):  # fmt: skip
            if only is not None and (src.kind != only.source or src.index != only.index):
                continue
            pay = mv.Pay(cube, src.kind, src.index)
            if src.price + worst_rest <= s.money[seat]:
                options.append(pay)  # affordable even if the rest all comes from Vanderbilt
                continue
            # Taking a unit never makes the rest cheaper (free cubes only go, a market only
            # gets dearer) and Vanderbilt changes nothing: the rest priced now settles
            # those cases without playing the taking out.
            if least_rest is None:
                least_rest = _budget_after(rules, s, seat, rest)
            if src.price + least_rest > s.money[seat]:
                continue
            if src.kind == "vanderbilt":
                options.append(pay)
                continue
            after = s.clone()
            for e in taking(rules, after, seat, pay):
                apply(rules, after, e)
            if src.price + _budget_after(rules, after, seat, rest) <= s.money[seat]:
                options.append(pay)
    return options


def taking(rules: Rules, s: State, seat: int, pay: mv.Pay) -> list[Any]:
    """The events of taking one unit as ``pay`` says (flips of emptied tiles included)."""
    board = rules.board_of(s.side)
    out: list[Any] = []
    if pay.source == "train":
        out.append(ev.CargoTaken(pay.index))
    elif pay.source == "tile":
        out.append(ev.CubeTaken(pay.index))
        if s.slot_cubes[pay.index] == 1:
            out += flip_events(rules, s, pay.index)
    elif pay.source == "market":
        ladder = rules.ladders[s.side][pay.index][pay.resource]
        price = ladder.buy_price(s.market_cubes[pay.index][pay.resource])
        out += [ev.MarketBought(pay.index, pay.resource), fev.Paid(seat, price or 0)]
    elif pay.source == "vanderbilt":
        out.append(fev.Paid(seat, board.vanderbilt_price(pay.resource)))
    else:  # a barrel through the pipeline on route pay.index
        taken = take_oil(rules, s, pay.index)
        out.append(ev.OilTaken(taken.oilfield))
        out += gained(taken.pipeline_owner, taken.reward)
        if taken.oil_city_flipped:
            owner = s.oil_city_owner[taken.oilfield]
            out.append(ev.OilCityFlipped(taken.oilfield))
            out += gained(owner, gains(_oil_city(rules).flip_reward))
    return out


def _oil_city(rules: Rules) -> Any:
    return next(t for t in rules.mat.tiles if t.build_on == "oilfield")
