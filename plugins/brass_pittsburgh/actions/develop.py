"""Develop (rulebook "Develop Action" steps 1-3): a card, then one accessible tile off the
mat for one iron or steel (a second may follow: the ``more_develop`` offer). A free develop
(line bonus, merchant, Locomotive Works) removes a tile the same way, paying nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass.actions import Refusal, StepKind
from plugins.brass.events import Step
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.actions import PittsburghAction, in_range
from plugins.brass_pittsburgh.building import develop_spaces, network
from plugins.brass_pittsburgh.choices import payment_table
from plugins.brass_pittsburgh.engine import Facts, cheapest, dearest
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State
from plugins.brass_pittsburgh.steps import Offer, pending

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


def develop_moves(rules: Rules, s: State, seat: int, facts: Facts | None = None) -> list[int]:
    """Spaces the seat may develop paying one iron or steel."""
    metal = Step("metal", 1)
    money = s.money[seat]
    if dearest(rules, s, metal, 1) > money and cheapest(rules, s, seat, metal, 1, facts) > money:
        return []
    return develop_spaces(rules, s, seat)


class Develop(PittsburghAction):
    """Develop: a card, one accessible tile off the mat for one iron or steel (then the
    offer of a second)."""

    tag = "develop"
    general = (
        "develop_not_allowed",
        "only an accessible, developable tile of your mat may be developed, for one iron or "
        "steel you can pay for",
    )

    def options(self, v: Variant, f: Any, seat: int) -> list[Any]:
        made = v.d.develop_moves
        return [made[sp][0] for sp in develop_moves(v.d, f.s, seat, f)]

    def start(self, r: TurnResolver, m: Any) -> list[Step]:
        r.emit(ev.TileTaken(r.seat, m.space))
        return [Step("metal", 1), Step("more_develop")]

    def diagnosis(
        self, rules: Rules, s: State, seat: int, m: Any, queue: Iterable[Step] = ()
    ) -> Refusal:
        return _develop(rules, s, seat, m.space, paid=not isinstance(m, mv.FreeDevelop))

    def step_kinds(self) -> dict[str, StepKind]:
        return {"more_develop": MoreDevelop(), "free_develop": FreeDevelop()}


def _develop(rules: Rules, s: State, seat: int, space: int, paid: bool) -> Refusal:
    if not in_range(space, len(rules.mat.tiles)):
        return ("no_such_tile", f"mat space {space} does not exist")
    tile = rules.mat.tiles[space]
    if space not in rules.mat.accessible(s.mat[seat]):
        return ("tile_not_accessible", f"{tile.id} is not accessible on your mat")
    if space not in develop_spaces(rules, s, seat):
        return ("not_developable", f"{tile.id} is marked not developable in the game data")
    if not paid:
        return None
    table = payment_table(rules, s, seat)
    nodes = sorted(network(rules, s, seat))
    price = min(table.cheapest(nodes, metal, 1) for metal in ("iron", "steel"))
    if price > s.money[seat]:
        return (
            "resources_unaffordable",
            f"a develop costs one iron or steel, ${price} at the cheapest, and you have "
            f"${s.money[seat]}",
        )
    return None


class MoreDevelop(Offer):
    move, of = mv.DevelopAlso, mv.Develop
    reason = pending("more_develop")

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        made = v.d.develop_moves
        return [made[sp][1] for sp in develop_moves(v.d, s, seat)]

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step], step: Step) -> None:
        r.emit(ev.TileTaken(r.seat, m.space))
        queue.insert(0, Step("metal", 1))


class FreeDevelop(Offer):
    move, of = mv.FreeDevelop, mv.Develop
    reason = pending("free_develop")

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        made = v.d.develop_moves
        return [made[sp][2] for sp in develop_spaces(v.d, s, seat)]

    def take_up(self, r: TurnResolver, m: Any, queue: list[Step], step: Step) -> None:
        r.emit(ev.TileTaken(r.seat, m.space))
        if step.n > 1:
            queue.insert(0, Step("free_develop", step.n - 1))
