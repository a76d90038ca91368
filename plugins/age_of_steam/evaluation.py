"""Each seat's expected final score from any state, for the search bot's ``evaluate``: its
purse played to the end by :func:`economy.final_score`, with the income its network is
likely to add. Cheap on purpose (a search scores thousands of states), so the network is
read by counts, not by the delivery search the greedy policy runs:

* cubes its links can deliver: those waiting at a city or town a network of its completed
  links reaches, of a colour another city of that network takes, those the goods display
  will bring there and (St. Lucia) those on the network's track, each paying about as
  many links as its engine and the network run;
* at most two deliveries a turn, some taken by others first;
* income its future track will add, growing with the turns left (players keep building);
* a few track sections more for each Build step to come, and a little for cash in hand
  while it can still buy track.

On a finished state it is exactly the result's scores (see :mod:`lookahead`).
"""

from __future__ import annotations

from typing import Final

from plugins.age_of_steam.data import Board
from plugins.age_of_steam.economy import BEFORE_MOVE, ELIMINATED, final_score, moves_left
from plugins.age_of_steam.goods import city_colour
from plugins.age_of_steam.rules import SHARE_VALUE
from plugins.age_of_steam.state import PlayerState, State
from plugins.age_of_steam.track import network

BEFORE_BUILD: Final = ("first_player", "shares", "auction", "actions", "build")
TAKEN: Final = 0.7
"""Share of the deliverable cubes a seat gets to deliver itself."""
GROWTH: Final = {"rust_belt": 0.7, "st_lucia": 1.0, "barbados": 0.2}
"""Income per Move Goods step that each turn of further building adds, per map (fitted to
greedy self-play: a lone Barbados railway finds fewer goods to carry)."""
NEW_SECTIONS: Final = 2.0
"""Track sections a seat is expected to add in each Build step still to come."""
CASH: Final = 0.25
"""Points per dollar in hand while track can still be built (standard scoring; cash buys
track that pays, though the score counts none of it)."""
TERMS: Final = ("1", "income", "sections", "links")
"""What the calibration adds to the count-based estimate, per seat: a constant, its income,
its scored track sections and its completed links, each weighed per turns left. The purse
(cash, shares, engine) is left to the count-based estimate alone, which plays it forward
by the rules: fitted on self-play, where players with more cash or a bigger engine tend to
be the ones doing well, a weight on cash or shares would tell the search that issuing a
share is worth points (a fit with them ranked held-out games slightly better and scored
+4 points a share issued)."""
STAGES: Final = 8
"""Turns-left stages with their own weights (earlier ones share the last one's); a stage
without weights keeps the count-based estimate (the fit ranked early turns no better)."""
WEIGHTS: Final[dict[str, dict[int, list[float]]]] = {
    'rust_belt:3': {
        1: [19.106, -0.402, -0.356, 0.254],
        2: [24.015, -0.032, -0.082, -0.827],
        3: [16.434, 0.559, -0.44, 1.415],
        4: [5.882, 1.739, -0.491, 1.949],
        5: [-13.573, 3.748, 0.625, -0.284],
    },
    'rust_belt:4': {
        1: [9.746, 0.168, -0.304, -0.252],
        2: [-2.229, 0.956, 0.153, -0.004],
        3: [-9.275, 2.202, 0.759, -1.255],
        4: [-9.361, 3.09, 0.351, -0.876],
        5: [-12.85, 2.776, 2.006, -1.839],
    },
}  # fmt: skip
"""``map:players`` -> turns left -> weights of :data:`TERMS`, fitted by least squares to
what greedy self-play games' final scores add to the count-based estimate
(``bench/fit_aos_evaluation.py --fit``); a table without weights keeps that estimate."""


def expected_scores(b: Board, state: State, calibrated: bool = False) -> list[float]:
    """Each seat's expected final score: the count-based estimate, or (``calibrated``)
    that estimate corrected by what the seat's income and network (:data:`TERMS`) added to
    it in greedy self-play games (:data:`WEIGHTS`, per turns left).

    The search plays with the count-based estimate: the calibrated one ranks held-out
    positions better (``bench/fit_aos_evaluation.py``) but played worse in the ladder of
    2026-12-01 (search:hard vs greedy, Rust Belt 3p, seed ``s4-aos3``: on the same first
    three deals 1 win of 3 against 3 of 3, search seats 50 against 79 points on average)."""
    rough = _rough(b, state)
    if not calibrated:
        return rough
    weights = WEIGHTS.get(f"{state.map_id}:{state.players}", {}).get(min(stage(state), STAGES))
    if weights is None:
        return rough
    out = []
    for t, r, p in zip(_terms(b, state), rough, state.pl, strict=True):
        # A seat out, or seen going bankrupt, keeps its score by the rules (or the
        # forecast's floor): below every seat still playing, as the ranking puts it.
        out.append(r if p.eliminated or r < ELIMINATED / 2 else
                   r + sum(w * x for w, x in zip(weights, t, strict=True)))  # fmt: skip
    return out


def stage(state: State) -> int:
    """Move Goods steps still to come: what the calibration's weights depend on."""
    return moves_left(state)


def terms(b: Board, state: State) -> list[list[float]]:
    """Per seat, the terms the calibrated estimate weighs (see :data:`TERMS`)."""
    return _terms(b, state)


def _terms(b: Board, state: State) -> list[list[float]]:
    net = network(b, state)
    links = [0] * state.players
    sections = [0] * state.players
    for r in net.routes:
        if r.owner >= 0 and r.complete:
            links[r.owner] += 1
            sections[r.owner] += len(r.sections)
    out = []
    for s, p in enumerate(state.pl):
        out.append([1.0, float(p.income), float(sections[s]), float(links[s])])
    return out


def _rough(b: Board, state: State) -> list[float]:
    n = state.players
    net = network(b, state)
    sections = [0] * n
    parts: list[_Parts] = [_Parts() for _ in range(n)]
    for r in net.routes:
        if r.owner < 0 or not r.complete:
            continue
        sections[r.owner] += len(r.sections)
        on_land = [h for h, _k in r.sections if h in state.goods] if b.rules.goods_on_land else []
        parts[r.owner].join(r.ends[0].hex, r.ends[1].hex, on_land)
    steps = moves_left(state)
    builds = state.last_turn - state.turn + (state.phase in BEFORE_BUILD)
    arriving = _arrivals(b, state, steps)
    out = []
    for s, p in enumerate(state.pl):
        if p.eliminated:
            out.append(_score_now(b, p, sections[s]))
            continue
        gains = []
        if steps:
            cubes = worth = 0.0
            for nodes, links, land in parts[s].networks():
                found = _deliverable(b, state, nodes, land, arriving)
                cubes += found
                worth += found * min(p.engine, 1 + 0.5 * (links - 1))
            per_cube = worth / cubes if cubes else 0.0
            now = min(2.0 * steps, TAKEN * cubes) / steps * per_cube
            growth = GROWTH.get(state.map_id, 0.5)
            gains = [now + growth * t for t in range(steps)]
        laid = sections[s] + NEW_SECTIONS * builds
        score = final_score(b, state, s, gains=gains, sections=round(laid))[0]
        if builds and b.rules.scoring != "buyback":
            score += CASH * p.money
        out.append(score)
    return out


class _Parts:
    """A seat's completed links grouped into connected networks (union-find on their
    ends): a cube travels within one network only."""

    def __init__(self) -> None:
        self.up: dict[int, int] = {}
        self.links: dict[int, int] = {}
        self.land: dict[int, list[int]] = {}

    def _root(self, x: int) -> int:
        up = self.up
        while up.setdefault(x, x) != x:
            up[x] = up[up[x]]
            x = up[x]
        return x

    def join(self, x: int, y: int, land: list[int]) -> None:
        rx, ry = self._root(x), self._root(y)
        links = self.links.pop(rx, 0) + (self.links.pop(ry, 0) if ry != rx else 0) + 1
        cubes = self.land.pop(rx, []) + (self.land.pop(ry, []) if ry != rx else []) + land
        self.up[rx] = ry
        self.links[ry] = links
        self.land[ry] = cubes

    def networks(self) -> list[tuple[set[int], int, list[int]]]:
        """(nodes, links, land hexes with cubes) per network."""
        nodes: dict[int, set[int]] = {}
        for x in self.up:
            nodes.setdefault(self._root(x), set()).add(x)
        return [(ns, self.links[r], self.land[r]) for r, ns in nodes.items()]


def _deliverable(
    b: Board, state: State, nodes: set[int], land: list[int], arriving: dict[int, list[str]]
) -> float:
    """Cubes at the ends of one network of the seat's links (waiting, and expected from the
    display) that another end of it takes, and (St. Lucia) cubes on its track that one
    takes."""
    takes: dict[str, int] = {}
    colour_at = {}
    for h in nodes:
        c = city_colour(b, state, h)
        colour_at[h] = c
        if c is not None:
            takes[c] = takes.get(c, 0) + 1
    count = 0.0
    for h in nodes:
        own = colour_at[h]
        for c in state.goods.get(h, ()):
            count += takes.get(c, 0) - (c == own) > 0
        for c in arriving.get(h, ()):
            count += 0.5 * (takes.get(c, 0) - (c == own) > 0)
    for h in land:
        count += sum(takes.get(c, 0) > 0 for c in state.goods[h])
    return count


def _arrivals(b: Board, state: State, steps: int) -> dict[int, list[str]]:
    """City hex -> the cubes growth is expected to bring it while they can still move."""
    rules = b.rules
    dice = state.players if rules.growth_dice == "players" else int(rules.growth_dice)
    turns = steps - (state.phase in BEFORE_MOVE)
    if not dice or turns <= 0:
        return {}
    expected = int(dice / 6 * turns + 0.5)
    placed = {letter: h for h, letter in state.new_cities.items()}
    out: dict[int, list[str]] = {}
    for i, col in enumerate(b.spec.display):
        cubes = state.display[i]
        if not cubes or not expected:
            continue
        if col.new_city is None:
            dest = next((b.hex_of(c.col, c.row) for c in b.spec.cities
                         if c.dice == col.dice and c.die == col.die), -1)  # fmt: skip
        else:
            dest = placed.get(col.new_city, -1)
        if dest >= 0:
            out.setdefault(dest, []).extend(cubes[-expected:])
    return out


def _score_now(b: Board, p: PlayerState, sections: int) -> float:
    if b.rules.scoring == "buyback":
        return float(p.money - SHARE_VALUE * p.shares)
    return float(3 * p.income - 3 * p.shares + sections)
