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

Develop: one accessible tile per develop, crown jewels included (the rulebook's only
condition); a data set may still mark a tile not developable.
"""

from __future__ import annotations

from collections.abc import Iterable

from plugins.brass.build import (
    EVERY_LOCATION,
    NETWORK_LOCATIONS,
)
from plugins.brass.graph import positions
from plugins.brass.mat import developable
from plugins.brass_pittsburgh.board import BuiltPipeline
from plugins.brass_pittsburgh.data import MatTile
from plugins.brass_pittsburgh.industries import (
    BuiltIndustry,
    oil_city_sites,
    upgrade_targets,
)
from plugins.brass_pittsburgh.rules import Places, Rules
from plugins.brass_pittsburgh.state import State, era_number

NONE = -1
FREE_SLOTS_KEPT = 256
"""Boards' free-slot tables (and mats' buildable tiles) a game keeps (see :func:`free_slots`)."""
EVERY_CITY, NETWORK_CITIES = EVERY_LOCATION, NETWORK_LOCATIONS
"""Where a card builds, besides one city: every city, the seat's network (the family's)."""


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


def presence(state: State, seat: int, net: set[int]) -> bool:
    """:func:`has_presence` read from the seat's network ``net``, once known: it is empty
    exactly while the seat has no industry or link tile on the board (the Oil City aside,
    which is no location of it)."""
    return bool(net) or seat in state.oil_city_owner


def network(
    rules: Rules,
    state: State,
    seat: int,
    slots: list[int] | None = None,
    lines: list[int] | None = None,
) -> set[int]:
    """The seat's network (:meth:`.board.PittsburghBoard.network`); ``slots`` and
    ``lines``: the seat's slots and lines, if already found (:class:`.engine.Facts`)."""
    board = rules.board_of(state.side)
    slot_node = board.slot_node
    if slots is None:
        slots = positions(state.slot_owner, seat)
    if lines is None:
        return board.network_by_owner(
            seat, [slot_node[s] for s in slots], state.line_owner, state.route_owner
        )
    # As network_by_owner, built in the same order, from the lines already found.
    route_city, link_nodes = board.route_city, board.graph.link_nodes
    net = {slot_node[s] for s in slots}
    net.update([route_city[r] for r in positions(state.route_owner, seat)])
    for line in lines:
        net.update(link_nodes[line])
    return net


class BuildScene:
    """The facts every build listing of one (state, seat) shares, worked out once: the
    network, the tiles the mat offers this era, and where each industry fits in a city.
    The state must not change while a scene is in use."""

    def __init__(
        self,
        rules: Rules,
        state: State,
        seat: int,
        net: set[int] | None = None,
        slots: list[int] | None = None,
    ):
        self.rules, self.state, self.seat = rules, state, seat
        self._slots = slots
        self.board = rules.board_of(state.side)
        self.net = network(rules, state, seat) if net is None else net
        self.present = presence(state, seat, self.net)
        era = era_number(state)
        self.spaces: list[Buildable] = buildable(rules, state.mat[seat], era)
        """Every tile the seat may build this era (:data:`Buildable`)."""
        self._era = era
        self._occupied: set[int] | None = None
        self._sites: dict[int, list[tuple[int, int, int]]] = {}
        self._free: list[list[tuple[int, int, int]] | None] | None = None
        self._built: list[BuiltIndustry | None] | None = None
        self._oil_fields: list[int] | None = None

    @property
    def occupied(self) -> set[int]:
        """Cities where the seat may not build now: era 1 allows one tile per city and player."""
        if self._occupied is None:
            st, node = self.state, self.board.slot_node
            slots = self._slots
            if slots is None and self._era == 1:
                slots = positions(st.slot_owner, self.seat)
            self._occupied = {node[s] for s in slots} if slots and self._era == 1 else set()
        return self._occupied

    def sites(self, space: int, industry: int, tile: MatTile) -> list[tuple[int, int, int]]:
        """(city, slot, oilfield) of every place the tile of ``space`` may go for a card
        that builds anywhere, cost aside: cities ascending (an upgrade: slots ascending, so
        cities too; the Oil City: oilfields, city -1). Every card's builds are a part of
        these."""
        found = self._sites.get(space)
        if found is None:
            if tile.build_on == "oilfield":
                found = [(NONE, NONE, f) for f in self.oil_fields()]
            elif tile.build_on == "upgrade":
                slot_node = self.board.slot_node
                found = [(slot_node[slot], slot, NONE) for slot in self.upgrades(tile)]
            else:
                if self._free is None:
                    self._free = free_slots(self.rules, self.state)
                found = self._free[industry]
                if found is None:
                    found = self._free[industry] = industry_slots(self.rules, self.state, industry)
                occupied = self.occupied
                if occupied:
                    found = [x for x in found if x[0] not in occupied]
            self._sites[space] = found
        return found

    def upgrades(self, tile: MatTile) -> list[int]:
        if tile.upgrade_of is None:
            return []
        if self._built is None:
            # Only the seat's own flipped tiles can be upgraded: the others are left out
            # rather than described.
            st, seat = self.state, self.seat
            self._built = [
                BuiltIndustry(owner=o, tile=t, flipped=f) if o == seat and f and t else None
                for o, t, f in zip(st.slot_owner, st.slot_tile, st.slot_flipped, strict=True)
            ]
        return upgrade_targets(self.rules.data, tile, self.seat, self._built)

    def oil_fields(self) -> list[int]:
        if self._oil_fields is None:
            st = self.state
            self._oil_fields = oil_city_sites(
                self.board, self.net, route_pipelines(st),
                [f for f, o in enumerate(st.oil_city_owner) if o >= 0],
            )  # fmt: skip
        return self._oil_fields


Buildable = tuple[int, int, MatTile, str, int, int]
"""A tile a mat offers: (mat space, industry, tile, where it goes (``build_on``), its money,
its income levels), as a build listing reads it."""


def buildable(rules: Rules, left: list[int], era: int) -> list[Buildable]:
    """Every tile a mat with ``left`` offers in ``era`` (:data:`Buildable`); kept by content
    (a mat changes only when a tile leaves it)."""
    key = (era, *left)
    found = rules.buildable.get(key)
    if found is None:
        mat = rules.mat
        found = [
            (
                space,
                rules.industry_index[t.industry],
                t,
                t.build_on,
                t.cost.money,
                t.cost.income_levels,
            )
            for space in mat.accessible(left)
            if (t := mat.tiles[space]).allowed_in_era(era)
        ]
        if len(rules.buildable) >= FREE_SLOTS_KEPT:
            rules.buildable.clear()
        rules.buildable[key] = found
    return found


def free_slots(rules: Rules, state: State) -> list[list[tuple[int, int, int]] | None]:
    """The free-slot table of this board: per industry, its :func:`industry_slots` once
    asked (``None`` before). Which slots an industry may take depends on which are taken
    alone, which changes only when a tile is built or removed: listings of the states of
    one game share the table (kept by content)."""
    key = (state.side, *state.slot_owner)
    found = rules.free_slots.get(key)
    if found is None:
        if len(rules.free_slots) >= FREE_SLOTS_KEPT:
            rules.free_slots.clear()
        found = rules.free_slots[key] = [None] * len(rules.industries)
    return found


def industry_slots(rules: Rules, state: State, industry: int) -> list[tuple[int, int, int]]:
    """(city, slot, -1) of every empty slot ``industry`` may take, cities ascending: a
    city's empty single-icon slots, or while it has none its empty shared ones (the
    family's :func:`plugins.brass.build.build_spaces`, read from the side's table)."""
    return empty_places(state.slot_owner, rules.industry_places[state.side][industry].values())


def empty_places(
    owner: list[int], cities: Iterable[tuple[Places, Places]]
) -> list[tuple[int, int, int]]:
    """The empty places of ``cities`` (each its single-icon and shared places of one
    industry, ``Rules.industry_places``): a city's single-icon ones, or while none is
    empty its shared ones."""
    found: list[tuple[int, int, int]] = []
    add = found.append
    # Plain loops over places made once: listings ask this for every industry of every
    # new board.
    for single, shared in cities:
        empty_single = False
        for place in single:
            if owner[place[1]] < 0:
                add(place)
                empty_single = True
        if not empty_single:
            for place in shared:
                if owner[place[1]] < 0:
                    add(place)
    return found


def develop_spaces(rules: Rules, state: State, seat: int) -> list[int]:
    """Mat spaces whose top tile the seat may develop away now."""
    return developable(rules.mat, state.mat[seat], rules.developable_spaces.__contains__)
