"""What the seat to act would buy from the coal and iron markets, for a client to show a
move's whole price before it is sent (the view's ``market_buys``; Birmingham's and
Lancashire's ``CLIENTS.md``).

The rule is :mod:`plugins.brass.actions.cost`'s, asked here as the listing asks it: coal
from mines connected to where it is used, what they lack from the coal market; iron from
any works, what the board lacks from the iron market; each at the market's price now.
Only the moves that would buy something are named; a place the coal cannot reach at all
is left out, as no move builds there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plugins.brass import client as fc
from plugins.brass.mat import EMPTY

OFFERS = ("more_link", "more_develop")
"""Steps after which the seat may still build a link or develop (a second rail, a second
development): their prices are published then too."""


class Bought(fc.Doc, kw_only=True):
    """Cubes a move would buy from the markets, and what they cost together."""

    coal: int = 0
    iron: int = 0
    money: int


class MarketBuys(fc.Doc, kw_only=True):
    build: dict[str, dict[str, Bought]]
    """Location -> industry -> what building the seat's lowest tile of that industry
    there would buy (every build space of the location alike)."""
    network: dict[str, Bought]
    """Link line -> the coal a rail there would buy (a second rail's alike)."""
    develop: Bought | None = None
    """The iron one tile developed away would buy."""


_PLACES: dict[int, tuple[Any, list[list[int]]]] = {}


def _places(d: Any) -> list[list[int]]:
    """The locations showing each industry on a build space, in board order (per board)."""
    kept = _PLACES.get(id(d))
    if kept is None or kept[0] is not d:
        found: list[list[int]] = [[] for _ in range(len(d.stacks.sizes))]
        for slot, icons in enumerate(d.slot_icons):
            for ind in icons:
                if d.slot_loc[slot] not in found[ind]:
                    found[ind].append(d.slot_loc[slot])
        kept = _PLACES[id(d)] = (d, found)
    return kept[1]


def market_buys(
    v: Any,
    s: Any,
    viewer: int | None,
    locations: Sequence[str],
    industries: Sequence[str],
    links: Sequence[str],
) -> MarketBuys | None:
    """The market purchases of the seat to act, in its own view, between actions or at an
    offer of a second link or development; ``None`` otherwise (other viewers have no move to
    price: their views are spared the work). ``locations``, ``industries`` and ``links``
    are the client names by index."""
    seat = s.current
    if seat < 0 or viewer != seat or (s.pending and s.pending[0].kind not in OFFERS):
        return None
    d, f = v.d, v.facts(s)
    coal_market, iron_market = d.coal_market, d.iron_market
    board_iron = f.board_iron()

    comp = f.comp
    priced: dict[tuple[int, int], Bought | None] = {}

    def bought(coal_short: int, iron_short: int) -> Bought | None:
        """The cubes bought at the markets' prices now (``None``: a market that does not
        sell beyond its cubes, or nothing bought); one document per amounts."""
        key = (coal_short, iron_short)
        if key not in priced:
            try:
                money = coal_market.buy_cost(s.coal_market, coal_short)
                money += iron_market.buy_cost(s.iron_market, iron_short)
                priced[key] = Bought(coal=coal_short, iron=iron_short, money=money)
            except ValueError:
                priced[key] = None
        return priced[key]

    # Coal near a location, and whether the market reaches it, asked once per connected
    # group; -1: the market is out of reach, so only the board's coal can be had.
    reach: dict[int, tuple[int, bool]] = {}
    build: dict[str, dict[str, Bought]] = {}
    places = _places(d)
    for ind, taken in enumerate(s.mat[seat]):
        level = d.stacks.top_level(ind, taken)
        if level == EMPTY:
            continue
        tile = d.tile(ind, level)
        if not tile.coal and not tile.iron:
            continue
        iron_short = tile.iron - board_iron if tile.iron > board_iron else 0
        for loc in places[ind]:
            coal_short = 0
            if tile.coal:
                group = comp[loc]
                if group not in reach:
                    reach[group] = (f.board_coal((loc,)), f.reaches_trade((loc,)))
                have, trade = reach[group]
                if tile.coal > have:
                    if not trade:
                        continue  # the coal cannot be had here: no such build is listed
                    coal_short = tile.coal - have
            if coal_short or iron_short:
                got = bought(coal_short, iron_short)
                if got is not None:
                    build.setdefault(locations[loc], {})[industries[ind]] = got
    network: dict[str, Bought] = {}
    coal = v.link_coal(s.era)
    if coal:
        era_lines = v.link_lines(s.era)
        for li, owner in enumerate(s.link_owner):
            if owner < 0 and era_lines[li]:
                nodes = d.link_nodes[li]
                have = f.board_coal(nodes)
                if coal > have and f.reaches_trade(nodes):
                    got = bought(coal - have, 0)
                    if got is not None:
                        network[links[li]] = got
    develop = None
    iron = v.develop_payment.n
    if iron > board_iron:
        develop = bought(0, iron - board_iron)
    return MarketBuys(build=build, network=network, develop=develop)
