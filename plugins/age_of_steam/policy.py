"""How the bots play Age of Steam on a full state: every choice is weighed by the final
score the seat can expect after it (:mod:`economy` plays its money to the end of the game,
:mod:`deliveries` says what its network earns, :mod:`projects` what it could build).

* Shares: as many as this turn's plan needs, the plan being the track project (or none)
  whose expected final score is best once the shares it takes are paid for.
* Auction and St. Lucia's first place: worth what the best action is worth over the one
  left to the last player, paid only while that costs less in expected score.
* Actions: the one that adds most to the expected score: Locomotive for longer deliveries,
  Engineer for a fourth tile, Urbanization for a New City the seat can deliver to; the
  others are small fixed gains.
* Build: the next tile of the best project: a chain of tiles from a city, a town of its
  own or its unfinished track to a city or a town, worth the deliveries it opens (own links
  only pay) and its track sections, less its cost; a New City first when that pays more.
* Move goods: the delivery paying the seat most, or raising the engine when the longer
  deliveries it opens are worth more than this round's delivery and the $1 a turn.
* Production: each drawn cube where its city can deliver it over the seat's links.

:func:`sensible_move` is the "greedy" bot (through :mod:`bot`, from a seat's view); search
playouts use the cheaper :mod:`playout_policy`.
"""

from __future__ import annotations

import copy
from random import Random
from typing import Any, Final

from plugins.age_of_steam import events as ev
from plugins.age_of_steam import flow
from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.data import Board, board
from plugins.age_of_steam.deliveries import (
    Graph,
    Item,
    arrivals,
    best,
    cube_groups,
    graph,
    items,
    schedule,
    with_links,
    worths,
)
from plugins.age_of_steam.economy import final_score, moves_left
from plugins.age_of_steam.goods import income_by_owner, walk_good
from plugins.age_of_steam.projects import Project, laid_sections, next_build, projects
from plugins.age_of_steam.rules import MAX_ENGINE
from plugins.age_of_steam.state import State
from plugins.age_of_steam.track import Refusal, network

MARGIN: Final = 0.5
"""Expected points a choice must add over doing nothing to be worth its risk."""
SMALL_ACTIONS: Final = {"first_build": 0.6, "first_move": 0.4, "turn_order": 0.2,
                        "production": 0.3}  # fmt: skip
"""Fixed worth of the actions whose gain the bots do not work out (in points)."""
URBANIZE_TRIED: Final = 4
"""New City placements weighed in full per decision (the most promising first)."""
LOOKAHEAD_BUILDS: Final = 2
"""Tiles beyond this turn's a project may need (finished the next turn)."""


class Outlook:
    """One seat's prospects now: its delivery graph, what each waiting cube is worth to it
    and the final score it can expect from deliveries alone (``base``)."""

    def __init__(self, b: Board, state: State, seat: int) -> None:
        self.b, self.state, self.seat = b, state, seat
        self.engine_up = 0
        self.engine = state.pl[seat].engine
        self.g = graph(b, state)
        self.groups = cube_groups(b, state)
        self.future = arrivals(b, state)
        self.keys = {*self.groups, *self.future}
        self.rivals: set[tuple[int, str]] = set()
        for s in state.active():
            if s != seat:
                theirs = worths(self.g, self.keys, state.pl[s].engine, s, enough=1)
                self.rivals.update(k for k, v in theirs.items() if v > 0)
        self.steps = moves_left(state)
        self.slots = _slots_now(state, seat)
        self.sections = laid_sections(network(b, state), seat)
        self._projects: dict[tuple[Any, ...], list[Project]] = {}
        self._value()

    def _value(self) -> None:
        self.worth = worths(self.g, self.keys, self.engine, self.seat)
        self.base_gains = schedule(self.items(self.worth), self.steps, self.slots)
        self.base = self.score(self.worth)
        """Expected (final score, shares to issue now) if the seat builds nothing more."""
        self._changed: dict[tuple[Any, ...], dict[tuple[int, str], int]] = {}

    def raised(self) -> Outlook:
        """The same prospects with an engine one link longer (raised now)."""
        up = copy.copy(self)
        up.engine_up = self.engine_up + 1
        up.engine = min(MAX_ENGINE, self.engine + 1)
        up._value()
        return up

    def items(self, worth: dict[tuple[int, str], int]) -> list[Item]:
        return items(worth, self.groups, self.future, self.rivals)

    def score(
        self, worth: dict[tuple[int, str], int], spend: int = 0, spend_next: int = 0,
        sections: int = 0, later: set[tuple[int, str]] | None = None,
    ) -> tuple[float, int]:  # fmt: skip
        """(expected final score, shares to issue this turn) with these cube worths (the
        seat's own, ``self.worth``, need no new schedule)."""
        if worth is self.worth and not later:
            gains = self.base_gains
        else:
            its = self.items(worth)
            if later:
                its = [i._replace(start=max(i.start, 1)) if i.key in later else i for i in its]
            gains = schedule(its, self.steps, self.slots)
        return final_score(self.b, self.state, self.seat, spend, spend_next, self.engine_up,
                           gains, self.sections + sections)  # fmt: skip

    def changed(self, project: Project) -> dict[tuple[int, str], int]:
        """The cube worths the project's links change (the same links, built from either
        end, change the same ones)."""
        key = (frozenset(frozenset(link) for link in project.links), tuple(sorted(project.land)))
        found = self._changed.get(key)
        if found is None:
            g2 = with_links(self.g, project.links, self.seat, project.land)
            touched = _touched(g2, self.keys, project, self.engine)
            found = {k: v for k, v in worths(g2, touched, self.engine, self.seat).items()
                     if v != self.worth[k]}  # fmt: skip
            self._changed[key] = found
        return found

    def appraise(self, project: Project, builds_now: int, extra: int = 0) -> tuple[float, int]:
        """(expected final score, shares to issue now) if the seat builds ``project`` and
        spends ``extra`` more this turn."""
        changed = self.changed(project)
        worth = self.worth
        later = None
        if changed:
            worth = {**self.worth, **changed}
            if len(project.steps) > builds_now:
                later = set(changed)
        now = sum(project.costs[:builds_now]) + extra
        return self.score(worth, now, project.cost - now, project.sections, later)

    def projects(
        self, max_builds: int, cities: tuple[int, ...] | None = None, towns: bool = True
    ) -> list[Project]:
        key = (max_builds, cities, towns)
        found = self._projects.get(key)
        if found is None:
            found = self._projects[key] = projects(self.b, self.state, self.seat, max_builds,
                                                   cities, towns)  # fmt: skip
        return found


def _slots_now(state: State, seat: int) -> int:
    """Deliveries the seat may still make in the next Move Goods step."""
    if state.phase != "move":
        return 2
    return (state.move_round == 0) + (seat in state.queue)


def _touched(
    g: Graph, keys: set[tuple[int, str]], project: Project, engine: int
) -> set[tuple[int, str]]:
    """Cube groups whose worth the project may change: those within reach of its links,
    of a colour some city within reach of them takes (a delivery over a new link starts
    and ends at most ``engine - 1`` links away from it)."""
    reach = {x for link in project.links for x in link}
    frontier = list(reach)
    for _ in range(engine - 1):
        nxt = []
        for x in frontier:
            for y, _o in g.adj.get(x, ()):
                if y not in reach:
                    reach.add(y)
                    nxt.append(y)
        frontier = nxt
    colours = {c for x in reach if (c := g.colour.get(x)) is not None}
    out = set()
    for k in keys:
        h, c = k
        if c not in colours:
            continue
        if h in reach:
            out.add(k)
        else:
            ends = g.land.get(h)
            if ends is not None and any(e in reach for e, _o in ends):
                out.add(k)
    return out


def best_project(
    o: Outlook, builds_now: int, lookahead: int = LOOKAHEAD_BUILDS,
    cities: tuple[int, ...] | None = None, towns: bool = True,
) -> tuple[float, int, list[Project]]:  # fmt: skip
    """(best expected score, its shares, projects best first that beat building nothing).
    Projects may need ``lookahead`` tiles more than the ``builds_now`` of this turn."""
    state = o.state
    extra = lookahead if state.turn < state.last_turn else 0
    scored = []
    for p in o.projects(builds_now + extra, cities, towns):
        score, k = o.appraise(p, builds_now)
        if score > o.base[0] + MARGIN:
            scored.append((score, k, p))
    scored.sort(key=lambda x: -x[0])
    if not scored:
        return o.base[0], o.base[1], []
    return scored[0][0], scored[0][1], [p for _s, _k, p in scored]


# --- the decisions -------------------------------------------------------------------------


def sensible_move(state: State, seat: int, legal: list[Any], rng: Random) -> Any:
    """One of ``legal`` (the seat's legal moves now). The state is read in canonical form
    (:func:`lookahead.canonical`), so the choice is the same from a view's determinization
    as from the true state."""
    from plugins.age_of_steam.lookahead import canonical

    if len(legal) == 1:
        return legal[0]
    state = canonical(state)
    b = board(state.map_id)
    first = legal[0]
    if isinstance(first, mv.IssueShares):
        return _shares(b, state, seat, legal)
    if isinstance(first, mv.BuyFirst | mv.DeclineFirst):
        return _first_place(b, state, seat, legal)
    if state.phase == "auction":
        return _auction(b, state, seat, legal)
    if isinstance(first, mv.SelectAction):
        return _action(b, state, seat, legal)
    if state.phase == "build":
        return _build(b, state, seat, legal)
    if state.phase == "move":
        return _move(b, state, seat, legal)
    if isinstance(first, mv.PlaceCube):
        return _place(b, state, seat, legal)
    return legal[rng.randrange(len(legal))]


def _shares(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    """The shares this turn's best plan needs: track, or a New City and track from it when
    the seat is sure to get Urbanization (it picks its action first: St. Lucia's order is
    settled before the share step, Barbados has one player)."""
    o = Outlook(b, state, seat)
    score, k, _plans = best_project(o, 3)
    first = b.rules.turn_order != "auction" and state.order[0] == seat
    if first and "urbanization" in _open_actions(b, state):
        _urban, k_urban, move = _best_urbanization(o, 3, score)
        if move is not None:
            k = k_urban
    return legal[min(k, len(legal) - 1)]


def _spend_cost(o: Outlook, amount: int) -> float:
    """Expected points spending ``amount`` now costs, with this turn's best track built."""
    score, _k, plans = best_project(o, 3)
    if not plans:
        return score - o.score(o.worth, spend=amount)[0]
    return score - o.appraise(plans[0], 3, extra=amount)[0]


def _first_place(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    o = Outlook(b, state, seat)
    values = sorted(_action_values(o, _open_actions(b, state), cheap=True).values(), reverse=True)
    edge = values[0] - values[1] if len(values) > 1 else 0.0
    fee = 5
    if mv.BuyFirst() in legal and edge > _spend_cost(o, fee) + MARGIN:
        return mv.BuyFirst()
    return mv.DeclineFirst()


def _auction(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    a = state.auction
    assert a is not None
    bid = max(1, a.high + 1)
    if mv.Bid(bid) in legal:
        o = Outlook(b, state, seat)
        values = sorted(_action_values(o, _open_actions(b, state), cheap=True).values(),
                        reverse=True)  # fmt: skip
        last = values[min(len(a.seats), len(values)) - 1] if values else 0.0
        edge = (values[0] - last) / 2 if values else 0.0
        if edge > _spend_cost(o, bid) + MARGIN:
            return mv.Bid(bid)
    if mv.TurnOrderPass() in legal:
        return mv.TurnOrderPass()
    return mv.DropOut()


def _open_actions(b: Board, state: State) -> list[str]:
    from plugins.age_of_steam.game import AgeOfSteam

    return AgeOfSteam()._actions_open(b, state)


def _action(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    o = Outlook(b, state, seat)
    values = _action_values(o, [m.action for m in legal])
    name = max(values, key=lambda a: values[a])
    return mv.SelectAction(name)  # type: ignore[arg-type]


def _action_values(o: Outlook, names: list[str], cheap: bool = False) -> dict[str, float]:
    """Expected points each action adds to taking none (``cheap``: Urbanization at a fixed
    guess, for the auction)."""
    builds = 3
    base = best_project(o, builds)[0]
    out = {}
    for name in names:
        if name == "locomotive":
            out[name] = -1.0
            # without a completed link of its own an engine carries nothing yet
            if o.engine < MAX_ENGINE and o.sections:
                up = o.raised()
                out[name] = max(up.base[0], best_project(up, builds)[0]) - base
        elif name == "engineer":
            out[name] = best_project(o, builds + 1, LOOKAHEAD_BUILDS - 1)[0] - base
        elif name == "urbanization":
            out[name] = 0.5 if cheap else _best_urbanization(o, builds, base)[0] - base
        else:
            out[name] = SMALL_ACTIONS.get(name, 0.0)
    return out


def _best_urbanization(o: Outlook, builds: int, base: float) -> tuple[float, int, Any]:
    """(best expected score, its shares, the Urbanize move) over the most promising New
    City placements, each with the best track from the New City; (base, 0, None) when
    none beats ``base``."""
    from plugins.age_of_steam.lookahead import clone

    b, state = o.b, o.state
    found: tuple[float, int, Any] = (base, 0, None)
    for _proxy, h, letter in _urbanize_candidates(b, state, o.seat)[:URBANIZE_TRIED]:
        col, row = b.coords[h]
        after = clone(state)
        flow.apply(b, after, ev.Urbanized(o.seat, col, row, letter))
        after.urbanize_open = False
        o2 = Outlook(b, after, o.seat)
        score, k, _plans = best_project(o2, builds, lookahead=0, cities=(h,), towns=False)
        if score > found[0] + MARGIN:
            found = (score, k, mv.Urbanize(col, row, letter))
    return found


def _urbanize_candidates(b: Board, state: State, seat: int) -> list[tuple[float, int, str]]:
    """(rough worth, town, letter) per placement, best first: cubes of the New City's
    colour nearby (the seat's own track next to the town counts double)."""
    used = set(state.new_cities.values())
    letters = {}
    for nc in b.spec.new_cities:
        if nc.letter not in used and nc.color not in letters:
            letters[nc.color] = nc.letter
    if not letters:
        return []
    out = []
    cubes = [(h, c) for h, cs in state.goods.items() for c in cs]
    own = {h for h, ht in state.track.items() if any(s[2] == seat for s in ht.sections)}
    for t in range(len(b.coords)):
        if b.town_at[t] < 0 or t in state.new_cities:
            continue
        near = sum(1 for n in b.nbr[t] if n in own) + (1 if t in own else 0)
        for colour, letter in letters.items():
            score = sum(1.0 / (1 + _hexdist(b, t, h)) for h, c in cubes
                        if c == colour and _hexdist(b, t, h) <= 4)  # fmt: skip
            display = _display_for(b, state, letter)
            out.append((score * (1 + near) + 0.3 * display, t, letter))
    out.sort(key=lambda x: -x[0])
    return out


def _display_for(b: Board, state: State, letter: str) -> int:
    for i, col in enumerate(b.spec.display):
        if col.new_city == letter:
            return len(state.display[i])
    return 0


def _build(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    o = Outlook(b, state, seat)
    builds = state.builds_left
    score, _k, plans = best_project(o, builds)
    if any(isinstance(m, mv.Urbanize) for m in legal):
        move = _best_urbanization(o, builds, max(score, o.base[0]))[2]
        if move is not None and move in legal:
            return move
    for p in plans:
        m = next_build(b, state, seat, p, legal)
        if m is not None:
            return m
    return mv.DoneBuilding()


def _move(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    o = Outlook(b, state, seat)
    bonus = int(state.options.get("st_lucia_first_section_income", 1)) - 1
    its = o.items(o.worth)
    rest_slots = o.slots - 1
    options: list[tuple[float, Any]] = []
    best_gain = -1
    best_move = None
    for m in legal:
        if not isinstance(m, mv.MoveGood):
            continue
        h = b.hex_of(m.col, m.row)
        d = walk_good(b, state, seat, h, m.color, list(m.steps))
        if isinstance(d, Refusal):
            continue
        gains = income_by_owner(d.owners, bonus if d.first_partial else 0)
        own = gains.get(seat, 0)
        key = (own, -sum(v for s, v in gains.items() if s != seat))
        if best_move is None or key > best_gain:  # type: ignore[operator]
            best_gain, best_move = key, (m, own, (h, m.color))
    if best_move is not None and best_move[1] > 0:
        m, own, key = best_move
        rest = list(its)
        for i, it in enumerate(rest):
            if it.key == key and it.start == 0:
                del rest[i]
                break
        gains = schedule(rest, o.steps, rest_slots)
        gains = [own + (gains[0] if gains else 0.0), *gains[1:]]
        options.append((_final(o, gains, banked=own), m))
    options.append((_final(o, schedule(its, o.steps, rest_slots)), mv.PassMove()))
    if mv.RaiseEngine() in legal:
        up = o.raised()
        gains = schedule(up.items(up.worth), up.steps, rest_slots)
        options.append((_final(up, gains) - MARGIN, mv.RaiseEngine()))
    return max(options, key=lambda x: x[0])[1]


def _final(o: Outlook, gains: list[float], banked: float = 0.0) -> float:
    return final_score(o.b, o.state, o.seat, 0, 0, o.engine_up, gains, o.sections, banked)[0]


def _place(b: Board, state: State, seat: int, legal: list[Any]) -> Any:
    """The drawn cube onto the column whose city can deliver it furthest over own links."""
    colour = state.production[0]
    g = graph(b, state)
    engine = state.pl[seat].engine
    placed = {letter: h for h, letter in state.new_cities.items()}
    top, choice = -2, legal[0]
    for m in legal:
        i = b.display_ids.index(m.column)
        col = b.spec.display[i]
        dest = placed.get(col.new_city, -1) if col.new_city else _printed_city(b, col.dice, col.die)
        v = best(g, dest, colour, engine, seat) if dest >= 0 else -1
        if v > top:
            top, choice = v, m
    return choice


def _printed_city(b: Board, dice: str, die: int) -> int:
    for c in b.spec.cities:
        if c.dice == dice and c.die == die:
            return b.hex_of(c.col, c.row)
    return -1


def _hexdist(b: Board, h1: int, h2: int) -> int:
    """Hex steps between two hexes, ignoring terrain (odd-q offsets as cube coordinates)."""
    (c1, r1), (c2, r2) = b.coords[h1], b.coords[h2]
    z1, z2 = r1 - (c1 - (c1 & 1)) // 2, r2 - (c2 - (c2 & 1)) // 2
    return max(abs(c1 - c2), abs(z1 - z2), abs((-c1 - z1) - (-c2 - z2)))
