"""Brass: Birmingham's data files (``data/*.json``), loaded and validated once.

One file per concept: ``board.json`` (locations with their build spaces, merchant
locations with their spaces by player count and beer bonuses, link lines with canal/rail
flags), ``industries.json`` (the tile tables of the rule text), ``cards.json`` (copies per
player count), ``merchants.json`` (merchant tiles), ``markets.json`` (coal and iron price
ladders), ``income.json`` (the income track) and ``rules.json`` (money, costs, hand size).
Every reference is checked on load; a bad file raises :class:`plugins.brass.data.DataError`.

Indices used throughout the plugin: locations in file order (towns and farms first, then
merchant locations), build spaces ("slots") numbered across the board in location order,
links in file order, industries in ``industries.json``'s ``order``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

from plugins.brass.cards import CardDef, CardTable
from plugins.brass.data import load, require
from plugins.brass.graph import BoardGraph
from plugins.brass.income import IncomeTrack
from plugins.brass.market import Market
from plugins.brass.mat import TileStacks
from plugins.brass.state import TurnRules

DATA = Path(__file__).parent / "data"
PLAYER_COUNTS = ("2", "3", "4")
INDUSTRIES = ("cotton", "manufacturer", "pottery", "coal", "iron", "brewery")
COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)
SELLABLE = (COTTON, MANUFACTURER, POTTERY)


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    pass


class BeerBonus(_Strict):
    kind: Literal["vp", "develop", "income", "money"]
    amount: int


class LocationData(_Strict):
    id: str
    name: str
    kind: Literal["town", "farm", "merchant"]
    slots: list[list[str]] = []
    merchant_spaces: list[int] = []
    """Per merchant space: the least player count that uses it."""
    beer_bonus: BeerBonus | None = None
    link_icons: int = 0
    """Printed link icons (merchant locations); industries add theirs when flipped."""


class LinkData(_Strict):
    nodes: list[str]
    canal: bool
    rail: bool


class BoardFile(_Strict):
    locations: list[LocationData]
    links: list[LinkData]


class TileData(_Strict):
    level: int
    count: int
    money: int
    coal: int
    iron: int
    beer: int
    income: int
    vp: int
    link_icons: int
    canal: bool
    rail: bool
    develop: bool
    produce_canal: int = 0
    produce_rail: int = 0


class IndustriesFile(_Strict):
    order: list[str]
    tiles: dict[str, list[TileData]]


class LocationCards(_Strict):
    location: str
    copies: dict[str, int]


class IndustryCards(_Strict):
    industries: list[str]
    copies: dict[str, int]


class CardsFile(_Strict):
    location: list[LocationCards]
    industry: list[IndustryCards]
    wild_location: int
    wild_industry: int
    deck_size: dict[str, int]


class MerchantTile(_Strict):
    id: str
    accepts: list[str]
    min_players: int


class MerchantsFile(_Strict):
    tiles: list[MerchantTile]


class MarketData(_Strict):
    prices: list[int]
    initial: int
    empty_price: int


class MarketsFile(_Strict):
    coal: MarketData
    iron: MarketData


class IncomeFile(_Strict):
    space_to_level: list[int]
    start_space: int


class PlayerRange(_Strict):
    min: int
    max: int


class RulesFile(_Strict):
    starting_money: int
    hand_size: int
    face_down_discards: int
    actions_per_turn: int
    actions_first_round: int
    loan_amount: int
    loan_levels: int
    canal_link_cost: int
    rail_link_cost: int
    double_rail_cost: int
    double_rail_beer: int
    coal_per_rail: int
    link_tiles: int
    """Link tiles each player owns: the most it can have on the board at once."""
    players: PlayerRange


class Tile(msgspec.Struct, frozen=True):
    """One row of a tile table, with its industry index."""

    industry: int
    level: int
    money: int
    coal: int
    iron: int
    beer: int
    income: int
    vp: int
    link_icons: int
    canal: bool
    rail: bool
    develop: bool
    produce_canal: int
    produce_rail: int

    def buildable(self, era: int) -> bool:
        return self.rail if era else self.canal

    def produce(self, era: int) -> int:
        return self.produce_rail if era else self.produce_canal


class Birmingham:
    """Everything the rules need from the data, as index tables."""

    def __init__(self, directory: Path = DATA) -> None:
        board = load(directory / "board.json", BoardFile)
        inds = load(directory / "industries.json", IndustriesFile)
        cards = load(directory / "cards.json", CardsFile)
        merchants = load(directory / "merchants.json", MerchantsFile)
        markets = load(directory / "markets.json", MarketsFile)
        income = load(directory / "income.json", IncomeFile)
        self.rules = load(directory / "rules.json", RulesFile)

        require(
            tuple(inds.order) == INDUSTRIES,
            "industries.json",
            f"order must be {', '.join(INDUSTRIES)}",
        )
        ind_index = {name: i for i, name in enumerate(INDUSTRIES)}

        # --- locations, build spaces, merchant spaces -------------------------------------
        self.locations = board.locations
        self.loc_index: dict[str, int] = {}
        for i, loc in enumerate(board.locations):
            require(loc.id not in self.loc_index, "board.json", f"location {loc.id} twice")
            self.loc_index[loc.id] = i
        self.n_locations = len(board.locations)
        self.slot_loc: list[int] = []
        self.slot_icons: list[tuple[int, ...]] = []
        self.loc_slots: list[list[int]] = [[] for _ in board.locations]
        self.merchant_loc: list[int] = []
        self.merchant_min_players: list[int] = []
        self.loc_icons = [0] * self.n_locations
        self.loc_bonus: list[BeerBonus | None] = [None] * self.n_locations
        for li, loc in enumerate(board.locations):
            if loc.kind == "merchant":
                require(not loc.slots, "board.json", f"merchant {loc.id} has build spaces")
                require(loc.beer_bonus is not None, "board.json", f"{loc.id} lacks a bonus")
                require(bool(loc.merchant_spaces), "board.json", f"{loc.id} has no spaces")
                for min_p in loc.merchant_spaces:
                    require(2 <= min_p <= 4, "board.json", f"{loc.id}: bad player count")
                    self.merchant_loc.append(li)
                    self.merchant_min_players.append(min_p)
                self.loc_icons[li] = loc.link_icons
                self.loc_bonus[li] = loc.beer_bonus
                continue
            require(bool(loc.slots), "board.json", f"{loc.id} has no build spaces")
            require(not loc.merchant_spaces, "board.json", f"{loc.id} is not a merchant")
            for icons in loc.slots:
                require(
                    bool(icons) and all(name in ind_index for name in icons),
                    "board.json",
                    f"{loc.id}: unknown industry in {icons}",
                )
                self.loc_slots[li].append(len(self.slot_loc))
                self.slot_loc.append(li)
                self.slot_icons.append(tuple(ind_index[name] for name in icons))
        self.n_slots = len(self.slot_loc)
        self.industry_locs: list[frozenset[int]] = [
            frozenset(
                self.slot_loc[slot] for slot, icons in enumerate(self.slot_icons) if ind in icons
            )
            for ind in range(len(INDUSTRIES))
        ]
        """Per industry, the locations with a build space showing its icon."""
        self.merchant_nodes = frozenset(self.merchant_loc)
        self.n_merchants = len(self.merchant_loc)

        # --- links -------------------------------------------------------------------------
        link_nodes = []
        self.link_canal: list[bool] = []
        self.link_rail: list[bool] = []
        seen: set[frozenset[int]] = set()
        for link in board.links:
            for name in link.nodes:
                require(name in self.loc_index, "board.json", f"link to unknown {name}")
            nodes = tuple(self.loc_index[n] for n in link.nodes)
            require(len(set(nodes)) == len(nodes) >= 2, "board.json", f"bad link {link.nodes}")
            require(link.canal or link.rail, "board.json", f"link {link.nodes} in no era")
            require(frozenset(nodes) not in seen, "board.json", f"link {link.nodes} twice")
            seen.add(frozenset(nodes))
            link_nodes.append(nodes)
            self.link_canal.append(link.canal)
            self.link_rail.append(link.rail)
        self.graph = BoardGraph(self.n_locations, link_nodes)
        self.link_nodes = self.graph.link_nodes
        self.n_links = len(link_nodes)
        self.link_names = [
            "~".join(sorted(board.locations[n].id for n in ns[:2])) for ns in link_nodes
        ]
        for li, loc in enumerate(board.locations):
            require(bool(self.graph.node_links[li]), "board.json", f"{loc.id} has no link")

        # --- industry tiles ----------------------------------------------------------------
        require(set(inds.tiles) == set(INDUSTRIES), "industries.json", "one table per industry")
        self.tiles: list[list[Tile]] = []
        counts: list[list[int]] = []
        for ind, name in enumerate(INDUSTRIES):
            rows = inds.tiles[name]
            require(
                [r.level for r in rows] == list(range(1, len(rows) + 1)),
                "industries.json",
                f"{name}: levels must run 1, 2, 3, ... in order",
            )
            tiles = []
            for r in rows:
                where = f"{name} level {r.level}"
                require(r.count > 0, "industries.json", f"{where}: count must be positive")
                require(
                    min(r.money, r.coal, r.iron, r.beer, r.income, r.vp, r.link_icons) >= 0,
                    "industries.json",
                    f"{where}: negative value",
                )
                require(r.canal or r.rail, "industries.json", f"{where}: buildable in no era")
                produces = ind in (COAL, IRON, BREWERY)
                require(
                    produces == (r.produce_canal > 0 or r.produce_rail > 0),
                    "industries.json",
                    f"{where}: only mines, works and breweries produce",
                )
                require(
                    not produces or r.beer == 0,
                    "industries.json",
                    f"{where}: mines, works and breweries are not sold for beer",
                )
                tiles.append(Tile(ind, r.level, r.money, r.coal, r.iron, r.beer, r.income,
                                  r.vp, r.link_icons, r.canal, r.rail, r.develop,
                                  r.produce_canal, r.produce_rail))  # fmt: skip
            self.tiles.append(tiles)
            counts.append([r.count for r in rows])
        self.stacks = TileStacks(counts)

        # --- cards -------------------------------------------------------------------------
        defs: list[CardDef] = []
        copies: dict[str, list[int]] = {p: [] for p in PLAYER_COUNTS}
        for lc in cards.location:
            require(lc.location in self.loc_index, "cards.json", f"unknown town {lc.location}")
            li = self.loc_index[lc.location]
            require(board.locations[li].kind == "town", "cards.json", f"{lc.location}: not a town")
            defs.append(CardDef(f"location:{lc.location}", "location", location=li))
            self._card_copies(lc.copies, copies, lc.location)
        for ic in cards.industry:
            require(
                bool(ic.industries) and all(n in ind_index for n in ic.industries),
                "cards.json",
                f"unknown industry in {ic.industries}",
            )
            ids = tuple(ind_index[n] for n in ic.industries)
            defs.append(CardDef("industry:" + "/".join(ic.industries), "industry", industries=ids))
            self._card_copies(ic.copies, copies, "/".join(ic.industries))
        defs.append(CardDef("wild:location", "wild_location"))
        defs.append(CardDef("wild:industry", "wild_industry"))
        for p in PLAYER_COUNTS:
            copies[p] += [0, 0]
            require(
                sum(copies[p]) == cards.deck_size.get(p),
                "cards.json",
                f"the {p}-player deck has {sum(copies[p])} cards, not {cards.deck_size.get(p)}",
            )
        self.cards = CardTable(defs)
        self.deck_copies = {int(p): copies[p] for p in PLAYER_COUNTS}
        self.wild_supply = (cards.wild_location, cards.wild_industry)
        require(min(self.wild_supply) > 0, "cards.json", "wild card supplies must be positive")

        # --- merchant tiles ---------------------------------------------------------------
        self.merchant_tiles = merchants.tiles
        self.merchant_accepts: list[frozenset[int]] = []
        for t in merchants.tiles:
            require(all(n in ind_index for n in t.accepts), "merchants.json", f"{t.id}: bad good")
            require(
                all(ind_index[n] in SELLABLE for n in t.accepts),
                "merchants.json",
                f"{t.id}: merchants buy only cotton, manufactured goods and pottery",
            )
            self.merchant_accepts.append(frozenset(ind_index[n] for n in t.accepts))
        for p in (2, 3, 4):
            tiles = sum(t.min_players <= p for t in merchants.tiles)
            spaces = sum(m <= p for m in self.merchant_min_players)
            require(
                tiles == spaces,
                "merchants.json",
                f"{p} players: {tiles} merchant tiles for {spaces} merchant spaces",
            )

        # --- markets, income ---------------------------------------------------------------
        for name, m in (("coal", markets.coal), ("iron", markets.iron)):
            require(0 <= m.initial <= len(m.prices), "markets.json", f"{name}: bad initial")
            require(m.prices == sorted(m.prices), "markets.json", f"{name}: prices unsorted")
        self.coal_market = Market(markets.coal.prices, markets.coal.empty_price)
        self.iron_market = Market(markets.iron.prices, markets.iron.empty_price)
        self.coal_initial = markets.coal.initial
        self.iron_initial = markets.iron.initial
        try:
            self.income = IncomeTrack(income.space_to_level, income.start_space)
        except ValueError as exc:
            require(False, "income.json", str(exc))

        r = self.rules
        require(r.players.min >= 2 and r.players.max <= 4, "rules.json", "players are 2 to 4")
        self.turn_rules = TurnRules(
            hand_size=r.hand_size, actions_per_turn=r.actions_per_turn,
            actions_first_round=r.actions_first_round, eras=2,
            wild_cards=(self.cards.wild_location, self.cards.wild_industry),
        )  # fmt: skip
        require(r.double_rail_cost > r.rail_link_cost, "rules.json", "double rail must cost more")

    @staticmethod
    def _card_copies(by_count: dict[str, int], into: dict[str, list[int]], what: str) -> None:
        require(set(by_count) == set(PLAYER_COUNTS), "cards.json", f"{what}: copies for 2, 3, 4")
        n = [by_count[p] for p in PLAYER_COUNTS]
        require(min(n) >= 0 and n == sorted(n), "cards.json", f"{what}: copies must not shrink")
        for p in PLAYER_COUNTS:
            into[p].append(by_count[p])

    def tile(self, industry: int, level: int) -> Tile:
        return self.tiles[industry][level - 1]

    def slot_name(self, slot: int) -> str:
        loc = self.slot_loc[slot]
        return f"{self.locations[loc].id}:{self.loc_slots[loc].index(slot)}"


@cache
def birmingham() -> Birmingham:
    """The shipped data, loaded once per process."""
    return Birmingham()
