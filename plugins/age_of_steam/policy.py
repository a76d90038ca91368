"""A cheap "sensible" move policy: legal moves picked with a little sense, so that players
survive to the end of the game instead of bankrupting themselves in three turns like uniform
picks do.

It is not a strong player. It never spends money it needs to pay its way to the end of the
game (see :func:`affordable`; this turn's expenses come from the money in hand once the
share step is over), issues shares only to cover expenses and a small early building
budget, stays out of expensive auctions, never takes Locomotive when the bigger engine
would strain its money, lays track only along a shortest path that lets it deliver a cube
waiting in a city (or to finish its unfinished track), delivers the good that pays itself
most and raises its engine only when it can afford it. Its networks stay small (about 9
tiles in a 4-player Rust Belt game, 18 with 6; with 3 players, whose game is longest, it
rarely finds a build it can afford) and it delivers few goods, but every player of 32
4-player games survived to the end (``python3 bench/bench_age_of_steam.py`` plays it). The
benchmark and the tests use it on the state; the service's "greedy" bot uses it through
:mod:`bot`, from the seat's view and legal moves only.
"""

from __future__ import annotations

from collections import deque
from random import Random
from typing import Any

from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.data import Board, board
from plugins.age_of_steam.goods import city_colour
from plugins.age_of_steam.rules import MAX_SHARES, SHARE_VALUE, income_reduction
from plugins.age_of_steam.state import TOWN, State
from plugins.age_of_steam.track import (
    HexContext,
    Plan,
    evaluate,
    network,
)

_BEFORE_SHARES = ("first_player", "shares")
"""Steps of a turn before (or at) the share issue."""
GOALS_TRIED = 12
"""Source/destination pairs tried per build decision, closest first."""
EARLY_BUDGET = 4
"""Money wanted for track in the first two turns, on top of expenses."""


def sensible_move(state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    """One of ``legal`` (the seat's legal moves now)."""
    p = state.pl[seat]
    expenses = p.shares + p.engine
    first = legal[0]
    if isinstance(first, mv.IssueShares):
        return legal[min(len(legal) - 1, _shares_wanted(state, seat))]
    if isinstance(first, mv.BuyFirst | mv.DeclineFirst):
        rich = p.money >= expenses + 10
        return mv.BuyFirst() if rich and mv.BuyFirst() in legal else mv.DeclineFirst()
    if any(isinstance(m, mv.DropOut) for m in legal):
        return _auction(state, seat, legal, rng)
    if isinstance(first, mv.SelectAction):
        return _action(state, seat, legal, rng)
    if state.phase == "build":
        return _build(state, seat, legal, rng)
    if state.phase == "move":
        return _move(state, seat, legal)
    return rng.choice(legal)


def _shares_wanted(state: State, seat: int) -> int:
    """Shares to issue: enough to pay this turn's expenses (each new share adds $1 to
    them), plus a building budget in the first two turns, as long as those shares cost at
    most one of the turns the seat can pay for (see :func:`turns_paid`)."""
    p = state.pl[seat]
    k = 0
    while p.shares + k < MAX_SHARES and p.money + 5 * k + p.income < p.shares + k + p.engine:
        k += 1
    if state.turn <= 2:
        base = turns_paid(state, seat, shares=k)
        more = k
        while (
            p.shares + more < MAX_SHARES
            and p.money + 5 * more + p.income < p.shares + more + p.engine + EARLY_BUDGET
            and turns_paid(state, seat, shares=more + 1) >= base - 1
        ):
            more += 1
        k = more
    return k


def turns_paid(state: State, seat: int, spend: int = 0, engine_up: int = 0, shares: int = 0) -> int:
    """How many turns, this one included, the seat can pay its expenses after issuing
    ``shares`` and spending ``spend`` now (and raising its engine by ``engine_up``), at
    today's income, issuing further shares only when short."""
    p = state.pl[seat]
    money = p.money + SHARE_VALUE * shares - spend
    shares, engine, income = p.shares + shares, p.engine + engine_up, p.income
    if money < 0:
        return 0
    paid = 0
    # Shares are issued at the start of a turn: once that step is over, this turn's
    # expenses must come out of the money in hand.
    issue_from = state.turn if state.phase in _BEFORE_SHARES else state.turn + 1
    for turn in range(state.turn, state.last_turn + 1):
        while money + income < shares + engine and shares < MAX_SHARES and turn >= issue_from:
            shares += 1
            money += SHARE_VALUE
        money += income - shares - engine
        if money < 0:
            break
        paid += 1
        income -= income_reduction(income)
    return paid


def affordable(state: State, seat: int, spend: int, engine_up: int = 0) -> bool:
    """Whether spending ``spend`` now (and raising the engine by ``engine_up``) is prudent:
    a seat that can pay its way to the end must still be able to; one that cannot (track
    is its only hope of income) may give up one turn of it, but not for a bigger engine."""
    now = turns_paid(state, seat)
    after = turns_paid(state, seat, spend, engine_up)
    if now > state.last_turn - state.turn:
        return after == now
    return after >= now - (0 if engine_up else 1) and after > 0


def _auction(state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    if mv.TurnOrderPass() in legal:
        return mv.TurnOrderPass()
    cheap = [
        m for m in legal
        if isinstance(m, mv.Bid) and m.amount <= 3 and affordable(state, seat, m.amount + 8)
    ]  # fmt: skip
    if cheap and rng.random() < 0.4:
        return cheap[0]
    return mv.DropOut()


def _action(state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    p = state.pl[seat]
    names = [m.action for m in legal]
    # A bigger engine costs $1 a turn: worth it once income can carry it.
    if "locomotive" in names and p.engine < 4 and affordable(state, seat, 4, engine_up=1):
        return mv.SelectAction("locomotive")
    liked = [a for a in ("engineer", "first_build", "urbanization", "first_move") if a in names]
    if liked and rng.random() < 0.7:
        return mv.SelectAction(rng.choice(liked))  # type: ignore[arg-type]
    # Locomotive raises the engine at once, and with it this turn's expenses.
    rest = [m for m in legal if m.action != "locomotive"]
    return rng.choice(rest or legal)


def _move(state: State, seat: int, legal: list[Any]) -> Any:
    b = board(state.map_id)
    best, best_gain = None, -1
    net = network(b, state)
    for m in legal:
        if not isinstance(m, mv.MoveGood):
            continue
        gain = _own_links(b, state, net, seat, m)
        if gain > best_gain:
            best, best_gain = m, gain
    if best is not None:
        return best
    p = state.pl[seat]
    if mv.RaiseEngine() in legal and p.engine < 4 and affordable(state, seat, 4, engine_up=1):
        return mv.RaiseEngine()
    return mv.PassMove()


def _own_links(b: Board, state: State, net: Any, seat: int, m: mv.MoveGood) -> int:
    at = b.hex_of(m.col, m.row)
    gain = 0
    for s in m.steps:
        link = net.links.get(at * 6 + s)
        if link is None:  # a St. Lucia start on track: count it as one's own stretch
            gain += 1
            break
        ridx, far = link
        gain += net.routes[ridx].owner == seat
        at = far.hex
    return gain * 10 + len(m.steps)


def _build(state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    """Lay the next tile of a shortest path from a city holding a cube to a city taking
    it, starting from the source end; stop when money is needed for expenses."""
    b = board(state.map_id)
    builds = [m for m in legal if isinstance(m, mv.Build)]
    if not builds:
        return mv.DoneBuilding()
    by_hex: dict[int, list[mv.Build]] = {}
    for m in builds:
        by_hex.setdefault(b.hex_of(m.col, m.row), []).append(m)
    net = network(b, state)
    paths = _unfinished_paths(b, state, net, seat)
    if not paths:
        # Track to a town, or to a city without goods for it, pays nothing: build only
        # towards deliveries.
        paths = _delivery_paths(b, state, seat)
    for path in paths:
        for i in range(len(path)):
            h = path[i]
            if b.city_at[h] >= 0 or h in state.new_cities:
                if i:
                    break
                continue
            if i == 0 and b.town_at[h] < 0:
                continue  # the track hex an unfinished route ends on
            need = tuple(_side(b, h, path[j]) for j in (i - 1, i + 1) if 0 <= j < len(path))
            if _has(state, h, need):
                continue
            ctx = HexContext(b, state, net, h, seat)
            for m in by_hex.get(h, ()):
                plan = evaluate(b, state, net, ctx, m.tile, m.rotation)
                if (
                    isinstance(plan, Plan)
                    and plan.kind != "redirect"
                    and affordable(state, seat, plan.cost)
                    and _gives(plan.sections, need)
                ):
                    return m
            break  # the next tile of this path cannot be laid now: try another path
    return mv.DoneBuilding()


def _unfinished_paths(b: Board, state: State, net: Any, seat: int) -> list[list[int]]:
    """For each of the seat's unfinished routes: the track's last hex, then the shortest
    way on to a city or town other than the one it starts from."""
    out = []
    for r in net.routes:
        end = r.open_end()
        if r.owner != seat or end is None:
            continue
        start = r.far_end(end)
        path = _path(b, state, seat, end.hex, None, first=b.nbr[end.hex][end.side],
                     avoid=start.hex)  # fmt: skip
        if path is not None:
            out.append(path)
    return out


def _tiles_needed(b: Board, state: State, path: list[int], whole: bool) -> int:
    """Tiles still to lay along the path: all of it, or up to its first town."""
    tiles = 0
    for i in range(1, len(path) - 1):
        h = path[i]
        need = (_side(b, h, path[i - 1]), _side(b, h, path[i + 1]))
        tiles += not _has(state, h, need)
        if not whole and b.town_at[h] >= 0:
            break
    return tiles


def _delivery_paths(b: Board, state: State, seat: int) -> list[list[int]]:
    """Paths from a city holding cubes to a city taking their colour that the seat's engine
    (raised once) can run, cheapest tiles per cube first; a path whose whole length can
    be laid this turn comes before one whose first link only can."""
    p = state.pl[seat]
    cities = [*b.city_hexes, *sorted(state.new_cities)]
    colour = {h: city_colour(b, state, h) for h in cities}
    pairs = []
    for x in cities:
        cubes = state.goods.get(x, ())
        for y in cities:
            count = sum(c == colour[y] for c in cubes)
            if y != x and count:
                pairs.append((_hexdist(b, x, y), -count, x, y))
    ranked: list[tuple[int, float, list[int]]] = []
    for _d, minus_count, x, y in sorted(pairs)[:GOALS_TRIED]:
        path = _path(b, state, seat, x, y)
        if path is None or _links(b, path) > p.engine + 1:
            continue
        whole = _tiles_needed(b, state, path, whole=True)
        first = _tiles_needed(b, state, path, whole=False)
        if whole <= state.builds_left and affordable(state, seat, 3 * whole):
            ranked.append((0, whole / -minus_count, path))
        elif first <= state.builds_left and affordable(state, seat, 3 * first):
            ranked.append((1, whole / -minus_count, path))
    ranked.sort(key=lambda r: r[:2])
    return [path for *_key, path in ranked]


def _links(b: Board, path: list[int]) -> int:
    """Links a good runs along the path: one more than the towns it passes."""
    return 1 + sum(b.town_at[h] >= 0 for h in path[1:-1])


def _path(
    b: Board, state: State, seat: int, x: int, y: int | None, first: int = -1, avoid: int = -1
) -> list[int] | None:
    """Shortest chain of hexes x .. y through land the seat may build on or already owns.
    With ``y`` None the chain runs to the nearest city or town other than ``avoid``, and
    its first step is forced to ``first`` (the hex an open track end points at)."""
    prev = {x: x}
    todo = deque([x])
    while todo:
        h = todo.popleft()
        for n in b.nbr[h]:
            if n < 0 or n in prev or (h == x and first >= 0 and n != first):
                continue
            terminal = b.city_at[n] >= 0 or n in state.new_cities or b.town_at[n] >= 0
            if n == y or (y is None and terminal and n != avoid):
                y = n
                prev[n] = h
                out = [y]
                while out[-1] != x:
                    out.append(prev[out[-1]])
                return out[::-1]
            if b.terrain[n] == "water" or b.city_at[n] >= 0 or n in state.new_cities:
                continue
            ht = state.track.get(n)
            if ht is not None and b.town_at[n] < 0 and any(s[2] != seat for s in ht.sections):
                continue
            prev[n] = h
            todo.append(n)
    return None


def _side(b: Board, h: int, n: int) -> int:
    return b.nbr[h].index(n)


def _has(state: State, h: int, need: tuple[int, ...]) -> bool:
    ht = state.track.get(h)
    return ht is not None and _gives(ht.sections, need)


def _gives(sections: list[list[int]], need: tuple[int, ...]) -> bool:
    """Whether the sections join the needed sides (a town's spokes join any of them)."""
    if {s[0] for s in sections if s[1] == TOWN} >= set(need):
        return True
    return len(need) == 2 and any({s[0], s[1]} == set(need) for s in sections)


def _hexdist(b: Board, h1: int, h2: int) -> int:
    """Hex steps between two hexes, ignoring terrain (odd-q offsets turned into cube
    coordinates)."""
    (c1, r1), (c2, r2) = b.coords[h1], b.coords[h2]
    z1, z2 = r1 - (c1 - (c1 & 1)) // 2, r2 - (c2 - (c2 & 1)) // 2
    return max(abs(c1 - c2), abs(z1 - z2), abs((-c1 - z1) - (-c2 - z2)))
