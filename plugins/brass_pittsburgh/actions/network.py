"""Network (rulebook "Network Action" steps 1-3) on the family's Network action
(:mod:`plugins.brass.actions.network`: the card, the offer of a second link), through the
hooks of :class:`..variant.PittsburghVariant` (``link_moves``, ``second_link_moves``,
``link_refusal``, ``place_link``): a link on an empty line or route touching the network
(anywhere with nothing on the board): a light or heavy train (a replacement train over
another's light train, which scores first), or a pipeline (its oil onto the oilfield; the
first one reveals the oilfield tile and pays its reward); its cubes; a train's line bonus.
A second link may follow for $10 more (the ``more_link`` offer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass.actions import Refusal, StepKind
from plugins.brass.actions import network as family
from plugins.brass.events import Step
from plugins.brass.moves import Done
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.actions import cost_refusal, gained, in_range, reward
from plugins.brass_pittsburgh.building import has_presence, network
from plugins.brass_pittsburgh.choices import link_cost, network_sites
from plugins.brass_pittsburgh.data import CUBES
from plugins.brass_pittsburgh.engine import LINE, LINK_ROUTE
from plugins.brass_pittsburgh.links import LIGHT, site_rule
from plugins.brass_pittsburgh.rewards import Gains, gains
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.scoring import location_icons, train_link_vp
from plugins.brass_pittsburgh.state import State, era_number
from plugins.brass_pittsburgh.steps import Offer, pending

if TYPE_CHECKING:
    from collections.abc import Sequence

    from plugins.brass.turn import TurnResolver


def place_link(r: TurnResolver, link: str, site: int) -> list[Step]:
    """Network step 2 for ``link`` on ``site``: a pipeline (its oil, the oilfield tile
    revealed by the first one) or a train (a replacement scores the light train first);
    then its cubes, a train's line bonus, and the rewards' offers."""
    rules, s, seat = r.d, r.s, r.seat
    board = rules.board_of(s.side)
    cost = link_cost(rules, link)
    offers: list[Step] = []  # rewards' free develops and bonus sells, after the payment
    if link in rules.data.pipelines:
        # the route's oil icons (again over a swapped reserve: the literal text) and the
        # pipeline's own barrel; the first pipeline joining the oilfield reveals its tile
        field = board.route_oilfield[site]
        first = all(s.route_owner[i] < 0 for i, f in enumerate(board.route_oilfield) if f == field)
        oil = board.routes[site].oil_icons + rules.data.pipelines[link].adds_oil_when_built
        r.emit(ev.PipelinePlaced(seat=seat, route=site, pipeline=link, oil_added=oil))
        if first and s.oilfield_tile[field]:
            tile = rules.data.oilfield_tiles[s.oilfield_tile[field]]
            era1 = era_number(s) == 1
            r.emit(
                ev.OilfieldRevealed(
                    oilfield=field, tile=tile.id, oil_now=0 if era1 else tile.production,
                    oil_later=tile.production if era1 else 0,
                )
            )  # fmt: skip
            reward(r, seat, gains(tile.reward), offers, front=False)
        b = LINK_ROUTE - site
    else:
        if s.line_owner[site] >= 0:  # a replacement train: the light train scores first
            owner = s.line_owner[site]
            icons = location_icons(rules, s)
            r.emit_all(gained(owner, Gains(vp=train_link_vp(board, site, icons, 1))))
            r.emit(ev.TrainReplaced(site))
        cargo = 0 if link == LIGHT else sum(rules.data.heavy_trains[link].carries.values())
        r.emit(ev.TrainPlaced(seat=seat, line=site, link=link, cargo=cargo))
        b = LINE - site
    steps = [Step("cube", n, CUBES.index(cube), b) for cube, n in cost.resources().items()]
    if link not in rules.data.pipelines:
        steps.append(Step("bonus", a=site))
    return steps + offers


def link_refusal(rules: Rules, s: State, seat: int, m: Any, second: bool = False) -> Refusal:
    """The first rule of Network step 2 the link ``m`` breaks (step 3: a ``second`` link
    costs $10 more), or ``None``: exactly the listed links are allowed (tests check both
    ways), so a link is accepted by its diagnosis. Pure: ``s`` is not changed."""
    data, board = rules.data, rules.board_of(s.side)
    link, site = m.link, m.site
    extra = data.constants.second_link_extra_money if second else 0
    if link == LIGHT:
        if s.light_trains[seat] < 1:
            return ("no_light_train", "you have no light train left in your supply")
    elif link not in s.link_supply[seat]:
        return ("link_not_in_supply", f"{link} is not in your personal supply")
    pipeline, special = site_rule(data, link)
    size = len(board.routes) if pipeline else len(board.lines)
    if not in_range(site, size):
        what = "pipeline route" if pipeline else "railroad line"
        return ("no_such_site", f"{what} {site} does not exist")
    net = network(rules, s, seat)
    if pipeline:
        owner = s.route_owner[site]
        swap = owner == seat and data.pipelines[s.route_pipeline[site]].type == "reserve"
        if owner >= 0 and not swap:
            return ("route_taken", "a pipeline goes on an empty route (or over your own reserve)")
        if swap and special:
            return ("reserve_over_reserve", "a reserve pipeline may not replace a reserve one")
        near = swap or board.route_city[site] in net
        ends: tuple[int, ...] = (board.route_city[site],)
    else:
        owner = s.line_owner[site]
        if owner >= 0 and not special:
            return ("line_taken", "a train goes on an empty railroad line")
        if owner >= 0 and (owner == seat or s.line_link[site] != LIGHT):
            return (
                "replace_not_allowed",
                "a replacement train replaces only another player's light train",
            )
        ends = tuple(board.line_nodes[site])
        near = any(e in net for e in ends)
    if not near and has_presence(s, seat):
        return (
            "link_not_in_network",
            "a link must touch a location of your network (anywhere only while you have no "
            "tiles on the board)",
        )
    cost = link_cost(rules, link)
    cubes = cost.resources().items()
    return cost_refusal(
        rules, s, seat, cost.money + extra, cubes, ends, -1 if pipeline else site,
        rules.worst_link_cubes[s.side][link],
    )  # fmt: skip


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


class MoreLink(family.MoreLink, Offer):
    move, reason = mv.SecondLink, pending("more_link")

    def has_offer(self, v: Any, s: Any, seat: int, queue: Sequence[Step]) -> bool:
        # the dearest listing: stop at its first option
        return any(sites for _, sites in network_sites(v.d, s, seat, second=True))

    def allows(self, v: Any, s: Any, seat: int, m: Any) -> bool:
        # A second link is judged by its diagnosis, exact both ways like the first's
        # (test_a_link_no_rule_refuses_is_listed): cheaper than listing the offer again.
        if type(m) is Done:
            return True
        return type(m) is self.move and link_refusal(v.d, s, seat, m, second=True) is None


def step_kinds() -> dict[str, StepKind]:
    """The Network action's own steps: a train's bonus, the offer of a second link."""
    return {"bonus": Bonus(), "more_link": MoreLink()}
