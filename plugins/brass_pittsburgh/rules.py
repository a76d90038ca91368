"""Everything the game derives once from its data set: boards, mat, cards, income track.

Card kinds follow the family's :mod:`plugins.brass.cards`: interchangeable cards share a
kind (every "Pittsburgh" card is one kind), so hands are sorted lists of ints. The kinds are
the same on both board sides: one per city named by some card, in the order the data lists
them, then one per industry icon.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from plugins.brass.build import card_reach
from plugins.brass.cards import CardDef, CardTable
from plugins.brass.income import IncomeTrack
from plugins.brass.state import TurnRules
from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.data import CUBES, Cost, IndustryCard, PittsburghData, default_data
from plugins.brass_pittsburgh.industries import card_builds
from plugins.brass_pittsburgh.links import LIGHT, site_rule
from plugins.brass_pittsburgh.markets import MarketLadder, market_ladders
from plugins.brass_pittsburgh.mat import MatGraph


class LinkTile(NamedTuple):
    """What a listing asks of a link tile: its cost, the cost's cubes, and its site rule
    (:func:`.links.site_rule`: pipeline?, replacement train / reserve pipeline?)."""

    cost: Cost
    resources: tuple[tuple[str, int], ...]
    rule: tuple[bool, bool]


Places = tuple[tuple[int, int, int], ...]
"""Build places (city, slot, oilfield -1) of industry slots."""


CardScope = tuple[int, frozenset[int], bool]
"""Where a card builds, which industries, whether the Oil City (see ``Rules.card_scopes``)."""


def card_name(card: object) -> str:
    return card.industry if isinstance(card, IndustryCard) else card.location  # type: ignore[attr-defined]


class Rules:
    """The data set, indexed for play. One instance serves every match."""

    def __init__(self, data: PittsburghData) -> None:
        self.data = data
        self.boards = {sid: PittsburghBoard(data, side) for sid, side in data.sides.items()}
        self.mat = MatGraph(data)
        self.train_carries: dict[str, str] = {"": "", LIGHT: ""} | {
            hid: next(iter(h.carries), "") for hid, h in data.heavy_trains.items()
        }
        """Per train tile id, the resource it carries ("" for none: light trains too)."""
        self.tile_holds: dict[str, str] = {"": ""} | {
            tid: next(iter(t.produces), "") for tid, t in data.mat.tiles.items()
        }
        """Per tile id (``""``: no tile), the resource its cubes are ("" for none)."""
        self.ladders: dict[str, list[dict[str, MarketLadder]]] = {
            sid: market_ladders(board.markets) for sid, board in self.boards.items()
        }
        self.cube_floor: dict[str, dict[str, int]] = {
            sid: {
                cube: min(
                    [board.vanderbilt_price(cube)]
                    + [
                        self.ladders[sid][m][cube].lowest
                        for m, _ in board.cube_markets.get(cube, ())
                    ]
                )
                for cube in CUBES
            }
            for sid, board in self.boards.items()
        }
        """Per side, per cube: the least a market or Vanderbilt ever asks for one."""
        self.income = IncomeTrack(data.income_track.space_to_level, data.income_track.start_space)
        c = data.constants
        self.turn_rules = TurnRules(
            hand_size=c.hand_size, actions_per_turn=c.actions_per_turn,
            actions_first_round=c.actions_first_round_era1, eras=c.eras,
        )  # fmt: skip
        self.industries: list[str] = list(data.industries)
        industry_id = {name: i for i, name in enumerate(self.industries)}
        self.industry_index: dict[str, int] = industry_id
        self.slot_industries: dict[str, list[list[int]]] = {
            sid: [[industry_id[i] for i in icons] for icons in board.slot_icons]
            for sid, board in self.boards.items()
        }
        """Per side, per slot: the industry indices its icons allow."""
        self.industry_cities: dict[str, list[list[int]]] = {
            sid: [
                sorted(
                    {
                        board.slot_node[slot]
                        for slot, icons in enumerate(self.slot_industries[sid])
                        if industry in icons
                    }
                )
                for industry in range(len(self.industries))
            ]
            for sid, board in self.boards.items()
        }
        """Per side, per industry: the cities with a slot showing its icon, ascending."""
        self.industry_places: dict[str, list[dict[int, tuple[Places, Places]]]]
        self.industry_places = {
            sid: [
                {
                    city: _split_by_icons(
                        city, board.city_slots[city], self.slot_industries[sid], i
                    )
                    for city in self.industry_cities[sid][i]
                }
                for i in range(len(self.industries))
            ]
            for sid, board in self.boards.items()
        }
        """Per side, per industry, per city showing it (ascending): the places (city, slot,
        -1) of the slots showing it alone and of the shared ones, for the family's
        single-icon-first rule (:func:`plugins.brass.build.build_spaces`) without reading
        every slot's icons again; by city, for a listing that reaches only a few."""
        names = list(dict.fromkeys(card_name(c) for c in data.cards))
        self.card_names: list[str] = names
        """Card kind -> name; the same kinds on both sides."""
        self.cards = {sid: self._card_table(names, board) for sid, board in self.boards.items()}
        self.card_industries: dict[str, list[frozenset[int]]] = {
            sid: [
                frozenset(industry_id[i] for i in card_builds(data, board, cdef))
                for cdef in self.cards[sid].defs
            ]
            for sid, board in self.boards.items()
        }
        """Per side, per card kind: the industries the card may build (cities aside)."""
        self.developable_spaces = frozenset(
            space for space, tile in enumerate(self.mat.tiles) if tile.developable
        )
        """The mat spaces whose tiles the data set lets be developed."""
        self.tile_cubes: list[tuple[tuple[str, int], ...]] = [
            tuple(costs) for costs in self.mat.cube_costs
        ]
        """Per mat space, the cubes its tile costs (hashable: tiles of equal cubes share
        their prices in a listing)."""
        self.worst_cube_cost: dict[str, list[int]] = {
            sid: [
                sum(board.vanderbilt_price(cube) * n for cube, n in costs)
                for costs in self.mat.cube_costs
            ]
            for sid, board in self.boards.items()
        }
        """Per side, per mat space: the tile's cubes all bought from Vanderbilt, the most
        they can cost (a quick yes before the cheapest plan is worked out)."""

        self.link_tiles: dict[str, LinkTile] = {
            link: LinkTile(cost, tuple(cost.resources().items()), site_rule(data, link))
            for link, cost in (
                (LIGHT, data.light_trains.cost),
                *((h, t.cost) for h, t in data.heavy_trains.items()),
                *((p, t.cost) for p, t in data.pipelines.items()),
            )
        }
        """Per link tile id (``LT``, heavy trains, pipelines): its cost, as listings ask."""
        self.worst_link_cubes: dict[str, dict[str, int]] = {
            sid: {
                link: sum(board.vanderbilt_price(cube) * n for cube, n in tile.resources)
                for link, tile in self.link_tiles.items()
            }
            for sid, board in self.boards.items()
        }
        """Per side, per link tile: its cubes all bought from Vanderbilt (the most they cost)."""
        self.link_plans: dict[tuple[Any, ...], list[Any]] = {}
        """The link tiles of a supply with their costs, by content (``choices.link_plan``)."""

        self.card_scopes: dict[str, tuple[list[CardScope], list[CardScope]]] = {
            sid: tuple(  # type: ignore[misc]
                [
                    (
                        card_reach(cdef, present),
                        self.card_industries[sid][card],
                        cdef.kind != "location",  # a location card names a city, never an oilfield
                    )
                    for card, cdef in enumerate(self.cards[sid].defs)
                ]
                for present in (False, True)
            )
            for sid in self.boards
        }
        """Per side, per whether the holder has tiles on the board, per card kind, what a
        build listing reads of it: where it builds (:func:`plugins.brass.build.card_reach`),
        which industries, and whether it may build the Oil City."""
        self.city_places: dict[str, list[dict[int, tuple[Places, Places]]]] = {
            sid: [
                {
                    industry: self.industry_places[sid][industry].get(cdef.location, ((), ()))
                    for industry in self.card_industries[sid][card]
                }
                for card, cdef in enumerate(self.cards[sid].defs)
            ]
            for sid in self.boards
        }
        """Per side, per card kind, per industry it builds: the places of its city showing
        that industry (``Rules.industry_places``; none for an industry it builds by an
        upgrade only, or for an industry card): a location card's builds on empty slots."""
        self.buildable: dict[tuple[int, ...], list[Any]] = {}
        """Mats' buildable tiles by content (kept by :mod:`.building`)."""
        self.free_slots: dict[tuple[Any, ...], list[list[tuple[int, int, int]] | None]] = {}
        """Free-slot tables of recent boards by content (kept by :mod:`.building`)."""
        # Imported here: the variant's modules read these rules (set in __init__, not on
        # first use, so the instance keeps its fast attribute layout for the hot listing).
        from plugins.brass_pittsburgh.move_tables import MoveTables
        from plugins.brass_pittsburgh.variant import PittsburghVariant

        self.move_tables = {sid: MoveTables(self, sid) for sid in self.boards}
        """Per side, the engine moves listings hand out, made once (:mod:`.move_tables`)."""
        self.variant = PittsburghVariant(self)
        """The game on the family turn engine (:mod:`plugins.brass.turn`)."""

    def _card_table(self, names: list[str], board: PittsburghBoard) -> CardTable:
        defs = []
        for name in names:
            if name in self.data.industry_types:
                builds = self.data.industry_types[name].builds
                ids = tuple(self.industries.index(i) for i in builds)
                defs.append(CardDef(name=name, kind="industry", industries=ids))
            else:
                defs.append(CardDef(name=name, kind="location", location=board.node.get(name, -1)))
        return CardTable(defs)

    def board_of(self, side: str) -> PittsburghBoard:
        return self.boards[side]

    def side_for(self, players: int, requested: str | None = None) -> str:
        """Setup step 1: the side marked for this player count, unless the match asked for
        another side that is marked for it."""
        if requested is None:
            return self.data.default_side_by_players[players]
        side = self.data.sides.get(requested)
        if side is None or players not in side.players:
            raise ValueError(f"board side {requested!r} is not played with {players} players")
        return requested

    def deck_copies(self, side: str, players: int) -> list[int]:
        """Setup step 2: copies of each card kind in the deck for ``players``."""
        table = self.cards[side]
        copies = [0] * len(table)
        for card in self.data.deck_for(players):
            copies[table.index(card_name(card))] += 1
        return copies


def _split_by_icons(
    city: int, slots: list[int], icons: list[list[int]], industry: int
) -> tuple[Places, Places]:
    """The places of ``city``'s ``slots`` showing ``industry``: those showing it alone, and
    shared ones."""
    showing = [(city, s, -1) for s in slots if industry in icons[s]]
    return (
        tuple(x for x in showing if len(icons[x[1]]) == 1),
        tuple(x for x in showing if len(icons[x[1]]) > 1),
    )


@functools.cache
def default_rules() -> Rules:
    return Rules(default_data())
