"""Track a seat could build next, for the bots: chains of tiles from a city, from a town
where it owns track or from the open end of its unfinished track, to a city or a town,
shortest first (a breadth-first search over empty hexes, through towns).

A :class:`Project` lists the tiles to lay in order, each with the sides it must join, and
what it adds to the network: the completed links (a chain through towns makes several),
their track sections and, on St. Lucia, the cube hexes they run over. :func:`next_build`
picks the legal build that lays its first tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any, NamedTuple

from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.data import Board
from plugins.age_of_steam.geometry import opposite
from plugins.age_of_steam.state import OWNERLESS, TOWN, State
from plugins.age_of_steam.track import OPEN, HexContext, Net, Plan, evaluate, network


class Project(NamedTuple):
    steps: list[tuple[int, tuple[int, ...]]]
    """(hex, sides its track must join: two on a plain hex, the spokes wanted on a town)
    per tile to lay, in order."""
    links: list[tuple[int, int]]
    """Completed links it makes: (city or town, city or town)."""
    land: list[tuple[int, int, int]]
    """St. Lucia: (hex with cubes, link end, link end) for the track hexes of its links."""
    costs: list[int]
    """The price of each step."""
    sections: int
    """Track sections of its completed links (already laid ones included)."""

    @property
    def cost(self) -> int:
        return sum(self.costs)


class _Node(NamedTuple):
    hex: int
    entry: int
    """Side the chain enters by (-1 for the root)."""
    parent: int
    builds: int
    terminal: bool
    """The root or a town: a link ends (and the next starts) here."""
    town_build: bool
    """A town that needs a tile (new or upgraded) for the chain."""


def projects(
    b: Board, state: State, seat: int, max_builds: int, cities: Sequence[int] | None = None,
    towns: bool = True,
) -> list[Project]:  # fmt: skip
    """Every shortest chain of at most ``max_builds`` tiles the seat may try now: from its
    unfinished track, from ``cities`` (default: every city) and, with ``towns``, from the
    towns where it has track."""
    net = network(b, state)
    out: list[Project] = []
    p = state.pl[seat]
    for r in net.routes:
        end = r.open_end()
        if r.owner != seat or end is None:
            continue
        start = r.far_end(end)
        if start.kind == OPEN:
            continue
        laid = [h for h, _k in r.sections]
        n = b.nbr[end.hex][end.side]
        if n >= 0:
            out += _search(b, state, seat, start.hex, [(n, opposite(end.side))], max_builds,
                           prefix_sections=len(r.sections), prefix_hexes=laid)  # fmt: skip
    for c in (*b.city_hexes, *state.new_cities) if cities is None else cities:
        firsts = [(n, opposite(s)) for s, n in enumerate(b.nbr[c]) if n >= 0]
        if not p.built:
            firsts = [(n, e) for n, e in firsts if _plain(b, state, n)]
        out += _search(b, state, seat, c, firsts, max_builds)
    if p.built and towns:
        for h, ht in state.track.items():
            if b.town_at[h] < 0 or not any(sec[2] == seat for sec in ht.sections):
                continue
            spokes = {sec[0] for sec in ht.sections}
            for s, n in enumerate(b.nbr[h]):
                if n >= 0 and s not in spokes:
                    out += _search(b, state, seat, h, [(n, opposite(s))], max_builds - 1,
                                   upgrade=(h, (*sorted(spokes), s)))  # fmt: skip
    return out


def _plain(b: Board, state: State, h: int) -> bool:
    """An empty hex plain track may be laid on."""
    return (
        b.terrain[h] != "water" and b.city_at[h] < 0 and b.town_at[h] < 0
        and h not in state.track and h not in state.new_cities
    )  # fmt: skip


def _search(
    b: Board, state: State, seat: int, root: int, firsts: Sequence[tuple[int, int]],
    max_builds: int, prefix_sections: int = 0, prefix_hexes: Sequence[int] = (),
    upgrade: tuple[int, tuple[int, ...]] | None = None,
) -> list[Project]:  # fmt: skip
    if max_builds <= 0:
        return []
    nodes = [_Node(root, -1, -1, 0, True, False)]
    seen = {root, *prefix_hexes}
    found: dict[tuple[tuple[int, int], ...], Project] = {}
    frontier = [(0, n, e) for n, e in firsts]

    city_at, town_at, terrain = b.city_at, b.town_at, b.terrain
    track, new_cities = state.track, state.new_cities
    onward = _onward(b)
    discs: list[bool] = []  # whether a town disc is left, once asked

    def record(last: int, city: int) -> None:
        # A chain's links join its root, the towns along it and the city it reaches: a
        # chain whose links were found before is passed over before its project is made.
        ends = [] if city < 0 else [city]
        i = last
        while i > 0:
            node = nodes[i]
            if town_at[node.hex] >= 0:
                ends.append(node.hex)
            i = node.parent
        ends.append(root)
        ends.reverse()
        if tuple(pairwise(ends)) in found:
            return
        p = _project(b, state, nodes, last, city, prefix_sections, prefix_hexes, upgrade)
        key = tuple(p.links)
        if p.links and key not in found:
            found[key] = p

    while frontier:
        nxt: list[tuple[int, int, int]] = []
        for parent, n, entry in frontier:
            if n in seen:
                continue
            at = nodes[parent]
            if city_at[n] >= 0 or n in new_cities:
                if n != _link_start(nodes, parent):
                    record(parent, n)
                continue
            if town_at[n] >= 0:
                if not discs and n not in track:
                    used = sum(1 for x in track if town_at[x] >= 0)
                    discs.append(used < b.components.town_discs)
                build = _town_entry(state, seat, n, entry, discs)
                if build is None or n == _link_start(nodes, parent):
                    continue
                builds = at.builds + build
                if builds > max_builds:
                    continue
                seen.add(n)
                nodes.append(_Node(n, entry, parent, builds, True, bool(build)))
                record(len(nodes) - 1, -1)
                if not build:  # going on needs a new spoke: an upgrade of the town's tile
                    builds += 1
                    nodes.append(_Node(n, entry, parent, builds, True, True))
                if builds < max_builds:
                    i = len(nodes) - 1
                    spokes = _spokes(state, n)
                    nxt += [(i, m, opposite(s)) for s, m in enumerate(b.nbr[n])
                            if m >= 0 and s != entry and s not in spokes]  # fmt: skip
                continue
            # _plain, with the city and town tests above already passed.
            if terrain[n] == "water" or n in track or at.builds + 1 > max_builds:
                continue
            seen.add(n)
            nodes.append(_Node(n, entry, parent, at.builds + 1, False, False))
            i = len(nodes) - 1
            nxt += [(i, m, back) for s, m, back in onward[n] if s != entry]
        frontier = nxt
    return list(found.values())


_ONWARD: dict[str, tuple[tuple[tuple[int, int, int], ...], ...]] = {}


def _onward(b: Board) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per hex, (side, neighbour, the neighbour's side back) of each side leading to a
    land hex: where a chain through a plain hex may go on."""
    table = _ONWARD.get(b.spec.id)
    if table is None:
        rows = []
        for sides in b.nbr:
            row = []
            for s, m in enumerate(sides):
                if m >= 0 and b.terrain[m] != "water":
                    row.append((s, m, opposite(s)))
            rows.append(tuple(row))
        table = _ONWARD[b.spec.id] = tuple(rows)
    return table


def _spokes(state: State, h: int) -> set[int]:
    ht = state.track.get(h)
    return set() if ht is None else {sec[0] for sec in ht.sections}


def _town_entry(state: State, seat: int, h: int, entry: int, discs: list[bool]) -> int | None:
    """Tiles needed to bring a chain into the town ``h`` by side ``entry``: 0 if a spoke
    of the seat's (or ownerless) already points there, 1 for a new or upgraded town tile,
    ``None`` if another player's spoke is in the way or no town disc is left (``discs``:
    whether one is, worked out by the caller for a town without track)."""
    ht = state.track.get(h)
    if ht is None:
        return 1 if discs[0] else None
    for sec in ht.sections:
        if sec[0] == entry:
            return 0 if sec[2] in (seat, OWNERLESS) else None
    return 1


def _link_start(nodes: list[_Node], i: int) -> int:
    """The city or town the chain's last link starts from (node ``i`` or before it)."""
    while not nodes[i].terminal:
        i = nodes[i].parent
    return nodes[i].hex


def _project(
    b: Board, state: State, nodes: list[_Node], last: int, city: int, prefix_sections: int,
    prefix_hexes: Sequence[int], upgrade: tuple[int, tuple[int, ...]] | None,
) -> Project:  # fmt: skip
    chain = []
    i = last
    while i >= 0:
        chain.append(nodes[i])
        i = nodes[i].parent
    chain.reverse()
    costs = b.components.costs
    assert costs is not None
    steps: list[tuple[int, tuple[int, ...]]] = []
    links: list[tuple[int, int]] = []
    land: list[tuple[int, int, int]] = []
    prices: list[int] = []
    sections = 0
    if upgrade is not None:
        steps.append(upgrade)
        prices.append(costs.upgrade_town)
    start = chain[0].hex
    link_hexes: list[int] = list(prefix_hexes)
    link_sections = prefix_sections + (upgrade is not None)
    for k in range(1, len(chain)):
        node = chain[k]
        nxt = chain[k + 1] if k + 1 < len(chain) else None
        exit_side = _side_to(b, node.hex, nxt.hex) if nxt is not None else (
            _side_to(b, node.hex, city) if city >= 0 else -1)  # fmt: skip
        if b.town_at[node.hex] < 0:
            steps.append((node.hex, (node.entry, exit_side)))
            prices.append(costs.simple + costs.terrain_extra[b.terrain[node.hex]])
            link_hexes.append(node.hex)
            link_sections += 1
            continue
        # a town: the link ends here (its spoke is a section of it) and, if the chain goes
        # on, the next one starts here
        wanted = (node.entry,) if exit_side < 0 else (node.entry, exit_side)
        if node.town_build:
            old = _spokes(state, node.hex)
            spokes = tuple(sorted(old | set(wanted)))
            steps.append((node.hex, spokes))
            prices.append(costs.upgrade_town if old
                          else costs.town_base + costs.town_per_side * len(spokes))  # fmt: skip
        links.append((start, node.hex))
        land += _land(b, state, link_hexes, start, node.hex)
        sections += link_sections + 1
        start = node.hex
        link_hexes = []
        link_sections = 1 if exit_side >= 0 else 0
    if city >= 0:
        links.append((start, city))
        land += _land(b, state, link_hexes, start, city)
        sections += link_sections
    return Project(steps, links, land, prices, sections)


def _land(
    b: Board, state: State, hexes: Sequence[int], x: int, y: int
) -> list[tuple[int, int, int]]:
    if not b.rules.goods_on_land:
        return []
    return [(h, x, y) for h in hexes for _c in state.goods.get(h, ())]


def _side_to(b: Board, h: int, n: int) -> int:
    return b.nbr[h].index(n)


def next_build(b: Board, state: State, seat: int, project: Project, legal: list[Any]) -> Any:
    """The cheapest legal build laying the project's first tile, or ``None``."""
    h, need = project.steps[0]
    col, row = b.coords[h]
    net = network(b, state)
    ctx: HexContext | None = None
    best, best_cost = None, 1 << 30
    for m in legal:
        if not isinstance(m, mv.Build) or m.col != col or m.row != row:
            continue
        if ctx is None:
            ctx = HexContext(b, state, net, h, seat)
        plan = evaluate(b, state, net, ctx, m.tile, m.rotation)
        if (
            isinstance(plan, Plan) and plan.kind != "redirect" and plan.cost < best_cost
            and gives(plan.sections, need)
        ):  # fmt: skip
            best, best_cost = m, plan.cost
    return best


def gives(sections: list[list[int]], need: tuple[int, ...]) -> bool:
    """Whether the sections join the needed sides (on a town: have those spokes)."""
    spokes = {s[0] for s in sections if s[1] == TOWN}
    if spokes and spokes >= set(need):
        return True
    return len(need) == 2 and any({s[0], s[1]} == set(need) for s in sections)


def laid_sections(net: Net, seat: int) -> int:
    """Sections of the seat's completed links (what the track scores now)."""
    return sum(len(r.sections) for r in net.routes if r.complete and r.owner == seat)
