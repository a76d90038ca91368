"""Develop: pay a card and take one or two tiles off the mat without building them.

The rule ("Develop: lowest tile" in the Birmingham rule text): each development removes
the seat's lowest tile of one industry, for one iron (taken as for a build: any works,
else the iron market); a tile showing the no-development icon cannot be removed so and
must be built. After the first, a second development may follow in the same action,
checked on its own (its lowest tile, its iron). Each tile is checked and paid one at a
time, so a second development of the same industry looks at the next tile up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as ev
from plugins.brass import moves as fm
from plugins.brass.actions import Action, Refusal, StepKind
from plugins.brass.actions.cost import cost_code, cost_refusal
from plugins.brass.mat import EMPTY
from plugins.brass.steps import Offer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


def tile_code(v: Variant, f: Facts, seat: int, ind: int) -> str | None:
    """Whether the seat's lowest ``ind`` tile may be developed away: the refusal's code
    only (a listing discards it), :func:`tile_refusal` adds the words."""
    if not 0 <= ind < len(v.industries):
        return "bad_industry"
    level = f.lowest(seat)[ind]
    if level == EMPTY:
        return "no_tile_left"
    if not v.d.tile(ind, level).develop:
        return "cannot_develop"
    return None


def tile_refusal(v: Variant, f: Facts, seat: int, ind: int) -> Refusal:
    """:func:`tile_code`, with the rule in words."""
    code = tile_code(v, f, seat, ind)
    if code == "bad_industry":
        return (code, "no such industry")
    if code == "no_tile_left":
        return (code, f"you have no {v.name(ind)} tiles left")
    if code == "cannot_develop":
        level = f.lowest(seat)[ind]
        return (
            code,
            f"your lowest {v.name(ind)} tile (level {level}) shows the no-development icon: "
            "it must be built",
        )
    return None


def iron_code(v: Variant, f: Facts, seat: int) -> str | None:
    """Whether the seat can pay a development's iron (the same for every tile): the code
    only, :func:`cost` adds the words."""
    return cost_code(v, f, seat, (), 0, 0, v.develop_payment.n)


def cost(v: Variant, f: Facts, seat: int) -> Refusal:
    """Whether the seat can pay a development's iron (the same for every tile)."""
    return cost_refusal(v, f, seat, (), 0, 0, v.develop_payment.n)


def refusal(v: Variant, f: Facts, seat: int, ind: int, free: bool = False) -> Refusal:
    """A development of ``ind`` (``free``: a bonus development, which costs no iron)."""
    return tile_refusal(v, f, seat, ind) or (None if free else cost(v, f, seat))


def industries(v: Variant, f: Facts, seat: int, free: bool = False) -> list[int]:
    """The industries the seat may develop now (the iron asked once for all)."""
    if not free and iron_code(v, f, seat):
        return []
    return [i for i in range(len(v.industries)) if not tile_code(v, f, seat, i)]


def develop(r: TurnResolver, ind: int) -> None:
    """The seat's lowest ``ind`` tile leaves its mat."""
    level = r.d.stacks.top_level(ind, r.s.mat[r.seat][ind])
    r.emit(ev.TileDeveloped(r.seat, ind, level))


def developed(r: TurnResolver, m: Any) -> list[ev.Step]:
    """Develop what ``m`` names (:meth:`Variant.develop`); its payment comes next."""
    r.v.develop(r, m)
    return [r.v.develop_payment]


class Develop(Action):
    tag = "develop"

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        return v.develop_refusal(f, seat, m)

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        return v.develop_moves(f, seat, self.named)

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        return [*developed(r, m), ev.Step("more_develop")]

    def step_kinds(self) -> dict[str, StepKind]:
        return {"more_develop": MoreDevelop()}


class MoreDevelop(Offer):
    """The offer of a second development (``develop_also``), which pays its own."""

    move = fm.DevelopAlso
    reason = ("develop_illegal", "choose a legal second development or done")
    free = False

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[ev.Step]) -> list[Any]:
        move = self.move
        return [move(i) for i in v.developable(s, seat, self.free)]

    def take_up(self, r: TurnResolver, m: Any, queue: list[ev.Step], step: ev.Step) -> None:
        queue[:0] = developed(r, m)

    def specific(self, v: Variant, s: Any, m: Any) -> Refusal:
        return v.develop_refusal(v.facts(s), s.current, m, self.free)


class FreeDevelop(MoreDevelop):
    """A bonus development that costs nothing (``free_develop``: ``n`` of them, at least
    one). A variant with such bonuses (Birmingham's Gloucester) brings it, a subclass
    naming its :attr:`move`."""

    reason = ("develop_illegal", "choose a tile to develop for free or done")
    free = True

    def take_up(self, r: TurnResolver, m: Any, queue: list[ev.Step], step: ev.Step) -> None:
        r.v.develop(r, m)
        if step.n > 1:
            queue.insert(0, ev.Step("free_develop", step.n - 1))
