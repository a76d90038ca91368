"""Where a consumed cube or barrel may come from, and what it costs.

The consumer is a set of locations (the built tile's city; both ends of a new train link;
a pipeline's city; for Develop, which happens on the mat, every location of the player's
network). A source qualifies when it is connected by train to one of them.

Cubes (coal, iron, steel, coke):

* the player's own resource heavy trains carrying that cube: always allowed, free (the
  steel train's cube never pays for that train's own construction: ``exclude_line``);
* connected industry tiles of anyone holding that cube: free;
* only when no connected tile holds one: a connected market with a cube of it (its
  cheapest filled space), or Vanderbilt anywhere at the side's price.

The last rule reads the rulebook's order of sources ("If you can't source a cube from an
industry tile and can't (or don't want to) source one from the market, Vanderbilt...") and
applies it as Birmingham does for coal: free connected tiles first. Decision recorded in
the report; change :func:`cube_sources` if the official FAQ says otherwise.

Oil: a barrel comes out of an oilfield (or the Oil City on it) through a pipeline that
carries oil, then by train; or from the player's own oil heavy train. Nobody sells oil.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import compress
from typing import Literal

import msgspec

from plugins.brass_pittsburgh.board import BuiltPipeline, PittsburghBoard
from plugins.brass_pittsburgh.markets import MarketLadder

VANDERBILT = -1
SlotResources = Mapping[int, str] | Sequence[str]
"""What the tile on a slot holds, by slot: read only for slots holding cubes, so a mapping
of those slots will do."""


class Source(msgspec.Struct, frozen=True, kw_only=True):
    """One place a unit may come from. ``index``: the slot (``tile``), line (``train``),
    market (``market``), pipeline route (``pipeline``); -1 for Vanderbilt."""

    kind: Literal["train", "tile", "market", "vanderbilt", "pipeline"]
    index: int
    price: int = 0


def held_slots(slot_cubes: Sequence[int]) -> Iterator[int]:
    """The slots holding at least one cube, ascending (picked out in C: most are empty)."""
    return compress(range(len(slot_cubes)), slot_cubes)


def cube_sources(
    board: PittsburghBoard,
    labels: Sequence[int],
    consumers: Iterable[int],
    cube: str,
    *,
    slot_resource: SlotResources,
    slot_cubes: Sequence[int],
    own_trains: Mapping[int, tuple[str, int]],
    ladders: Sequence[Mapping[str, MarketLadder]],
    market_cubes: Sequence[Mapping[str, int]],
    exclude_line: int = -1,
) -> list[Source]:
    """Every source of one ``cube`` now. ``slot_resource[slot]`` is what the tile on a slot
    holding cubes holds ("" for none; read for those slots only); ``own_trains`` maps a line
    to the (resource, count) on the consumer's own resource heavy train there;
    ``ladders[m][res]`` and ``market_cubes`` describe the markets."""
    # A source reaches the consumers when it is in the connected group of one of them:
    # those groups are worked out once, not per source.
    reach = {labels[c] for c in consumers}
    found = [
        Source(kind="train", index=line)
        for line, (res, count) in sorted(own_trains.items())
        if res == cube
        and count > 0
        and line != exclude_line
        and labels[board.line_nodes[line][0]] in reach
    ]
    tiles = [
        Source(kind="tile", index=slot)
        for slot in held_slots(slot_cubes)
        if slot_resource[slot] == cube and labels[board.slot_node[slot]] in reach
    ]
    if tiles:
        return found + tiles
    for m, node in enumerate(board.market_node):
        ladder = ladders[m].get(cube)
        if ladder is None or labels[node] not in reach:
            continue
        price = ladder.buy_price(market_cubes[m][cube])
        if price is not None:
            found.append(Source(kind="market", index=m, price=price))
    found.append(Source(kind="vanderbilt", index=VANDERBILT, price=board.vanderbilt_price(cube)))
    return found


def oil_sources(
    board: PittsburghBoard,
    labels: Sequence[int],
    consumer: int,
    *,
    oil: Sequence[int],
    route_pipeline: Sequence[BuiltPipeline | None],
    own_oil_trains: Mapping[int, int],
) -> list[Source]:
    """Every source of one barrel for an industry on ``consumer``: a pipeline route whose
    oilfield (or Oil City) holds oil, or one of the seat's own oil trains reaching it."""
    found = [
        Source(kind="train", index=line)
        for line, count in sorted(own_oil_trains.items())
        if count > 0 and board.train_reaches(labels, line, consumer)
    ]
    found += [
        Source(kind="pipeline", index=s.route)
        for s in board.oil_sources(labels, route_pipeline, consumer)
        if oil[s.oilfield] > 0
    ]
    return found
