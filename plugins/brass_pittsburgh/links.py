"""The Network action's Pittsburgh rules: where each link tile may go and what placing it
does.

* Light and heavy trains go on empty railroad lines; a replacement train may also go on a
  line holding another player's light train (which scores for its owner and goes home).
* Pipelines go on empty pipeline routes; the owner of a reserve pipeline may put another
  pipeline in its place and take the reserve back.
* A link must touch a location of the player's network, unless the player has no tile on
  the board at all.
* A pipeline adds the route's oil-barrel icons (and a reserve pipeline its own barrel) to
  the oilfield; the first pipeline joining an oilfield reveals its tile.

Placing a link (a pipeline's oil, a train's line bonus) and a second link's $10 are the
Network action's (:mod:`.actions.network`).
"""

from __future__ import annotations

from collections.abc import Sequence

from plugins.brass.graph import positions
from plugins.brass_pittsburgh.board import NO_OWNER, PittsburghBoard
from plugins.brass_pittsburgh.data import PittsburghData

LIGHT = "LT"


def site_rule(data: PittsburghData, link: str) -> tuple[bool, bool]:
    """What decides where a link tile may go: whether it is a pipeline, and whether it is
    a replacement train (a pipeline: a reserve one). Tiles of one rule share their sites."""
    if link in data.pipelines:
        return True, data.pipelines[link].type == "reserve"
    return False, link != LIGHT and data.heavy_trains[link].type == "replacement"


def train_sites(
    data: PittsburghData,
    board: PittsburghBoard,
    seat: int,
    link: str,
    line_owner: Sequence[int],
    line_link: Sequence[str],
    network: set[int],
    has_presence: bool,
) -> list[int]:
    """Lines where ``seat`` may place the train ``link`` (``LT`` or a heavy train id)."""
    _, replacement = site_rule(data, link)
    if has_presence:
        # Listings ask this at every action: the lines at the network's few locations,
        # not every line of the board.
        near: set[int] = set()
        node_lines = board.graph.node_links
        for node in network:
            near.update(node_lines[node])
        lines = sorted(near)
    else:
        lines = range(len(line_owner))
    if replacement:  # it goes like any other train, or on another player's light train
        return [
            line
            for line in lines
            if line_owner[line] < 0 or (line_owner[line] != seat and line_link[line] == LIGHT)
        ]
    return [line for line in lines if line_owner[line] < 0]


def pipeline_sites(
    data: PittsburghData,
    board: PittsburghBoard,
    seat: int,
    route_owner: Sequence[int],
    route_pipeline: Sequence[str],
    network: set[int],
    has_presence: bool,
) -> tuple[list[int], list[int]]:
    """Routes where ``seat`` may place a reserve pipeline and any other: empty ones at a
    city of the network; the other also one holding the seat's own reserve pipeline
    (swapped for it)."""
    if has_presence:
        # Listings ask this at every action: the routes at the network's few cities, not
        # every route of the board.
        city_routes = board.city_routes
        empty = sorted([r for node in network for r in city_routes[node] if route_owner[r] < 0])
    else:
        empty = positions(route_owner, NO_OWNER)
    pipelines = data.pipelines
    swaps = [
        r for r in positions(route_owner, seat) if pipelines[route_pipeline[r]].type == "reserve"
    ]
    return empty, sorted(empty + swaps) if swaps else empty
