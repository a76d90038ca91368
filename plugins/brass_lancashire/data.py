"""Brass: Lancashire's data files (``data/*.json``), loaded and validated once.

One file per concept (``data/README.md`` gives each file's source and confidence):
``rules.json`` (money, turn, loans, link costs, rule switches), ``board.json`` (towns with
their build spaces, external locations), ``links.json`` (canal and rail lines),
``industries.json`` (the tile tables), ``cards.json`` (copies per player count),
``markets.json`` (coal and iron), ``distant_market.json`` (demand track and tiles),
``income.json`` (the progress track) and ``layout.json`` (where clients draw the board).

Every file opens with a ``"_"`` header: its version (which must be the manifest's, so a
half-replaced set cannot load), its confidence and its *provisional* facts, each a path into
the file with the value chosen and the alternative. A mark whose path no longer leads to its
value is refused: a fact cannot be changed while still claiming to be the doubtful one.

Indices follow Birmingham's (:mod:`plugins.brass_birmingham.data`): locations in file order
(towns, then external locations), build spaces ("slots") numbered across the board in
location order, links in file order, industries in ``industries.json``'s ``order``.
Any problem raises :class:`plugins.brass.data.DataError` naming the file and the field.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import msgspec

from plugins.brass.cards import CardDef, CardTable
from plugins.brass.data import DataError, load, require
from plugins.brass.graph import BoardGraph
from plugins.brass.income import IncomeTrack
from plugins.brass.layout import Layout, load_layout
from plugins.brass.market import Market
from plugins.brass.state import TurnRules

DATA = Path(__file__).parent / "data"
PLAYER_COUNTS = ("2", "3", "4")
INDUSTRIES = ("cotton", "coal", "iron", "port", "shipyard")
COTTON, COAL, IRON, PORT, SHIPYARD = range(5)
TIE_BREAKS = ("income_space", "income_level", "money")


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    pass


class Provisional(_Strict):
    path: list[str | int]
    value: Any
    alternative: Any
    why: str


class Header(_Strict):
    about: str
    version: str
    source: str
    confidence: Literal["high", "medium", "low"]
    provisional: list[Provisional] = []


class Manifest(_Strict):
    title: str
    edition: str
    version: str
    source: str
    files: list[str]


class Loan(_Strict):
    money: int
    levels: int


class DoubleActionBuild(_Strict):
    cards: int
    actions: int
    in_one_action_round: bool


class MoneyVp(_Strict):
    per: int
    vp: int


class PlayerRange(_Strict):
    min: int
    max: int


class RulesFile(_Strict):
    header: Header = msgspec.field(name="_")
    players: PlayerRange
    eras: list[str]
    rounds_per_era: dict[str, int]
    starting_money: int
    starting_vp: int
    hand_size: int
    face_down_discards: int
    actions_per_turn: int
    actions_first_round: int
    loans: list[Loan]
    no_loans_final_rounds_rail_era: int
    """The Rail Era's last rounds, once the draw deck is empty: no Loan action."""
    canal_link_cost: int
    canal_links_per_action: int
    rail_link_cost: int
    double_rail_cost: int
    rail_links_per_action: int
    coal_per_rail: int
    link_tiles: int
    double_action_build: DoubleActionBuild
    canal_one_own_industry_per_location: bool
    first_build_anywhere: bool
    first_link_anywhere: bool
    single_icon_space_first: bool
    overbuild_opponent_industries: list[str]
    level_removed_after_canal_era: int
    money_vp: MoneyVp
    shortfall_tile_refund_divisor: int
    shortfall_vp_per_money: int
    income_after_final_round: bool
    tie_breaks: list[str]
    general_supply_unlimited: bool
    components: dict[str, int]


class LocationData(_Strict):
    id: str
    name: str
    kind: Literal["town", "external"]
    slots: list[list[str]]
    link_icons: int
    """Printed on the board (external locations); industries add theirs when flipped."""
    market_trade_icon: bool


class BoardFile(_Strict):
    header: Header = msgspec.field(name="_")
    locations: list[LocationData]


class LinkData(_Strict):
    nodes: list[str]
    canal: bool
    rail: bool


class VirtualLink(_Strict):
    nodes: list[str]
    option: Literal["classic"]
    carries_coal: bool
    scores: bool


class LinksFile(_Strict):
    header: Header = msgspec.field(name="_")
    links: list[LinkData]
    virtual_links: list[VirtualLink]


class IndustryKind(_Strict):
    name: str
    produces: Literal["coal", "iron"] | None
    flips: Literal["sold", "sold_through", "emptied", "built"]


class Tile(_Strict):
    level: int
    count: int
    money: int
    coal: int
    iron: int
    produce: int
    income: int
    """Income-track spaces gained when the tile flips."""
    vp: int
    link_icons: int
    canal: bool
    rail: bool
    develop: bool

    @property
    def locked(self) -> bool:
        """Never built (level 0 shipyards): it leaves the mat only by Develop."""
        return not (self.canal or self.rail)

    def buildable(self, era: int) -> bool:
        return self.rail if era else self.canal


class IndustriesFile(_Strict):
    header: Header = msgspec.field(name="_")
    order: list[str]
    industries: dict[str, IndustryKind]
    tiles: dict[str, list[Tile]]


class LocationCards(_Strict):
    location: str
    copies: dict[str, int]


class IndustryCards(_Strict):
    industries: list[str]
    copies: dict[str, int]


class DeckTile(_Strict):
    canal: int
    rail: int


class CardsFile(_Strict):
    header: Header = msgspec.field(name="_")
    location: list[LocationCards]
    industry: list[IndustryCards]
    deck_size: dict[str, int]
    printed_cards: int
    removed_at_setup: int
    under_deck_tile_per_player: DeckTile


class MarketData(_Strict):
    prices: list[int]
    initial: int
    empty_price: int
    needs_trade_connection: bool


class MarketsFile(_Strict):
    header: Header = msgspec.field(name="_")
    coal: MarketData
    iron: MarketData
    port_tiles_are_trade_icons: bool


class DistantMarketFile(_Strict):
    header: Header = msgspec.field(name="_")
    income_spaces: list[int]
    """Income spaces beside each demand space from the top; the space after the last is X."""
    start: int
    tiles: dict[str, dict[str, int]]
    """Per player count: steps down the track -> tiles showing it."""
    needs_trade_connection: bool
    reset_after_canal_era: bool


class IncomeFile(_Strict):
    header: Header = msgspec.field(name="_")
    space_to_level: list[int]
    start_space: int


FILES: dict[str, type] = {
    "rules.json": RulesFile,
    "board.json": BoardFile,
    "links.json": LinksFile,
    "industries.json": IndustriesFile,
    "cards.json": CardsFile,
    "markets.json": MarketsFile,
    "distant_market.json": DistantMarketFile,
    "income.json": IncomeFile,
}
"""The rules' files; ``layout.json`` (drawing only) is read with the family's loader."""


class Lancashire:
    """Everything the rules need from the data, as index tables."""

    def __init__(self, directory: Path = DATA) -> None:
        self.manifest = load(directory / "manifest.json", Manifest)
        want = [*FILES, "layout.json"]
        require(
            sorted(self.manifest.files) == sorted(want),
            "manifest.json",
            f"files: must list exactly {', '.join(want)}",
        )
        self.files: dict[str, Any] = {}
        for name, kind in FILES.items():
            self.files[name] = self._load(directory / name, kind)
        self.rules: RulesFile = self.files["rules.json"]
        self._board(self.files["board.json"], self.files["links.json"])
        self._industries(self.files["industries.json"])
        self._cards(self.files["cards.json"])
        self._markets(self.files["markets.json"], self.files["distant_market.json"])
        self._rules(self.files["income.json"])
        self.layout = self._layout(directory / "layout.json")

    def _load(self, path: Path, kind: type) -> Any:
        doc = load(path, kind)
        header: Header = doc.header
        require(
            header.version == self.manifest.version,
            path.name,
            f"_.version {header.version!r} is not the manifest's {self.manifest.version!r}",
        )
        raw = msgspec.json.decode(path.read_bytes())
        for i, mark in enumerate(header.provisional):
            node: Any = raw
            for step in mark.path:
                ok = (isinstance(node, dict) and isinstance(step, str) and step in node) or (
                    isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
                )
                require(ok, path.name, f"_.provisional[{i}].path {mark.path} leads nowhere")
                node = node[step]
            require(
                node == mark.value,
                path.name,
                f"_.provisional[{i}]: {mark.path} holds {node!r}, not the marked {mark.value!r}",
            )
        return doc

    def _board(self, board: BoardFile, links: LinksFile) -> None:
        f = "board.json"
        ind_index = {name: i for i, name in enumerate(INDUSTRIES)}
        self.locations = board.locations
        self.loc_index: dict[str, int] = {}
        self.slot_loc: list[int] = []
        self.slot_icons: list[tuple[int, ...]] = []
        self.loc_slots: list[list[int]] = [[] for _ in board.locations]
        towns_done = False
        for li, loc in enumerate(board.locations):
            at = f"locations[{li}] ({loc.id})"
            require(loc.id not in self.loc_index, f, f"{at}.id: appears twice")
            self.loc_index[loc.id] = li
            require(loc.link_icons >= 0, f, f"{at}.link_icons: negative")
            if loc.kind == "external":
                towns_done = True
                require(not loc.slots, f, f"{at}.slots: an external location has no spaces")
                continue
            require(not towns_done, f, f"{at}: towns must come before external locations")
            require(bool(loc.slots), f, f"{at}.slots: a town needs build spaces")
            for si, icons in enumerate(loc.slots):
                unknown = [n for n in icons if n not in ind_index]
                require(bool(icons) and not unknown, f, f"{at}.slots[{si}]: bad icons {icons}")
                self.loc_slots[li].append(len(self.slot_loc))
                self.slot_loc.append(li)
                self.slot_icons.append(tuple(ind_index[n] for n in icons))
        self.n_locations, self.n_slots = len(board.locations), len(self.slot_loc)
        self.towns = frozenset(i for i, loc in enumerate(board.locations) if loc.kind == "town")
        self.trade_icon_locs = frozenset(
            i for i, loc in enumerate(board.locations) if loc.market_trade_icon
        )
        self.industry_locs = [
            frozenset(self.slot_loc[s] for s, icons in enumerate(self.slot_icons) if k in icons)
            for k in range(len(INDUSTRIES))
        ]
        for k, name in enumerate(INDUSTRIES):
            require(bool(self.industry_locs[k]), f, f"locations: no space takes {name}")

        f = "links.json"
        nodes_of: list[tuple[int, ...]] = []
        self.link_canal: list[bool] = []
        self.link_rail: list[bool] = []
        for i, link in enumerate(links.links):
            at = f"links[{i}] {link.nodes}"
            nodes = self._link_nodes(link.nodes, f, at)
            require(link.canal or link.rail, f, f"{at}: neither canal nor rail")
            require(nodes not in nodes_of, f, f"{at}: the line appears twice")
            nodes_of.append(nodes)
            self.link_canal.append(link.canal)
            self.link_rail.append(link.rail)
        self.graph = BoardGraph(self.n_locations, nodes_of)
        self.n_links = len(nodes_of)
        self.link_names = ["~".join(sorted(self.locations[n].id for n in ns)) for ns in nodes_of]
        for li, loc in enumerate(self.locations):
            require(bool(self.graph.node_links[li]), f, f"links: no line reaches {loc.id}")
        joined = self.graph.components([0] * self.n_links)
        require(len(set(joined)) == 1, f, "links: the lines leave the board in pieces")
        self.virtual_links = []
        for i, vl in enumerate(links.virtual_links):
            at = f"virtual_links[{i}] {vl.nodes}"
            nodes = self._link_nodes(vl.nodes, f, at)
            require(nodes not in nodes_of, f, f"{at}: is a printed line, not a virtual link")
            self.virtual_links.append(nodes)

    def _link_nodes(self, names: list[str], f: str, at: str) -> tuple[int, ...]:
        unknown = [n for n in names if n not in self.loc_index]
        require(not unknown, f, f"{at}.nodes: unknown location {', '.join(unknown)}")
        nodes = tuple(sorted(self.loc_index[n] for n in names))
        require(len(set(nodes)) == len(nodes) == 2, f, f"{at}.nodes: must be two locations")
        return nodes

    def _industries(self, inds: IndustriesFile) -> None:
        f = "industries.json"
        require(tuple(inds.order) == INDUSTRIES, f, f"order: must be {', '.join(INDUSTRIES)}")
        require(set(inds.industries) == set(INDUSTRIES), f, "industries: one per industry")
        require(set(inds.tiles) == set(INDUSTRIES), f, "tiles: one table per industry")
        self.kinds = [inds.industries[name] for name in INDUSTRIES]
        self.tiles: list[list[Tile]] = []
        for name, kind in zip(INDUSTRIES, self.kinds, strict=True):
            require(
                (kind.produces is not None) == (kind.flips == "emptied"),
                f,
                f"industries.{name}: a tile flips when emptied exactly when it produces cubes",
            )
            rows = inds.tiles[name]
            first = rows[0].level if rows else 1
            require(
                first in (0, 1)
                and [r.level for r in rows] == list(range(first, first + len(rows))),
                f,
                f"tiles.{name}: levels must run 0 or 1, 2, 3, ... in order",
            )
            for r in rows:
                at = f"tiles.{name}[level {r.level}]"
                values = (r.count, r.money, r.coal, r.iron, r.produce, r.income, r.vp, r.link_icons)
                require(min(values) >= 0 and r.count > 0, f, f"{at}: count or cost out of range")
                require(
                    (r.produce > 0) == (kind.produces is not None and not r.locked),
                    f,
                    f"{at}.produce: only coal mines and iron works produce cubes",
                )
                require(
                    r.locked == (r.level == 0) and (not r.locked or r.develop),
                    f,
                    f"{at}: only a level 0 tile is never built, and it must be developable",
                )
            self.tiles.append(rows)
        self.first_level = [rows[0].level for rows in self.tiles]
        # Not the family's TileStacks yet: it numbers levels from 1 and reads level 0 as an
        # empty stack, and Lancashire's shipyards start with two level 0 tiles.
        self.stack_levels = [[r.level for r in rows for _ in range(r.count)] for rows in self.tiles]
        """Per industry, each tile's level in mat order (the lowest is taken first)."""

    def tile(self, industry: int, level: int) -> Tile:
        return self.tiles[industry][level - self.first_level[industry]]

    def _cards(self, cards: CardsFile) -> None:
        f = "cards.json"
        ind_index = {name: i for i, name in enumerate(INDUSTRIES)}
        defs: list[CardDef] = []
        copies: dict[str, list[int]] = {p: [] for p in PLAYER_COUNTS}
        for i, lc in enumerate(cards.location):
            at = f"location[{i}] ({lc.location})"
            li = self.loc_index.get(lc.location, -1)
            require(li in self.towns, f, f"{at}.location: not a town of board.json")
            defs.append(CardDef(f"location:{lc.location}", "location", location=li))
            self._card_copies(lc.copies, copies, at)
        for i, ic in enumerate(cards.industry):
            at = f"industry[{i}] {ic.industries}"
            require(
                bool(ic.industries) and all(n in ind_index for n in ic.industries),
                f,
                f"{at}.industries: unknown industry",
            )
            ids = tuple(ind_index[n] for n in ic.industries)
            defs.append(CardDef("industry:" + "/".join(ic.industries), "industry", industries=ids))
            self._card_copies(ic.copies, copies, at)
        try:
            self.cards = CardTable(defs)
        except ValueError:
            require(False, f, "a location or industry card is listed twice")
        r, tile = self.rules, cards.under_deck_tile_per_player
        for p in PLAYER_COUNTS:
            n, size, rounds = int(p), sum(copies[p]), self.rules.rounds_per_era.get(p, 0)
            require(size == cards.deck_size.get(p), f, f"deck_size.{p}: the cards add up to {size}")
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
        self.deck_copies = {int(p): copies[p] for p in PLAYER_COUNTS}
        self.under_deck_tile = (tile.canal, tile.rail)

    @staticmethod
    def _card_copies(by_count: dict[str, int], into: dict[str, list[int]], at: str) -> None:
        f = "cards.json"
        require(set(by_count) == set(PLAYER_COUNTS), f, f"{at}.copies: give 2, 3 and 4 players")
        n = [by_count[p] for p in PLAYER_COUNTS]
        require(min(n) >= 0 and n == sorted(n), f, f"{at}.copies: must not shrink with players")
        for p in PLAYER_COUNTS:
            into[p].append(by_count[p])

    def _markets(self, markets: MarketsFile, dm: DistantMarketFile) -> None:
        f = "markets.json"
        for name in ("coal", "iron"):
            m: MarketData = getattr(markets, name)
            require(0 <= m.initial <= len(m.prices), f, f"{name}.initial: out of range")
            require(bool(m.prices) and m.prices == sorted(m.prices), f, f"{name}.prices: unsorted")
            require(m.empty_price > max(m.prices), f, f"{name}.empty_price: not above the ladder")
        self.coal_market = Market(markets.coal.prices, markets.coal.empty_price)
        self.iron_market = Market(markets.iron.prices, markets.iron.empty_price)
        self.markets = markets

        f = "distant_market.json"
        spaces = dm.income_spaces
        require(
            bool(spaces) and min(spaces) >= 0 and spaces == sorted(spaces, reverse=True),
            f,
            "income_spaces: must not rise down the track",
        )
        require(0 <= dm.start < len(spaces), f, "start: not a space of the track")
        require(set(dm.tiles) == set(PLAYER_COUNTS), f, "tiles: give 2, 3 and 4 players")
        self.demand_tiles: dict[int, list[int]] = {}
        for p, by_step in dm.tiles.items():
            steps = []
            for step, n in by_step.items():
                ok = step.isdigit() and n > 0
                require(ok, f, f"tiles.{p}.{step}: steps and copies must be whole numbers > 0")
                steps += [int(step)] * n
            self.demand_tiles[int(p)] = sorted(steps)
        self.distant_market = dm

    def _rules(self, income: IncomeFile) -> None:
        f, r = "rules.json", self.rules
        require(r.players.min >= 2 and r.players.max <= 4, f, "players: Lancashire is for 2 to 4")
        require(set(r.rounds_per_era) == set(PLAYER_COUNTS), f, "rounds_per_era: 2, 3 and 4")
        require(r.eras == ["canal", "rail"], f, "eras: the Canal Era, then the Rail Era")
        levels = [loan.levels for loan in r.loans]
        require(
            bool(levels) and levels == sorted(set(levels)) and levels[0] > 0,
            f,
            "loans: income levels must rise from one option to the next",
        )
        require(r.double_rail_cost > r.rail_link_cost, f, "double_rail_cost: not above one rail")
        require(
            all(n in INDUSTRIES for n in r.overbuild_opponent_industries),
            f,
            "overbuild_opponent_industries: unknown industry",
        )
        require(
            all(t in TIE_BREAKS for t in r.tie_breaks),
            f,
            f"tie_breaks: each must be one of {', '.join(TIE_BREAKS)}",
        )
        try:
            self.income = IncomeTrack(income.space_to_level, income.start_space)
        except DataError as exc:
            require(False, "income.json", str(exc))
        require(
            self.income.level(self.income.start_space) == 0,
            "income.json",
            "start_space: not level 0",
        )
        self.turn_rules = TurnRules(
            hand_size=r.hand_size,
            actions_per_turn=r.actions_per_turn,
            actions_first_round=r.actions_first_round,
            eras=len(r.eras),
        )

    def _layout(self, path: Path) -> Layout:
        ids = {
            "locations": [loc.id for loc in self.locations],
            "spaces": [self.slot_name(s) for s in range(self.n_slots)],
            "merchant_spaces": [],
            "links": self.link_names,
            "markets": ["coal", "iron", "distant_market"],
        }
        layout = load_layout(path, ids)
        version = layout.header.get("version")
        require(version == self.manifest.version, path.name, f"_.version {version!r} is stale")
        return layout

    def slot_name(self, slot: int) -> str:
        loc = self.slot_loc[slot]
        return f"{self.locations[loc].id}:{self.loc_slots[loc].index(slot)}"

    def provisional(self) -> dict[str, list[Provisional]]:
        """Per file, the facts still marked provisional (for metadata and the guide)."""
        return {n: d.header.provisional for n, d in self.files.items() if d.header.provisional}


@cache
def lancashire() -> Lancashire:
    """The shipped data, loaded once per process."""
    return Lancashire()
