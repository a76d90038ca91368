"""Moving goods: one validation path (:func:`walk_good`) shared by ``decide`` and the
enumeration of legal deliveries (:func:`legal_deliveries`).

A delivery is given as the start hex, the cube's colour and one side per link: the side
by which the cube leaves the city or town it is in. It runs along completed links only, at
most as many links as the engine, never enters a city or town twice, and must stop at the
first city of its own colour. On maps with goods on land (St. Lucia) a cube may also start
on a track hex: its first step is the side it leaves that hex by, and the stretch of track
to the next city or town counts as one link.
"""

from __future__ import annotations

from typing import NamedTuple

from plugins.age_of_steam.data import Board
from plugins.age_of_steam.geometry import opposite
from plugins.age_of_steam.moves import MoveGood
from plugins.age_of_steam.state import OWNERLESS, TOWN, State
from plugins.age_of_steam.track import CITY, OPEN, TOWN_END, End, Net, Refusal, is_city, network


class Delivery(NamedTuple):
    dest: int
    owners: list[int]
    """Owner of each link used (OWNERLESS for none)."""
    first_partial: bool


def city_colour(board: Board, state: State, h: int) -> str | None:
    c = board.city_at[h]
    if c >= 0:
        return board.spec.cities[c].color
    letter = state.new_cities.get(h)
    if letter is None:
        return None
    return _new_city_colours(board)[letter]


_NEW_CITY_COLOURS: dict[str, dict[str, str]] = {}


def _new_city_colours(board: Board) -> dict[str, str]:
    """The colour of each New City tile by its letter (the first tile of a letter)."""
    found = _NEW_CITY_COLOURS.get(board.spec.id)
    if found is None:
        found = {}
        for nc in board.spec.new_cities:
            found.setdefault(nc.letter, nc.color)
        _NEW_CITY_COLOURS[board.spec.id] = found
    return found


def walk_track(board: Board, state: State, net: Net, h: int, out: int) -> End:
    """Follow the track leaving hex ``h`` by side ``out`` to the city, town or open end
    (kept by the network: a delivery's listing and its check walk the same track)."""
    walks = net.walks
    if walks is None:
        walks = net.walks = {}
    found = walks.get(h * 6 + out)
    if found is None:
        found = walks[h * 6 + out] = _walk_track(board, state, net, h, out)
    return found


def _walk_track(board: Board, state: State, net: Net, h: int, out: int) -> End:
    nbr, city_at, new_cities = board.nbr, board.city_at, state.new_cities
    ends_at, track = net.ends_at, state.track
    while True:
        n = nbr[h][out]
        if n < 0:
            return End(OPEN, h, out)
        back = opposite(out)
        if city_at[n] >= 0 or n in new_cities:  # is_city
            return End(CITY, n, back)
        hk = ends_at.get(n * 6 + back)
        if hk is None:
            return End(OPEN, h, out)
        sec = track[n].sections[hk[1]]
        if sec[1] == TOWN:
            return End(TOWN_END, n, sec[0])
        out = sec[1] if sec[0] == back else sec[0]
        h = n


def walk_good(
    board: Board, state: State, seat: int, h: int, color: str, steps: list[int]
) -> Delivery | Refusal:
    net = network(board, state)
    if not 0 <= h < len(board.coords):
        return Refusal("off_map", "that hex is not on the map")
    if color not in state.goods.get(h, ()):
        return Refusal("no_such_good", f"there is no {color} cube on {board.label(h)}")
    if not steps:
        return Refusal("empty_path", "a good must move along at least one link")
    engine = state.pl[seat].engine
    if len(steps) > engine:
        return Refusal(
            "engine_too_small", f"your engine moves goods {engine} link(s), not {len(steps)}"
        )
    if min(steps) < 0 or max(steps) > 5:
        return Refusal("bad_side", "each step is a hex side, 0 to 5")
    owners: list[int] = []
    partial = False
    at = h
    rest = steps
    if not is_city(board, state, h):
        if not board.rules.goods_on_land:
            return Refusal("no_such_good", f"there is no {color} cube on {board.label(h)}")
        hk = net.ends_at.get(h * 6 + steps[0])
        if hk is None or hk[0] != h or state.track[h].sections[hk[1]][1] == TOWN:
            return Refusal("no_track", "the good must leave its hex along track on that hex")
        end = walk_track(board, state, net, h, steps[0])
        if end.kind == OPEN:
            return Refusal("link_incomplete", "that track does not reach a city or town")
        ridx = net.sec_route[hk]
        owners.append(net.routes[ridx].owner)
        partial = True
        at = end.hex
        rest = steps[1:]
        if _accepts(board, state, at, color):
            if rest:
                return Refusal(
                    "passes_own_colour", "a good must stop at the first city of its colour"
                )
            return Delivery(at, owners, partial)
    seen = {at}
    for i, s in enumerate(rest):
        link = net.links.get(at * 6 + s)
        if link is None:
            return Refusal("no_link", f"no completed link leaves {board.label(at)} by side {s}")
        ridx, far = link
        if far.hex in seen:
            return Refusal("revisit", "a good may enter each city or town only once")
        seen.add(far.hex)
        owners.append(net.routes[ridx].owner)
        at = far.hex
        if _accepts(board, state, at, color):
            if i != len(rest) - 1:
                return Refusal(
                    "passes_own_colour", "a good must stop at the first city of its colour"
                )
            return Delivery(at, owners, partial)
    return Refusal("no_destination", "a good must end its move in a city of its colour")


def _accepts(board: Board, state: State, h: int, color: str) -> bool:
    return city_colour(board, state, h) == color


def legal_deliveries(board: Board, state: State, seat: int) -> list[tuple[int, str, list[int]]]:
    """(start hex, colour, steps) of every legal delivery for ``seat`` now.

    The paths a cube could take depend on the network alone (its links, cities and New
    Cities), and so does :func:`walk_good`'s verdict on each, given a cube of that colour
    on the start and the engine: the network keeps the paths :func:`walk_good` accepted,
    per start, colour and engine, for the next listing (a Move Goods step asks again after
    each delivery)."""
    return _deliveries(board, state, seat, False)  # type: ignore[return-value]


def legal_delivery_moves(board: Board, state: State, seat: int) -> list[MoveGood]:
    """:func:`legal_deliveries` as ``move_good`` moves, in the same order. The network
    keeps them with its paths, so they are made once and shared by every listing on it
    (nothing changes a listed move: it is only compared, encoded or decided)."""
    return _deliveries(board, state, seat, True)  # type: ignore[return-value]


def _deliveries(board: Board, state: State, seat: int, as_moves: bool) -> list[object]:
    net = network(board, state)
    engine = state.pl[seat].engine
    out: list[object] = []
    if not net.links and not board.rules.goods_on_land:
        return out
    paths = net.paths
    goods = state.goods
    starts = net.starts
    if starts is None:
        starts = net.starts = _starts(board, state, net)
    # The starts with goods on them, in order (most have none).
    for h in sorted(goods.keys() & starts):
        cubes = goods[h]
        for color in sorted(set(cubes)) if len(cubes) > 1 else cubes:
            found = paths.get((h, color, engine))
            if found is None:
                found = _colour_paths(board, state, seat, net, h, color, engine)
            if as_moves:
                out += found[1]
            else:
                out += [(h, color, list(steps)) for steps in found[0]]
    return out


def _colour_paths(
    board: Board, state: State, seat: int, net: Net, h: int, color: str, engine: int
) -> tuple[list[list[int]], list[MoveGood]]:
    """The paths :func:`walk_good` accepts for a ``color`` cube on ``h``, and their moves,
    kept by the network per start, colour and engine."""
    accepted = [
        steps
        for steps in _paths(board, state, net, h, color, engine)
        if not isinstance(walk_good(board, state, seat, h, color, steps), Refusal)
    ]
    col, row = board.coords[h]
    moves = [MoveGood(col, row, color, steps) for steps in accepted]
    found = net.paths[h, color, engine] = (accepted, moves)
    return found


def _starts(board: Board, state: State, net: Net) -> list[int]:
    """The hexes, in order, a delivery may start from: the cities and towns with a
    completed link and, with goods on land, every hex with track (:func:`_paths` finds
    none from any other)."""
    found = set(_terminals(board, state, net)[0])
    if board.rules.goods_on_land:
        found.update(state.track)
    return sorted(found)


Terminals = tuple[
    dict[int, tuple[tuple[int, int], ...]], dict[int, str | None], frozenset[str | None]
]
"""Per city or town with a completed link: (side, far city or town) of each link, in side
order; each one's colour (``None`` for a town); and those colours (a path along links
can only end at one of them)."""


def _terminals(board: Board, state: State, net: Net) -> Terminals:
    if net.terminals is None:
        by_hex: dict[int, list[tuple[int, int]]] = {}
        for key in sorted(net.links):
            h, side = divmod(key, 6)
            by_hex.setdefault(h, []).append((side, net.links[key][1].hex))
        links = {h: tuple(out) for h, out in by_hex.items()}
        colours = {h: city_colour(board, state, h) for h in links}
        net.terminals = (links, colours, frozenset(colours.values()))
    return net.terminals  # type: ignore[no-any-return]


def _paths(
    board: Board, state: State, net: Net, h: int, color: str, engine: int
) -> list[list[int]]:
    """Every path a ``color`` cube on ``h`` could take along the completed links."""
    found: list[list[int]] = []
    links, colours, linked = _terminals(board, state, net)
    # The search along links finds a path only to a linked city of the cube's colour: with
    # none on the network it is not begun.
    if is_city(board, state, h):
        if color in linked:
            _search(links, colours, h, color, engine, [], {h}, found)
    elif board.rules.goods_on_land and h in state.track:
        for sec in state.track[h].sections:
            if sec[1] == TOWN:
                continue
            for s in (sec[0], sec[1]):
                end = walk_track(board, state, net, h, s)
                if end.kind == OPEN:
                    continue
                if _accepts(board, state, end.hex, color):
                    found.append([s])
                elif engine > 1 and color in linked:
                    _search(links, colours, end.hex, color, engine - 1, [s], {end.hex}, found)
    return found


def _search(
    links: dict[int, tuple[tuple[int, int], ...]], colours: dict[int, str | None], at: int,
    color: str, left: int, path: list[int], seen: set[int], found: list[list[int]],
) -> None:  # fmt: skip
    for s, far in links.get(at, ()):
        if far in seen:
            continue
        if colours[far] == color:
            found.append([*path, s])
        elif left > 1:
            seen.add(far)
            _search(links, colours, far, color, left - 1, [*path, s], seen, found)
            seen.discard(far)


def income_by_owner(owners: list[int], bonus_first: int) -> dict[int, int]:
    gains: dict[int, int] = {}
    for i, o in enumerate(owners):
        if o == OWNERLESS:
            continue
        gains[o] = gains.get(o, 0) + (1 + bonus_first if i == 0 else 1)
    return gains
