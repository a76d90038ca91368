"""The "greedy" bot of the Brass games (the ``bot_policy`` hook of :mod:`core.game`).

It weighs every legal move from the seat's view and the game's printed facts
(:class:`~plugins.brass.knowledge.Knowledge`) in one currency, VP, and plays the best; ties
are broken by the ``rng``. Money and income convert to VP as :mod:`plugins.brass.worth`
says, so the weights follow the game's clock: income is worth most early, money little in
the last rounds.

* A **build** is worth its tile's flip (VP at every era end it will see, income, link icons
  under the seat's links) times the chance it flips, less its cost. Mines, works and
  breweries flip as their cubes go (at once when a market takes them all); goods flip
  when sold, likelier the closer a merchant buying them is and when beer or oil is at hand.
* A **sale** is worth the flip itself; a **link** the VP it will score plus what it
  connects: the seat's unsold goods brought closer to a merchant that buys them.
* **Develop** pays when it clears a tile the seat cannot or should not build; a **loan**
  only when the seat is short of money for a build it wants and the income it costs is
  worth less than that build (below the era's income floor only when the seat can do
  nothing else: passing out the game scores less); **pass** and Birmingham's **scout**
  are last resorts.
* Follow-ups: the cheapest source (one's own tiles first: emptying them flips them; never
  flipping an opponent's if another source will do), the least useful card to discard,
  every further sale, a second link or development only when it pays.

Moves are read by their ``type`` tag and field names, which the two games share; the few
view fields that differ are read by :attr:`Knowledge.game`. The module imports neither
game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container
from random import Random
from typing import Any, Final, NamedTuple

from plugins.brass.knowledge import NO_REWARD, Knowledge, Reward, TileFacts
from plugins.brass.worth import outlook, rounds_left

WHISKEY_VP: Final = 2.0
"""A whiskey: a wild card for one build, or a star towards a Quality Reward."""
FREE_DEVELOP_VP: Final = 1.5
BONUS_SELL_VP: Final = 3.0
SALE_CHANCE: Final = (0.9, 0.8, 0.65, 0.5, 0.35)
"""Chance an unsold good is sold by the era's end, by the links still missing between it
and a merchant that buys it (each of which also costs the seat an action, see
:meth:`_Context.link_effort`)."""
NO_BARRELS: Final = 0.5
"""Factor on that chance while no beer (oil) for its sale is at hand."""
LINKS_TO_COME: Final = 0.6
"""The seat's links still expected next to one of its tiles this era."""
PASS_VP: Final = -2.0
"""Passing gives up the action: below any move that does some good."""
NEW_PLACE_VP: Final = 0.4
"""A location added to the seat's network (more places its industry cards reach)."""
TEMPO_VP: Final = 1.5
FUTURE_ICONS: Final = 0.4
"""Link icons an empty build space is expected to show by the era's end, early on."""
DEAD_STACK: Final = 1.5
"""A develop past a tile that can no longer be built opens every tile above it."""
"""What an action spent on a develop or a loan could have done instead."""
DEMAND: Final = 0.06
"""Cubes a seat's builds use up per round, roughly: how fast a tile's leftovers go."""
SCARCE_MONEY: Final = 20
"""Below this much money (less two per income level) a seat cannot fund its next actions:
each unit counts double."""
SCARCE_ROUNDS: Final = 8
"""With fewer rounds left in the game a low purse binds proportionally less."""
SHORTFALL_VP: Final = 3.0
"""VP lost per unit of money a seat on negative income lacks at the round's end (tiles
sold for half their cost, then VP)."""
INF: Final = 99
STUCK_MOVES: Final = frozenset({"pass", "loan", "scout"})
"""A seat offered only these has no money for any other action."""
RESOURCE_OF: Final = {"coal": "coal", "iron": "iron", "brewery": "beer"}
"""Birmingham's view names a tile's industry; its cubes are these."""


def choose(view: dict[str, Any], legal: list[Any], rng: Random, knowledge: Knowledge) -> Any:
    """The best-weighed move of ``legal`` for ``view["seat"]``; reads, never changes, its
    arguments."""
    if not legal:
        raise ValueError("the bot was asked to move with no legal move")
    seat = view.get("seat")
    if seat is None:
        raise ValueError("a spectator's view cannot drive a bot")
    ctx = _Context(view, seat, knowledge)
    ctx.stuck = all(m.__struct_config__.tag in STUCK_MOVES for m in legal)
    best: list[Any] = []
    top = float("-inf")
    for move in legal:
        score = ctx.score(move)
        if score > top + 1e-9:
            top, best = score, [move]
        elif score > top - 1e-9:
            best.append(move)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _reward(effects: Any) -> Reward:
    """A view's reward (Birmingham's merchant bonus, Pittsburgh's effect list) as a
    :class:`Reward`."""
    if not effects:
        return NO_REWARD
    if isinstance(effects, dict):  # Birmingham: {"kind": ..., "amount": ...}
        effects = [{"type": effects["kind"], "amount": effects["amount"]}]
    out: dict[str, int] = {}
    for e in effects:
        kind, amount = e["type"], e.get("amount", e.get("count", 1))
        field = {
            "money": "money", "income": "income", "income_spaces": "income", "vp": "vp",
            "whiskey": "whiskey", "develop": "free_develops", "free_develop": "free_develops",
            "bonus_sell": "bonus_sells",
        }.get(kind)  # fmt: skip
        if kind == "money_times_income_level":
            out["money_per_income_level"] = e.get("multiplier", 1)
        elif field:
            out[field] = out.get(field, 0) + amount
    return Reward(**out)


_TABLES: dict[int, tuple[Knowledge, dict[Any, dict[Any, Any]]]] = {}
"""Per game's knowledge (by id, kept alive by the entry), per board key, its tables."""
TABLES_KEPT: Final = 512
"""Boards whose tables are kept per knowledge, the oldest dropped first: a think meets a
few hundred, and the tables of one take some tens of kilobytes."""


def _tables(k: Knowledge, board: Any) -> dict[Any, Any]:
    """The memo of board ``board`` (era and what is built) under knowledge ``k``: the
    tables a board's views all share, filled as the weights ask for them."""
    entry = _TABLES.get(id(k))
    if entry is None or entry[0] is not k:
        if len(_TABLES) >= 16:  # knowledge built afresh per call (custom rules)
            _TABLES.clear()
        entry = _TABLES[id(k)] = (k, {})
    boards = entry[1]
    found = boards.get(board)
    if found is None:
        if len(boards) >= TABLES_KEPT:
            del boards[next(iter(boards))]
        found = boards[board] = {}
    return found


class _Lazy:
    """:func:`functools.cached_property` without its lock (Python 3.11 takes one on every
    first read, a noticeable share of a playout decision): a context serves one thread."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


def card_use(
    k: Knowledge,
    era: int,
    card: str,
    copies: int,
    next_tiles: list[str],
    occupied: Container[str],
    near_merchant: Callable[[str], bool],
) -> float:
    """How likely ``card`` (``copies`` of it in hand) is to build something good: an
    industry card for a tile the seat can build this era, a location card with a free
    space for one (more so near a merchant); a second copy is worth less."""
    if card.startswith("wild:"):
        return 30.0
    kind, _, name = card.partition(":")
    dup = 1.5 * max(0, copies - 1)
    if kind == "industry":
        builds = k.card_builds.get(card) or tuple(name.split("/"))
        usable = any(k.tiles[key].industry in builds and k.tiles[key].eras[era]
                     for key in next_tiles)  # fmt: skip
        return (4.0 if usable else 0.5) - dup
    industries = {k.tiles[key].industry for key in next_tiles if k.tiles[key].eras[era]}
    free = [icons for i, icons in enumerate(k.slots.get(name, ())) if f"{name}:{i}" not in occupied]
    if not any(set(icons) & industries for icons in free):
        return 0.5 - dup
    return 3.0 + (2.0 if near_merchant(name) else 0.0) - dup


class _Context:
    """The facts of one view the weights read, computed once per decision."""

    def __init__(self, view: dict[str, Any], seat: int, k: Knowledge) -> None:
        self.view, self.seat, self.k = view, seat, k
        self.pittsburgh = k.game == "pittsburgh"
        players = view["players"]
        self.n = len(players)
        me = players[seat]
        self.me = me
        era = view["era"]
        self.era = era - 1 if isinstance(era, int) else (0 if era == "canal" else 1)
        cards = view["deck_count"] + sum(p["hand_count"] for p in players)
        rounds_era = max(1, rounds_left(cards, self.n))
        self.rounds_era = rounds_era
        self.actions_era = max(1, -(-cards // self.n))
        after = k.rounds_per_era.get(self.n, 8) if self.era == 0 else 0
        self.money: int = me["money"]
        self.space: int = me["income_space"]
        self.level: int = me["income_level"]
        self.out = outlook(rounds_era, after, self.money, self.level)
        self.mv, self.iv = self.out.money_vp, self.out.income_vp
        self.whiskey: int = me.get("whiskey", 0)
        # income refills the purse, and near the end nothing is left to save for: the
        # more of either, the less a low purse binds
        left = min(1.0, (rounds_era + after) / SCARCE_ROUNDS)
        self.scarce = max(0.0, SCARCE_MONEY - 2.0 * max(0, self.level)) * left
        self.hand = Counter(view.get("hand") or [])

        self.tiles: list[dict[str, Any]] = view.get("tiles") or []
        self.by_space = {t["space"]: t for t in self.tiles}
        built = view.get("lines") if self.pittsburgh else view.get("links")
        self.built: list[dict[str, Any]] = built or []
        self.pipes: list[dict[str, Any]] = view.get("pipelines") or []
        self.built_names = {b.get("line") or b.get("link") for b in self.built}
        self.built_names |= {p["route"] for p in self.pipes}
        # the board's tables (components, distances) depend only on what is built: shared
        # by every view of the same board, as a search's playouts meet it again and again
        self._tables = _tables(k, (self.era, frozenset(self.built_names)))
        self._cube_cost: dict[tuple[str, int, str | None], float] = {}
        self._wants: dict[str, bool] = {}
        self._dist_to_buyer: dict[str, dict[str, int]] = {}
        # per decision, a move's weights ask the same few questions over and over
        self._flips: dict[tuple[int, str | None], float] = {}
        self._barrels: dict[str, int] = {}
        self._sale_chances: dict[tuple[int, str, int], float] = {}
        self._generic: dict[int, float] = {}
        self._card_uses: dict[str, float] = {}
        self._end_vp: dict[str, float] = {}
        self._build_values: dict[tuple[int, str | None], float] = {}
        self._line_values: dict[str, float] = {}
        self._ladders: dict[tuple[str, str | None], list[dict[str, Any]]] = {}
        self._plan: tuple[float, float] | None = None
        self.stuck = False

    # --- facts, each computed when a weight first asks ---------------------------------

    @_Lazy
    def _comp_of(self) -> dict[str, str]:
        """Each location on a built link, by its component's representative (connected =
        one component of anyone's built links; pipelines join nothing)."""
        found = self._tables.get("comp")
        if found is None:
            parent: dict[str, str] = {}

            def find(x: str) -> str:
                while parent.get(x, x) != x:
                    x = parent[x]
                return x

            for b in self.built:
                ends = b["ends"]
                root = find(ends[0])
                for other in ends[1:]:
                    r = find(other)
                    if r != root:
                        parent[r] = root
            found = self._tables["comp"] = {x: find(x) for b in self.built for x in b["ends"]}
        return found  # type: ignore[no-any-return]

    @_Lazy
    def merchants(self) -> list[dict[str, Any]]:
        return [self._merchant(m) for m in self.view.get("merchants") or []]

    @_Lazy
    def merchant_comps(self) -> set[str]:
        return {self.comp(m["location"]) for m in self.merchants}

    @_Lazy
    def my_tiles(self) -> list[dict[str, Any]]:
        return [t for t in self.tiles if t["owner"] == self.seat]

    @_Lazy
    def network(self) -> set[str]:
        seat = self.seat
        network = {t["location"] for t in self.my_tiles}
        for b in self.built:
            if b["owner"] == seat:
                network.update(b["ends"])
        return network | {p["city"] for p in self.pipes if p["owner"] == seat}

    @_Lazy
    def my_links_at(self) -> Counter[str]:
        at: Counter[str] = Counter()
        for b in self.built:
            if b["owner"] == self.seat:
                for end in b["ends"]:
                    at[end] += 1
        return at

    @_Lazy
    def free_cubes(self) -> dict[str, dict[str, int]]:
        """Cubes waiting on tiles, by resource and component: free to whoever reaches them."""
        free: dict[str, dict[str, int]] = {}
        for t in self.tiles:
            if t["resources"]:
                res = t.get("resource") or RESOURCE_OF.get(t["industry"], "")
                at = free.setdefault(res, {})
                c = self.comp(t["location"])
                at[c] = at.get(c, 0) + t["resources"]
        return free

    def _merchant(self, m: dict[str, Any]) -> dict[str, Any]:
        if self.pittsburgh:
            buys = set(m["accepts"]) if m["face_up"] else set()
            return {
                "merchant": m["merchant"],
                "location": m["location"],
                "buys": buys,
                "beer": False,
                "bonus": _reward(m["reward"]) if m["face_up"] else NO_REWARD,
            }
        return {"merchant": m["merchant"], "location": m["location"], "buys": set(m["buys"]),
                "beer": m["beer"], "bonus": _reward(m["bonus"])}  # fmt: skip

    def comp(self, loc: str) -> str:
        return self._comp_of.get(loc, loc)

    def tile_facts(self, t: dict[str, Any]) -> TileFacts:
        key = t["tile"] if self.pittsburgh else f"{t['industry']}:{t['level']}"
        return self.k.tiles[key]

    def build_facts(self, move: Any) -> TileFacts | None:
        if self.pittsburgh:
            return self.k.tiles.get(move.tile)
        level = (self.me.get("next_tiles") or {}).get(move.industry)
        return self.k.tiles.get(f"{move.industry}:{level}") if level else None

    def worth(self, r: Reward) -> float:
        """VP the seat gets from reward ``r`` now."""
        if r is NO_REWARD:
            return 0.0
        v = r.vp + self.receive(r.money + r.money_per_income_level * max(0, self.level))
        if r.income:
            v += self.k.income_gain(self.space, r.income) * self.iv
        if r.whiskey:
            v += WHISKEY_VP * min(r.whiskey, max(0, self.k.whiskey_max - self.whiskey))
        return v + FREE_DEVELOP_VP * r.free_develops + BONUS_SELL_VP * r.bonus_sells

    def scorings(self, t: TileFacts) -> int:
        """Era ends still to score a tile flipped now (a canal tile above level I stays)."""
        return 2 if self.era == 0 and not t.leaves_after_first_era else 1

    def flip_value(self, t: TileFacts, loc: str | None) -> float:
        """VP the seat gets when tile ``t`` at ``loc`` flips."""
        key = (id(t), loc)  # a tile's facts live as long as the knowledge holding them
        found = self._flips.get(key)
        if found is None:
            found = self._flips[key] = self._flip_value(t, loc)
        return found

    def _flip_value(self, t: TileFacts, loc: str | None) -> float:
        scorings = self.scorings(t)
        v = t.vp * scorings + self.k.income_gain(self.space, t.income) * self.iv
        if loc is not None and t.icons:
            links = self.my_links_at[loc] + (LINKS_TO_COME if self.rounds_era > 1 else 0.0)
            v += t.icons * (links + (scorings - 1))
        if t.vp_per_empty_mat_space:
            empty = sum(1 for n in (self.me.get("mat") or {}).values() if n == 0)
            v += t.vp_per_empty_mat_space * (empty + 2) * scorings
        if t.vp_per_heavy_train:
            heavy = sum(1 for b in self.built if b["owner"] == self.seat and b["kind"] == "heavy")
            v += t.vp_per_heavy_train * (heavy + 1)
        return v + self.worth(t.reward)

    def barrels(self, loc: str) -> int:
        """Beer (Birmingham) or oil (Pittsburgh) a sale at ``loc`` could use now."""
        c = self.comp(loc)
        found = self._barrels.get(c)
        if found is None:
            found = self._barrels[c] = self._barrels_at(c)
        return found

    def _barrels_at(self, c: str) -> int:
        if self.pittsburgh:
            fields = {
                p["oilfield"] for p in self.pipes if p["carries_oil"] and self.comp(p["city"]) == c
            }
            oil = sum(f["oil"] for f in self.view.get("oilfields") or [] if f["oilfield"] in fields)
            cargo = sum(b["cargo"] for b in self.built
                        if b["owner"] == self.seat and b.get("carries") == "oil"
                        and self.comp(b["ends"][0]) == c)  # fmt: skip
            return oil + cargo
        # the seat's own breweries serve anywhere, others' only where connected
        beer = sum(t["resources"] for t in self.tiles
                   if t["industry"] == "brewery"
                   and (t["owner"] == self.seat or self.comp(t["location"]) == c))  # fmt: skip
        return beer + sum(1 for m in self.merchants if m["beer"] and self.comp(m["location"]) == c)

    # --- distances over lines of this era (built: 0, buildable: 1) --------------------

    def _bfs(self, starts: set[str]) -> dict[str, int]:
        adj = self._adjacency()
        dist = dict.fromkeys(starts, 0)
        frontier = list(starts)
        # 0-1 BFS by layers: settle every 0-weight reach before the next layer
        d = 0
        while frontier:
            todo = list(frontier)
            layer = set(frontier)
            while todo:
                x = todo.pop()
                for y, w in adj.get(x, ()):
                    if w == 0 and y not in dist:
                        dist[y] = d
                        layer.add(y)
                        todo.append(y)
            d += 1
            nxt = []
            for x in layer:
                for y, w in adj.get(x, ()):
                    if w == 1 and y not in dist:
                        dist[y] = d
                        nxt.append(y)
            frontier = nxt
        return dist

    def _adjacency(self) -> dict[str, list[tuple[str, int]]]:
        """Locations joined by a line: 0 links missing where one is built, 1 where one may
        be built this era."""
        adj = self._tables.get("adj")
        if adj is None:
            adj = self._tables["adj"] = {}
            for name, line in self.k.lines.items():
                built = name in self.built_names
                if built or line.eras[self.era]:
                    for a in line.ends:
                        for b in line.ends:
                            if a != b:
                                adj.setdefault(a, []).append((b, 0 if built else 1))
        return adj  # type: ignore[no-any-return]

    def _distances(self, starts: frozenset[str]) -> dict[str, int]:
        """:meth:`_bfs` from ``starts``, shared by every view of this board (read only)."""
        found = self._tables.get(starts)
        if found is None:
            found = self._tables[starts] = self._bfs(set(starts))
        return found  # type: ignore[no-any-return]

    def dist_to_buyer(self, good: str, with_beer: bool = False) -> dict[str, int]:
        """Links missing from each location to a merchant buying ``good`` (``with_beer``:
        one that still has its barrel)."""
        key = good + "+beer" if with_beer else good
        found = self._dist_to_buyer.get(key)
        if found is None:
            starts = frozenset(
                m["location"]
                for m in self.merchants
                if good in m["buys"] and (m["beer"] or not with_beer)
            )
            found = self._dist_to_buyer[key] = self._distances(starts) if starts else {}
        return found

    def dist_from(self, loc: str) -> dict[str, int]:
        return self._distances(frozenset((loc,)))

    def sale_chance(self, t: TileFacts, loc: str, missing: int | None = None) -> float:
        """Chance a good at ``loc`` is sold this era (``missing``: links to a buyer)."""
        if missing is None:
            missing = self.dist_to_buyer(t.industry).get(loc, INF)
        key = (id(t), loc, missing)
        found = self._sale_chances.get(key)
        if found is None:
            found = self._sale_chances[key] = self._sale_chance(t, loc, missing)
        return found

    def _sale_chance(self, t: TileFacts, loc: str, missing: int) -> float:
        p = self._chance(missing)
        if t.sale_need and self.barrels(loc) < t.sale_need:
            # no beer at hand: a buyer with its own barrel, or a brewery still to build
            with_beer = INF
            if not self.pittsburgh:
                with_beer = self.dist_to_buyer(t.industry, True).get(loc, INF)
            p = max(self._chance(max(missing, with_beer)), p * NO_BARRELS)
        return p

    def _chance(self, missing: int) -> float:
        if missing >= INF or missing + 1 > self.actions_era:
            return 0.03
        return SALE_CHANCE[min(missing, len(SALE_CHANCE) - 1)]

    @_Lazy
    def _beer_short(self) -> list[tuple[TileFacts, str]]:
        return self._find_beer_short()

    def beer_short(self) -> list[tuple[TileFacts, str]]:
        """The seat's unsold goods that only more beer would sell (Birmingham)."""
        return self._beer_short

    def _find_beer_short(self) -> list[tuple[TileFacts, str]]:
        if self.pittsburgh:
            return []
        out = []
        for t in self.my_tiles:
            f = self.tile_facts(t)
            if f.flip != "sell" or t["flipped"] or self.barrels(t["location"]) >= f.sale_need:
                continue
            anyhow = self.dist_to_buyer(f.industry).get(t["location"], INF)
            if self.dist_to_buyer(f.industry, True).get(t["location"], INF) > anyhow:
                out.append((f, t["location"]))
        return out

    def link_money(self) -> float:
        """Money one more link costs the seat, its cubes included (roughly)."""
        if self.pittsburgh:
            return 3.0
        return self.k.link_money[self.era] + 2.0 * self.k.link_cubes[self.era]

    # --- money: scarce money buys the next actions, so it is worth more ---------------

    def utility(self, m: float) -> float:
        """VP-worth of holding ``m``: the first :attr:`scarce` count double."""
        scarce = self.scarce
        if m <= scarce:
            return 2.0 * self.mv * m
        return self.mv * (m + scarce)

    def spend(self, c: float) -> float:
        return self.utility(self.money) - self.utility(self.money - c)

    def receive(self, c: float) -> float:
        return self.utility(self.money + c) - self.utility(self.money)

    # --- markets and resources --------------------------------------------------------

    def ladders(self, resource: str, loc: str | None) -> list[dict[str, Any]]:
        """Markets trading ``resource`` that ``loc`` may use, as their ladder views."""
        key = (resource, self.comp(loc) if loc else None)
        found = self._ladders.get(key)
        if found is None:
            found = self._ladders[key] = self._ladders_at(resource, loc)
        return found

    def _ladders_at(self, resource: str, loc: str | None) -> list[dict[str, Any]]:
        markets = self.view.get("markets")
        if not self.pittsburgh:
            ladder = (markets or {}).get(resource)
            if ladder is None:
                return []
            # Birmingham's coal travels to and from the market through a merchant location
            if resource == "coal" and (loc is None or self.comp(loc) not in self.merchant_comps):
                return []
            return [ladder]
        if not loc:
            return []
        c = self.comp(loc)
        return [
            ladders[resource]
            for city, ladders in self._market_cities
            if resource in ladders and city == c
        ]

    @_Lazy
    def _market_cities(self) -> list[tuple[str, dict[str, Any]]]:
        """Pittsburgh's markets: each one's component and ladders."""
        return [(self.comp(m["city"]), m["ladders"]) for m in self.view.get("markets") or []]

    def cube_cost(self, resource: str, n: int, loc: str | None) -> float:
        """Money the seat pays for ``n`` cubes of ``resource`` delivered to ``loc``."""
        if n <= 0:
            return 0.0
        c = self.comp(loc) if loc else None
        key = (resource, n, c)
        found = self._cube_cost.get(key)
        if found is not None:
            return found
        if resource == "iron" and not self.pittsburgh:  # Birmingham's iron needs no link
            free = sum(self.free_cubes.get(resource, {}).values())
        else:
            free = self.free_cubes.get(resource, {}).get(c, 0) if c else 0
        short = n - free
        cost = 0.0
        if short > 0:
            prices = [lad["buy_price"] for lad in self.ladders(resource, loc) if lad["cubes"]]
            if prices:
                cost = short * (min(prices) + 0.5 * (short - 1))
            else:
                fallback = (self.view.get("vanderbilt") or {}).get(resource)
                if fallback is None:  # Birmingham: an empty market's price
                    lads = self.ladders(resource, loc)
                    fallback = lads[0]["buy_price"] if lads else 8
                cost = float(short * fallback)
        self._cube_cost[key] = cost
        return cost

    def market_sale(self, resource: str, cubes: int, loc: str | None) -> tuple[int, float, int]:
        """What a new tile's cubes fetch at once: (sold, money, VP)."""
        sold, money, vp = 0, 0.0, 0
        for lad in self.ladders(resource, loc):
            room = lad["capacity"] - lad["cubes"]
            take = min(room, cubes - sold)
            if take <= 0 or lad.get("sell_price") is None:
                continue
            money += sum(max(1.0, lad["sell_price"] - 0.5 * i) for i in range(take))
            vp += (lad.get("sell_vp") or 0) * take
            sold += take
        return sold, money, vp

    # --- what a tile is worth to build ------------------------------------------------

    def build_value(self, t: TileFacts, loc: str | None) -> float:
        """VP-worth of building ``t`` at ``loc`` now (its cost included)."""
        key = (id(t), loc)  # the same tile on another space there, or by another card
        found = self._build_values.get(key)
        if found is None:
            found = self._build_values[key] = self._build_value(t, loc)
        return found

    def _build_value(self, t: TileFacts, loc: str | None) -> float:
        fv = self.flip_value(t, loc)
        cost = float(t.money) + sum(self.cube_cost(r, n, loc) for r, n in t.cubes.items())
        gain = 0.0
        if t.flip == "built":
            p = 1.0
        elif t.flip == "sell":
            p = self.sale_chance(t, loc) if loc else 0.03
            missing = self.dist_to_buyer(t.industry).get(loc, INF) if loc else INF
            if missing < INF:  # each missing link costs an action and its money
                cost += min(missing, 4) * self.link_money()
                gain -= min(missing, 4) * TEMPO_VP
        else:
            cubes = t.produces[self.era]
            sold, money, vp = (0, 0.0, 0)
            if t.resource in ("coal", "iron", "steel", "coke"):
                sold, money, vp = self.market_sale(t.resource, cubes, loc)
            gain = self.receive(money) + vp
            left = cubes - sold
            if left <= 0:
                p = 1.0
            elif t.resource == "beer":
                p = 0.6 if self.beer_short() else 0.2
            else:
                # left on the tile: used up only by builds that can reach it
                p = min(0.6, DEMAND * self.rounds_era * self.n / left)
                if not self.pittsburgh and t.resource == "coal":
                    p *= 0.5  # Birmingham's coal must travel to its user
        v = p * fv + gain - self.spend(cost) - t.income_levels_cost * self.iv
        v -= self.shortfall(t.money + sum(self.cube_cost(r, n, loc) for r, n in t.cubes.items()))
        if t.resource == "beer":
            v += self._beer_help()
        return v

    def shortfall(self, spend: float) -> float:
        """VP at risk if the seat spends ``spend`` now and cannot pay negative income."""
        owed = -self.level
        if owed <= 0 or self.out.payments <= 0:
            return 0.0
        return SHORTFALL_VP * max(0.0, owed - (self.money - spend))

    @_Lazy
    def _beer_help_vp(self) -> float:
        return max((0.25 * self.flip_value(f, loc) for f, loc in self.beer_short()), default=0)

    def _beer_help(self) -> float:
        """A brewery makes the seat's beer-less goods sellable (the best of them)."""
        return self._beer_help_vp

    def generic_worth(self, t: TileFacts) -> float:
        """What building ``t`` somewhere sensible is worth this game, roughly."""
        found = self._generic.get(id(t))
        if found is None:
            found = self._generic[id(t)] = self._generic_worth(t)
        return found

    def _generic_worth(self, t: TileFacts) -> float:
        if not t.eras[self.era] and (self.era == 1 or not t.eras[1]):
            return 0.0
        if t.flip == "deplete":
            p = 0.3 if t.resource in ("coal", "beer") else 0.5
        else:
            p = 1.0 if t.flip == "built" else 0.6
        vp = t.vp * (1 if t.leaves_after_first_era or self.era else 2)
        fv = vp + self.k.income_gain(self.space, t.income) * self.iv + t.icons
        cubes = sum(t.cubes.values()) * 2.5
        return p * fv - (t.money + cubes) * self.mv

    def wants(self, industry: str) -> bool:
        """Whether a card in hand could build ``industry`` somewhere."""
        found = self._wants.get(industry)
        if found is None:
            found = self._wants[industry] = self._can_build(industry)
        return found

    def _can_build(self, industry: str) -> bool:
        for card in self.hand:
            if card.startswith("wild:"):
                return True
            kind, _, name = card.partition(":")
            if kind == "industry":
                builds = self.k.card_builds.get(card) or tuple(name.split("/"))
                if industry in builds:
                    return True
            elif any(industry in s for s in self.k.slots.get(name, ())):
                return True
        return self.whiskey > 0

    def plan(self) -> tuple[float, float]:
        """The seat's best build it holds a card for: (its money cost, its worth)."""
        if self._plan is None:
            best = (0.0, 0.0)
            home = min(self.network, default=None)
            for key in self._next_tiles():
                t = self.k.tiles[key]
                if not t.eras[self.era] or not self.wants(t.industry):
                    continue
                w = self.generic_worth(t)
                if w > best[1]:
                    cost = t.money + sum(self.cube_cost(r, n, home) for r, n in t.cubes.items())
                    best = (cost, w)
            self._plan = best
        return self._plan

    def _next_tiles(self) -> list[str]:
        return self._next_tile_keys

    @_Lazy
    def _next_tile_keys(self) -> list[str]:
        if self.pittsburgh:
            return [s for s in self.me.get("accessible") or [] if s in self.k.tiles]
        return [f"{ind}:{lvl}" for ind, lvl in (self.me.get("next_tiles") or {}).items() if lvl]

    # --- moves ------------------------------------------------------------------------

    def score(self, move: Any) -> float:
        kind: str = move.__struct_config__.tag
        method = getattr(self, "_" + kind, None)
        return method(move) if method else 0.0

    def _build(self, move: Any) -> float:
        t = self.build_facts(move)
        if t is None:
            return PASS_VP
        space = getattr(move, "space", None)
        loc = space.split(":")[0] if space else None
        v = self.build_value(t, loc)
        if loc is not None and loc not in self.network:
            v += NEW_PLACE_VP
        if getattr(move, "whiskey", False):
            v -= WHISKEY_VP
        old = self.by_space.get(space) if space else None
        if old is not None:
            f = self.tile_facts(old)
            if old["owner"] == self.seat:
                # overbuilt (Birmingham) or upgraded (Pittsburgh: it scores once as it goes)
                if old["flipped"]:
                    lost = f.vp * self.scorings(f)
                else:
                    lost = 0.5 * self.flip_value(f, old["location"])
                if t.upgrade:
                    lost -= f.vp
                v -= lost + f.icons
            else:
                v += 1.0  # an opponent's mine or works leaves the board
        return v

    def _sell(self, move: Any) -> float:
        tile = self.by_space.get(move.space)
        if tile is None:
            return 0.0
        t = self.tile_facts(tile)
        v = 5.0 + self.flip_value(t, tile["location"])
        m = next((m for m in self.merchants if m["merchant"] == move.merchant), None)
        if m is not None:
            if self.pittsburgh:
                v += self.worth(m["bonus"])
            elif m["beer"] and t.sale_need:
                v += 0.5 * self.worth(m["bonus"])
        return v

    _sell_also = _sell
    _bonus_sell = _sell

    def _network(self, move: Any) -> float:
        site = getattr(move, "site", None) or move.link
        if site in self.k.routes:
            return self._pipeline(move.link, site)
        line = self.k.lines.get(site)
        if line is None:
            return 0.0
        link_vp = self.link_vp(line.ends)
        v = self._line_values.get(site)
        if v is None:  # the same line under another link tile (Pittsburgh)
            v = link_vp + self.connect_value(line.ends) + self.worth(line.bonus)
            v += sum(NEW_PLACE_VP for end in line.ends if end not in self.network)
            self._line_values[site] = v
        tile = self.k.link_tiles.get(move.link)
        if tile is not None:  # Pittsburgh: the link tile's own cost and worth
            scorings = 2 if tile.stays and self.era == 0 else 1  # heavy trains stay
            v += link_vp * (tile.multiplier * scorings - 1)
            v += self.worth(tile.reward) + 2.0 * self.mv * sum(tile.carries.values())
            end = line.ends[0]
            v -= self.spend(sum(self.cube_cost(r, n, end) for r, n in tile.cubes.items()))
        else:
            cost = self.k.link_money[self.era]
            cost += self.cube_cost("coal", self.k.link_cubes[self.era], line.ends[0])
            v -= self.spend(cost) + self.shortfall(cost)
        return v

    def _second_link(self, move: Any) -> float:
        # it takes no card and no action: only its money beyond a first link's (and
        # Birmingham's barrel of beer) sets it apart from one
        extra = self.k.second_link_money - self.k.link_money[self.era]
        return self._network(move) - self.spend(extra) - (0.0 if self.pittsburgh else 1.0)

    def link_vp(self, ends: tuple[str, ...]) -> float:
        """VP a link on ``ends`` should score at the era's end."""
        vp = 0.0
        for end in ends:
            found = self._end_vp.get(end)
            if found is None:
                found = self._end_vp[end] = self._icons_at(end)
            vp += found
        return vp

    def _icons_at(self, end: str) -> float:
        later = FUTURE_ICONS * min(1.0, self.rounds_era / 8)
        vp = float(self.k.printed_icons.get(end, 0))
        for i in range(len(self.k.slots.get(end, ()))):
            t = self.by_space.get(f"{end}:{i}")
            if t is None:
                vp += later  # a tile may still come
            else:
                vp += self.tile_facts(t).icons * (1.0 if t["flipped"] else 0.5)
        return vp

    def connect_value(self, ends: tuple[str, ...]) -> float:
        """What joining ``ends`` adds to the chance of selling the seat's unsold goods."""
        v = 0.0
        for t, loc, to_buyer, before, from_tile in self._unsold:
            after = min(
                before,
                min(from_tile.get(e, INF) for e in ends) + min(to_buyer.get(e, INF) for e in ends),
            )
            if after < before:
                gain = self.sale_chance(t, loc, after) - self.sale_chance(t, loc, before)
                v += gain * self.flip_value(t, loc)
        return v

    @_Lazy
    def _unsold(self) -> list[tuple[TileFacts, str, dict[str, int], int, dict[str, int]]]:
        """The seat's unsold goods not yet at a buyer: facts, location, links missing from
        each location to a buyer, from the tile to a buyer, from the tile to each location."""
        out = []
        for tile in self.my_tiles:
            t = self.tile_facts(tile)
            if t.flip != "sell" or tile["flipped"]:
                continue
            loc = tile["location"]
            to_buyer = self.dist_to_buyer(t.industry)
            before = to_buyer.get(loc, INF)
            if before != 0:
                out.append((t, loc, to_buyer, before, self.dist_from(loc)))
        return out

    def _pipeline(self, link: str, route_name: str) -> float:
        route = self.k.routes[route_name]
        tile = self.k.link_tiles.get(link)
        v = 0.0
        c = self.comp(route.city)
        for t in self.my_tiles:  # oil for the seat's unsold goods that lack it
            f = self.tile_facts(t)
            loc = t["location"]
            if f.flip == "sell" and not t["flipped"] and self.comp(loc) == c:
                v += 0.3 * self.flip_value(f, loc) if self.barrels(loc) < f.sale_need else 0.0
        if tile is not None:
            v += 1.5 * self.worth(tile.per_barrel)
            v -= self.spend(sum(self.cube_cost(r, n, route.city) for r, n in tile.cubes.items()))
        field = next(
            (f for f in self.view.get("oilfields") or [] if f["oilfield"] == route.oilfield), None
        )
        if field is not None and field["face_down"] and field["in_play"]:
            v += 2.5  # the first pipeline reveals the oilfield's reward
        if route.city not in self.network:
            v += NEW_PLACE_VP
        return v

    def _develop(self, move: Any, free: bool = False) -> float:
        key, after, copies = self._develop_tiles(move)
        if key is None:
            return PASS_VP
        cur = self.k.tiles[key]
        gain = 0.0
        if after is not None:
            # each copy of the tile developed away is a share of the way to the next
            gain = (self.generic_worth(self.k.tiles[after]) - self.generic_worth(cur)) / copies
            if not self.wants(cur.industry):
                gain *= 0.5
        # a tile that can no longer be built blocks its whole stack
        dead = not cur.eras[self.era] and (self.era == 1 or not cur.eras[1])
        v = max(0.0, gain) * (DEAD_STACK if dead else 0.6) - TEMPO_VP
        if not free:
            metal = self.cube_cost("iron", 1, None)
            if self.pittsburgh:
                metal = min(metal, self.cube_cost("steel", 1, None))
            v -= self.spend(metal)
        return v

    def _develop_tiles(self, move: Any) -> tuple[str | None, str | None, int]:
        """The tile a develop removes, the next other tile it leads to (by key), and how
        many copies of the removed one are left to develop first."""
        if self.pittsburgh:
            tile = move.tile
            mat = self.me.get("mat") or {}
            nxt = [t for t in self.k.mat_next.get(tile, ()) if mat.get(t)]
            best = max(nxt, key=lambda t: self.generic_worth(self.k.tiles[t]), default=None)
            return tile, best, max(1, mat.get(tile, 1))
        ind = move.industry
        stack = self.k.stacks.get(ind, ())
        pos = len(stack) - (self.me.get("tiles_left") or {}).get(ind, 0)
        if pos >= len(stack):
            return None, None, 1
        level = stack[pos]
        copies = stack[pos:].count(level)
        above = pos + copies
        after = f"{ind}:{stack[above]}" if above < len(stack) else None
        return f"{ind}:{level}", after, copies

    def _develop_also(self, move: Any) -> float:
        return self._develop(move)

    def _free_develop(self, move: Any) -> float:
        return self._develop(move, free=True) + TEMPO_VP

    def _loan(self, move: Any) -> float:
        k = self.k
        new_level = self.level - k.loan_levels
        lost = k.loan_levels * self.iv + TEMPO_VP
        cost, worth = self.plan()
        # only for a build the seat wants and cannot pay for yet
        if worth <= 0 or cost <= self.money or cost > self.money + k.loan_amount:
            return -lost - 5.0
        if new_level < (-3 if self.era == 0 else 0) and self.out.payments > 3 and not self.stuck:
            return -lost - 20.0
        return self.receive(k.loan_amount) - lost

    def _scout(self, move: Any) -> float:
        # Three cards for two wild ones: worth it only with nothing to build and time left.
        if self.rounds_era >= 3 and sum(self.hand.values()) >= 4 and not self._buildable():
            return PASS_VP + 1.0
        return PASS_VP - 5.0

    def _buildable(self) -> bool:
        return any(self.wants(self.k.tiles[key].industry) for key in self._next_tiles())

    def _pass(self, move: Any) -> float:
        if self.pittsburgh:  # passing gains a whiskey
            return PASS_VP + self.worth(Reward(whiskey=1)) * 0.5
        return PASS_VP

    # --- follow-ups ---------------------------------------------------------------------

    def _done(self, move: Any) -> float:
        return 0.0

    def _discard(self, move: Any) -> float:
        """Shed the card least likely to build something good."""
        return -self.card_use(move.card)

    def card_use(self, card: str) -> float:
        found = self._card_uses.get(card)
        if found is None:
            found = self._card_uses[card] = self._card_use(card)
        return found

    def _card_use(self, card: str) -> float:
        return card_use(
            self.k, self.era, card, self.hand[card], self._next_tiles(), self.by_space,
            lambda name: self.comp(name) in self.merchant_comps,
        )  # fmt: skip

    def _pick_coal(self, move: Any) -> float:
        return self.take_from(move.space)

    def _pick_iron(self, move: Any) -> float:
        return self.take_from(move.space)

    def _pick_beer(self, move: Any) -> float:
        m = next((m for m in self.merchants if m["merchant"] == move.source), None)
        if m is not None:
            return 1.0 + self.worth(m["bonus"])
        return self.take_from(move.source)

    def take_from(self, space: str) -> float:
        """Taking a cube from a tile: emptying one's own flips it; an opponent's is
        spared while another source will do."""
        t = self.by_space.get(space)
        if t is None:
            return 0.0
        last = t["resources"] <= 1
        if t["owner"] == self.seat:
            return 1.0 + (2.0 + self.flip_value(self.tile_facts(t), t["location"]) if last else 0)
        return -0.5 - (2.0 if last else 0.0)

    def _pay(self, move: Any) -> float:
        src = move.source
        if src == "tile":
            return self.take_from(move.at or "")
        if src == "train":
            return 1.0
        if src == "pipeline":
            pipe = next((p for p in self.pipes if p["route"] == move.at), None)
            if pipe is None:
                return 0.0
            tile = self.k.link_tiles.get(pipe["pipeline"])
            paid = self.worth(tile.per_barrel) if tile else 0.0
            return paid if pipe["owner"] == self.seat else -0.3 * paid
        if src == "market":
            for m in self.view.get("markets") or []:
                if isinstance(m, dict) and m.get("market") == move.at:
                    price = (m["ladders"].get(move.resource) or {}).get("buy_price")
                    return -self.spend(float(price if price is not None else 10))
            return -5.0
        price = (self.view.get("vanderbilt") or {}).get(move.resource, 15)
        return -self.spend(float(price)) - 1.0

    def _sell_produced(self, move: Any) -> float:
        v = 0.0
        for m in self.view.get("markets") or []:
            n = move.plan.get(m["market"], 0)
            if not n:
                continue
            for lad in m["ladders"].values():
                if lad.get("sell_price") is not None:
                    v += self.receive(sum(max(1.0, lad["sell_price"] - 0.5 * i) for i in range(n)))
                    v += (lad.get("sell_vp") or 0) * n
                    break
        return v + 0.01 * len([n for n in move.plan.values() if n])

    def _claim_quality(self, move: Any) -> float:
        reward = self.k.quality.get(move.reward, NO_REWARD)
        stars = (self.view.get("decision") or {}).get("count") or 0
        need = next(
            (q["stars_required"] for q in self.view.get("quality_rewards") or []
             if q["reward"] == move.reward),
            stars,
        )  # fmt: skip
        return self.worth(reward) - WHISKEY_VP * max(0, need - stars) + 0.5

    def _liquidate(self, move: Any) -> float:
        t = self.by_space.get(move.space)
        if t is None:
            return 0.0
        f = self.tile_facts(t)
        if t["flipped"]:
            return -(f.vp * self.scorings(f) + f.icons)
        return -0.5 * self.flip_value(f, t["location"])


# --- the search's playouts: quick rules for the mechanical follow-ups -----------------------


class FollowUpFacts(NamedTuple):
    """What :func:`quick_follow_up` reads of a state; the game builds it straight from the
    state, far cheaper than a view (a playout meets a follow-up every other decision)."""

    seat: int
    era: int
    """0 in the first era."""
    hand: Counter[str]
    next_tiles: list[str]
    """Knowledge keys of the tiles the seat may build or develop next."""
    occupied: dict[str, tuple[int, int]]
    """Each built space's owner and cubes (or barrels)."""
    pipelines: dict[str, int]
    """Each built pipeline route's owner (Pittsburgh)."""
    near_merchant: Callable[[str], bool]
    """Whether a location is joined by built links to a merchant's."""
    price: Callable[[str, str], float | None]
    """What the next cube of a resource costs at a market (by id; Vanderbilt:
    ``"vanderbilt"``), ``None`` where it has none (Pittsburgh)."""


def joined_to(starts: set[str], links: list[list[str]]) -> Callable[[str], bool]:
    """Whether a location is in a component of ``links`` (their ends) holding one of
    ``starts``; worked out on the first question."""
    reach: set[str] | None = None

    def near(loc: str) -> bool:
        nonlocal reach
        if reach is None:
            joins: dict[str, list[str]] = {}
            for ends in links:
                for e in ends:
                    joins.setdefault(e, []).extend(ends)
            reach = set(starts)
            todo = [e for e in reach if e in joins]
            while todo:
                for e in joins[todo.pop()]:
                    if e not in reach:
                        reach.add(e)
                        todo.append(e)
        return loc in reach

    return near


QUICK_FOLLOW_UPS: Final = frozenset({"discard", "pick_coal", "pick_iron", "pick_beer", "pay"})
"""Follow-ups :func:`quick_follow_up` answers: which card pays, where a cube comes from."""


def quick_follow_up(f: FollowUpFacts, legal: list[Any], rng: Random, k: Knowledge) -> Any:
    """The greedy bot's choice of card to discard or of source to take from, by its own
    rules read off ``f`` instead of a view: the least useful card, one's own tiles first
    (emptying them flips them), sparing an opponent's last cube, else the cheapest
    purchase. ``None`` where the greedy bot should weigh it: a purchase against a source
    on the board (money against an opponent's cube)."""
    best: list[Any] = []
    top = float("-inf")
    if legal[0].__struct_config__.tag == "pay":
        bought = sum(m.source in ("market", "vanderbilt") for m in legal)
        if 0 < bought < len(legal):
            return None
    uses: dict[str, float] = {}
    for move in legal:
        tag = move.__struct_config__.tag
        if tag == "discard":
            card = move.card
            use = uses.get(card)
            if use is None:
                use = uses[card] = card_use(
                    k, f.era, card, f.hand[card], f.next_tiles, f.occupied, f.near_merchant
                )
            score: float | None = -use
        elif tag in QUICK_FOLLOW_UPS:
            score = _source_rank(f, move, tag)
        else:
            return None
        if score is None:
            return None
        if score > top + 1e-9:
            top, best = score, [move]
        elif score > top - 1e-9:
            best.append(move)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _source_rank(f: FollowUpFacts, move: Any, tag: str) -> float | None:
    """The greedy bot's order of sources (:meth:`_Context.take_from`, ``_pay``,
    ``_pick_beer``), without the flip values that break ties among one's own last cubes."""
    if tag == "pay":
        src = move.source
        if src == "train":
            return 1.0
        if src == "pipeline":
            return 0.5 if f.pipelines.get(move.at) == f.seat else -0.2
        if src == "market" or src == "vanderbilt":
            price = f.price(move.at or src, move.resource)
            # the cheapest; Vanderbilt after a market at the same price
            return -(10.0 if price is None else price) - (0.5 if src == "vanderbilt" else 0.0)
        if src != "tile":
            return None
        space = move.at
    else:
        space = move.source if tag == "pick_beer" else move.space
    tile = f.occupied.get(space)
    if tile is None:  # a merchant's barrel, and its bonus
        return 3.0 if tag == "pick_beer" else 0.0
    owner, cubes = tile
    last = cubes <= 1
    if owner == f.seat:
        return 4.0 if last else 1.0
    return -2.5 if last else -0.5
