"""A referee for random Lancashire games: every event is checked against the published
rule, worked out here from the position before it and the data tables (pinned to the
reference by :mod:`test_bl_data`), without the engine's own rule code. Covers what the
scenario tests pin one case at a time: era scores, turn order, income, loans, where and
which tiles are built or developed (the lowest), overbuilding, the distant market, coal and
iron sources, market sales (BL_REFEREE_GAMES=N games per player count)."""

from __future__ import annotations

import os
from collections import Counter, deque
from collections.abc import Iterator
from typing import Any

import pytest
from bl_helpers import GAME, D, playout

from plugins.brass import events as fev
from plugins.brass_lancashire import events as lev
from plugins.brass_lancashire.state import State

GAMES = int(os.environ.get("BL_REFEREE_GAMES", "2"))
IND = GAME.v.industries
COAL, IRON, PORT = (IND.index(k) for k in ("coal", "iron", "port"))
PRINTED_TRADE = {"scotland", "yorkshire", "the_midlands"}
EXTERNAL = {loc.id for loc in D.locations if loc.kind == "external"}
TRACK = D.distant_market.income_spaces
X = len(TRACK)


def town(slot: int) -> str:
    return str(D.locations[D.slot_loc[slot]].id)


def link_ends(li: int) -> list[str]:
    return [D.locations[n].id for n in D.link_nodes[li]]


def tiles(s: State, ind: int, with_cubes: bool = False) -> Iterator[int]:
    for slot, owner in enumerate(s.slot_owner):
        if owner >= 0 and s.slot_ind[slot] == ind and (s.slot_cubes[slot] or not with_cubes):
            yield slot


def distances(s: State, starts: list[str]) -> dict[str, int]:
    """Links to each location reachable from ``starts`` along built links (anyone's)."""
    near: dict[str, list[str]] = {}
    for li, owner in enumerate(s.link_owner):
        if owner >= 0:
            a, b = link_ends(li)
            near.setdefault(a, []).append(b)
            near.setdefault(b, []).append(a)
    dist, queue = dict.fromkeys(starts, 0), deque(starts)
    while queue:
        x = queue.popleft()
        for y in near.get(x, []):
            if y not in dist:
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist


def trade_icons(s: State) -> set[str]:
    return PRINTED_TRADE | {town(slot) for slot in tiles(s, PORT)}


def lowest(s: State, seat: int, ind: int) -> int:
    """The level of the seat's lowest ``ind`` tile: the mat's stack, counted afresh."""
    taken = s.mat[seat][ind]
    for tile in D.tiles[ind]:
        if taken < tile.count:
            return int(tile.level)
        taken -= tile.count
    return -1


def level(space: int) -> int:
    return int(D.income.level(space))


class Referee:
    def __init__(self) -> None:
        self.wrong: list[str] = []
        self.site: list[str] = []
        """Where the resources of the tile or link being built are delivered."""

    def flag(self, rule: str, *detail: Any) -> None:
        self.wrong.append(f"{rule}: {detail}")

    def check(self, s: State, e: Any, new: State) -> None:
        t = type(e)
        if t is fev.EraScored:
            self.era_scores(s, e)
        elif t is fev.RoundEnded:
            self.round_end(s, e)
        elif t is fev.LoanTaken:
            rounds = D.rules.rounds_per_era[str(s.players)]
            if s.era == 1 and s.round > rounds - D.rules.no_loans_final_rounds_rail_era:
                self.flag("no loans in the last four rounds", s.round)
            dropped = level(s.income[e.seat]) - level(e.space)
            top = max(x for x in range(D.income.last_space + 1) if level(x) == level(e.space))
            if e.amount != 10 * dropped or e.space != top:
                self.flag("loan of £10 a level, marker on the new level's top space", e)
        elif t is fev.LinkPlaced:
            self.site = link_ends(e.link)
        elif t is fev.TilePlaced or t is fev.TileDeveloped:
            if e.level != lowest(s, e.seat, e.industry):
                self.flag("the lowest tile of the industry on the mat", e)
            if t is fev.TilePlaced:
                self.site = [town(e.slot)]
                self.placed(s, e)
        elif t is lev.DemandTileDrawn:
            self.demand(s, e, new)
        elif t is fev.CubeTaken and s.slot_ind[e.slot] == COAL:
            dist = distances(s, self.site)
            mines = [dist.get(town(slot)) for slot in tiles(s, COAL, with_cubes=True)]
            here = dist.get(town(e.slot))
            if here is None or here > min(d for d in mines if d is not None):
                self.flag("coal from the nearest connected mine", self.site, town(e.slot))
        elif t is fev.MarketBought:
            self.bought(s, e)
        elif t is fev.Produced:
            self.produced(s, e)

    def era_scores(self, s: State, e: fev.EraScored) -> None:
        icons: Counter[str] = Counter(dict.fromkeys(EXTERNAL, 2))
        industries = [0] * s.players
        for slot, owner in enumerate(s.slot_owner):
            if owner >= 0 and s.slot_flipped[slot]:
                tile = D.tile(s.slot_ind[slot], s.slot_level[slot])
                icons[town(slot)] += tile.link_icons
                industries[owner] += tile.vp
        links = [0] * s.players
        for li, owner in enumerate(s.link_owner):
            if owner >= 0:
                links[owner] += sum(icons[end] for end in link_ends(li))
        if (links, industries) != (e.links, e.industries):
            self.flag("era scores: link icons, flipped tiles' VP", links, industries, e)

    def round_end(self, s: State, e: fev.RoundEnded) -> None:
        if list(e.order) != sorted(s.order, key=lambda seat: s.spent[seat]):
            self.flag("least money spent first, ties keep their order", s.spent, e.order)
        last = s.era == 1 and s.round == D.rules.rounds_per_era[str(s.players)]
        for seat in range(s.players):
            income = 0 if last else level(s.income[seat])
            # a shortfall (sales, then VP) is the scenario tests' part
            if s.money[seat] + income >= 0 and e.income[seat] != income:
                self.flag("income by level, none after the game's last round", seat, e)

    def placed(self, s: State, e: fev.TilePlaced) -> None:
        tile = D.tile(e.industry, e.level)
        if not (tile.canal if s.era == 0 else tile.rail):
            self.flag("the tile's era", IND[e.industry], e.level, s.era)
        if s.era == 0:
            others = [x for x in D.loc_slots[D.slot_loc[e.slot]] if x != e.slot]
            if any(s.slot_owner[x] == e.seat for x in others):
                self.flag("one own tile per town in the Canal Era", e)
        owner = s.slot_owner[e.slot]
        if owner < 0:
            return
        if s.slot_ind[e.slot] != e.industry or s.slot_level[e.slot] >= e.level:
            self.flag("overbuild with a higher tile of the same industry", e)
        if owner != e.seat:
            market = s.coal_market if e.industry == COAL else s.iron_market
            left = market + sum(s.slot_cubes[x] for x in tiles(s, e.industry))
            if e.industry not in (COAL, IRON) or left:
                self.flag("an opponent's mine or works only with none of its cubes left", e)

    def demand(self, s: State, e: lev.DemandTileDrawn, new: State) -> None:
        marker = min(X, s.demand + e.tile)
        gain = TRACK[marker] if marker < X else 0
        income = D.income.advance(s.income[e.seat], gain)
        if (new.demand, new.income[e.seat]) != (marker, income):
            self.flag("the marker moves down; the income beside it, none at X", s.demand, e)
        if not trade_icons(s) & distances(s, [town(e.slot)]).keys():
            self.flag("the distant market needs a trade icon connection", e)

    def bought(self, s: State, e: fev.MarketBought) -> None:
        if e.resource == "iron":
            if any(tiles(s, IRON, with_cubes=True)):
                self.flag("iron from the market only when no works has any", e)
            return
        dist = distances(s, self.site)
        if any(town(slot) in dist for slot in tiles(s, COAL, with_cubes=True)):
            self.flag("coal from the market only when no connected mine has any", self.site)
        if not trade_icons(s) & dist.keys():
            self.flag("coal from the market through a trade icon", self.site)

    def produced(self, s: State, e: fev.Produced) -> None:
        ind = s.slot_ind[e.slot]
        room = 8 - (s.coal_market if ind == COAL else s.iron_market)
        connected = bool(trade_icons(s) & distances(s, [town(e.slot)]).keys())
        sells = ind == IRON or (ind == COAL and connected)
        if e.sold != (min(room, e.cubes) if sells else 0):
            self.flag("a new works always, a new mine through a trade icon, fills the market", e)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_refereed_rule(players: int) -> None:
    for seed in range(GAMES):
        ref = Referee()
        seen, _ = playout(players, 7000 + 100 * players + seed, each_event=ref.check)
        assert not ref.wrong, ref.wrong[:5]
        assert seen["era_scored"] == 2 and seen["demand_tile_drawn"] and seen["round_ended"]
