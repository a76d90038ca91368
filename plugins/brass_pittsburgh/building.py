"""Where a seat may build or develop on a Pittsburgh state (before paying the cost).

Build (rulebook "Build Action", steps 1 and 2):

* a location card builds any industry shown in its city, network or not;
* an industry card builds an industry of its path in a city of the seat's network, or
  anywhere while the seat has no industry or link tile on the board;
* any card plus a whiskey is treated as any location or industry card;
* the tile is the accessible one of its mat path (:class:`.mat.MatGraph`), allowed in this
  era; it goes on an empty slot showing its industry, a single-icon slot first (family
  :func:`plugins.brass.build.build_spaces`); in era 1 a seat builds at most one tile per
  city;
* tiles with an upgrade icon replace one of the seat's own flipped tiles of their path
  instead (:func:`.industries.upgrade_targets`);
* the Oil City goes on an oilfield joined by a pipeline to the seat's network, with a
  Kerosene industry card (or a whiskey); a location card cannot name an oilfield.

Develop: one accessible, developable tile per develop; crown jewels are not developable.
"""

from __future__ import annotations

import msgspec

from plugins.brass.build import build_spaces
from plugins.brass_pittsburgh.board import BuiltPipeline
from plugins.brass_pittsburgh.industries import (
    BuiltIndustry,
    card_builds,
    oil_city_sites,
    upgrade_targets,
)
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State, era_number

NONE = -1


class BuildTarget(msgspec.Struct, frozen=True, kw_only=True):
    """Build the top tile of mat ``space`` on ``slot`` (an upgrade replaces the seat's tile
    there) or, for the Oil City, on ``oilfield``."""

    space: int
    slot: int = NONE
    oilfield: int = NONE


def route_pipelines(state: State) -> list[BuiltPipeline | None]:
    return [
        BuiltPipeline(owner, pipe) if owner >= 0 else None
        for owner, pipe in zip(state.route_owner, state.route_pipeline, strict=True)
    ]


def has_presence(state: State, seat: int) -> bool:
    """Whether the seat has any industry or link tile on the board."""
    return (
        seat in state.slot_owner
        or seat in state.line_owner
        or seat in state.route_owner
        or seat in state.oil_city_owner
    )


def network(rules: Rules, state: State, seat: int) -> set[int]:
    board = rules.board_of(state.side)
    nodes = [board.slot_node[s] for s, owner in enumerate(state.slot_owner) if owner == seat]
    return board.network(seat, nodes, state.line_owner, route_pipelines(state))


def build_targets(
    rules: Rules, state: State, seat: int, card: int, wild: bool, net: set[int] | None = None
) -> list[BuildTarget]:
    """Every (tile, place) the seat may build paying with ``card`` (plus a whiskey when
    ``wild``), cost aside. ``net``: the seat's network, if already known."""
    data, board = rules.data, rules.board_of(state.side)
    cdef = rules.cards[state.side].defs[card]
    net = network(rules, state, seat) if net is None else net
    present = has_presence(state, seat)
    if wild:
        cities = list(range(board.n_cities))
        industries = set(range(len(rules.industries)))
        oil_city_ok = True
    elif cdef.kind == "location":
        cities = [cdef.location] if cdef.location >= 0 else []
        industries = {rules.industries.index(i) for i in card_builds(data, board, cdef)}
        oil_city_ok = False
    else:
        cities = [c for c in range(board.n_cities) if c in net or not present]
        industries = set(cdef.industries)
        oil_city_ok = True
    built = [
        BuiltIndustry(owner=o, tile=t, flipped=f) if t else None
        for o, t, f in zip(state.slot_owner, state.slot_tile, state.slot_flipped, strict=True)
    ]
    empty = [o < 0 for o in state.slot_owner]
    icons = rules.slot_industries[state.side]
    # Era 1: at most one tile per city and player.
    occupied = (
        {board.slot_node[s] for s, o in enumerate(state.slot_owner) if o == seat}
        if era_number(state) == 1
        else set()
    )
    targets: list[BuildTarget] = []
    for space in rules.mat.accessible(state.mat[seat]):
        tile = rules.mat.tiles[space]
        industry = rules.industries.index(tile.industry)
        if industry not in industries or not tile.allowed_in_era(era_number(state)):
            continue
        if tile.build_on == "oilfield":
            if oil_city_ok:
                fields = oil_city_sites(
                    board, net, route_pipelines(state),
                    [f for f, o in enumerate(state.oil_city_owner) if o >= 0],
                )  # fmt: skip
                targets += [BuildTarget(space=space, oilfield=f) for f in fields]
            continue
        if tile.build_on == "upgrade":
            targets += [
                BuildTarget(space=space, slot=slot)
                for slot in upgrade_targets(data, tile, seat, built)
                if board.slot_node[slot] in cities
            ]
            continue
        for city in cities:
            if city in occupied:
                continue
            spaces = build_spaces(board.city_slots[city], icons, empty, industry)
            targets += [BuildTarget(space=space, slot=slot) for slot in spaces]
    return targets


def develop_spaces(rules: Rules, state: State, seat: int) -> list[int]:
    """Mat spaces whose top tile the seat may develop away now."""
    return [s for s in rules.mat.accessible(state.mat[seat]) if rules.mat.tiles[s].developable]
