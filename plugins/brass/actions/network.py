"""Network: pay a card and place links, extending the seat's network along link lines.

The rule ("Rail: place, then supply coal" and "Double rail: coal per link" in the
Birmingham rule text): a link goes on an empty line the era allows (canals in the canal
era, rails in the rail era) that touches the seat's network, anywhere while the seat has
nothing on the board (if the variant allows: :attr:`Variant.first_link_anywhere`), while
the seat has a link tile left. A canal costs money only; a rail costs money and coal,
the rail being placed first so that its coal may come along it from the nearest mine
connected to either end (else from the market through a trade point). In the rail era a
second rail may follow in the same action for the double rail's extra money and its own
coal (Birmingham adds a beer: :meth:`Variant.second_link_refusal`).

The :class:`Network` action asks the variant what a link is, where it may go, what it costs
and what placing it does (:meth:`Variant.link_moves`, :meth:`Variant.second_link_moves`,
:meth:`Variant.link_refusal`, :meth:`Variant.place_link`; Pittsburgh's trains and pipelines);
the defaults are the rule above, written here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as ev
from plugins.brass import moves as fm
from plugins.brass.actions import ERA_NAMES, Action, Refusal, StepKind
from plugins.brass.actions.cost import cost_code, cost_refusal
from plugins.brass.steps import Offer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


def refusal(v: Variant, f: Facts, seat: int, link: int, second: bool = False) -> Refusal:
    """A link of ``seat`` on ``link`` (``second``: the second rail of the action, the first
    already on the board), in parts so that a listing asks the seat's once: the line, the
    seat's link tiles, the route, the cost."""
    return (
        line_refusal(v, f, link)
        or tiles_refusal(v, f, seat)
        or route_refusal(v, f, seat, link)
        or link_cost_refusal(v, f, seat, link, second)
    )


def line_refusal(v: Variant, f: Facts, link: int) -> Refusal:
    """Whether ``link`` is a line with no link on it."""
    if not 0 <= link < v.d.n_links:
        return ("bad_link", "no such link line")
    if f.s.link_owner[link] >= 0:
        return ("link_taken", "that line already carries a link")
    return None


def tiles_refusal(v: Variant, f: Facts, seat: int) -> Refusal:
    """Whether the seat has a link tile left (of its limited supply)."""
    tiles = v.d.rules.link_tiles
    if f.links_placed(seat) >= tiles:
        return ("no_link_tiles", f"you have placed all {tiles} of your link tiles")
    return None


def route_refusal(v: Variant, f: Facts, seat: int, link: int) -> Refusal:
    """Whether this era's link may go on line ``link``, touching the seat's network (or
    anywhere while it has nothing on the board, if the variant allows)."""
    era = f.s.era
    if not v.link_lines(era)[link]:
        return ("link_wrong_era", f"no {ERA_NAMES[era]} link may be built on this line")
    if f.presence(seat):
        if f.network(seat).isdisjoint(v.d.link_nodes[link]):
            return ("link_not_in_network", "a new link must touch a location of your network")
    elif not v.first_link_anywhere:
        return ("link_needs_presence", "your first link must touch one of your industries")
    return None


def link_cost_code(v: Variant, f: Facts, seat: int, link: int, second: bool = False) -> str | None:
    """Whether the seat can pay for its link on ``link``: a canal's money, a rail's money
    and coal, a second rail also what :meth:`Variant.second_link_refusal` asks. The code
    only (a listing discards it): :func:`link_cost_refusal` adds the words."""
    s = f.s
    money, coal = v.link_money(s.era, second), v.link_coal(s.era)
    if not coal:
        return "cannot_afford" if s.money[seat] < money else None
    # the rail is placed before its coal is found: the line joins its locations' networks
    found = cost_code(v, f, seat, v.d.link_nodes[link], money, coal, 0)
    if found or not second:
        return found
    more = v.second_link_refusal(f, seat, link)
    return more[0] if more else None


def link_cost_refusal(v: Variant, f: Facts, seat: int, link: int, second: bool = False) -> Refusal:
    """:func:`link_cost_code`, with the rule in words."""
    code = link_cost_code(v, f, seat, link, second)
    if code is None:
        return None
    s = f.s
    money, coal = v.link_money(s.era, second), v.link_coal(s.era)
    if not coal:
        return (code, f"a {ERA_NAMES[s.era]} costs £{money}")
    return cost_refusal(v, f, seat, v.d.link_nodes[link], money, coal, 0) or (
        v.second_link_refusal(f, seat, link)
    )


def lines(v: Variant, f: Facts, seat: int, second: bool = False) -> list[int]:
    """The lines a link may take now (:func:`refusal`): the seat's part asked once, and
    only of the empty lines of the era that touch the seat's network, while it has the
    money before coal."""
    s = f.s  # the seat's part: its link tiles (as tiles_refusal), its money before coal
    if f.links_placed(seat) >= v.d.rules.link_tiles or v.link_money(s.era, second) > s.money[seat]:
        return []
    era_lines, owner = v.link_lines(s.era), s.link_owner
    # the route rule is network_lines' (the lines touching the network, or any while the
    # variant allows a first link anywhere); the era's lines and the empty ones are left
    empty = [li for li in f.network_lines(seat) if owner[li] < 0 and era_lines[li]]
    if not v.link_coal(s.era):  # the money asked above is all a canal costs
        return empty
    return [li for li in empty if link_cost_code(v, f, seat, li, second) is None]


def second_link_blocker(
    v: Variant, f: Facts, seat: int, first_laid: bool = False
) -> tuple[str, str] | None:
    """The rule that leaves ``seat`` no second link on today's board, or ``None`` if one
    could follow: the refusal most of the lines touching its network share. Shown before
    the first link (the view's ``double_rail``) and, with ``first_laid``, in the refusal
    of a ``second_link`` sent when none is offered."""
    d, s = v.d, f.s
    if v.links_per_action(s.era) < 2:
        return ("link_wrong_era", "a double rail is a rail-era network action")
    second = v.link_money(s.era, True)
    tiles, money = (1, second) if first_laid else (2, v.link_money(s.era) + second)
    if f.links_placed(seat) + tiles > d.rules.link_tiles:
        return ("no_link_tiles", f"you do not have {tiles} link tile(s) left")
    if s.money[seat] < money:
        what = "a second rail costs" if first_laid else "two rails cost"
        return ("cannot_afford", f"{what} £{money} besides coal")
    era_lines = v.link_lines(s.era)
    refusals: dict[tuple[str, str], int] = {}
    for li in f.network_lines(seat):
        if s.link_owner[li] < 0 and era_lines[li]:
            found = refusal(v, f, seat, li, second=True)
            if found is None:
                return None
            refusals[found] = refusals.get(found, 0) + 1
    if not refusals:
        return ("link_not_in_network", "no empty rail line touches your network")
    return max(refusals, key=lambda reason: refusals[reason])


def link_steps(r: TurnResolver, link: int) -> list[ev.Step]:
    coal = r.v.link_coal(r.s.era)
    return [ev.Step("link_coal", coal, link)] if coal else []


def place(r: TurnResolver, link: int, second: bool = False) -> list[ev.Step]:
    """The link goes on line ``link`` and its money is paid; its steps follow (a rail's
    coal, a second link's :meth:`Variant.second_link_steps`)."""
    r.emit(ev.LinkPlaced(r.seat, link))
    r.emit(ev.Paid(r.seat, r.v.link_money(r.s.era, second)))
    return link_steps(r, link) + (r.v.second_link_steps(link) if second else [])


class Network(Action):
    """A card, a link, then the offer of another in an era that allows two."""

    tag = "network"
    continuations = (fm.SecondLink,)

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        return v.link_refusal(f, seat, m)

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        return v.link_moves(f, seat, self.named)

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        more = [ev.Step("more_link")] if r.v.links_per_action(r.s.era) > 1 else []
        return r.v.place_link(r, m) + more

    def stray_refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        blocked = second_link_blocker(v, f, seat, first_laid=True)
        why = "" if blocked is None else f"; none is possible now: {blocked[1]} ({blocked[0]})"
        return (
            "no_second_rail",
            "a second rail is offered right after the first rail of a network action, while "
            f"one is possible{why}",
        )

    def step_kinds(self) -> dict[str, StepKind]:
        return {"more_link": MoreLink()}


class MoreLink(Offer):
    """The offer of a second link (:attr:`move`) after the first of the action."""

    move = fm.SecondLink
    reason = ("second_link_illegal", "choose a legal second rail or done")

    def offers(self, v: Variant, s: Any, seat: int, queue: Sequence[ev.Step]) -> list[Any]:
        return v.second_link_moves(s, seat, self.move)

    def take_up(self, r: TurnResolver, m: Any, queue: list[ev.Step], step: ev.Step) -> None:
        queue[:0] = r.v.place_link(r, m, second=True)

    def specific(self, v: Variant, s: Any, m: Any) -> Refusal:
        return v.link_refusal(v.facts(s), s.current, m, second=True)
