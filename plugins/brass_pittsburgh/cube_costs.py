"""What the cubes of each build, link and develop the seat to act may start would cost it,
paid the cheapest way, for a client to show a move's whole price before it is sent (the
view's ``cube_costs``; ``CLIENTS.md``).

A cube with one possible source is taken without asking, so without this a player learns
its price only once charged. The price is the listing's own (:func:`.engine.cheapest` over
:mod:`.payment`'s table: free cubes first, then the cheapest connected market cubes one by
one, Vanderbilt for the rest), asked of the moves the listing offers now, so only legal
moves are priced. Oil is never bought: it costs nothing here.
"""

from __future__ import annotations

from typing import Any

from plugins.brass import client as fc
from plugins.brass.events import Step
from plugins.brass_pittsburgh import engine
from plugins.brass_pittsburgh import internal_moves as im
from plugins.brass_pittsburgh.data import CUBES
from plugins.brass_pittsburgh.engine import FIELD, LINE, LINK_ROUTE, Facts
from plugins.brass_pittsburgh.names import Names
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import PLAY, State
from plugins.brass_pittsburgh.variant import METAL_STEP

OFFERS = ("more_link", "more_develop")
"""Steps after which the seat may still place a second link or develop a second tile: their
prices are published then too."""


class CubeCosts(fc.Doc, kw_only=True):
    """Money the cubes of the seat's legal builds, links and develops cost, paid cheapest.
    A move not named pays nothing for cubes (it needs none, or all are free to it)."""

    build: dict[str, dict[str, int]]
    """Mat tile id -> location (a build space's city) or oilfield (the Oil City) -> money."""
    network: dict[str, dict[str, int]]
    """Link tile id -> railroad line or pipeline route -> money (a second link's alike; its
    $10 extra is not a cube's)."""
    develop: int | None = None
    """The one iron or steel a develop (or a second develop) takes."""


def cube_costs(rules: Rules, names: Names, s: State, viewer: int | None) -> CubeCosts | None:
    """The cube prices of the seat to act, in its own view, between actions or at an offer
    of a second link or develop; ``None`` otherwise (other viewers have no move to price)."""
    seat = s.current
    if (
        s.phase != PLAY
        or seat < 0
        or viewer != seat
        or (s.pending and s.pending[0].kind not in OFFERS)
    ):
        return None
    moves = engine.legal_moves(rules, s, seat)
    board, facts, n = rules.board_of(s.side), Facts(rules, s, seat), names.sides[s.side]
    tile_ids, tile_cubes, pipelines = names.tile, rules.tile_cubes, rules.data.pipelines
    labels, line_nodes, route_city = facts.labels, board.line_nodes, board.route_city
    line_owner, sourced, vanderbilt = s.line_owner, facts.payment.sourced, board.vanderbilt_price
    known: dict[tuple[Any, ...], int] = {}

    def price(cubes: Any, b: int, groups: set[int] | None) -> int:
        """The cubes delivered to consumer ``b``, whose connected ``groups`` are given where
        places may share the answer (``None``: asked as they are). A group without a free
        or market cube of a kind adds nothing to a plan: with none, Vanderbilt sells them
        all; else the answer is asked once per groups that have some."""
        total = 0
        for cube, k in cubes:
            if groups is not None:
                hot = groups & sourced(cube)
                if not hot:
                    total += k * vanderbilt(cube)
                    continue
                key = (cube, k, *sorted(hot))
                got = known.get(key)
                if got is None:
                    step = Step("cube", k, CUBES.index(cube), b)
                    got = known[key] = engine.cheapest(rules, s, seat, step, k, facts)
                total += got
            else:
                step = Step("cube", k, CUBES.index(cube), b)
                total += engine.cheapest(rules, s, seat, step, k, facts)
        return total

    build: dict[str, dict[str, int]] = {}
    network: dict[str, dict[str, int]] = {}
    develop: int | None = None
    priced: set[tuple[Any, ...]] = set()
    for m in moves:
        t = type(m)
        if t is im.Build:
            cubes = tile_cubes[m.space]
            if not cubes:
                continue
            if m.oilfield >= 0:
                b, place = FIELD - m.oilfield, n.oilfield[m.oilfield]
                group: set[int] | None = None
            else:
                b = board.slot_node[m.slot]
                place, group = n.location[b], {labels[b]}
            key = (m.space, place)
            if key in priced:
                continue
            priced.add(key)
            if money := price(cubes, b, group):
                build.setdefault(tile_ids[m.space], {})[place] = money
        elif t is im.Network or t is im.SecondLink:
            cubes = rules.link_tiles[m.link].resources
            if not cubes:
                continue
            if m.link in pipelines:
                b, site = LINK_ROUTE - m.site, n.route[m.site]
                group = {labels[route_city[m.site]]}
            else:
                b, site = LINE - m.site, n.line[m.site]
                # a train of the seat's own on the line keeps its cargo out: not shared
                ends = line_nodes[m.site]
                group = None if line_owner[m.site] == seat else {labels[x] for x in ends}
            if money := price(cubes, b, group):
                network.setdefault(m.link, {})[site] = money
        elif develop is None and (t is im.Develop or t is im.DevelopAlso):
            develop = engine.cheapest(rules, s, seat, METAL_STEP, 1, facts)
    return CubeCosts(build=build, network=network, develop=develop or None)
