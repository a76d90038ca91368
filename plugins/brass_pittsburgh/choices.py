"""What a seat may choose on a Pittsburgh state for Network and Sell (cost aside for links
beyond resources), and what taking a barrel of oil does.

These are the Pittsburgh halves of legal-move generation; the family turn engine (see
FAMILY_NEEDS.md) will combine them with cards, turns and sequential decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import msgspec

from plugins.brass.graph import positions
from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.building import network, presence, route_pipelines
from plugins.brass_pittsburgh.data import Cost
from plugins.brass_pittsburgh.links import LIGHT, pipeline_sites, train_sites
from plugins.brass_pittsburgh.payment import PaymentTable
from plugins.brass_pittsburgh.rewards import Gains, pipeline_pays
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.selling import merchants_buying, oil_needed, sellable
from plugins.brass_pittsburgh.sourcing import held_slots
from plugins.brass_pittsburgh.state import State


def own_trains(
    rules: Rules, state: State, seat: int, lines: list[int] | None = None
) -> dict[int, tuple[str, int]]:
    """The seat's resource heavy trains on the board: line -> (resource, count left);
    ``lines``: the seat's lines, if already found."""
    if lines is None:
        if seat not in state.line_owner:
            return {}
        lines = positions(state.line_owner, seat)
    carried, links, cargo = rules.train_carries, state.line_link, state.line_cargo
    return {line: (carried[links[line]], cargo[line]) for line in lines if carried[links[line]]}


def slot_resources(rules: Rules, state: State) -> dict[int, str]:
    """What the tile on each slot holding cubes holds (the resource it produced), by slot.
    Few slots hold cubes at any time, and only those are ever sources."""
    holds, tiles = rules.tile_holds, state.slot_tile
    return {slot: holds[tiles[slot]] for slot in held_slots(state.slot_cubes)}


def oil_available(rules: Rules, state: State, seat: int, node: int) -> int:
    """Barrels an industry on ``node`` could use now: oilfields (or Oil Cities) reached
    through a pipeline that carries oil, each counted once, plus the seat's own oil trains
    that reach it."""
    board = rules.board_of(state.side)
    labels = board.labels(state.line_owner)
    fields = {s.oilfield for s in board.oil_sources(labels, route_pipelines(state), node)}
    trains = sum(
        n
        for line, (res, n) in own_trains(rules, state, seat).items()
        if res == "oil" and board.train_reaches(labels, line, node)
    )
    return sum(state.oil[f] for f in fields) + trains


class SaleCandidate(msgspec.Struct, frozen=True, kw_only=True):
    slot: int
    merchants: list[int]
    """Merchant spaces the tile may be sold to."""
    oil: int
    """Barrels the tile needs."""


def sale_candidates(
    rules: Rules,
    state: State,
    seat: int,
    slots: list[int] | None = None,
    labels: Sequence[int] | None = None,
) -> list[SaleCandidate]:
    """The seat's unflipped sellable tiles that reach a merchant showing their icon and
    enough oil to be sold (each on its own; a sale of several shares the oil); ``slots``,
    ``labels``: the seat's slots and the state's connectivity, if already found."""
    data, board = rules.data, rules.board_of(state.side)
    if labels is None:
        labels = board.labels(state.line_owner)
    found = []
    for slot in positions(state.slot_owner, seat) if slots is None else slots:
        if state.slot_flipped[slot]:
            continue
        tile = data.mat.tiles[state.slot_tile[slot]]
        if not sellable(data, tile):
            continue
        node = board.slot_node[slot]
        merchants = merchants_buying(data, board, labels, node, tile.industry, state.merchant_tile)
        need = oil_needed(tile)
        if merchants and (need == 0 or need <= oil_available(rules, state, seat, node)):
            found.append(SaleCandidate(slot=slot, merchants=merchants, oil=need))
    return found


class OilTaken(msgspec.Struct, frozen=True, kw_only=True):
    oilfield: int
    pipeline_owner: int
    reward: Gains
    """What the pipeline's owner earns for this barrel."""
    oil_city_flipped: bool
    """The barrel was the Oil City's last: it flips (its owner gains the flip reward)."""


def take_oil(rules: Rules, state: State, route: int) -> OilTaken:
    """One barrel out of the oilfield of ``route`` through its pipeline (state unchanged)."""
    board = rules.board_of(state.side)
    field = board.route_oilfield[route]
    pipe = rules.data.pipelines[state.route_pipeline[route]]
    if not pipe.carries_oil or state.oil[field] <= 0:
        raise ValueError(f"no oil can come through route {board.routes[route].id}")
    last = state.oil[field] == 1
    return OilTaken(
        oilfield=field,
        pipeline_owner=state.route_owner[route],
        reward=pipeline_pays(pipe, 1),
        oil_city_flipped=last
        and state.oil_city_owner[field] >= 0
        and not state.oil_city_flipped[field],
    )


def link_cost(rules: Rules, link: str) -> Cost:
    return rules.link_tiles[link].cost


def network_options(
    rules: Rules, state: State, seat: int, second: bool = False
) -> list[tuple[str, int]]:
    """(link, line or route) pairs the seat may place now and afford; ``second`` adds the
    surcharge of a second link in the same action."""
    return [
        (link, site) for link, sites in network_sites(rules, state, seat, second) for site in sites
    ]


def network_sites(
    rules: Rules,
    state: State,
    seat: int,
    second: bool = False,
    net: set[int] | None = None,
    payment: Callable[[], PaymentTable] | None = None,
) -> Iterator[tuple[str, list[int]]]:
    """:func:`network_options` link by link: each link tile and the sites it may take
    (none, some or all), so that asking whether there is any option stops early."""
    data, board = rules.data, rules.board_of(state.side)
    net = network(rules, state, seat) if net is None else net
    present = presence(state, seat, net)
    money = state.money[seat]
    table: PaymentTable | None = None
    # Links of equal cost and site rule (most heavy trains) are affordable at the same
    # sites: each such group is checked once.
    checked: dict[tuple[object, ...], list[int]] = {}
    sites_by_rule: dict[tuple[bool, bool], list[int]] = {}
    for link, rule, base, worst, resources in link_plan(rules, state, seat, second):
        sites = sites_by_rule.get(rule)
        if sites is None:
            if rule[0]:  # both pipeline rules' sites at once
                both = pipeline_sites(
                    data, board, seat, state.route_owner, state.route_pipeline, net, present
                )
                sites_by_rule[True, True], sites_by_rule[True, False] = both
                sites = sites_by_rule[rule]
            else:
                sites = sites_by_rule[rule] = train_sites(
                    data, board, seat, link, state.line_owner, state.line_link, net, present
                )
        # Vanderbilt is the dearest source, so a seat who can pay him for everything can
        # afford the link anywhere; one who cannot pay the money alone, nowhere. Only in
        # between is the cheapest plan worked out per site.
        if worst <= money:
            yield link, sites
            continue
        if base > money or not sites:
            continue
        key = (rule, base, resources)  # a rule's sites are the same for all its tiles
        fit = checked.get(key)
        if fit is None:
            if table is None:
                table = payment() if payment else payment_table(rules, state, seat)
            budget = money - base
            fit = checked[key] = (
                _affordable_sites(board, table, rule[0], sites, resources, budget)
                if table.least(resources) <= budget
                else []
            )
        yield link, fit


LinkPlan = tuple[str, tuple[bool, bool], int, int, tuple[tuple[str, int], ...]]
"""A link tile as a listing reads it: (link, site rule, money, money and its cubes all
bought from Vanderbilt, cubes)."""
LINK_PLANS_KEPT = 1024


def link_plan(rules: Rules, state: State, seat: int, second: bool = False) -> list[LinkPlan]:
    """The link tiles the seat may place (the light train first if any is left, then its
    supply's tiles sorted), each with its costs (``second``: a second link's): worked out
    once per supply, which changes only when a link is placed or unlocked."""
    supply = state.link_supply[seat]
    key = (state.side, second, state.light_trains[seat] > 0, *supply)
    found = rules.link_plans.get(key)
    if found is None:
        extra = rules.data.constants.second_link_extra_money if second else 0
        worst_cubes = rules.worst_link_cubes[state.side]
        found = []
        for link in ([LIGHT] if key[2] else []) + sorted(set(supply)):
            cost, resources, rule = rules.link_tiles[link]
            base = cost.money + extra
            found.append((link, rule, base, base + worst_cubes[link], resources))
        if len(rules.link_plans) >= LINK_PLANS_KEPT:
            rules.link_plans.clear()
        rules.link_plans[key] = found
    return found


def payment_table(
    rules: Rules,
    state: State,
    seat: int,
    labels: Sequence[int] | None = None,
    lines: list[int] | None = None,
) -> PaymentTable:
    """The cheapest cube payments of the seat on this state (see :mod:`.payment`);
    ``labels``, ``lines``: the state's connectivity and the seat's lines, if already
    known."""
    board = rules.board_of(state.side)
    return PaymentTable(
        board, board.labels(state.line_owner) if labels is None else labels,
        slot_resource=slot_resources(rules, state),
        slot_cubes=state.slot_cubes, own_trains=own_trains(rules, state, seat, lines),
        ladders=rules.ladders[state.side], market_cubes=state.market_cubes,
        floor=rules.cube_floor[state.side],
    )  # fmt: skip


def _affordable_sites(
    board: PittsburghBoard,
    payment: PaymentTable,
    pipeline: bool,
    sites: Sequence[int],
    resources: Sequence[tuple[str, int]],
    budget: int,
) -> list[int]:
    """The sites where a link's cubes cost at most ``budget`` (Vanderbilt's price for all of
    them being more)."""
    labels = payment.labels
    # Groups without a free or market cube of the link's kinds add nothing to a plan: a site
    # reaching only such groups pays Vanderbilt for all, which is over budget here.
    if len(resources) == 1:  # every link tile of the data set: one kind of cube
        hot = payment.sourced(resources[0][0])
    else:
        hot = set().union(*(payment.sourced(cube) for cube, _ in resources))
    alone: dict[int, bool] = {}  # by group: the cubes delivered there alone are affordable
    fit = []
    for site in sites:
        ends = (board.route_city[site],) if pipeline else board.line_nodes[site]
        warm = []
        for node in ends:
            label = labels[node]
            if label not in hot:
                continue
            ok = alone.get(label)
            if ok is None:
                ok = alone[label] = _cubes_price(payment, (node,), resources) <= budget
            if ok:  # reaching more groups never costs more: one affordable end settles it
                fit.append(site)
                break
            warm.append(node)
        else:
            # two ends in different groups, each too dear alone, may still pool their sources
            if (
                len(warm) > 1
                and labels[warm[0]] != labels[warm[1]]
                and _cubes_price(payment, warm, resources) <= budget
            ):
                fit.append(site)
    return fit


def _cubes_price(
    payment: PaymentTable, consumers: Sequence[int], resources: Iterable[tuple[str, int]]
) -> int:
    """Least money for a link's cubes delivered to any of ``consumers``."""
    total = 0
    for cube, n in resources:
        total += payment.cheapest(consumers, cube, n)
    return total
