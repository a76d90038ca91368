"""Track as geometry: the network of routes, and the one validation path for building.

A *route* is a maximal chain of track sections. Each hex side carries at most one section
end, so sections chain into simple paths. A route ends at a city (any side of a city hex),
at a town (through a spoke), or at an open end. A route with a city or town at both ends
is a completed link; one owner owns a whole route (joining another player's track is
forbidden, and extending ownerless track claims it).

:func:`evaluate` decides one tile build; :func:`legal_builds` lists every build by calling
it, and ``decide`` calls it for the submitted move, so the two cannot drift.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Set as AbstractSet
from typing import Any, Final, NamedTuple

from plugins.age_of_steam.data import Board
from plugins.age_of_steam.moves import Build
from plugins.age_of_steam.state import OWNERLESS, TOWN, HexTrack, PlayerState, State

OPEN: Final = 0
CITY: Final = 1
TOWN_END: Final = 2


class End(NamedTuple):
    """One end of a route: ``kind`` OPEN, CITY or TOWN_END; for a city or town ``hex`` is
    that terminal and ``side`` the side of it the route leaves by; for an open end ``hex``
    is the last track hex and ``side`` the side the track points out of."""

    kind: int
    hex: int
    side: int


class Route:
    __slots__ = ("ends", "last_turn", "owner", "sections")

    def __init__(self, sections: list[tuple[int, int]], ends: tuple[End, End], owner: int,
                 last_turn: int) -> None:  # fmt: skip
        self.sections = sections
        self.ends = ends
        self.owner = owner
        self.last_turn = last_turn

    @property
    def complete(self) -> bool:
        return self.ends[0].kind != OPEN and self.ends[1].kind != OPEN

    def open_end(self) -> End | None:
        for e in self.ends:
            if e.kind == OPEN:
                return e
        return None

    def far_end(self, end: End) -> End:
        return self.ends[1] if self.ends[0] == end else self.ends[0]


class Net:
    """The derived network of a state's track."""

    __slots__ = ("ends_at", "links", "open_at", "paths", "routes", "sec_route", "starts",
                 "terminals", "walks")  # fmt: skip

    def __init__(
        self,
        routes: list[Route],
        sec_route: dict[tuple[int, int], int],
        ends_at: dict[int, tuple[int, int]],
        links: dict[int, tuple[int, End]],
        open_at: dict[int, int],
    ) -> None:
        self.routes = routes
        self.sec_route = sec_route
        self.ends_at = ends_at
        """hex * 6 + side -> (hex, section index) of the section ending there."""
        self.links = links
        """terminal hex * 6 + side -> (route index, far end) for each completed link."""
        self.open_at = open_at
        """hex * 6 + side of an open end -> route index."""
        self.paths: dict[tuple[int, str, int], tuple[list[list[int]], list[Any]]] = {}
        """(start hex, colour, engine) -> the paths a good may take along this network,
        and their moves (verdicts kept by :func:`plugins.age_of_steam.goods.legal_deliveries`)."""
        self.starts: list[int] | None = None
        """The hexes a delivery may start from (likewise)."""
        self.terminals: Any = None
        """The links and colours of the cities and towns, as the delivery search reads
        them (made by :func:`plugins.age_of_steam.goods.legal_deliveries`)."""
        self.walks: dict[int, End] | None = None
        """hex * 6 + side -> where the track leaving the hex by that side ends (kept by
        :func:`plugins.age_of_steam.goods.walk_track`)."""


def is_city(board: Board, state: State, h: int) -> bool:
    return board.city_at[h] >= 0 or h in state.new_cities


class Extended(NamedTuple):
    """What laying a plain tile on an empty hex, or a town tile on a town with no track,
    leaves in ``State.net``: the network before it and the hex, for :func:`network` to
    extend rather than work out all track again."""

    net: Net
    h: int


def network(board: Board, state: State) -> Net:
    net = state.net
    if type(net) is Net:
        return net
    if net is not None:
        net = _extended(board, state, net.net, net.h)
    if net is None:
        net = _build_net(board, state)
    state.net = net
    return net


def disowned(net: Net, routes: AbstractSet[int]) -> Net:
    """The network of the same track once the ``routes`` of ``net`` are ownerless (their
    track abandoned, or their owner out of the game): every route, end and link as they
    were, those routes' owner aside (:func:`_build_net` reads a route's owner from its
    first section, and a route's sections all have one owner)."""
    # Only the routes change: the tables are shared (no network changes its own), and so
    # are the deliveries kept (owners only share out the income).
    out = Net(
        [
            Route(r.sections, r.ends, OWNERLESS, r.last_turn) if i in routes else r
            for i, r in enumerate(net.routes)
        ],
        net.sec_route, net.ends_at, net.links, net.open_at,
    )  # fmt: skip
    out.paths, out.starts = net.paths, net.starts
    out.terminals, out.walks = net.terminals, net.walks
    return out


def _extended(board: Board, state: State, old: Net, h: int) -> Net | None:
    """The network of ``state``, made from ``old``, the network before a tile was laid on
    ``h`` (then a hex with no track: the last of ``state.track``), equal to what
    :func:`_build_net` makes: its routes in the same order (read in order), its dicts
    with the same items (only looked up or read sorted; new items come last).

    A track of the tile that joins no route starts a new route, appended (its hex comes
    last in the track); one that joins the open end of one route of the same owner
    extends that route at that end, which keeps its place and its first section (the one
    :func:`_build_net` orients it by). A town's spoke ends its route at the town, as a
    route walked into it ends there. Anything else (a track joining two routes, two
    tracks joining one route) returns ``None``: the network is then worked out afresh."""
    track = state.track
    ht = track.get(h)
    if ht is None or next(reversed(track)) != h:
        return None
    nbr, city_at, new_cities = board.nbr, board.city_at, state.new_cities
    open_at = old.open_at
    ends_at = dict(old.ends_at)
    sides = nbr[h]
    joins: list[tuple[int, list[int], int, int]] = []
    used: set[int] = set()
    for k, sec in enumerate(ht.sections):
        a, b = sec[0], sec[1]
        ends_at[h * 6 + a] = (h, k)
        if b != TOWN:
            ends_at[h * 6 + b] = (h, k)
        # The open end this track joins, if any (two, or one a track before joined: the
        # network is worked out afresh).
        side = ridx = -1
        for s in (a,) if b == TOWN else (a, b):
            n = sides[s]
            if n >= 0 and (r := open_at.get(n * 6 + (s + 3) % 6)) is not None:
                if side >= 0 or r in used:
                    return None
                side, ridx = s, r
        used.add(ridx)
        joins.append((k, sec, side, ridx))

    def end_from(out: int) -> End | None:
        """The end of a track leaving ``h`` by side ``out``, beyond which no route lies."""
        n = sides[out]
        if n < 0:
            return End(OPEN, h, out)
        back = (out + 3) % 6
        if city_at[n] >= 0 or n in new_cities:
            return End(CITY, n, back)
        if n * 6 + back in ends_at:  # a track end no open end of ``old`` accounts for
            return None
        return End(OPEN, h, out)

    routes = list(old.routes)
    sec_route, links, opens = dict(old.sec_route), dict(old.links), dict(open_at)
    changed = []
    for k, sec, side, ridx in joins:
        sec_route[h, k] = len(routes) if side < 0 else ridx
        owner, turn = sec[2], sec[3]
        spoke = sec[1] == TOWN
        if side < 0:
            a_end = End(TOWN_END, h, sec[0]) if spoke else end_from(sec[0])
            b_end = end_from(sec[0] if spoke else sec[1])
            if a_end is None or b_end is None:
                return None
            changed.append(len(routes))
            routes.append(Route([(h, k)], (a_end, b_end), owner, turn))
            continue
        r = routes[ridx]
        end = End(TOWN_END, h, sec[0]) if spoke else end_from(sec[1] if side == sec[0] else sec[0])
        if end is None or r.owner != owner:
            return None
        # The open end joined: (OPEN, the neighbour, its side facing h), as a key.
        joined = sides[side] * 6 + (side + 3) % 6
        last = max(r.last_turn, turn)
        e0, e1 = r.ends
        if e0.kind == OPEN and e0.hex * 6 + e0.side == joined:
            routes[ridx] = Route([(h, k), *r.sections], (end, e1), owner, last)
        elif e1.kind == OPEN and e1.hex * 6 + e1.side == joined:
            routes[ridx] = Route([*r.sections, (h, k)], (e0, end), owner, last)
        else:
            return None
        del opens[joined]
        changed.append(ridx)
    linked = False
    for idx in changed:
        end_a, end_b = routes[idx].ends
        if end_a.kind != OPEN and end_b.kind != OPEN:
            links[end_a.hex * 6 + end_a.side] = (idx, end_b)
            links[end_b.hex * 6 + end_b.side] = (idx, end_a)
            linked = True
        else:
            for e in (end_a, end_b):
                if e.kind == OPEN:
                    opens[e.hex * 6 + e.side] = idx
    net = Net(routes, sec_route, ends_at, links, opens)
    if not linked and not board.rules.goods_on_land:
        # Goods move along completed links only (and start only in cities and towns
        # here): with no link added, the deliveries the old network kept hold on this one.
        net.paths, net.starts, net.terminals = old.paths, old.starts, old.terminals
    return net


def _build_net(board: Board, state: State) -> Net:
    track = state.track
    ends_at: dict[int, tuple[int, int]] = {}
    for h, ht in track.items():
        for k, sec in enumerate(ht.sections):
            ends_at[h * 6 + sec[0]] = (h, k)
            if sec[1] != TOWN:
                ends_at[h * 6 + sec[1]] = (h, k)
    nbr = board.nbr
    city_at = board.city_at
    new_cities = state.new_cities

    def walk(h: int, out: int, start: tuple[int, int]) -> tuple[list[tuple[int, int]], End]:
        secs: list[tuple[int, int]] = []
        while True:
            n = nbr[h][out]
            if n < 0:
                return secs, End(OPEN, h, out)
            back = (out + 3) % 6
            if city_at[n] >= 0 or n in new_cities:
                return secs, End(CITY, n, back)
            hk = ends_at.get(n * 6 + back)
            if hk is None or hk == start:
                return secs, End(OPEN, h, out)
            secs.append(hk)
            sec = track[n].sections[hk[1]]
            if sec[1] == TOWN:
                return secs, End(TOWN_END, n, sec[0])
            out = sec[1] if sec[0] == back else sec[0]
            h = n

    routes: list[Route] = []
    sec_route: dict[tuple[int, int], int] = {}
    links: dict[int, tuple[int, End]] = {}
    open_at: dict[int, int] = {}
    for h, ht in track.items():
        for k, sec in enumerate(ht.sections):
            if (h, k) in sec_route:
                continue
            left: list[tuple[int, int]] = []
            if sec[1] == TOWN:
                right, end_b = walk(h, sec[0], (h, k))
                end_a = End(TOWN_END, h, sec[0])
            else:
                left, end_a = walk(h, sec[0], (h, k))
                right, end_b = walk(h, sec[1], (h, k))
            idx = len(routes)
            if left or right:
                left.reverse()
                secs = [*left, (h, k), *right]
                owner = track[secs[0][0]].sections[secs[0][1]][2]
                last = max([track[x].sections[y][3] for x, y in secs])
                for hk in secs:
                    sec_route[hk] = idx
            else:  # a track alone
                secs = [(h, k)]
                owner, last = sec[2], sec[3]
                sec_route[h, k] = idx
            routes.append(Route(secs, (end_a, end_b), owner, last))
            if end_a.kind != OPEN and end_b.kind != OPEN:  # a completed link
                links[end_a.hex * 6 + end_a.side] = (idx, end_b)
                links[end_b.hex * 6 + end_b.side] = (idx, end_a)
            else:
                if end_a.kind == OPEN:
                    open_at[end_a.hex * 6 + end_a.side] = idx
                if end_b.kind == OPEN:
                    open_at[end_b.hex * 6 + end_b.side] = idx
    return Net(routes, sec_route, ends_at, links, open_at)


# --- build validation --------------------------------------------------------------------

BAD: Final = 0  # off the map or water: no track may point there
EMPTY: Final = 1  # nothing to join
FACES_CITY: Final = 2
JOIN_OWN: Final = 3
JOIN_FREE: Final = 4
OTHER: Final = 5  # another player's open track end


class Refusal(NamedTuple):
    code: str
    message: str


class Plan(NamedTuple):
    """A build that passed every rule: what the hex becomes and what it costs."""

    h: int
    tile: str
    rotation: int
    kind: str
    cost: int
    sections: list[list[int]]
    claimed: list[tuple[int, int]]
    """(hex, first side) of every ownerless section the build claims."""
    returned: str | None


ACCEPTED: Final = Plan(-1, "", 0, "", 0, [], [], None)
"""What :func:`evaluate` returns for an accepted build when asked for the verdict only."""


View = tuple[tuple[int, ...], tuple[End | None, ...]]
"""What one builder sees beyond each side of one hex: (status, far end) per side."""


def hex_view(board: Board, state: State, net: Net, h: int, seat: int) -> View:
    """What ``seat`` sees beyond each side of ``h``: the printed map's view (shared, not
    copied, when nothing else lies beside the hex), with the sides it leaves EMPTY looked
    at for a New City or an open track end."""
    status, far, empty_sides = _hex_table(board)[h]
    new_cities = state.new_cities
    open_at = net.open_at
    seen: list[int] | None = None
    ends: list[End | None] = []
    for s, n, key, city_end in empty_sides:
        if new_cities and n in new_cities:
            x: int = FACES_CITY
            end: End | None = city_end
        else:
            ridx = open_at.get(key)
            if ridx is None:
                continue
            route = net.routes[ridx]
            a, end = route.ends
            if not (a.kind == OPEN and a.hex == n and a.side == (s + 3) % 6):
                end = a
            owner = route.owner
            x = JOIN_OWN if owner == seat else JOIN_FREE if owner == OWNERLESS else OTHER
        if seen is None:
            seen, ends = list(status), list(far)
        seen[s] = x
        ends[s] = end
    return (status, far) if seen is None else (tuple(seen), tuple(ends))


class HexContext:
    """What lies beyond each side of one hex, seen by one builder (:func:`hex_view`)."""

    __slots__ = ("far", "h", "seat", "status")

    def __init__(
        self, board: Board, state: State, net: Net, h: int, seat: int, view: View | None = None
    ) -> None:
        self.h = h
        self.seat = seat
        self.status, self.far = view or hex_view(board, state, net, h, seat)


def _context(board: Board, state: State, net: Net, h: int, seat: int, view: View) -> HexContext:
    """The :class:`HexContext` of ``h``, whose view the caller found to be ``view``."""
    assert hex_view(board, state, net, h, seat) == view
    return HexContext(board, state, net, h, seat, view)


Side = tuple[int, int, End | None]
_SIDES: dict[str, tuple[tuple[Side, ...], ...]] = {}


def _sides(board: Board) -> tuple[tuple[Side, ...], ...]:
    """Per hex and side, what the printed map puts beyond it: (neighbour, BAD for off the
    map or water / FACES_CITY for a printed city / EMPTY otherwise, the city's end)."""
    table = _SIDES.get(board.spec.id)
    if table is None:
        rows = []
        for h in range(len(board.coords)):
            row: list[Side] = []
            for s, n in enumerate(board.nbr[h]):
                if n < 0 or board.terrain[n] == "water":
                    row.append((n, BAD, None))
                elif board.city_at[n] >= 0:
                    row.append((n, FACES_CITY, End(CITY, n, (s + 3) % 6)))
                else:
                    row.append((n, EMPTY, None))
            rows.append(tuple(row))
        table = _SIDES[board.spec.id] = tuple(rows)
    return table


EmptySide = tuple[int, int, int, End]
HexRow = tuple[tuple[int, ...], tuple[End | None, ...], tuple[EmptySide, ...]]
_HEX_TABLE: dict[str, tuple[HexRow, ...]] = {}


def _hex_table(board: Board) -> tuple[HexRow, ...]:
    """Per hex, :func:`_plain_context`'s (status, far end) and, for each side it leaves
    EMPTY (where a New City or an open track end may change the view), the side, the
    neighbour, the key of the neighbour's side facing back and the end a New City there
    would be."""
    table = _HEX_TABLE.get(board.spec.id)
    if table is None:
        rows = []
        for h, sides in enumerate(_sides(board)):
            empty = tuple(
                (s, n, n * 6 + (s + 3) % 6, End(CITY, n, (s + 3) % 6))
                for s, (n, fixed, _e) in enumerate(sides)
                if fixed == EMPTY
            )
            rows.append((*_plain_context(board)[h], empty))
        table = _HEX_TABLE[board.spec.id] = tuple(rows)
    return table


def _check_ends(ctx: HexContext, sides: tuple[int, ...]) -> Refusal | None:
    for s in sides:
        st = ctx.status[s]
        if st == BAD:
            return Refusal("track_off_map", "track may not lead off the board or into water")
        if st == OTHER:
            return Refusal(
                "joins_other_player", "track cannot connect directly to another player's track"
            )
    return None


def _terminal_key(end: End | None) -> int | None:
    if end is None or end.kind == OPEN:
        return None
    return end.hex


def _track_problem(ctx: HexContext, a: int, b: int) -> Refusal | None:
    """Rules for one new plain track joining sides a and b of the hex."""
    status = ctx.status
    sa, sb = status[a], status[b]
    if sa in (BAD, OTHER) or sb in (BAD, OTHER):
        return _check_ends(ctx, (a, b))
    if sa < FACES_CITY and sb < FACES_CITY:
        return Refusal(
            "not_connected",
            "new track must extend your own track or start from a city or from a town",
        )
    fa, fb = ctx.far[a], ctx.far[b]
    if fa is not None and fb is not None and fa.hex == fb.hex and OPEN not in (fa.kind, fb.kind):
        return Refusal("loop", "a link may not lead back to the city or town it starts from")
    return None


def _claims(
    board: Board, ctx: HexContext, net: Net, sides: tuple[int, ...], state: State
) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    nbr = board.nbr[ctx.h]
    for s in sides:
        if ctx.status[s] == JOIN_FREE:
            # The ownerless route whose open end faces side s.
            for h, k in net.routes[net.open_at[nbr[s] * 6 + (s + 3) % 6]].sections:
                out.append((h, state.track[h].sections[k][0]))
    return out


def town_discs_used(board: Board, state: State) -> int:
    return sum(1 for h in state.track if board.town_at[h] >= 0)


def evaluate(
    board: Board, state: State, net: Net, ctx: HexContext, tile: str, rotation: int,
    full: bool = True, means: bool = True,
) -> Plan | Refusal:  # fmt: skip
    """Every rule for building ``tile`` at ``rotation`` on ``ctx.h`` by ``ctx.seat``.

    With ``full=False`` an accepted build returns :data:`ACCEPTED` instead of its plan (the
    listing of legal builds needs only the verdict). With ``means=False`` the tile supply
    and the builder's money are not checked: the caller checks them (supply left of the
    plan's tile, money >= the plan's cost), which :func:`legal_builds` does to reuse verdicts."""
    h, seat = ctx.h, ctx.seat
    shape = board.shapes.get(tile)
    if shape is None:
        return Refusal("unknown_tile", f"there is no track tile called {tile!r}")
    player = state.pl[seat]
    costs = board.components.costs
    assert costs is not None
    existing = state.track.get(h)
    turn = state.turn
    # A New City stands on a town hex: it is a city now, and takes no track like any city.
    if board.city_at[h] >= 0 or h in state.new_cities:
        return Refusal("city_hex", "track cannot be built on a city hex")
    if board.town_at[h] >= 0:
        spokes = town_spokes(shape, rotation)
        if spokes is None:
            return _bad_rotation(shape.name, rotation, town=True)
        if not player.built:
            return Refusal(
                "first_track_from_city",
                "your first track must connect to a city with a simple tile",
            )
        old = set() if existing is None else {sec[0] for sec in existing.sections}
        if not old < set(spokes):
            return Refusal(
                "must_keep_track", "a town tile may only be replaced by one that keeps its track"
            )
        new = tuple(s for s in spokes if s not in old)
        bad = _check_ends(ctx, new)
        if bad:
            return bad
        own_spoke = existing is not None and any(sec[2] == seat for sec in existing.sections)
        if not own_spoke and not any(ctx.status[s] >= FACES_CITY for s in new):
            return Refusal(
                "not_connected",
                "new track must extend your own track or start from a city or from a town "
                "where you have track",
            )
        for s in new:
            if _terminal_key(ctx.far[s]) == h:
                return Refusal("loop", "a link may not lead back to the town it starts from")
        if means and state.tiles.get(tile, 0) <= 0:
            return Refusal("tile_unavailable", f"no {tile} tiles are left in the supply")
        if existing is None:
            if town_discs_used(board, state) >= board.components.town_discs:
                return Refusal("no_town_discs", "all town discs are on the board")
            cost = costs.town_base + costs.town_per_side * len(spokes)
            kind = "town"
        else:
            cost = costs.upgrade_town
            kind = "town_upgrade"
        if means and cost > player.money:
            return Refusal("cannot_afford", f"this build costs ${cost}; you have ${player.money}")
        if not full:
            return ACCEPTED
        kept = [] if existing is None else [list(sec) for sec in existing.sections]
        sections = kept + [[s, TOWN, seat, turn] for s in new]
        sections.sort()
        return Plan(h, tile, rotation, kind, cost, sections, _claims(board, ctx, net, new, state),
                    None if existing is None else existing.tile)  # fmt: skip
    if board.terrain[h] == "water":
        return Refusal("water_hex", "track cannot be built on water")
    if shape.cls == "town":
        return Refusal("town_tile_off_town", "town tiles go only on town hexes")
    tracks = shape.orientations.get(rotation)
    if tracks is None:
        return _bad_rotation(shape.name, rotation, town=False)
    # Redirecting may turn the very tile on the hex, even when the supply has none left.
    if means and state.tiles.get(tile, 0) <= 0 and (existing is None or existing.tile != tile):
        return Refusal("tile_unavailable", f"no {tile} tiles are left in the supply")
    if existing is None:
        if not player.built:
            if shape.cls != "simple":
                return Refusal(
                    "first_track_from_city",
                    "your first track must connect to a city with a simple tile",
                )
            if FACES_CITY not in (ctx.status[tracks[0][0]], ctx.status[tracks[0][1]]):
                return Refusal(
                    "first_track_from_city",
                    "your first track must connect to a city with a simple tile",
                )
        for a, b in tracks:
            bad = _track_problem(ctx, a, b)
            if bad:
                return bad
        cost = getattr(costs, shape.cls) + costs.terrain_extra[board.terrain[h]]
        if means and cost > player.money:
            return Refusal("cannot_afford", f"this build costs ${cost}; you have ${player.money}")
        if not full:
            return ACCEPTED
        sides = tuple(s for t in tracks for s in t)
        sections = [[a, b, seat, turn] for a, b in tracks]
        return Plan(h, tile, rotation, "place", cost, sections,
                    _claims(board, ctx, net, sides, state), None)  # fmt: skip
    return _replace(board, state, net, ctx, tile, shape.cls, rotation, tracks, existing, full,
                    means)  # fmt: skip


def _replace(
    board: Board, state: State, net: Net, ctx: HexContext, tile: str, cls: str, rotation: int,
    tracks: tuple[tuple[int, int], ...], existing: HexTrack, full: bool, means: bool,
) -> Plan | Refusal:  # fmt: skip
    """Upgrading a simple tile to a complex one, or redirecting an unfinished end."""
    h, seat = ctx.h, ctx.seat
    costs = board.components.costs
    assert costs is not None
    player = state.pl[seat]
    if not player.built:
        return Refusal(
            "first_track_from_city", "your first track must connect to a city with a simple tile"
        )
    old = [(sec[0], sec[1]) for sec in existing.sections]
    if len(old) == 1 and len(tracks) == 2 and old[0] in tracks:
        (a, b) = next(t for t in tracks if t != old[0])
        bad = _track_problem(ctx, a, b)
        if bad:
            return bad
        cost = costs.upgrade_crossing if cls == "crossing" else costs.upgrade_coexisting
        if means and cost > player.money:
            return Refusal("cannot_afford", f"this build costs ${cost}; you have ${player.money}")
        if not full:
            return ACCEPTED
        sections = sorted([list(existing.sections[0]), [a, b, seat, state.turn]])
        return Plan(h, tile, rotation, "upgrade", cost, sections,
                    _claims(board, ctx, net, (a, b), state), existing.tile)  # fmt: skip
    redirect = _redirectable(board, state, net, h, seat)
    if redirect is None:
        if len(old) == 2:
            return Refusal("hex_full", "this hex already holds a complex tile")
        return Refusal(
            "must_keep_track",
            "a tile may only be replaced by one that keeps its track, unless you redirect "
            "the last tile of your own unfinished track",
        )
    k, entry, out = redirect
    keep = [t for i, t in enumerate(old) if i != k]
    if len(tracks) != len(old) or any(t not in tracks for t in keep):
        return Refusal(
            "must_keep_track", "redirecting may only change the unfinished track's open end"
        )
    moved = [t for t in tracks if t not in keep]
    if len(moved) != 1 or entry not in moved[0]:
        return Refusal("must_keep_track", "a redirected track keeps the side it comes in by")
    a, b = moved[0]
    new_out = b if a == entry else a
    if new_out == out:
        return Refusal("same_track", "that tile leaves the track as it is")
    bad = _check_ends(ctx, (new_out,))
    if bad:
        return bad
    route = net.routes[net.sec_route[(h, k)]]
    own_end = route.far_end(route.open_end())  # type: ignore[arg-type]
    if own_end.kind != OPEN and _terminal_key(ctx.far[new_out]) == own_end.hex:
        return Refusal("loop", "a link may not lead back to the city or town it starts from")
    cost = costs.redirect
    if means and cost > player.money:
        return Refusal("cannot_afford", f"this build costs ${cost}; you have ${player.money}")
    if not full:
        return ACCEPTED
    turn_laid = existing.sections[k][3]
    sections = [list(sec) for i, sec in enumerate(existing.sections) if i != k]
    sections.append([min(entry, new_out), max(entry, new_out), seat, turn_laid])
    sections.sort()
    return Plan(h, tile, rotation, "redirect", cost, sections,
                _claims(board, ctx, net, (new_out,), state), existing.tile)  # fmt: skip


def _redirectable(
    board: Board, state: State, net: Net, h: int, seat: int
) -> tuple[int, int, int] | None:
    """(section index, entry side, open side) of the seat's unfinished track ending on this
    hex, if there is one that may be redirected."""
    ht = state.track.get(h)
    if ht is None or board.town_at[h] >= 0:
        return None
    routes, sec_route = net.routes, net.sec_route
    for k, sec in enumerate(ht.sections):
        a, b = sec[0], sec[1]
        if b == TOWN:
            continue
        route = routes[sec_route[h, k]]
        if route.owner != seat:
            continue
        # The route's first open end (Route.open_end), if it is unfinished.
        end, other = route.ends
        if end.kind != OPEN:
            end = other
        if end.kind != OPEN or end.hex != h or (end.side != a and end.side != b):
            continue
        out = end.side
        return k, (b if a == out else a), out
    return None


def town_spokes(shape: object, rotation: int) -> tuple[int, ...] | None:
    """Spokes of ``shape`` laid on a town at ``rotation`` (canonical rotations only)."""
    opts = town_options(shape)
    return opts.get(rotation)


_TOWN_OPTS: dict[str, dict[int, tuple[int, ...]]] = {}


def town_options(shape: object) -> dict[int, tuple[int, ...]]:
    """Canonical rotation -> spokes, for every distinct set of sides the tile can give a
    town (a town tile's spokes, or a plain tile's exits with a town disc on it)."""
    name = shape.name  # type: ignore[attr-defined]
    opts = _TOWN_OPTS.get(name)
    if opts is None:
        opts = {}
        seen: set[tuple[int, ...]] = set()
        for r in range(6):
            exits = tuple(sorted((s + r) % 6 for s in _base_exits(shape)))
            if exits not in seen:
                seen.add(exits)
                opts[r] = exits
        _TOWN_OPTS[name] = opts
    return opts


def _base_exits(shape: object) -> tuple[int, ...]:
    if shape.cls == "town":  # type: ignore[attr-defined]
        return shape.spoke_orientations[0]  # type: ignore[attr-defined]
    return shape.exits[0]  # type: ignore[attr-defined]


def _bad_rotation(name: str, rotation: int, town: bool) -> Refusal:
    if not 0 <= rotation <= 5:
        return Refusal("bad_rotation", "rotation is 0 to 5 sixths of a turn clockwise")
    return Refusal(
        "non_canonical_rotation",
        f"{name} at rotation {rotation} repeats a smaller rotation; use the smallest one",
    )


def plan(board: Board, state: State, seat: int, h: int, tile: str, rotation: int) -> Plan | Refusal:
    net = network(board, state)
    return evaluate(board, state, net, HexContext(board, state, net, h, seat), tile, rotation)


def candidate_hexes(board: Board, state: State, net: Net, seat: int) -> list[int]:
    """Every hex where ``seat`` might build now; :func:`evaluate` decides which builds hold."""
    new_cities = state.new_cities
    cands = set(_city_ring(board))
    if new_cities:
        cands.difference_update(new_cities)
        terrain, city_at = board.terrain, board.city_at
        for c in new_cities:
            for n in board.nbr[c]:
                if n >= 0 and terrain[n] != "water" and city_at[n] < 0 and n not in new_cities:
                    cands.add(n)
    if state.pl[seat].built:
        nbr, terrain, city_at = board.nbr, board.terrain, board.city_at
        routes = net.routes
        for key, ridx in net.open_at.items():
            owner = routes[ridx].owner
            if owner != seat and owner != OWNERLESS:
                continue
            h, side = divmod(key, 6)
            n = nbr[h][side]
            if n >= 0 and terrain[n] != "water" and city_at[n] < 0 and n not in new_cities:
                cands.add(n)
            if owner == seat:
                cands.add(h)
        town_at = board.town_at
        for h, ht in state.track.items():
            if town_at[h] >= 0 and any(sec[2] == seat for sec in ht.sections):
                cands.add(h)
    return sorted(cands)


_RING: dict[str, frozenset[int]] = {}


def _city_ring(board: Board) -> frozenset[int]:
    """Land hexes beside a printed city that are no city themselves: where track may start
    from the printed map alone (New Cities change it: :func:`candidate_hexes`)."""
    ring = _RING.get(board.spec.id)
    if ring is None:
        ring = _RING[board.spec.id] = frozenset(
            n
            for c in board.city_hexes
            for n in board.nbr[c]
            if n >= 0 and board.terrain[n] != "water" and board.city_at[n] < 0
        )
    return ring


def legal_builds(board: Board, state: State, seat: int) -> list[tuple[int, str, int]]:
    """(hex, tile, rotation) of every legal build for ``seat`` now.

    Each candidate is decided by :func:`evaluate`. Bitmask tables first drop orientations
    that point a track off the map or at another player's track, or leave a new track
    touching nothing it may start from, and hexes of track no upgrade or redirect of this
    seat could touch are passed over: :func:`evaluate` refuses all of those too (the
    exactness test compares this list with a brute-force run of :func:`evaluate`). On an
    empty hex and on a town the verdicts are reused between calls (see :func:`_placements`
    and :func:`_town_builds`)."""
    return _listing(board, state, seat, False)  # type: ignore[return-value]


def legal_build_moves(board: Board, state: State, seat: int) -> list[Build]:
    """:func:`legal_builds` as ``build`` moves, in the same order. The moves of a reused
    verdict are made once and shared by every listing that reuses it (nothing changes a
    listed move: it is only compared, encoded or decided)."""
    return _listing(board, state, seat, True)  # type: ignore[return-value]


def _listing(board: Board, state: State, seat: int, as_moves: bool) -> list[object]:
    net = network(board, state)
    out: list[object] = []
    money = state.pl[seat].money
    tables = _tables(board)
    if money < tables.cheapest:
        return out
    # Tiles out of the supply (usually none): a hex whose verdicts use none of them and
    # whose dearest build is within the money lists them all, with no tile looked at.
    short = tables.short(state.tiles)
    built = state.pl[seat].built
    new_cities = state.new_cities
    # The empty hexes beside a city (printed or New) that see no open track end are most
    # candidates: their builds come in runs from a list kept per New Cities, money and
    # supply (see _Ring), and only the other candidates are looked at one by one, in hex
    # order between them.
    ring = _ring(board, new_cities)
    runs, offsets = _ring_runs(board, ring, built, money, short, as_moves)
    touched, own_ends, reach, singles = _around(board, state, net, seat)
    track, town_at = state.track, board.town_at
    ring_set = ring.plain_set
    singles.update(ring.towns, ring_set.intersection(track))
    if touched:
        singles.update(ring_set.intersection(touched))
    faces, upgrade_sides = ring.faces, tables.upgrade_sides
    hexes, index, at = ring.plain, ring.index, 0
    for h in sorted(singles):
        # The ring's runs up to h, and past h when it is one of them.
        upto = index.get(h)
        if upto is None:
            upto = bisect_left(hexes, h, at)
            if upto > at:
                out += runs[offsets[at] : offsets[upto]]
            at = upto
        else:
            if upto > at:
                out += runs[offsets[at] : offsets[upto]]
            at = upto + 1
        # (A New City is no candidate: it takes no track and stands on no open track end.)
        existing = track.get(h)
        if town_at[h] >= 0:
            found = _town_builds(
                board, state, net, h, seat, built, existing, _seen(board, ring, touched, h)
            )
            out += found.affordable(money, short, as_moves)
        elif existing is None:
            # An empty hex beside an open track end (the ring's others are in its runs).
            found = _placements(
                board, state, net, h, seat, built, *_patched(ring.view(board, h), touched[h])
            )
            out += found.affordable(money, short, as_moves)
        else:
            secs = existing.sections
            # Track of others, or own finished track, that no upgrade could join to
            # anything: evaluate refuses every tile there, so the hex is not looked at closely.
            if h not in own_ends and (
                len(secs) != 1
                or not upgrade_sides[secs[0][0] * 7 + secs[0][1]] & (faces[h] | reach.get(h, 0))
            ):
                continue
            if h in own_ends or h in touched:
                view = _seen(board, ring, touched, h)
                found = _track_builds(
                    board, state, net, h, seat, built, existing, view, h in own_ends
                )
            else:
                # One track beside no open end and none of the seat's to redirect: its
                # verdicts are the same in every state with the ring's New Cities.
                key = (h, built, secs[0][0] * 7 + secs[0][1])
                found = ring.tracks.get(key)  # type: ignore[assignment]
                if found is None:
                    found = ring.tracks[key] = _track_builds(
                        board, state, net, h, seat, built, existing, ring.view(board, h), False
                    )
            out += found.affordable(money, short, as_moves, existing.tile)
    if at < len(hexes):
        out += runs[offsets[at] :]
    return out


class _Ring:
    """The land hexes beside a city, printed or New, that are no city themselves, on one
    map with one set of New Cities: where track may start from the map alone. While no
    open track end lies beside one, such a hex sees only the printed map and those New
    Cities, so its verdicts are the same in every state with them; the empty ones that are
    no town (most build candidates) are listed in runs kept here (:func:`_ring_runs`)."""

    __slots__ = ("_blank", "cities", "faces", "index", "plain", "plain_set", "runs", "towns",
                 "tracks", "verdicts", "views")  # fmt: skip

    def __init__(self, board: Board, new_cities: dict[int, str]) -> None:
        nbr, terrain, city_at, town_at = board.nbr, board.terrain, board.city_at, board.town_at
        ring = set(_city_ring(board))
        faces = list(_city_faces(board))
        for c in new_cities:
            for side, n in enumerate(nbr[c]):
                if n >= 0:
                    faces[n] |= 1 << (side + 3) % 6
                    if terrain[n] != "water" and city_at[n] < 0:
                        ring.add(n)
        ring.difference_update(new_cities)
        self.cities = dict(new_cities)
        self.plain = sorted(h for h in ring if town_at[h] < 0)
        """The ring's hexes that are no town, in order."""
        self.plain_set = frozenset(self.plain)
        self.index = {h: i for i, h in enumerate(self.plain)}
        """Each of :attr:`plain` by its place in it."""
        self.towns = frozenset(h for h in ring if town_at[h] >= 0)
        """The ring's town hexes (always looked at one by one)."""
        self.faces = tuple(faces)
        """Per hex, the sides facing a city, printed or New, as a bit mask."""
        self.verdicts: dict[bool, tuple[list[Verdicts], int]] = {}
        self.runs: dict[tuple[object, ...], tuple[list[object], list[int]]] = {}
        self.views: dict[int, View] = {}
        self.tracks: dict[tuple[int, bool, int], Verdicts] = {}
        """Per hex, ``built`` and the one track on it (a * 7 + b), where no open track end
        lies beside or on it: :func:`_track_builds` there."""
        self._blank: tuple[State, Net] | None = None

    def blank(self, board: Board) -> tuple[State, Net]:
        """A state of this map with the ring's New Cities and no track, and its network."""
        if self._blank is None:
            state = _blank_state(board, False, self.cities)
            self._blank = (state, network(board, state))
        return self._blank

    def view(self, board: Board, h: int) -> View:
        """What a :class:`HexContext` of ``h`` sees with no open track end beside the hex:
        the printed map and the ring's New Cities alone (the same in every state with
        them, whoever builds: only open track ends have an owner)."""
        found = self.views.get(h)
        if found is None:
            state, net = self.blank(board)
            found = self.views[h] = hex_view(board, state, net, h, 0)
        return found


_RINGS: dict[tuple[str, frozenset[int]], _Ring] = {}
RING_CACHE_SIZE: Final = 256


def _ring(board: Board, new_cities: dict[int, str]) -> _Ring:
    key = (board.spec.id, frozenset(new_cities))
    found = _RINGS.get(key)
    if found is None:
        if len(_RINGS) >= RING_CACHE_SIZE:
            _RINGS.clear()
        found = _RINGS[key] = _Ring(board, new_cities)
    return found


def _ring_runs(
    board: Board, ring: _Ring, built: bool, money: int, short: frozenset[str], as_moves: bool
) -> tuple[list[object], list[int]]:
    """The builds listed on each of the ring's plain hexes (:class:`_Ring`) when it sees no
    open track end, one after the other, and where each hex's start (one more offset at
    the end): what the per-hex listing gives there with this money (counted up to the
    dearest such build) and these tiles out of the supply."""
    verdicts, dearest = _ring_verdicts(board, ring, built)
    key = (built, min(money, dearest), short, as_moves)
    found = ring.runs.get(key)
    if found is None:
        runs: list[object] = []
        offsets = [0]
        for v in verdicts:
            runs += v.affordable(min(money, dearest), short, as_moves)
            offsets.append(len(runs))
        if len(ring.runs) >= 64:
            ring.runs.clear()
        found = ring.runs[key] = (runs, offsets)
    return found


def _ring_verdicts(board: Board, ring: _Ring, built: bool) -> tuple[list[Verdicts], int]:
    """The verdicts (:func:`_placements`) of the ring's plain hexes, in order, judged on a
    board with the ring's New Cities and no track, and the dearest of their builds."""
    found = ring.verdicts.get(built)
    if found is None:
        plain = _plain_verdicts(board, built)
        blank = _blank_state(board, built, ring.cities)
        net = network(board, blank)
        nbr, cities = board.nbr, ring.cities
        verdicts = []
        for h in ring.plain:
            if any(n in cities for n in nbr[h]):
                v = _placements(board, blank, net, h, 0, built, *ring.view(board, h))
            else:  # beside no New City: it sees only the printed map
                v = plain[h]
                if v is None:
                    v = plain[h] = _plain_placements(board, blank, net, h, 0, built)
            verdicts.append(v)
        dearest = max((v.dearest for v in verdicts), default=0)
        found = ring.verdicts[built] = (verdicts, dearest)
    return found


def _blank_state(board: Board, built: bool, new_cities: dict[int, str] | None = None) -> State:
    """A state of this map with no track or money (and these New Cities, if any): where a
    hex sees only the printed map and them (for judging builds there, before supply and
    money)."""
    return State(
        map_id=board.spec.id, players=1, options={}, last_turn=0, phase="build", order=[0],
        pl=[PlayerState(money=0, built=built)], bag={}, display=[],
        new_cities=dict(new_cities or {}),
    )  # fmt: skip


Patch = tuple[int, int, End]
"""(side, status, far end) that an open track end beyond ``side`` gives a hex's view."""


def _around(
    board: Board, state: State, net: Net, seat: int
) -> tuple[dict[int, list[Patch]], set[int], dict[int, int], set[int]]:
    """In one pass over the open track ends:

    * the hexes beside an open track end, the only ones whose surroundings differ from
      what the printed map and the New Cities show (:class:`_Ring`), with what each such
      end changes in the view (:func:`_patched`);
    * the hexes where the seat's own unfinished track ends (the only ones it may
      redirect), and per hex the sides beyond which an open end of the seat's own or
      ownerless track lies (with :attr:`_Ring.faces`, every side a :class:`HexContext`
      there could find a new track may start from);
    * :func:`candidate_hexes` but for the ring's own hexes (some may be among them)."""
    nbr, routes, new_cities = board.nbr, net.routes, state.new_cities
    terrain, city_at = board.terrain, board.city_at
    built = state.pl[seat].built
    touched: dict[int, list[Patch]] = {}
    own_ends: set[int] = set()
    reach: dict[int, int] = {}
    cands: set[int] = set()
    for key, ridx in net.open_at.items():
        h, side = divmod(key, 6)
        n = nbr[h][side]
        route = routes[ridx]
        owner = route.owner
        if n < 0:
            if owner == seat:
                own_ends.add(h)
                if built:
                    cands.add(h)
            continue
        back = (side + 3) % 6
        # As hex_view finds it from n: the side facing h (EMPTY on the printed map, h
        # being land and no city) sees this route and its other end.
        far, other = route.ends
        if far == (OPEN, h, side):
            far = other
        if owner == seat:
            st = JOIN_OWN
            own_ends.add(h)
            if built:
                cands.add(h)
        elif owner == OWNERLESS:
            st = JOIN_FREE
        else:
            found = touched.get(n)
            if found is None:
                touched[n] = [(back, OTHER, far)]
            else:
                found.append((back, OTHER, far))
            continue
        found = touched.get(n)
        if found is None:
            touched[n] = [(back, st, far)]
        else:
            found.append((back, st, far))
        reach[n] = reach.get(n, 0) | 1 << back
        if built and terrain[n] != "water" and city_at[n] < 0 and n not in new_cities:
            cands.add(n)
    if built:
        track = state.track
        for h in track.keys() & _town_hexes(board):
            if any(sec[2] == seat for sec in track[h].sections):
                cands.add(h)
    return touched, own_ends, reach, cands


def _seen(board: Board, ring: _Ring, touched: dict[int, list[Patch]], h: int) -> View:
    """What a :class:`HexContext` of ``h`` sees: the ring's view (the printed map and the
    New Cities), with what the open track ends beside it change (:func:`_around`)."""
    view = ring.view(board, h)
    patches = touched.get(h)
    return view if patches is None else _patched(view, patches)


def _patched(view: View, patches: list[Patch]) -> View:
    """``view`` (what a hex sees with no open track end beside it) with ``patches``."""
    status, far = list(view[0]), list(view[1])
    for side, st, end in patches:
        status[side] = st
        far[side] = end
    return tuple(status), tuple(far)


_TOWN_HEXES: dict[str, frozenset[int]] = {}


def _town_hexes(board: Board) -> frozenset[int]:
    found = _TOWN_HEXES.get(board.spec.id)
    if found is None:
        found = _TOWN_HEXES[board.spec.id] = frozenset(
            h for h in range(len(board.coords)) if board.town_at[h] >= 0
        )
    return found


class Verdicts:
    """The builds :func:`evaluate` accepts on one hex, before supply and money, as listing
    rows ``(hex, tile, rotation)`` and as moves (made once: verdicts are reused)."""

    __slots__ = ("costs", "dearest", "kept", "moves", "rows", "tiles")

    def __init__(self, board: Board, h: int, found: list[tuple[str, int, int]]) -> None:
        col, row = board.coords[h]
        self.rows = [(h, name, r) for name, r, _cost in found]
        self.moves = [Build(col, row, name, r) for name, r, _cost in found]
        self.costs = [cost for _name, _r, cost in found]
        self.dearest = max(self.costs, default=0)
        self.tiles = frozenset(name for name, _r, _cost in found)
        self.kept: dict[tuple[object, ...], list[object]] = {}
        """The lists :meth:`affordable` made, by what it was asked (money counted up to
        the dearest build): uniform players, short of money, ask for few of them."""

    def affordable(
        self, money: int, short: frozenset[str], as_moves: bool, on_hex: str | None = None
    ) -> list[object]:
        """The builds with their tile in the supply, not in ``short`` (or ``on_hex``, the
        tile a redirect may turn), and their cost within ``money``."""
        dearest = self.dearest
        if dearest <= money and (not short or self.tiles.isdisjoint(short)):
            return self.moves if as_moves else self.rows
        key = (money if money < dearest else dearest, short, as_moves, on_hex)
        found = self.kept.get(key)
        if found is None:
            listed: list[Any] = self.moves if as_moves else self.rows
            found = [
                x
                for x, cost, (_h, name, _r) in zip(listed, self.costs, self.rows, strict=True)
                if cost <= money and (name not in short or name == on_hex)
            ]
            if len(self.kept) >= 16:
                self.kept.clear()
            self.kept[key] = found
        return found


_CITY_FACES: dict[str, tuple[int, ...]] = {}


def _city_faces(board: Board) -> tuple[int, ...]:
    """Per hex, the sides facing a printed city, as a bit mask."""
    table = _CITY_FACES.get(board.spec.id)
    if table is None:
        table = _CITY_FACES[board.spec.id] = tuple(
            sum(1 << s for s, (_n, fixed, _e) in enumerate(sides) if fixed == FACES_CITY)
            for sides in _sides(board)
        )
    return table


_PLACEMENTS: dict[tuple[object, ...], Verdicts] = {}
PLACEMENT_CACHE_SIZE: Final = 50_000


def _placements(
    board: Board, state: State, net: Net, h: int, seat: int, built: bool,
    status: tuple[int, ...], far: tuple[End | None, ...],
) -> list[tuple[str, int, int]]:  # fmt: skip
    """(tile, rotation, cost) of every tile :func:`evaluate` accepts on the empty plain hex
    ``h``, before supply and money (the caller checks those).

    There the verdict depends only on the hex, whether the builder has built before, and
    what lies beyond each side (its status and far end, as :class:`HexContext` sees them):
    that is the key, so one neighbourhood is judged once, in this and later turns and
    games."""
    key = (board.spec.id, h, built, status, far)
    found = _PLACEMENTS.get(key)
    if found is None:
        ctx = _context(board, state, net, h, seat, (status, far))
        bad, anchor = _masks(ctx.status)
        accepted: list[tuple[str, int, int]] = []
        for name, r, mask, _new in _tables(board).anchored(anchor):
            if mask & bad:
                continue
            plan = evaluate(board, state, net, ctx, name, r, means=False)
            if isinstance(plan, Plan):
                accepted.append((name, r, plan.cost))
        if len(_PLACEMENTS) >= PLACEMENT_CACHE_SIZE:
            _PLACEMENTS.clear()
        found = _PLACEMENTS[key] = Verdicts(board, ctx.h, accepted)
    return found


_PLAIN_PLACEMENTS: dict[tuple[str, int, bool], Verdicts] = {}


def _plain_placements(
    board: Board, state: State, net: Net, h: int, seat: int, built: bool
) -> Verdicts:
    """:func:`_placements` on an empty hex that sees only the printed map: its key is then
    the hex and ``built`` alone, so it is kept by those (a few per hex of the map)."""
    key = (board.spec.id, h, built)
    found = _PLAIN_PLACEMENTS.get(key)
    if found is None:
        status, far = _plain_context(board)[h]
        found = _PLAIN_PLACEMENTS[key] = _placements(board, state, net, h, seat, built, status, far)
    return found


_PLAIN_VERDICTS: dict[tuple[str, bool], list[Verdicts | None]] = {}


def _plain_verdicts(board: Board, built: bool) -> list[Verdicts | None]:
    """:func:`_plain_placements` of each hex by hex number (``None`` until first asked),
    for the listing to read without making a key."""
    table = _PLAIN_VERDICTS.get((board.spec.id, built))
    if table is None:
        table = _PLAIN_VERDICTS[board.spec.id, built] = [None] * len(board.coords)
    return table


def _track_builds(
    board: Board, state: State, net: Net, h: int, seat: int, built: bool, existing: HexTrack,
    view: View, own_end: bool,
) -> Verdicts:  # fmt: skip
    """Every upgrade or redirect :func:`evaluate` accepts on the plain track hex ``h``,
    before supply and money (the caller checks those), reused like :func:`_placements`
    (``view`` is what :class:`HexContext` sees there; ``own_end``: whether an open end of
    the seat's track lies on ``h``, without which :func:`_redirectable` finds nothing).

    There the verdict depends on the hex, ``built``, what lies beyond each side, the tracks
    on the hex and, for a redirect, which of them the seat may redirect and where its
    route's other end lies: all in the key."""
    secs = existing.sections
    redirect = _redirectable(board, state, net, h, seat) if own_end else None
    far_end = None
    if redirect is not None:
        route = net.routes[net.sec_route[(h, redirect[0])]]
        far_end = route.far_end(route.open_end())  # type: ignore[arg-type]
    key = ("track", board.spec.id, h, built, view,
           tuple([(sec[0], sec[1]) for sec in secs]), redirect, far_end)  # fmt: skip
    found = _PLACEMENTS.get(key)
    if found is None:
        ctx = _context(board, state, net, h, seat, view)
        tables = _tables(board)
        anchor = _masks(ctx.status)[1]
        cands = []
        if len(secs) == 1:
            cands = [c for c in tables.upgrades.get((secs[0][0], secs[0][1]), ()) if c[3] & anchor]
        if redirect is not None:
            k, entry, _out = redirect
            if len(secs) == 1:
                cands += [c for c in tables.simple if c[2] >> entry & 1]
            else:
                other = secs[1 - k]
                cands += [
                    c for c in tables.upgrades.get((other[0], other[1]), ()) if c[3] >> entry & 1
                ]
        accepted: list[tuple[str, int, int]] = []
        for name, r, _mask, _new in cands:
            plan = evaluate(board, state, net, ctx, name, r, means=False)
            if isinstance(plan, Plan):
                accepted.append((name, r, plan.cost))
        if len(_PLACEMENTS) >= PLACEMENT_CACHE_SIZE:
            _PLACEMENTS.clear()
        found = _PLACEMENTS[key] = Verdicts(board, h, accepted)
    return found


def _town_builds(
    board: Board, state: State, net: Net, h: int, seat: int, built: bool,
    existing: HexTrack | None, view: View,
) -> Verdicts:  # fmt: skip
    """Every tile :func:`evaluate` accepts on the town ``h``, before supply and money (the
    caller checks those), reused like :func:`_placements` (``view`` is what
    :class:`HexContext` sees there).

    On a town the verdict also depends on the spokes already there, whether the builder
    owns one of them and, for a first tile, whether a town disc is left: all in the key."""
    old = own = 0
    if existing is not None:
        for sec in existing.sections:
            old |= 1 << sec[0]
            own = own or sec[2] == seat
    discs = existing is not None or town_discs_used(board, state) < board.components.town_discs
    key = ("town", board.spec.id, h, built, view, old, own, discs)
    found = _PLACEMENTS.get(key)
    if found is None:
        ctx = _context(board, state, net, h, seat, view)
        bad, anchor = _masks(ctx.status)
        accepted: list[tuple[str, int, int]] = []
        for name, r, mask in _tables(board).town:
            new = mask & ~old
            if old & ~mask or not new or new & bad or not (own or new & anchor):
                continue
            plan = evaluate(board, state, net, ctx, name, r, means=False)
            if isinstance(plan, Plan):
                accepted.append((name, r, plan.cost))
        if len(_PLACEMENTS) >= PLACEMENT_CACHE_SIZE:
            _PLACEMENTS.clear()
        found = _PLACEMENTS[key] = Verdicts(board, h, accepted)
    return found


def _masks(status: tuple[int, ...]) -> tuple[int, int]:
    """(sides no track may point at, sides a new track may start from) as bit masks."""
    bad = anchor = 0
    for side, st in enumerate(status):
        if st in (BAD, OTHER):
            bad |= 1 << side
        elif st >= FACES_CITY:
            anchor |= 1 << side
    return bad, anchor


_PLAIN: dict[str, tuple[tuple[tuple[int, ...], tuple[End | None, ...]], ...]] = {}


def _plain_context(board: Board) -> tuple[tuple[tuple[int, ...], tuple[End | None, ...]], ...]:
    """Per hex, (status, far end) of each side on the printed map alone: what a
    :class:`HexContext` holds for a hex with no open track end or New City beside it."""
    table = _PLAIN.get(board.spec.id)
    if table is None:
        table = _PLAIN[board.spec.id] = tuple(
            (tuple(fixed for _n, fixed, _e in sides), tuple(end for _n, _f, end in sides))
            for sides in _sides(board)
        )
    return table


Orientation = tuple[str, int, int, int]
"""(tile, rotation, mask of all its sides, mask of the track an upgrade adds)."""


class _Tables:
    """Orientation lists of one tile set, indexed for the build search."""

    def __init__(self, board: Board) -> None:
        self.plain_all: list[Orientation] = []
        self.simple: list[Orientation] = []
        self.per_track: list[tuple[Orientation, tuple[int, ...]]] = []
        self.upgrades: dict[tuple[int, int], list[Orientation]] = {}
        self.upgrade_sides = [0] * 49
        """Per simple track (sides a, b, at a * 7 + b): every side some upgrade's added
        track touches."""
        self.town: list[tuple[str, int, int]] = []
        self.names = frozenset(board.shapes)
        self._supply: dict[tuple[int, ...], tuple[tuple[str, ...], frozenset[str]]] = {}
        costs = board.components.costs
        assert costs is not None
        self.cheapest = min(costs.redirect, costs.upgrade_coexisting, costs.simple,
                            costs.town_base + 1)  # fmt: skip
        """The least any build costs (a town tile has at least one spoke)."""
        self._anchored: dict[int, list[Orientation]] = {}
        for name, shape in board.shapes.items():
            for r, spokes in town_options(shape).items():
                mask = 0
                for x in spokes:
                    mask |= 1 << x
                self.town.append((name, r, mask))
            for r, tracks in shape.orientations.items():
                masks = tuple((1 << a) | (1 << b) for a, b in tracks)
                full = 0
                for m in masks:
                    full |= m
                entry = (name, r, full, 0)
                self.plain_all.append(entry)
                if len(tracks) == 1:
                    self.simple.append(entry)
                self.per_track.append((entry, masks))
                if len(tracks) == 2:
                    for keep, add in ((0, 1), (1, 0)):
                        self.upgrades.setdefault(tracks[keep], []).append(
                            (name, r, full, masks[add])
                        )
                        a, b = tracks[keep]
                        self.upgrade_sides[a * 7 + b] |= masks[add]

    def short(self, tiles: dict[str, int]) -> frozenset[str]:
        """The tiles of the set out of the supply (one the supply does not list has none
        left), kept per counts, read in the supply's order (kept with them and checked)."""
        counts = tuple(tiles.values())
        found = self._supply.get(counts)
        if found is None or found[0] != tuple(tiles):
            kinds = tuple(tiles)
            left = frozenset(
                name for name, n in zip(kinds, counts, strict=True) if n > 0 and name in self.names
            )
            if len(self._supply) >= 4096:
                self._supply.clear()
            found = self._supply[counts] = (kinds, self.names - left)
        return found[1]

    def anchored(self, anchor: int) -> list[Orientation]:
        """Orientations whose every track touches a side in ``anchor``."""
        found = self._anchored.get(anchor)
        if found is None:
            found = [e for e, masks in self.per_track if all(m & anchor for m in masks)]
            self._anchored[anchor] = found
        return found


_TABLES: dict[str, _Tables] = {}


def _tables(board: Board) -> _Tables:
    t = _TABLES.get(board.spec.id)
    if t is None:
        t = _TABLES[board.spec.id] = _Tables(board)
    return t
