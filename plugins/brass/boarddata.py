"""The data shapes every Brass board shares, read and checked once for all variants.

A variant's ``data.py`` declares the Structs of its own files, on the records here for
what Brass games have in common (tile rows, tile tables, cards per player count, market
ladders, the income track, the shared rule numbers), and calls :class:`BoardData`'s
``_read_*`` steps for their checks: locations with their build spaces ("slots"), link
lines, the tile tables behind the player mat, coal/iron markets, the income track and the
turn structure. :class:`BoardData` holds the resulting index tables: locations in file
order, slots numbered across the board in location order, links in file order,
industries in the variant's order. Headers, manifests and provisional facts are
:mod:`plugins.brass.dataset`'s.

Messages name the file and the field (``links[3] ['a', 'b'].nodes: ...``), so a broken
file points at its own line; every check raises :class:`plugins.brass.data.DataError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar

import msgspec

from plugins.brass.cards import CardDef, CardTable
from plugins.brass.data import CodedCheck, DataError, refuse, require, uncoded
from plugins.brass.graph import BoardGraph
from plugins.brass.income import IncomeTrack
from plugins.brass.layout import Layout, load_layout
from plugins.brass.market import Market
from plugins.brass.mat import TileStacks
from plugins.brass.scoring import BOARD_TIE_BREAKS
from plugins.brass.state import TurnRules

PLAYER_COUNTS = ("2", "3", "4")
Amount = Annotated[int, msgspec.Meta(ge=0)]
"""A printed number that cannot be negative (a cost, a reward, icons): decoding refuses a
negative one, naming the field."""


class Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A data file's record: a misspelt or stray field is refused, never ignored."""


class PlayerRange(Strict):
    min: int
    max: int


class LinkData(Strict):
    nodes: list[str]
    canal: bool
    rail: bool


class LocationCards(Strict):
    location: str
    copies: dict[str, int]


class IndustryCards(Strict):
    industries: list[str]
    copies: dict[str, int]


TileT = TypeVar("TileT", bound="BoardTile")


class BoardTile(Strict):
    """One row of an industry's tile table, the columns every Brass board prints (a
    variant's row adds its own: Birmingham's beer and production per era, Lancashire's
    cubes)."""

    level: int
    count: int
    money: Amount
    coal: Amount
    iron: Amount
    income: Amount
    """Income-track spaces gained when the tile flips."""
    vp: Amount
    link_icons: Amount
    canal: bool
    rail: bool
    develop: bool

    def buildable(self, era: int) -> bool:
        return self.rail if era else self.canal


class TileTables(Strict, Generic[TileT]):
    """``industries.json``: the industries in index order, and each one's tile table."""

    order: list[str]
    tiles: dict[str, list[TileT]]


class CardCopies(Strict):
    """``cards.json``: location and industry cards with their copies per player count, and
    the deck each player count must add up to."""

    location: list[LocationCards]
    industry: list[IndustryCards]
    deck_size: dict[str, int]


class PriceLadder(Strict):
    """A market's price ladder: its prices cheapest first and the cubes it starts with
    (on its dearest spaces)."""

    prices: list[Amount]
    initial: Amount


class MarketLadder(PriceLadder):
    """A coal or iron market that sells at ``empty_price`` once it is empty."""

    empty_price: int


class IncomeTable(Strict):
    """``income.json``: the income level of each space of the track, and the start."""

    space_to_level: list[int]
    start_space: int


class BoardRules(Strict, kw_only=True):
    """``rules.json``'s numbers every Brass board has (a variant adds its own)."""

    players: PlayerRange
    starting_money: int
    hand_size: int
    face_down_discards: int
    actions_per_turn: int
    actions_first_round: int
    canal_link_cost: int
    rail_link_cost: int
    double_rail_cost: int
    coal_per_rail: int
    link_tiles: int
    """Link tiles each player owns: the most it can have on the board at once."""
    tie_breaks: list[str] = msgspec.field(default_factory=lambda: ["income_level", "money"])
    """What breaks VP ties, in order (:data:`plugins.brass.scoring.BOARD_TIE_BREAKS`);
    Birmingham's rule by default: the income level, then money."""


class LoanTerms(Strict):
    """A loan on offer: its money for so many income levels."""

    money: int
    levels: int


class RuleSwitches(BoardRules):
    """``rules.json`` of a board that gives the family's rule switches in its data (where
    its rule text may differ from Birmingham's); the variant takes them with
    :meth:`plugins.brass.variant.Variant.take_switches`."""

    overbuild_opponent_industries: list[str]
    """Industries an opponent's tile of which may be overbuilt when its resource is gone."""
    first_link_anywhere: bool
    single_icon_space_first: bool
    canal_one_own_industry_per_location: bool
    shortfall_tile_refund_divisor: int
    canal_links_per_action: int
    rail_links_per_action: int
    loans: list[LoanTerms]
    """The loans on offer, fewest income levels first (several: the loan move names the
    money)."""


class BoardData(Generic[TileT]):
    """Index tables of a board: a variant's loader calls the ``_read_*`` steps in order
    (locations, spaces per location, links, tiles) and adds its own tables around them;
    ``tiles[industry]`` are its tile rows (its own Struct), lowest level first."""

    tiles: list[list[TileT]]
    files: Any = None
    """The board's :class:`~plugins.brass.dataset.DataSet`, when it is read from one."""

    def _read_locations(self, locations: Sequence[Any], industries: Sequence[str]) -> None:
        """Index the locations by id and prepare empty build-space tables."""
        self.industries = tuple(industries)
        self.ind_index = {name: i for i, name in enumerate(industries)}
        self.locations = locations
        self.loc_index: dict[str, int] = {}
        self.n_locations = len(locations)
        self.slot_loc: list[int] = []
        self.slot_icons: list[tuple[int, ...]] = []
        self.loc_slots: list[list[int]] = [[] for _ in locations]

    def _read_board(
        self, locations: Sequence[Any], industries: Sequence[str], file: str, off_board: str,
        read: Callable[[int, Any, str], None] = lambda li, loc, at: None,
    ) -> None:  # fmt: skip
        """Index ``locations``: first those with build spaces (``slots``), then the ones off
        the board, of kind ``off_board`` (Birmingham's merchants, Lancashire's external
        locations), which have none; ``read(li, location, at)`` reads what a variant adds
        to each location (``at`` names it in messages). Every industry needs a space."""
        self._read_locations(locations, industries)
        after = False  # an off-board location was read
        for li, loc in enumerate(locations):
            at = self._add_location(li, file)
            on_board = loc.kind != off_board
            require(
                not (on_board and after),
                file,
                f"{at}: locations with build spaces come before the {off_board} ones",
            )
            require(
                on_board or not loc.slots,
                file,
                f"{at}.slots: {off_board} locations have no build spaces",
            )
            read(li, loc, at)
            if on_board:
                self._add_spaces(li, loc.slots, file, at)
            after = after or not on_board
        self._end_spaces()
        self.towns = frozenset(i for i, loc in enumerate(locations) if loc.kind == "town")
        """The locations of kind ``town`` (location cards name them)."""
        for k, name in enumerate(industries):
            require(bool(self.industry_locs[k]), file, f"locations: no space takes {name}")

    def _add_location(self, li: int, file: str) -> str:
        """Index location ``li`` (refusing a repeated id); returns its name for messages."""
        loc = self.locations[li]
        at = f"locations[{li}] ({loc.id})"
        require(loc.id not in self.loc_index, file, f"{at}.id: appears twice")
        self.loc_index[loc.id] = li
        return at

    def _add_spaces(self, li: int, slots: Sequence[Sequence[str]], file: str, at: str) -> None:
        """Number location ``li``'s build spaces, each showing one or more industry icons."""
        require(bool(slots), file, f"{at}.slots: a town needs build spaces")
        for si, icons in enumerate(slots):
            unknown = [n for n in icons if n not in self.ind_index]
            require(
                bool(icons) and not unknown,
                file,
                f"{at}: unknown industry in slots[{si}] {list(icons)}",
            )
            self.loc_slots[li].append(len(self.slot_loc))
            self.slot_loc.append(li)
            self.slot_icons.append(tuple(self.ind_index[n] for n in icons))

    def _end_spaces(self) -> None:
        self.n_slots = len(self.slot_loc)
        self.industry_locs: list[frozenset[int]] = [
            frozenset(self.slot_loc[s] for s, icons in enumerate(self.slot_icons) if k in icons)
            for k in range(len(self.industries))
        ]
        """Per industry, the locations with a build space showing its icon."""
        self.loc_pairs: list[list[tuple[int, int]]] = [
            [(slot, k) for slot in slots for k in self.slot_icons[slot]] for slots in self.loc_slots
        ]
        """Per location, its (build space, industry shown) pairs in board order: the
        candidates of a build listing."""
        self.single_icon_spaces: list[dict[int, tuple[int, ...]]] = [
            {
                k: tuple(i for i in slots if self.slot_icons[i] == (k,))
                for k in range(len(self.industries))
            }
            for slots in self.loc_slots
        ]
        """Per location, per industry: its build spaces showing that icon alone (while one
        is empty, no shared space of the location takes the industry)."""

    def _read_links(self, links: Sequence[LinkData], file: str, most_nodes: int = 2) -> None:
        """The link lines (a line may touch up to ``most_nodes`` locations, each line a
        canal, a rail or both) and the graph, checked by :func:`line_graph`."""
        for i, link in enumerate(links):
            require(
                link.canal or link.rail, file, f"links[{i}] {link.nodes}: neither canal nor rail"
            )
        named = [(f"links[{i}] {link.nodes}", link.nodes) for i, link in enumerate(links)]
        ids = [loc.id for loc in self.locations]
        self.graph = line_graph(ids, named, file, "links", most_nodes)
        self.link_canal: list[bool] = [link.canal for link in links]
        self.link_rail: list[bool] = [link.rail for link in links]
        self.link_nodes = self.graph.link_nodes
        self.n_links = len(links)
        # A line's name is its first two locations': a third (a farm brewery) is a detour.
        self.link_names = [
            "~".join(sorted(self.locations[n].id for n in ns[:2])) for ns in self.link_nodes
        ]

    def _link_nodes(
        self, names: Sequence[str], file: str, at: str, most_nodes: int = 2
    ) -> tuple[int, ...]:
        """A line's locations in file order (:func:`line_nodes`)."""
        return line_nodes(self.loc_index, names, file, at, most_nodes)

    def _read_stacks(self, tables: Sequence[Sequence[BoardTile]], file: str, lowest: int) -> None:
        """The mat's stacks from each industry's tile table, whose levels must run from 1
        (or from ``lowest``, 0 or 1, when a variant has level 0 tiles) without a gap."""
        self.first_level: list[int] = []
        for name, rows in zip(self.industries, tables, strict=True):
            first = rows[0].level if rows else 1
            require(
                lowest <= first <= 1
                and [r.level for r in rows] == list(range(first, first + len(rows))),
                file,
                f"tiles.{name}: levels must run {'0 or ' if lowest < 1 else ''}1, 2, 3, ..."
                " in order",
            )
            require(all(r.count > 0 for r in rows), file, f"tiles.{name}: count not positive")
            self.first_level.append(first)
        self.stacks = TileStacks([[r.count for r in rows] for rows in tables], self.first_level)

    def _read_tiles(self, tables: TileTables[TileT], file: str, lowest: int = 1) -> None:
        """``tiles`` in the industries' order, and the mat's stacks (:meth:`_read_stacks`)."""
        names = self.industries
        require(tuple(tables.order) == names, file, f"order: must be {', '.join(names)}")
        require(set(tables.tiles) == set(names), file, "tiles: one table per industry")
        self.tiles = [tables.tiles[name] for name in names]
        self._read_stacks(self.tiles, file, lowest)

    def _read_markets(self, coal: MarketLadder, iron: MarketLadder, file: str) -> None:
        """The coal and iron markets, and the cubes each starts with."""
        self.coal_market = _market(coal, "coal", file)
        self.iron_market = _market(iron, "iron", file)
        self.coal_initial, self.iron_initial = coal.initial, iron.initial

    def _read_income(self, table: IncomeTable, file: str) -> None:
        """The income track (:func:`income_track`)."""
        self.income = income_track(table, file)

    def _read_rules(
        self, rules: BoardRules, file: str, eras: int, wild_cards: tuple[int, ...] = ()
    ) -> None:
        """The shared numbers' checks, and the turn structure they give."""
        require(rules.players.min >= 2 and rules.players.max <= 4, file,
                "players: a Brass game is for 2 to 4")  # fmt: skip
        require(rules.double_rail_cost > rules.rail_link_cost, file,
                "double_rail_cost: not above one rail")  # fmt: skip
        require(all(t in BOARD_TIE_BREAKS for t in rules.tie_breaks), file,
                f"tie_breaks: each must be one of {', '.join(BOARD_TIE_BREAKS)}")  # fmt: skip
        if isinstance(rules, RuleSwitches):
            require(all(n in self.ind_index for n in rules.overbuild_opponent_industries),
                    file, "overbuild_opponent_industries: unknown industry")  # fmt: skip
            levels = [loan.levels for loan in rules.loans]
            require(bool(levels) and levels == sorted(set(levels)) and levels[0] > 0, file,
                    "loans: income levels must rise from one option to the next")  # fmt: skip
        self.turn_rules = TurnRules(
            hand_size=rules.hand_size, actions_per_turn=rules.actions_per_turn,
            actions_first_round=rules.actions_first_round, eras=eras, wild_cards=wild_cards,
        )  # fmt: skip

    def read_layout(self, path: Path, **ids: Sequence[str]) -> Layout:
        """``layout.json``, checked to place every location, build space and link line of
        the board by its id, and the variant's own parts (``ids``, by :class:`Layout`
        field)."""
        board = {"locations": [loc.id for loc in self.locations],
                 "spaces": [self.slot_name(s) for s in range(self.n_slots)],
                 "links": self.link_names}  # fmt: skip
        layout = load_layout(path, {**board, **ids})
        if self.files is not None:  # a data set holds every file to its manifest's version
            self.files.check_version(path.name, layout.header)
        return layout

    def provisional(self) -> dict[str, list[Any]]:
        """Per file of the board's data set, the facts still marked provisional (for the
        metadata and the guide)."""
        return self.files.provisional()  # type: ignore[no-any-return]

    def tile(self, industry: int, level: int) -> TileT:
        """The row of ``level`` in ``industry``'s tile table."""
        return self.tiles[industry][level - self.first_level[industry]]

    def slot_name(self, slot: int) -> str:
        loc = self.slot_loc[slot]
        return f"{self.locations[loc].id}:{self.loc_slots[loc].index(slot)}"


def line_nodes(
    index: Mapping[str, int], names: Sequence[str], file: str, at: str,
    most_nodes: int = 2, check: CodedCheck = uncoded,
) -> tuple[int, ...]:  # fmt: skip
    """A line's locations (``index`` by id) in file order: all known, up to ``most_nodes``
    of them and distinct."""
    unknown = [n for n in names if n not in index]
    check(
        not unknown, file, "unknown_reference", f"{at}.nodes: link to unknown {', '.join(unknown)}"
    )
    nodes = tuple(index[n] for n in names)
    how_many = "two" if most_nodes == 2 else f"2 to {most_nodes}"
    check(
        len(set(nodes)) == len(nodes) and 2 <= len(nodes) <= most_nodes,
        file,
        "bad_value",
        f"{at}.nodes: must be {how_many} distinct locations",
    )
    return nodes


def line_graph(
    places: Sequence[str], lines: Sequence[tuple[str, Sequence[str]]], file: str, field: str,
    most_nodes: int = 2, check: CodedCheck = uncoded,
) -> BoardGraph:  # fmt: skip
    """The graph of a board's lines over ``places`` (ids in index order); each line comes
    with its name for messages (``at``). The checks every Brass board's lines pass: ends
    known and distinct (:func:`line_nodes`), no line twice, every place reached by a line,
    and the lines joining the whole board (``field`` names the lines in messages)."""
    index = {place: i for i, place in enumerate(places)}
    seen: set[frozenset[int]] = set()
    nodes_of: list[tuple[int, ...]] = []
    for at, names in lines:
        nodes = line_nodes(index, names, file, at, most_nodes, check)
        check(frozenset(nodes) not in seen, file, "duplicate_id", f"{at}: the line appears twice")
        seen.add(frozenset(nodes))
        nodes_of.append(nodes)
    graph = BoardGraph(len(places), nodes_of)
    for i, place in enumerate(places):
        check(bool(graph.node_links[i]), file, "bad_value", f"{field}: no line reaches {place}")
    joined = graph.components([0] * len(nodes_of))
    check(len(set(joined)) == 1, file, "bad_graph", f"{field}: the lines leave the board in pieces")
    return graph


def income_track(table: IncomeTable, file: str, check: CodedCheck = uncoded) -> IncomeTrack:
    """The income track, on which every player starts at level 0."""
    try:
        track = IncomeTrack(table.space_to_level, table.start_space)
    except DataError as exc:
        refuse(file, "bad_value", str(exc), check)
    check(track.level(table.start_space) == 0, file, "rulebook_mismatch",
          "start_space: not level 0")  # fmt: skip
    return track


def read_cards(
    location: Sequence[LocationCards],
    industry: Sequence[IndustryCards],
    board: BoardData[Any],
    towns: frozenset[int],
    file: str,
) -> tuple[list[CardDef], dict[str, list[int]]]:
    """The location and industry cards with their copies per player count (indexed like
    the cards), refusing an unknown town or industry and copies that shrink with players."""
    defs: list[CardDef] = []
    copies: dict[str, list[int]] = {p: [] for p in PLAYER_COUNTS}
    for i, lc in enumerate(location):
        at = f"location[{i}] ({lc.location})"
        li = board.loc_index.get(lc.location, -1)
        require(li in towns, file, f"{at}.location: not a town of board.json")
        defs.append(CardDef(f"location:{lc.location}", "location", location=li))
        _card_copies(lc.copies, copies, file, at)
    for i, ic in enumerate(industry):
        at = f"industry[{i}] {ic.industries}"
        require(
            bool(ic.industries) and all(n in board.ind_index for n in ic.industries),
            file,
            f"{at}.industries: unknown industry",
        )
        ids = tuple(board.ind_index[n] for n in ic.industries)
        defs.append(CardDef("industry:" + "/".join(ic.industries), "industry", industries=ids))
        _card_copies(ic.copies, copies, file, at)
    return defs, copies


def _card_copies(by_count: dict[str, int], into: dict[str, list[int]], file: str, at: str) -> None:
    require(set(by_count) == set(PLAYER_COUNTS), file, f"{at}.copies: give 2, 3 and 4 players")
    n = [by_count[p] for p in PLAYER_COUNTS]
    require(min(n) >= 0 and n == sorted(n), file, f"{at}.copies: must not shrink with players")
    for p in PLAYER_COUNTS:
        into[p].append(by_count[p])


def card_table(
    defs: list[CardDef], copies: dict[str, list[int]], deck_size: dict[str, int], file: str
) -> tuple[CardTable, dict[int, list[int]]]:
    """The card table and the deck per player count, each adding up to ``deck_size``."""
    for p in PLAYER_COUNTS:
        size, want = sum(copies[p]), deck_size.get(p)
        message = f"deck_size.{p}: the {p}-player deck has {size} cards, not {want}"
        require(size == want, file, message)
    try:
        cards = CardTable(defs)
    except ValueError:
        require(False, file, "a location or industry card is listed twice")
    return cards, {int(p): copies[p] for p in PLAYER_COUNTS}


def check_ladder(ladder: PriceLadder, name: str, file: str, check: CodedCheck = uncoded) -> None:
    """A price ladder cheapest first, with its starting cubes on it."""
    prices = ladder.prices
    check(0 <= ladder.initial <= len(prices), file, "bad_value", f"{name}.initial: out of range")
    check(bool(prices) and prices == sorted(prices), file, "bad_value",
          f"{name}.prices: unsorted")  # fmt: skip


def _market(ladder: MarketLadder, name: str, file: str) -> Market:
    """A market's price ladder (:func:`check_ladder`), and a price once empty above it."""
    check_ladder(ladder, name, file)
    require(ladder.empty_price > ladder.prices[-1], file,
            f"{name}.empty_price: not above the ladder")  # fmt: skip
    return Market(ladder.prices, ladder.empty_price)
