"""The search playouts' policy: quick rules of thumb on the full state, so that the games a
search plays out look like real ones (players build, deliver and stay solvent) at a small
fraction of the "greedy" policy's cost (:mod:`policy` weighs every choice by a simulated
final score; this one counts cubes).

* Shares: enough for this turn's expenses plus a small building budget while the game
  has turns left for the track to pay back, never past 10 shares for building.
* Auction and St. Lucia's first place: never pays (drops out, uses the free pass).
* Actions: Locomotive while the engine is short and income carries it, Urbanization where
  New Cities are the only demand (St. Lucia, Barbados), else the building actions.
* Build: the best-paying per dollar of a few track projects (:mod:`projects`): from its
  unfinished track and the two cities with most cubes to send, valued by what the cubes
  at its links' ends (:mod:`deliveries`) would pay the seat more; never spends this
  turn's expenses. The project chosen for a turn's first tile is followed for its next
  tiles (:class:`_Following`) rather than chosen afresh after each.
* Move goods: the delivery paying the seat most; the engine raised in the first round
  when nothing pays and income can carry it.
"""

from __future__ import annotations

import threading
from itertools import takewhile
from random import Random
from typing import Any, Final, NamedTuple

from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.data import Board, board
from plugins.age_of_steam.deliveries import Graph, best, graph, with_links
from plugins.age_of_steam.goods import city_colour, income_by_owner, walk_good
from plugins.age_of_steam.projects import Project, next_build, projects
from plugins.age_of_steam.rules import MAX_ENGINE, SHARE_VALUE
from plugins.age_of_steam.state import State
from plugins.age_of_steam.track import CITY, Net, Refusal, network

BUILD_BUDGET: Final = 6
"""Money wanted for track in a turn, on top of expenses, while shares may pay for it."""
SHARES_FOR_TRACK: Final = 10
"""No shares are issued for track beyond this many."""
SUNK: Final = 0.5
"""What finishing the seat's own unfinished track is worth besides its cubes (its sections
score, and it is not lost)."""
ROOT_CITIES: Final = 2
"""Cities tried as the start of new track per build decision."""
NEAR: Final = 4
"""Hex steps between cities one turn's track may join."""


def playout_move(state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    """One of ``legal`` (the seat's legal moves now), quickly."""
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, mv.IssueShares):
        return legal[min(_shares(state, seat), len(legal) - 1)]
    if isinstance(first, mv.BuyFirst | mv.DeclineFirst):
        return mv.DeclineFirst()
    if state.phase == "auction":
        return mv.TurnOrderPass() if mv.TurnOrderPass() in legal else mv.DropOut()
    if isinstance(first, mv.SelectAction):
        return _action(state, seat, legal, rng)
    b = board(state.map_id)
    if state.phase == "build":
        return _build(b, state, seat, legal, rng)
    if state.phase == "move":
        return _move(b, state, seat, legal)
    if isinstance(first, mv.PlaceCube):
        return _place(b, state, seat, legal, rng)
    return legal[rng.randrange(len(legal))]


def _shares(state: State, seat: int) -> int:
    """Shares for this turn's expenses and, while they may still pay back, the track of the
    project the seat would build (one of the first two cities' or its own open track)."""
    p = state.pl[seat]
    b = board(state.map_id)
    budget = 0
    # On Barbados a share is bought back at the end: track must pay $5 more to be worth it.
    payback = 4 if b.rules.scoring == "buyback" else 1
    if state.turn < state.last_turn - payback and p.shares < SHARES_FOR_TRACK:
        plan = _plan(b, state, seat, 3, p.money + SHARE_VALUE * 3)
        budget = 0 if plan is None else sum(plan.costs[:3])
    k = 0
    while p.money + SHARE_VALUE * k + p.income < p.shares + k + p.engine + budget and k < 15:
        k += 1
    return k


def _action(state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    p = state.pl[seat]
    names = {m.action for m in legal}
    b = board(state.map_id)
    # On Barbados money is the score: a bigger engine must pay its way at once.
    paid = b.rules.scoring != "buyback" or p.income > p.shares + p.engine
    if "locomotive" in names and p.engine < min(4, _own_links(state, seat)) and paid:
        return mv.SelectAction("locomotive")
    few_cities = len(b.city_hexes) + len(state.new_cities) < 4 or b.rules.scoring == "buyback"
    if "urbanization" in names and few_cities:
        return mv.SelectAction("urbanization")
    for name in ("engineer", "first_build", "production", "first_move", "urbanization"):
        if name in names and rng.random() < 0.7:
            return mv.SelectAction(name)  # type: ignore[arg-type]
    return legal[rng.randrange(len(legal))]


def _own_links(state: State, seat: int) -> int:
    net = network(board(state.map_id), state)
    return sum(1 for r in net.routes if r.complete and r.owner == seat)


class _Following(NamedTuple):
    """The project a seat is laying this turn, after the tile just chosen: what its next
    build decision should find if that tile was laid in the same playout."""

    state: State
    """The state the playout evolves in place. Held, not its ``id``: while it is held no
    other state can be mistaken for it, so a choice never depends on an earlier playout."""
    seat: int
    turn: int
    builds_left: int
    laid: int
    """The hex of the tile chosen, which must carry track now."""
    rest: Project


_following = threading.local()
"""One per thread: each thread plays its own playouts."""


def _build(b: Board, state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    # legal_moves lists New City placements first: the rest need not be looked at.
    urbanize = list(takewhile(lambda m: isinstance(m, mv.Urbanize), legal))
    if urbanize:
        return _urbanize(b, state, seat, urbanize, rng)
    # Choosing a project means searching every chain from a few roots (most of a playout's
    # time); once its first tile is down, the same search finds the same project's rest,
    # so the rest is followed while it can be.
    plan = _followed(state, seat)
    m = None if plan is None else next_build(b, state, seat, plan, legal)
    if m is None:
        p = state.pl[seat]
        spare = p.money - max(0, p.shares + p.engine - p.income)
        plan = _plan(b, state, seat, state.builds_left, spare)
        m = None if plan is None else next_build(b, state, seat, plan, legal)
    if m is None or plan is None:
        return mv.DoneBuilding()
    if len(plan.steps) > 1:
        rest = plan._replace(steps=plan.steps[1:], costs=plan.costs[1:])
        _following.plan = _Following(state, seat, state.turn, state.builds_left - 1,
                                     plan.steps[0][0], rest)  # fmt: skip
    return m


def _followed(state: State, seat: int) -> Project | None:
    """The rest of the project this seat chose its last tile from, if that tile is what
    this state has just seen laid."""
    f: _Following | None = getattr(_following, "plan", None)
    _following.plan = None
    if f is None or f.state is not state or f.seat != seat or f.turn != state.turn:
        return None
    if f.builds_left != state.builds_left or f.laid not in state.track:
        return None
    return f.rest


def _plan(b: Board, state: State, seat: int, builds: int, spare: int) -> Project | None:
    """The project earning most per dollar (:func:`_earns`) whose tiles this turn cost at
    most ``spare``; finishing the seat's own track counts as earning :data:`SUNK`."""
    if spare < 2 or builds <= 0:
        return None
    g = graph(b, state)
    engine = state.pl[seat].engine
    known: dict[tuple[int, str], int] = {}
    best_worth: float = 0.0
    best_proj = None
    for proj in projects(b, state, seat, builds, _roots(b, state, seat), towns=False):
        if sum(proj.costs[:builds]) > spare:
            continue
        earns: float = _earns(b, state, g, proj, seat, engine, known)
        if proj.sections > len(proj.steps):  # finishes track already laid: keeps it
            earns += SUNK
        worth = earns / (proj.cost + 2)
        if worth > best_worth:
            best_worth, best_proj = worth, proj
    return best_proj


def _earns(
    b: Board, state: State, g: Graph, proj: Project, seat: int, engine: int,
    known: dict[tuple[int, str], int],
) -> int:  # fmt: skip
    """What the cubes at the ends of the project's links (and on its track) would pay the
    seat more than they do now."""
    g2 = with_links(g, proj.links, seat, proj.land)
    hexes = {x for link in proj.links for x in link} | {h for h, _x, _y in proj.land}
    gain = 0
    for h in hexes:
        for c in set(state.goods.get(h, ())):
            key = (h, c)
            before = known.get(key)
            if before is None:
                before = known[key] = max(0, best(g, h, c, engine, seat))
            after = best(g2, h, c, engine, seat)
            if after > before:
                gain += (after - before) * state.goods[h].count(c)
    return gain


def _roots(b: Board, state: State, seat: int) -> list[int]:
    """The cities at the ends of the seat's links, and the cities with most cubes for a
    city of their colour within reach of a turn's track (the likeliest starts of a paying
    link)."""
    cities = [*b.city_hexes, *state.new_cities]
    if b.rules.goods_on_land:  # St. Lucia: the cubes lie between the (few) cities
        return cities
    net = network(b, state)
    own = {e.hex for r in net.routes if r.owner == seat for e in r.ends if e.kind == CITY}
    colour = {h: city_colour(b, state, h) for h in cities}
    close = _close(b)
    ranked = []
    for h in cities:
        cubes = state.goods.get(h)
        if not cubes:
            continue
        near = {colour[c] for c in cities if c != h and c in close[h]}
        sent = sum(c in near for c in cubes)
        if sent:
            ranked.append((-sent, h))
    ranked.sort()
    return sorted(own | {h for _n, h in ranked[:ROOT_CITIES]})


def _urbanize(b: Board, state: State, seat: int, moves: list[mv.Urbanize], rng: Random) -> Any:
    """A New City on a town next to the seat's track if there is one, else anywhere; of
    the colour most cubes around it have."""
    own = {h for h, ht in state.track.items() if any(s[2] == seat for s in ht.sections)}
    towns = sorted({(m.col, m.row) for m in moves})
    near = [t for t in towns if any(n in own for n in b.nbr[b.hex_of(*t)])]
    col, row = rng.choice(near or towns)
    h = b.hex_of(col, row)
    around = [c for n in b.nbr[h] if n >= 0 for c in state.goods.get(n, ())]
    letters = [m for m in moves if (m.col, m.row) == (col, row)]
    colour = {nc.letter: nc.color for nc in b.spec.new_cities}
    return max(letters, key=lambda m: around.count(colour[m.city]))


def _move(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    net = network(b, state)
    top, choice = 0, None
    for m in legal:
        if isinstance(m, mv.MoveGood):
            own = _own_income(b, state, net, seat, m)
            if own > top:
                top, choice = own, m
    if choice is not None:
        return choice
    p = state.pl[seat]
    if (
        mv.RaiseEngine() in legal and state.move_round == 0 and p.engine < min(4, MAX_ENGINE)
        and p.income >= p.shares + p.engine + 1 and b.rules.scoring != "buyback"
    ):  # fmt: skip
        return mv.RaiseEngine()
    return mv.PassMove()


def _own_income(b: Board, state: State, net: Net, seat: int, m: mv.MoveGood) -> int:
    at = b.hex_of(m.col, m.row)
    if at not in b.city_hexes and at not in state.new_cities:  # a St. Lucia start on track
        d = walk_good(b, state, seat, at, m.color, list(m.steps))
        if isinstance(d, Refusal):
            return 0
        bonus = int(state.options.get("st_lucia_first_section_income", 1)) - 1
        return income_by_owner(d.owners, bonus if d.first_partial else 0).get(seat, 0)
    own = 0
    for s in m.steps:
        link = net.links.get(at * 6 + s)
        if link is None:
            return own
        ridx, far = link
        own += net.routes[ridx].owner == seat
        at = far.hex
    return own


def _place(b: Board, state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    """The drawn cube onto a column feeding a city at an end of the seat's links."""
    net = network(b, state)
    ends = {e.hex for r in net.routes if r.complete and r.owner == seat for e in r.ends}
    placed = {letter: h for h, letter in state.new_cities.items()}
    good = []
    for m in legal:
        col = b.spec.display[b.display_ids.index(m.column)]
        if col.new_city is not None:
            dest = placed.get(col.new_city, -1)
        else:
            dest = next((b.hex_of(c.col, c.row) for c in b.spec.cities
                         if c.dice == col.dice and c.die == col.die), -1)  # fmt: skip
        if dest in ends:
            good.append(m)
    pool = good or legal
    return pool[rng.randrange(len(pool))]


_CLOSE: dict[str, dict[int, frozenset[int]]] = {}


def _close(b: Board) -> dict[int, frozenset[int]]:
    """Per city or town hex (New Cities stand on towns), the city and town hexes at most
    :data:`NEAR` hex steps away."""
    table = _CLOSE.get(b.spec.id)
    if table is None:
        sites = [h for h in range(len(b.coords)) if b.city_at[h] >= 0 or b.town_at[h] >= 0]
        table = _CLOSE[b.spec.id] = {
            h: frozenset(c for c in sites if _hexdist(b, h, c) <= NEAR) for h in sites
        }
    return table


def _hexdist(b: Board, h1: int, h2: int) -> int:
    (c1, r1), (c2, r2) = b.coords[h1], b.coords[h2]
    z1, z2 = r1 - (c1 - (c1 & 1)) // 2, r2 - (c2 - (c2 & 1)) // 2
    return max(abs(c1 - c2), abs(z1 - z2), abs((-c1 - z1) - (-c2 - z2)))
