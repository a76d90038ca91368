"""Brass: Birmingham's data files (``data/*.json``), loaded and validated once.

One file per concept: ``board.json`` (locations with their build spaces, merchant
locations with their spaces by player count and beer bonuses, link lines with canal/rail
flags), ``industries.json`` (the tile tables of the rule text), ``cards.json`` (copies per
player count), ``merchants.json`` (merchant tiles), ``markets.json`` (coal and iron price
ladders), ``income.json`` (the income track), ``rules.json`` (money, costs, hand size) and
``layout.json`` (where clients draw the board).
Every file opens with a ``"_"`` header (its version, source, confidence and
*provisional* facts; ``data/README.md`` sums them up), read and checked against
``manifest.json`` by the family (:class:`plugins.brass.dataset.DataSet`); this module
declares each file's Struct and checks what is Birmingham's own. Every reference is checked
on load; a bad file raises :class:`plugins.brass.data.DataError` naming the file.

Indices used throughout the plugin: locations in file order (towns and farms first, then
merchant locations), build spaces ("slots") numbered across the board in location order,
links in file order, industries in ``industries.json``'s ``order``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from plugins.brass import boarddata as bd
from plugins.brass.cards import CardDef
from plugins.brass.client import numbered
from plugins.brass.data import require
from plugins.brass.dataset import DataSet

DATA = Path(__file__).parent / "data"
INDUSTRIES = ("cotton", "manufacturer", "pottery", "coal", "iron", "brewery")
COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)
SELLABLE = (COTTON, MANUFACTURER, POTTERY)


class BeerBonus(bd.Strict):
    kind: Literal["vp", "develop", "income", "money"]
    amount: int


class LocationData(bd.Strict):
    id: str
    name: str
    kind: Literal["town", "farm", "merchant"]
    slots: list[list[str]] = []
    merchant_spaces: list[int] = []
    """Per merchant space: the least player count that uses it."""
    beer_bonus: BeerBonus | None = None
    link_icons: int = 0
    """Printed link icons (merchant locations); industries add theirs when flipped."""


class BoardFile(bd.Strict):
    locations: list[LocationData]
    links: list[bd.LinkData]


class Tile(bd.BoardTile):
    """One row of an industry's tile table: the family's columns, beer to sell it and the
    cubes or barrels a mine, works or brewery produces in each era."""

    beer: bd.Amount
    produce_canal: int = 0
    produce_rail: int = 0

    def produce(self, era: int) -> int:
        return self.produce_rail if era else self.produce_canal


class CardsFile(bd.CardCopies):
    wild_location: int
    wild_industry: int


class MerchantTile(bd.Strict):
    id: str
    accepts: list[str]
    min_players: int


class MerchantsFile(bd.Strict):
    tiles: list[MerchantTile]


class MarketsFile(bd.Strict):
    coal: bd.MarketLadder
    iron: bd.MarketLadder


class RulesFile(bd.BoardRules):
    loan_amount: int
    loan_levels: int
    double_rail_beer: int


FILES: dict[str, type] = {
    "rules.json": RulesFile,
    "board.json": BoardFile,
    "industries.json": bd.TileTables[Tile],
    "cards.json": CardsFile,
    "merchants.json": MerchantsFile,
    "markets.json": MarketsFile,
    "income.json": bd.IncomeTable,
}
"""The rules' files; ``layout.json`` (drawing only) is read with the family's loader."""


class Birmingham(bd.BoardData[Tile]):
    """Everything the rules need from the data, as index tables."""

    def __init__(self, directory: Path = DATA) -> None:
        self.files = DataSet(directory, FILES)
        self.manifest, docs = self.files.manifest, self.files.docs
        board: BoardFile = docs["board.json"]
        inds: bd.TileTables[Tile] = docs["industries.json"]
        cards: CardsFile = docs["cards.json"]
        merchants: MerchantsFile = docs["merchants.json"]
        markets: MarketsFile = docs["markets.json"]
        income: bd.IncomeTable = docs["income.json"]
        self.rules: RulesFile = docs["rules.json"]

        # --- locations, build spaces, merchant spaces -------------------------------------
        f = "board.json"
        self.merchant_loc: list[int] = []
        self.merchant_min_players: list[int] = []
        self.loc_icons = [0] * len(board.locations)
        self.loc_bonus: list[BeerBonus | None] = [None] * len(board.locations)
        self._read_board(board.locations, INDUSTRIES, f, "merchant", self._read_merchant)
        self.merchant_nodes = frozenset(self.merchant_loc)
        self.n_merchants = len(self.merchant_loc)
        self._read_links(board.links, f, most_nodes=3)

        # --- industry tiles ----------------------------------------------------------------
        f = "industries.json"
        self._read_tiles(inds, f)
        for ind, (name, rows) in enumerate(zip(INDUSTRIES, self.tiles, strict=True)):
            for r in rows:
                at = f"tiles.{name}[level {r.level}]"
                require(r.canal or r.rail, f, f"{at}: buildable in no era")
                produces = ind in (COAL, IRON, BREWERY)
                require(produces == (r.produce_canal > 0 or r.produce_rail > 0), f,
                        f"{at}: only mines, works and breweries produce")  # fmt: skip
                require(not produces or r.beer == 0, f,
                        f"{at}: mines, works and breweries are not sold for beer")  # fmt: skip

        # --- cards -------------------------------------------------------------------------
        defs, copies = bd.read_cards(cards.location, cards.industry, self, self.towns, "cards.json")
        defs.append(CardDef("wild:location", "wild_location"))
        defs.append(CardDef("wild:industry", "wild_industry"))
        for p in bd.PLAYER_COUNTS:
            copies[p] += [0, 0]
        self.cards, self.deck_copies = bd.card_table(defs, copies, cards.deck_size, "cards.json")
        self.wild_supply = (cards.wild_location, cards.wild_industry)
        require(min(self.wild_supply) > 0, "cards.json", "wild card supplies must be positive")

        # --- merchant tiles ---------------------------------------------------------------
        self.merchant_tiles = merchants.tiles
        self.merchant_accepts: list[frozenset[int]] = []
        ind_index = self.ind_index
        for t in merchants.tiles:
            require(all(n in ind_index for n in t.accepts), "merchants.json", f"{t.id}: bad good")
            require(all(ind_index[n] in SELLABLE for n in t.accepts), "merchants.json", f"{t.id}: "
                    "merchants buy only cotton, manufactured goods and pottery")  # fmt: skip
            self.merchant_accepts.append(frozenset(ind_index[n] for n in t.accepts))
        for p in (2, 3, 4):
            tiles = sum(t.min_players <= p for t in merchants.tiles)
            spaces = sum(m <= p for m in self.merchant_min_players)
            require(tiles == spaces, "merchants.json", f"{p} players: {tiles} merchant tiles "
                    f"for {spaces} merchant spaces")  # fmt: skip

        # --- markets, income ---------------------------------------------------------------
        self._read_markets(markets.coal, markets.iron, "markets.json")
        self._read_income(income, "income.json")
        wild_cards = (self.cards.wild_location, self.cards.wild_industry)
        self._read_rules(self.rules, "rules.json", eras=2, wild_cards=wild_cards)
        merchant_spaces = numbered(self.locations[li].id for li in self.merchant_loc)
        self.layout = self.read_layout(directory / "layout.json", merchant_spaces=merchant_spaces)

    def _read_merchant(self, li: int, loc: LocationData, at: str) -> None:
        """A merchant location's spaces (the least player count using each), printed link
        icons and beer bonus; any other location has no merchant spaces."""
        f = "board.json"
        if loc.kind != "merchant":
            require(not loc.merchant_spaces, f, f"{at}.merchant_spaces: not a merchant")
            return
        require(loc.beer_bonus is not None, f, f"{at}.beer_bonus: missing")
        require(bool(loc.merchant_spaces), f, f"{at}.merchant_spaces: none")
        for min_p in loc.merchant_spaces:
            require(2 <= min_p <= 4, f, f"{at}.merchant_spaces: bad player count")
            self.merchant_loc.append(li)
            self.merchant_min_players.append(min_p)
        self.loc_icons[li] = loc.link_icons
        self.loc_bonus[li] = loc.beer_bonus


@cache
def birmingham() -> Birmingham:
    """The shipped data, loaded once per process."""
    return Birmingham()
