"""One side of the Pittsburgh board as ints, and how things travel across it.

Locations (cities, then merchant spaces) are nodes ``0..n-1`` of a
:class:`plugins.brass.graph.BoardGraph` whose links are the railroad lines. Oilfields are
not locations: they hang off cities by pipeline routes, which never carry cubes. So:

* cubes (and oil, once out of its oilfield) travel over train links of anyone: two
  locations are connected when the line owners make them one component (``labels``);
* oil leaves an oilfield only through a pipeline that carries oil (never a reserve
  pipeline), at the route's city, and goes on by train from there;
* Vanderbilt delivers any cube anywhere at the side's printed price.

Game states keep ``line_owner`` (seat per line, ``-1`` empty) and per-route pipelines as
plain lists; the functions here take them as arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from plugins.brass.graph import BoardGraph, positions
from plugins.brass_pittsburgh.data import (
    BoardSide,
    Line,
    Market,
    Pipeline,
    PipelineRoute,
    PittsburghData,
)

NO_OWNER = -1


class BuiltPipeline(msgspec.Struct, frozen=True):
    """A pipeline tile on a route: who owns it and which tile it is."""

    owner: int
    pipeline: str


class OilSource(msgspec.Struct, frozen=True):
    """One way for a barrel to reach a consumer: out of ``oilfield`` through the pipeline on
    ``route`` (its owner earns the pipeline's reward), then by train from the route's city."""

    oilfield: int
    route: int


class PittsburghBoard:
    """The printed facts of one board side, indexed for play."""

    def __init__(self, data: PittsburghData, side: BoardSide) -> None:
        self.data = data
        self.side = side
        self.locations: list[str] = [*side.cities, *side.merchants]
        self.node: dict[str, int] = {loc: i for i, loc in enumerate(self.locations)}
        self.n_cities = len(side.cities)
        self.lines: list[Line] = list(side.lines)
        self.line_index: dict[str, int] = {line.id: i for i, line in enumerate(self.lines)}
        self.line_nodes: list[tuple[int, int]] = [
            (self.node[line.endpoints[0]], self.node[line.endpoints[1]]) for line in self.lines
        ]
        self.graph = BoardGraph(len(self.locations), self.line_nodes)
        self.oilfields: list[str] = list(side.oilfields)
        self.oilfield_index: dict[str, int] = {o: i for i, o in enumerate(self.oilfields)}
        self.routes: list[PipelineRoute] = list(side.pipeline_routes)
        self.route_index: dict[str, int] = {r.id: i for i, r in enumerate(self.routes)}
        self.route_city: list[int] = [self.node[r.city] for r in self.routes]
        self.route_oilfield: list[int] = [self.oilfield_index[r.oilfield] for r in self.routes]
        self.city_routes: list[list[int]] = [[] for _ in self.locations]
        """The pipeline routes at each location, ascending (none at a merchant)."""
        for r, city in enumerate(self.route_city):
            self.city_routes[city].append(r)
        self.markets: list[Market] = list(side.markets)
        self.market_node: list[int] = [self.node[m.city] for m in self.markets]
        self.cube_markets: dict[str, list[tuple[int, int]]] = {}
        """Per cube, (market, its location) of the markets trading it, in board order."""
        for m, market in enumerate(self.markets):
            for cube in market.ladders:
                self.cube_markets.setdefault(cube, []).append((m, self.market_node[m]))
        self.slot_node: list[int] = []
        self.slot_icons: list[tuple[str, ...]] = []
        self.slot_name: list[str] = []
        self.city_slots: list[list[int]] = [[] for _ in self.locations]
        for node, city in enumerate(side.cities.values()):
            for k, icons in enumerate(city.slots):
                self.city_slots[node].append(len(self.slot_node))
                self.slot_node.append(node)
                self.slot_icons.append(tuple(icons))
                self.slot_name.append(f"{city.id}:{k}")
        self.merchant_spaces: list[tuple[int, int]] = [
            (self.node[m.id], space.min_players)
            for m in side.merchants.values()
            for space in m.spaces
        ]
        """(merchant location, fewest players using it) per merchant space."""
        self.printed_link_icons: list[int] = [
            *(c.link_icons for c in side.cities.values()),
            *(m.link_icons for m in side.merchants.values()),
        ]

    def vanderbilt_price(self, cube: str) -> int:
        """What Vanderbilt charges to deliver one ``cube`` to any location."""
        return self.side.vanderbilt[cube]

    # --- connections over train links ------------------------------------------------------

    def labels(self, line_owner: Sequence[int]) -> tuple[int, ...]:
        """A component label per location: equal labels = joined by a continuous route of
        train links of any colour. Pipelines are not lines, so they never join anything."""
        return self.graph.labels(line_owner)

    def oil_sources(
        self,
        labels: Sequence[int],
        route_pipeline: Sequence[BuiltPipeline | None],
        consumer: int,
    ) -> list[OilSource]:
        """Every (oilfield, route) a barrel may take to reach ``consumer``: a pipeline that
        carries oil on the route, whose city is ``consumer`` or connected to it by train."""
        found = []
        for r, built in enumerate(route_pipeline):
            if built is None or not self.pipeline(built).carries_oil:
                continue
            if labels[self.route_city[r]] == labels[consumer]:
                found.append(OilSource(self.route_oilfield[r], r))
        return found

    def markets_connected(self, labels: Sequence[int], node: int, resource: str) -> list[int]:
        """Indices of the markets trading ``resource`` that ``node`` reaches by train (a
        market in the same city counts)."""
        return [
            m
            for m, market in enumerate(self.markets)
            if resource in market.ladders and labels[self.market_node[m]] == labels[node]
        ]

    def train_reaches(self, labels: Sequence[int], line: int, node: int) -> bool:
        """Whether a resource on the train built on ``line`` can travel to ``node``."""
        return labels[self.line_nodes[line][0]] == labels[node]

    # --- networks ---------------------------------------------------------------------------

    def network_by_owner(
        self,
        seat: int,
        industry_nodes: Sequence[int],
        line_owner: Sequence[int],
        route_owner: Sequence[int],
    ) -> set[int]:
        """The seat's network: locations with its industries or next to one of its links,
        trains and pipelines alike (a pipeline's only location is its route's city);
        ``route_owner`` gives each pipeline route's owner (``-1``: none)."""
        route_city = self.route_city
        pipes = [route_city[r] for r in positions(route_owner, seat)]
        return self.graph.network(industry_nodes, line_owner, seat, pipes)

    def pipeline(self, built: BuiltPipeline) -> Pipeline:
        return self.data.pipelines[built.pipeline]
