"""Brass: Lancashire's data files (``data/*.json``), loaded and validated once.

One file per concept (``data/README.md`` gives each file's source and confidence):
``rules.json`` (money, turn, loans, link costs, rule switches), ``board.json`` (towns with
their build spaces, external locations), ``links.json`` (canal and rail lines),
``industries.json`` (the tile tables), ``cards.json`` (copies per player count),
``markets.json`` (coal and iron), ``distant_market.json`` (demand track and tiles),
``income.json`` (the progress track) and ``layout.json`` (where clients draw the board).

Every file opens with a ``"_"`` header: its version, confidence and *provisional* facts,
read and checked against ``manifest.json`` by the family
(:class:`plugins.brass.dataset.DataSet`); this module declares each file's Struct and
checks what is Lancashire's own.

Indices are the family's (:class:`plugins.brass.boarddata.BoardData`): locations in file
order (towns, then external locations), build spaces ("slots") numbered across the board in
location order, links in file order, industries in ``industries.json``'s ``order``; the mat
is the family's ``TileStacks``, its shipyard stack starting with two level 0 tiles.
Any problem raises :class:`plugins.brass.data.DataError` naming the file and the field.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

from plugins.brass import boarddata as bd
from plugins.brass.data import require
from plugins.brass.dataset import DataSet

DATA = Path(__file__).parent / "data"
INDUSTRIES = ("cotton", "coal", "iron", "port", "shipyard")
COTTON, COAL, IRON, PORT, SHIPYARD = range(5)


class DoubleActionBuild(bd.Strict):
    cards: int
    actions: int
    in_one_action_round: bool


class MoneyVp(bd.Strict):
    per: int
    vp: int


class RulesFile(bd.RuleSwitches):
    eras: list[str]
    rounds_per_era: dict[str, int]
    starting_vp: int
    no_loans_final_rounds_rail_era: int
    """The Rail Era's last rounds, once the draw deck is empty: no Loan action."""
    double_action_build: DoubleActionBuild
    first_build_anywhere: bool
    level_removed_after_canal_era: int
    money_vp: MoneyVp
    shortfall_vp_per_money: int
    income_after_final_round: bool
    general_supply_unlimited: bool
    components: dict[str, int]


class LocationData(bd.Strict):
    id: str
    name: str
    kind: Literal["town", "external"]
    slots: list[list[str]]
    link_icons: bd.Amount
    """Printed on the board (external locations); industries add theirs when flipped."""
    market_trade_icon: bool


class BoardFile(bd.Strict):
    locations: list[LocationData]


class VirtualLink(bd.Strict):
    nodes: list[str]
    option: Literal["classic"]
    carries_coal: bool
    scores: bool


class LinksFile(bd.Strict):
    links: list[bd.LinkData]
    virtual_links: list[VirtualLink]


class IndustryKind(bd.Strict):
    name: str
    produces: Literal["coal", "iron"] | None
    flips: Literal["sold", "sold_through", "emptied", "built"]


class Tile(bd.BoardTile):
    cubes: bd.Amount = msgspec.field(name="produce")
    """Cubes a mine or works carries when built (the same in both eras)."""

    @property
    def locked(self) -> bool:
        """Never built (level 0 shipyards): it leaves the mat only by Develop."""
        return not (self.canal or self.rail)

    def produce(self, era: int) -> int:
        """Cubes built in ``era`` (the family's form; Lancashire's do not depend on it)."""
        return self.cubes


class IndustriesFile(bd.TileTables[Tile]):
    industries: dict[str, IndustryKind]


class DeckTile(bd.Strict):
    canal: int
    rail: int


class CardsFile(bd.CardCopies):
    printed_cards: int
    removed_at_setup: int
    under_deck_tile_per_player: DeckTile


class MarketData(bd.MarketLadder):
    needs_trade_connection: bool


class MarketsFile(bd.Strict):
    coal: MarketData
    iron: MarketData
    port_tiles_are_trade_icons: bool


class DistantMarketFile(bd.Strict):
    income_spaces: list[bd.Amount]
    """Income spaces beside each demand space from the top; the space after the last is X."""
    start: int
    tiles: dict[str, dict[str, int]]
    """Per player count: steps down the track -> tiles showing it."""
    needs_trade_connection: bool
    reset_after_canal_era: bool


FILES: dict[str, type] = {
    "rules.json": RulesFile,
    "board.json": BoardFile,
    "links.json": LinksFile,
    "industries.json": IndustriesFile,
    "cards.json": CardsFile,
    "markets.json": MarketsFile,
    "distant_market.json": DistantMarketFile,
    "income.json": bd.IncomeTable,
}
"""The rules' files; ``layout.json`` (drawing only) is read with the family's loader."""


class Lancashire(bd.BoardData[Tile]):
    """Everything the rules need from the data, as index tables."""

    def __init__(self, directory: Path = DATA) -> None:
        self.files = DataSet(directory, FILES)
        self.manifest, docs = self.files.manifest, self.files.docs
        self.rules: RulesFile = docs["rules.json"]
        self._board(docs["board.json"], docs["links.json"])
        self._industries(docs["industries.json"])
        self._cards(docs["cards.json"])
        self._markets(docs["markets.json"], docs["distant_market.json"])
        self._rules(docs["income.json"])
        self.layout = self.read_layout(
            directory / "layout.json", markets=["coal", "iron", "distant_market"]
        )

    def _board(self, board: BoardFile, links: LinksFile) -> None:
        f = "board.json"
        self._read_board(board.locations, INDUSTRIES, f, off_board="external")
        self.loc_icons = [loc.link_icons for loc in board.locations]
        self.trade_icon_locs = frozenset(
            i for i, loc in enumerate(board.locations) if loc.market_trade_icon
        )

        f = "links.json"
        self._read_links(links.links, f)
        printed = {frozenset(ns) for ns in self.link_nodes}
        self.virtual_links = []
        for i, vl in enumerate(links.virtual_links):
            at = f"virtual_links[{i}] {vl.nodes}"
            nodes = tuple(sorted(self._link_nodes(vl.nodes, f, at)))
            require(
                frozenset(nodes) not in printed, f, f"{at}: is a printed line, not a virtual link"
            )
            self.virtual_links.append(nodes)

    def _industries(self, inds: IndustriesFile) -> None:
        f = "industries.json"
        self._read_tiles(inds, f, lowest=0)
        require(set(inds.industries) == set(INDUSTRIES), f, "industries: one per industry")
        self.kinds = [inds.industries[name] for name in INDUSTRIES]
        for name, kind, rows in zip(INDUSTRIES, self.kinds, self.tiles, strict=True):
            require(
                (kind.produces is not None) == (kind.flips == "emptied"),
                f,
                f"industries.{name}: a tile flips when emptied exactly when it produces cubes",
            )
            for r in rows:
                at = f"tiles.{name}[level {r.level}]"
                require(
                    (r.cubes > 0) == (kind.produces is not None and not r.locked),
                    f,
                    f"{at}.produce: only coal mines and iron works produce cubes",
                )
                require(
                    r.locked == (r.level == 0) and (not r.locked or r.develop),
                    f,
                    f"{at}: only a level 0 tile is never built, and it must be developable",
                )

    def _cards(self, cards: CardsFile) -> None:
        f = "cards.json"
        defs, copies = bd.read_cards(cards.location, cards.industry, self, self.towns, f)
        self.cards, self.deck_copies = bd.card_table(defs, copies, cards.deck_size, f)
        r, tile = self.rules, cards.under_deck_tile_per_player
        for p in bd.PLAYER_COUNTS:
            n, size, rounds = int(p), sum(copies[p]), self.rules.rounds_per_era.get(p, 0)
            # Each era ends on its last card: the Canal Era plays all but the cards under the
            # Deck tile (one action in round 1), the Rail Era plays every card.
            canal = n * (r.actions_first_round + (rounds - 1) * r.actions_per_turn)
            rail = n * rounds * r.actions_per_turn
            require(
                size - n * tile.canal == canal and size == rail,
                f,
                f"deck_size.{p}: {size} cards do not last {rounds} rounds in each era",
            )
        require(
            cards.printed_cards - cards.removed_at_setup >= cards.deck_size["4"],
            f,
            "printed_cards: fewer than the largest deck",
        )
        self.under_deck_tile = (tile.canal, tile.rail)

    def _markets(self, markets: MarketsFile, dm: DistantMarketFile) -> None:
        self._read_markets(markets.coal, markets.iron, "markets.json")
        self.markets = markets

        f = "distant_market.json"
        spaces = dm.income_spaces
        require(
            bool(spaces) and spaces == sorted(spaces, reverse=True),
            f,
            "income_spaces: must not rise down the track",
        )
        require(0 <= dm.start < len(spaces), f, "start: not a space of the track")
        require(set(dm.tiles) == set(bd.PLAYER_COUNTS), f, "tiles: give 2, 3 and 4 players")
        self.demand_tiles: dict[int, list[int]] = {}
        for p, by_step in dm.tiles.items():
            steps = []
            for step, n in by_step.items():
                ok = step.isdigit() and n > 0
                require(ok, f, f"tiles.{p}.{step}: steps and copies must be whole numbers > 0")
                steps += [int(step)] * n
            self.demand_tiles[int(p)] = sorted(steps)
        self.distant_market = dm

    def _rules(self, income: bd.IncomeTable) -> None:
        f, r = "rules.json", self.rules
        require(set(r.rounds_per_era) == set(bd.PLAYER_COUNTS), f, "rounds_per_era: 2, 3 and 4")
        require(r.eras == ["canal", "rail"], f, "eras: the Canal Era, then the Rail Era")
        self._read_rules(r, f, eras=len(r.eras))
        self._read_income(income, "income.json")


@cache
def lancashire() -> Lancashire:
    """The shipped data, loaded once per process."""
    return Lancashire()
