"""What a track network is worth in deliveries, for the bots.

The network is read as a small graph: cities and towns joined by completed links, each
with its owner. A cube's worth to a seat is the most of that seat's own links it can run
over on a legal delivery (at most ``engine`` links, no city or town twice, ending at the
first city of its colour), the income the delivery pays the seat. On St. Lucia a cube on
a track hex starts with the stretch to either end of its link (one link of the engine).

:func:`schedule` turns those worths into income per Move Goods step still to come, two
deliveries a step, best first; cubes the goods display will bring later join when they
are expected to arrive.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from plugins.age_of_steam.data import Board
from plugins.age_of_steam.economy import BEFORE_MOVE, moves_left
from plugins.age_of_steam.goods import city_colour
from plugins.age_of_steam.state import State
from plugins.age_of_steam.track import network

Adjacency = dict[int, list[tuple[int, int]]]
"""Node (a city or town hex) -> (far node, owner) per completed link."""

DISCOUNT: Final = 0.85
"""Worth kept per turn of waiting: cubes get taken by others and plans change."""
FUTURE_WEIGHT: Final = 0.6
"""Worth of a cube still on the display, relative to one already on its city."""
CONTESTED: Final = 0.6
"""Worth of a cube another player can deliver over its own links too."""


class Graph(NamedTuple):
    adj: Adjacency
    colour: dict[int, str]
    """City hex -> the colour it accepts."""
    land: Adjacency
    """St. Lucia: track hex with cubes -> (end, owner) of each completed link through it."""


class Item(NamedTuple):
    """One cube's worth: ``value`` income, from the ``start``-th Move Goods step to come."""

    value: float
    start: int
    key: tuple[int, str]


def graph(b: Board, state: State) -> Graph:
    net = network(b, state)
    adj: Adjacency = {}
    land: Adjacency = {}
    for r in net.routes:
        if not r.complete:
            continue
        x, y = r.ends[0].hex, r.ends[1].hex
        adj.setdefault(x, []).append((y, r.owner))
        adj.setdefault(y, []).append((x, r.owner))
        if b.rules.goods_on_land:
            for h, _k in r.sections:
                if h in state.goods and b.town_at[h] < 0:
                    land.setdefault(h, []).extend(((x, r.owner), (y, r.owner)))
    colour = {h: c for h in (*b.city_hexes, *state.new_cities)
              if (c := city_colour(b, state, h)) is not None}  # fmt: skip
    return Graph(adj, colour, land)


def with_links(
    g: Graph, links: Iterable[tuple[int, int]], seat: int,
    land: Iterable[tuple[int, int, int]] = (),
) -> Graph:  # fmt: skip
    """``g`` with the seat's new links (and, St. Lucia, the cube hexes they run over)."""
    adj = dict(g.adj)
    for x, y in links:
        adj[x] = [*adj.get(x, ()), (y, seat)]
        adj[y] = [*adj.get(y, ()), (x, seat)]
    extra = dict(g.land)
    for h, x, y in land:
        extra[h] = [*extra.get(h, ()), (x, seat), (y, seat)]
    return Graph(adj, g.colour, extra)


def best(g: Graph, start: int, colour: str, engine: int, seat: int, enough: int = 99) -> int:
    """The most of the seat's links a cube of ``colour`` at ``start`` can run over (-1:
    it cannot be delivered); the search stops once it has found ``enough``."""
    first = g.land.get(start)
    if first is None:
        return _best(g.adj, g.colour, start, colour, engine, seat, {start}, enough)
    top = -1
    for end, owner in first:
        if g.colour.get(end) == colour:
            v = int(owner == seat)
        elif engine > 1:
            v = _best(g.adj, g.colour, end, colour, engine - 1, seat, {end}, enough - 1)
            if v < 0:
                continue
            v += owner == seat
        else:
            continue
        top = max(top, v)
        if top >= enough:
            break
    return top


def _best(
    adj: Adjacency, colour_of: dict[int, str], at: int, colour: str, left: int, seat: int,
    seen: set[int], enough: int,
) -> int:  # fmt: skip
    top = -1
    for far, owner in adj.get(at, ()):
        if far in seen:
            continue
        if colour_of.get(far) == colour:
            v = int(owner == seat)
        elif left > 1:
            seen.add(far)
            v = _best(adj, colour_of, far, colour, left - 1, seat, seen,
                      enough - (owner == seat))  # fmt: skip
            seen.discard(far)
            if v < 0:
                continue
            v += owner == seat
        else:
            continue
        if v > top:
            top = v
            if top >= enough or top >= left:  # each link adds at most one
                break
    return top


def cube_groups(b: Board, state: State) -> dict[tuple[int, str], int]:
    """(hex, colour) -> cubes waiting there."""
    out: dict[tuple[int, str], int] = {}
    for h, cubes in state.goods.items():
        for c in cubes:
            out[(h, c)] = out.get((h, c), 0) + 1
    return out


def arrivals(b: Board, state: State) -> dict[tuple[int, str], list[tuple[float, int]]]:
    """Cubes the display will bring: (city hex, colour) -> (weight, Move Goods step to come
    from which it is expected there) per cube, from the expected rolls of the turns left."""
    rules = b.rules
    dice = state.players if rules.growth_dice == "players" else int(rules.growth_dice)
    steps = moves_left(state)
    if not dice or steps < 2:
        return {}
    per_turn = dice / 6
    placed = {letter: h for h, letter in state.new_cities.items()}
    out: dict[tuple[int, str], list[tuple[float, int]]] = {}
    first = 1 if state.phase in BEFORE_MOVE else 0
    for i, col in enumerate(b.spec.display):
        cubes = state.display[i]
        if not cubes:
            continue
        if col.new_city is None:
            dest = _printed(b, col.dice, col.die)
        else:
            dest = placed.get(col.new_city, -1)
        if dest < 0:
            continue
        expected = per_turn * (steps - first)
        for j, c in enumerate(reversed(cubes)):
            weight = min(1.0, expected - j)
            if weight <= 0:
                break
            start = first + int(j / per_turn)
            if start >= steps:
                break
            out.setdefault((dest, c), []).append((weight * FUTURE_WEIGHT, start))
    return out


_PRINTED: dict[tuple[str, str, int], int] = {}


def _printed(b: Board, dice: str, die: int) -> int:
    key = (b.spec.id, dice, die)
    h = _PRINTED.get(key)
    if h is None:
        h = next((b.hex_of(c.col, c.row) for c in b.spec.cities
                  if c.dice == dice and c.die == die), -1)  # fmt: skip
        _PRINTED[key] = h
    return h


def worths(
    g: Graph, keys: Iterable[tuple[int, str]], engine: int, seat: int, enough: int = 99
) -> dict[tuple[int, str], int]:
    """Per (hex, colour): the most the seat's links earn a cube of it (-1: none), or just
    whether it reaches ``enough``."""
    return {key: best(g, key[0], key[1], engine, seat, enough) for key in keys}


def items(
    worth: dict[tuple[int, str], int], groups: dict[tuple[int, str], int],
    future: dict[tuple[int, str], list[tuple[float, int]]], contested: set[tuple[int, str]],
) -> list[Item]:  # fmt: skip
    """Every cube worth something to the seat, waiting and still to come; those in
    ``contested`` (others can deliver them too) count for less."""
    out: list[Item] = []
    for key, v in worth.items():
        if v <= 0:
            continue
        if key in contested:
            v *= CONTESTED
        out += [Item(float(v), 0, key)] * groups.get(key, 0)
        out += [Item(v * w, start, key) for w, start in future.get(key, ())]
    return out


def schedule(worths: list[Item], steps: int, slots_now: int = 2) -> list[float]:
    """Income gained in each of the next ``steps`` Move Goods steps: the two best cubes
    available in each (``slots_now`` in the first), each cube once, waiting discounted."""
    if steps <= 0 or not worths:
        return []
    ranked = sorted(worths, key=lambda i: -i.value)
    used = [False] * len(ranked)
    gains = []
    factor = 1.0
    for t in range(steps):
        slots = slots_now if t == 0 else 2
        got = 0.0
        for i, item in enumerate(ranked):
            if slots == 0:
                break
            if used[i] or item.start > t:
                continue
            used[i] = True
            got += item.value
            slots -= 1
        gains.append(got * factor)
        factor *= DISCOUNT
    while gains and gains[-1] == 0:
        gains.pop()
    return gains
