"""What a seat may choose on a Pittsburgh state for Network and Sell (cost aside for links
beyond resources), and what taking a barrel of oil does.

These are the Pittsburgh halves of legal-move generation; the family turn engine (see
FAMILY_NEEDS.md) will combine them with cards, turns and sequential decisions.
"""

from __future__ import annotations

import msgspec

from plugins.brass_pittsburgh.building import has_presence, network, route_pipelines
from plugins.brass_pittsburgh.data import Cost
from plugins.brass_pittsburgh.links import LIGHT, pipeline_sites, train_sites
from plugins.brass_pittsburgh.payment import PaymentTable
from plugins.brass_pittsburgh.rewards import Gains, pipeline_pays
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.selling import merchants_buying, oil_needed, sellable
from plugins.brass_pittsburgh.state import State


def own_trains(rules: Rules, state: State, seat: int) -> dict[int, tuple[str, int]]:
    """The seat's resource heavy trains on the board: line -> (resource, count left)."""
    trains = {}
    for line, owner in enumerate(state.line_owner):
        link = state.line_link[line]
        if owner == seat and link != LIGHT:
            carries = rules.data.heavy_trains[link].carries
            if carries:
                (resource,) = carries
                trains[line] = (resource, state.line_cargo[line])
    return trains


def slot_resources(rules: Rules, state: State) -> list[str]:
    """What each slot's tile holds (the resource it produced), "" for none."""
    tiles = rules.data.mat.tiles
    return [next(iter(tiles[t].produces), "") if t else "" for t in state.slot_tile]


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


def sale_candidates(rules: Rules, state: State, seat: int) -> list[SaleCandidate]:
    """The seat's unflipped sellable tiles that reach a merchant showing their icon and
    enough oil to be sold (each on its own; a sale of several shares the oil)."""
    data, board = rules.data, rules.board_of(state.side)
    labels = board.labels(state.line_owner)
    found = []
    for slot, owner in enumerate(state.slot_owner):
        if owner != seat or state.slot_flipped[slot]:
            continue
        tile = data.mat.tiles[state.slot_tile[slot]]
        if not sellable(data, tile):
            continue
        node = board.slot_node[slot]
        merchants = merchants_buying(data, board, labels, node, tile.industry, state.merchant_tile)
        need = oil_needed(tile)
        if merchants and need <= oil_available(rules, state, seat, node):
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
    data = rules.data
    if link == LIGHT:
        return data.light_trains.cost
    if link in data.heavy_trains:
        return data.heavy_trains[link].cost
    return data.pipelines[link].cost


def network_options(
    rules: Rules, state: State, seat: int, second: bool = False
) -> list[tuple[str, int]]:
    """(link, line or route) pairs the seat may place now and afford; ``second`` adds the
    surcharge of a second link in the same action."""
    data, board = rules.data, rules.board_of(state.side)
    net = network(rules, state, seat)
    present = has_presence(state, seat)
    labels = board.labels(state.line_owner)
    payment = PaymentTable(
        board, labels, slot_resource=slot_resources(rules, state),
        slot_cubes=state.slot_cubes, own_trains=own_trains(rules, state, seat),
        ladders=rules.ladders[state.side], market_cubes=state.market_cubes,
    )  # fmt: skip
    links = ([LIGHT] if state.light_trains[seat] > 0 else []) + sorted(set(state.link_supply[seat]))
    extra = data.constants.second_link_extra_money if second else 0
    options = []
    for link in links:
        cost = link_cost(rules, link)
        pipeline = link in data.pipelines
        if pipeline:
            sites = pipeline_sites(
                data, board, seat, link, state.route_owner, state.route_pipeline, net, present
            )
        else:
            sites = train_sites(
                data, board, seat, link, state.line_owner, state.line_link, net, present
            )
        # Vanderbilt is the dearest source, so a seat who can pay him for everything can
        # afford the link anywhere; only otherwise is the cheapest plan worked out per site.
        worst = (
            cost.money
            + extra
            + sum(board.vanderbilt_price(cube) * n for cube, n in cost.resources().items())
        )
        for site in sites:
            if worst <= state.money[seat]:
                options.append((link, site))
                continue
            consumers = [board.route_city[site]] if pipeline else list(board.line_nodes[site])
            money = cost.money + extra
            for cube, n in cost.resources().items():
                money += payment.cheapest(consumers, cube, n)
            if money <= state.money[seat]:
                options.append((link, site))
    return options
