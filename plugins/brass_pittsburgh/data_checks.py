"""Brass: Pittsburgh's data set checked against its rulebook and against itself.

The family reads the files (:class:`plugins.brass.dataset.DataSet`) and checks what every
Brass board shares (line graphs, price ladders, the income track); this module holds what
Pittsburgh's rulebook states (component counts, crown-jewel effects, link costs, market
fills, the income track's start and floor) and the references between its files. Every
refusal is a :class:`.data.DataError` with a stable code: ``count_mismatch`` and
``rulebook_mismatch`` for a number the rulebook gives, ``unknown_reference``,
``duplicate_id``, ``bad_value`` and ``bad_graph`` for the set's own consistency.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from graphlib import CycleError, TopologicalSorter

import msgspec

from plugins.brass.boarddata import check_ladder, income_track, line_graph
from plugins.brass_pittsburgh.data import (
    CUBES,
    RESOURCES,
    Arrow,
    BoardSide,
    BonusSell,
    Components,
    Cost,
    DataError,
    FreeDevelop,
    IncomeSpaces,
    IndustryCard,
    MatTile,
    Money,
    MoneyTimesIncomeLevel,
    PittsburghData,
    Vp,
    VpPerEmptyMatSpace,
    VpPerHeavyTrainBuilt,
    Whiskey,
    need,
)

# --- what the rulebook states ------------------------------------------------------------------

RULEBOOK_TILES_PER_COLOUR = 36
RULEBOOK_TILE_COUNTS = {
    "oil_city": 1,
    "locomotive_works": 1,
    "coal": 5,
    "polyphase_alternator": 1,
    "manufactured_goods": 8,
    "coke": 1,
    "automobile": 3,
    "steel": 5,
    "skyscraper": 2,
}
RULEBOOK_LINKS_PER_COLOUR = 21
RULEBOOK_SUPPLY = {"light": 9, "heavy": 2, "pipelines": 2}
RULEBOOK_CARDS = 68
RULEBOOK_OIL_TILES = 5
RULEBOOK_QUALITY_REWARDS = 6
RULEBOOK_MERCHANT_TILES = 5
RULEBOOK_PATHS = ("Kerosene", "Coal", "Manufacturing", "Coke", "Iron & Steel")
RULEBOOK_SELLABLE = {"kerosene", "manufactured_goods", "automobile"}
RULEBOOK_HEAVY_TYPES = {"resource", "whiskey", "double_link", "replacement"}
RULEBOOK_PIPELINE_TYPES = {"money", "income", "vp", "reserve"}
RULEBOOK_LINK_COSTS = {"light": Cost(coal=1), "heavy": Cost(steel=2), "pipeline": Cost(iron=1)}
RULEBOOK_MARKETS = {"coal_iron": ("coal", "iron"), "coke_steel": ("coke", "steel")}
RULEBOOK_MARKETS_PER_KIND = 3
RULEBOOK_COKE_VP_PER_CUBE = 4
RULEBOOK_CONSTANTS = {
    "players": [2, 3, 4],
    "eras": 2,
    "rounds_per_era_nominal": 8,
    "starting_money": 30,
    "starting_vp": 0,
    "hand_size": 8,
    "extra_face_down_discard_era1": 1,
    "actions_per_turn": 2,
    "actions_first_round_era1": 1,
    "loan_amount": 30,
    "loan_income_levels": 3,
    "second_link_extra_money": 10,
    "whiskey_max": 3,
    "bankruptcy_vp_loss": 40,
    "quality_reward_spaces": 3,
    "oil_city_extra_barrels": 3,
    "oil_city_flip_money": 25,
}
RULEBOOK_COMPONENTS = Components(
    whiskey=12, coal=18, iron=14, steel=18, coke=10, oil=18, money_tokens=77
)
RULEBOOK_START_SPACE, RULEBOOK_MIN_LEVEL = 10, -10
CROWN_JEWELS = ("oil_city", "polyphase_alternator", "locomotive_works", "skyscraper")


# --- the checks ------------------------------------------------------------------------------


def check_data(d: PittsburghData) -> None:
    """Refuse a data set that breaks a rule of the rulebook or one of its own references."""
    _validate_constants(d)
    _validate_industries(d)
    _validate_mat(d)
    _validate_links(d)
    _validate_tiles_on_board(d)
    _validate_cards(d)
    _validate_income_track(d)
    _validate_sides(d)
    for side in d.sides.values():
        _validate_side(d, side)


def _validate_constants(d: PittsburghData) -> None:
    c = d.constants
    for key, want in RULEBOOK_CONSTANTS.items():
        got = getattr(c, key)
        need(got == want, "constants.json", "rulebook_mismatch",
             f"{key} is {got!r} but the rulebook says {want!r}")  # fmt: skip
    for key in msgspec.structs.fields(Components):
        got, want = getattr(c.components, key.name), getattr(RULEBOOK_COMPONENTS, key.name)
        need(got == want, "constants.json", "rulebook_mismatch",
             f"components.{key.name} is {got} but the rulebook lists {want}")  # fmt: skip
    need(len(d.characters) * 2 >= max(c.players), "characters.json", "count_mismatch",
         "there must be a character tile per player")  # fmt: skip


def _validate_industries(d: PittsburghData) -> None:
    file = "industries.json"
    path_ids = {p.id for p in d.mat.paths}
    for ind in d.industries.values():
        need(ind.path in path_ids, file, "unknown_reference", f"industry {ind.id!r} is on "
             f"mat path {ind.path!r}, which player_mat.json lacks")  # fmt: skip
    sellable = {i.id for i in d.industries.values() if i.sellable}
    need(sellable == RULEBOOK_SELLABLE, file, "rulebook_mismatch",
         f"sellable industries are {sorted(sellable)}; the rulebook's Sell action names "
         f"{sorted(RULEBOOK_SELLABLE)}")  # fmt: skip
    for ind in d.industries.values():
        need(not ind.sellable or ind.flip == "sell", file, "bad_value",
             f"{ind.id} is sellable, so it must flip by 'sell'")  # fmt: skip
    for cj in CROWN_JEWELS:
        need(cj in d.industries, file, "rulebook_mismatch", f"crown jewel {cj!r} is missing")


def _mat_tiles_of(d: PittsburghData, industry: str) -> list[MatTile]:
    return [t for t in d.mat.tiles.values() if t.industry == industry]


def _validate_mat(d: PittsburghData) -> None:
    file = "player_mat.json"
    tiles = d.mat.tiles
    names = tuple(p.name for p in sorted(d.mat.paths, key=lambda p: p.column))
    need(names == RULEBOOK_PATHS, file, "rulebook_mismatch",
         f"paths left to right are {list(names)}; the rulebook names "
         f"{list(RULEBOOK_PATHS)}")  # fmt: skip
    total = sum(t.count for t in tiles.values())
    need(total == RULEBOOK_TILES_PER_COLOUR, file, "count_mismatch",
         f"the mat holds {total} industry tiles; the rulebook gives {RULEBOOK_TILES_PER_COLOUR}"
         " per colour")  # fmt: skip
    for tile in tiles.values():
        need(tile.industry in d.industries, file, "unknown_reference",
             f"tile {tile.id} is of unknown industry {tile.industry!r}")  # fmt: skip
        need(tile.count >= 1, file, "bad_value", f"tile {tile.id} has count {tile.count}")
        _check_tile(d, tile)
    for industry, want in RULEBOOK_TILE_COUNTS.items():
        got = sum(t.count for t in _mat_tiles_of(d, industry))
        need(got == want, file, "count_mismatch",
             f"{got} {industry} tiles per colour; the rulebook lists {want}")  # fmt: skip
    path_of = {t: d.industries[tile.industry].path for t, tile in tiles.items()}
    column = {p.id: p.column for p in d.mat.paths}
    incoming: dict[str, list[Arrow]] = {t: [] for t in tiles}
    outgoing: dict[str, list[Arrow]] = {t: [] for t in tiles}
    for arrow in d.mat.arrows:
        for end in (arrow.from_, arrow.to):
            need(end in tiles, file, "unknown_reference",
                 f"arrow {arrow.from_}->{arrow.to} points at unknown tile {end!r}")  # fmt: skip
        same = path_of[arrow.from_] == path_of[arrow.to]
        need(same != (arrow.kind == "shortcut"), file, "bad_value", f"arrow {arrow.from_}->"
             f"{arrow.to}: a shortcut joins two paths, other arrows stay on one path")  # fmt: skip
        incoming[arrow.to].append(arrow)
        outgoing[arrow.from_].append(arrow)
    for path in d.mat.paths:
        roots = [t for t in tiles if path_of[t] == path.id and not incoming[t]]
        need(len(roots) == 1, file, "bad_graph",
             f"path {path.id} must have exactly one bottom tile, has {roots}")  # fmt: skip
    _check_acyclic(tiles, incoming)
    for p in ("manufacturing", "coke"):
        sides = {column[path_of[a.to]] > column[p] for t in tiles if path_of[t] == p
                 for a in outgoing[t] if a.kind == "shortcut"}  # fmt: skip
        need(sides == {True, False}, file, "rulebook_mismatch",
             f"the {p} path must have shortcut branches to either side")  # fmt: skip
    steel_to_sky = any(
        a.kind == "branch" and tiles[a.from_].industry == "steel"
        and tiles[a.to].industry == "skyscraper" for a in d.mat.arrows
    )  # fmt: skip
    need(steel_to_sky, file, "rulebook_mismatch", "the Steel path must branch into Skyscrapers")
    for tile in tiles.values():
        need(not (tile.crown_jewel and any(a.kind != "shortcut" for a in outgoing[tile.id])),
             file, "bad_graph",
             f"crown jewel {tile.id} must sit at the top of its path")  # fmt: skip
    seen: set[str] = set()
    for ls in d.mat.link_spaces:
        need(ls.link in d.heavy_trains or ls.link in d.pipelines, file, "unknown_reference",
             f"link space holds unknown link {ls.link!r}")  # fmt: skip
        need(ls.link not in seen, file, "duplicate_id", f"link {ls.link} sits on the mat twice")
        seen.add(ls.link)
        need(ls.unlocked_by in tiles, file, "unknown_reference",
             f"link {ls.link} is unlocked by unknown tile {ls.unlocked_by!r}")  # fmt: skip
        need(tiles[ls.unlocked_by].count == 1, file, "bad_value", f"link {ls.link} must sit "
             f"above a single-tile space, not {ls.unlocked_by}")  # fmt: skip


def _check_acyclic(tiles: dict[str, MatTile], incoming: dict[str, list[Arrow]]) -> None:
    try:
        TopologicalSorter({t: [a.from_ for a in incoming[t]] for t in tiles}).prepare()
    except CycleError as exc:
        stuck = sorted(set(exc.args[1]))
        need(False, "player_mat.json", "bad_graph", f"the arrows form a cycle through {stuck}")


def _check_tile(d: PittsburghData, tile: MatTile) -> None:
    file = "player_mat.json"
    ind = d.industries[tile.industry]
    where = f"tile {tile.id}"
    need(not tile.cost.oil, file, "bad_value", f"{where}: no build cost is paid in oil barrels")
    need(tile.crown_jewel == (tile.industry in CROWN_JEWELS), file, "bad_value",
         f"{where}: crown_jewel must be true exactly for the four crown jewels")  # fmt: skip
    need((tile.oil_to_sell is not None) == ind.sellable, file, "bad_value",
         f"{where}: oil_to_sell is given exactly for sellable industries")  # fmt: skip
    need(ind.sellable or tile.quality_stars == 0, file, "bad_value",
         f"{where}: only sellable industries show quality stars")  # fmt: skip
    need((ind.flip == "resources_depleted") == bool(tile.produces), file, "bad_value",
         f"{where}: tiles that flip by depletion produce resources, others do not")  # fmt: skip
    for res, n in tile.produces.items():
        need(res in RESOURCES and n > 0, file, "bad_value", f"{where}: produces {n} {res}")
    need((tile.build_on == "upgrade") == (tile.upgrade_of is not None), file, "bad_value",
         f"{where}: build_on 'upgrade' goes with upgrade_of")  # fmt: skip
    need(tile.upgrade_of is None or tile.upgrade_of in {p.id for p in d.mat.paths}, file,
         "unknown_reference", f"{where} upgrades unknown path {tile.upgrade_of!r}")  # fmt: skip
    rules = _CROWN_JEWEL_RULES.get(tile.industry)
    if rules is not None:
        for problem in rules(d, tile):
            raise DataError(file, "rulebook_mismatch", f"{where}: {problem}")


def _oil_city_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    c = d.constants
    if t.build_on != "oilfield":
        yield "Oil City is built directly on an oilfield"
    if t.era != "era2_only":
        yield "Oil City is built in era 2 only"
    if t.produces != {"oil": c.oil_city_extra_barrels}:
        yield f"Oil City adds {c.oil_city_extra_barrels} barrels"
    if t.flip_reward != [Money(c.oil_city_flip_money)]:
        yield f"Oil City flips for ${c.oil_city_flip_money}"


def _polyphase_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    if t.upgrade_of != "coal" or t.build_on != "upgrade":
        yield "the Polyphase Alternator upgrades a Coal tile"
    if d.industries[t.industry].flip != "already_flipped":
        yield "the Polyphase Alternator is already flipped"
    if not any(isinstance(e, MoneyTimesIncomeLevel) and e.multiplier == 2 for e in t.flip_reward):
        yield "the Polyphase Alternator pays 2x the income"
    if not isinstance(t.vp_special, VpPerEmptyMatSpace):
        yield "the Polyphase Alternator scores per empty industry space on the mat"


def _locomotive_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    if t.upgrade_of != "manufacturing" or t.build_on != "upgrade":
        yield "the Locomotive Works upgrades a Manufacturing tile"
    if t.era != "era2_only":
        yield "the Locomotive Works is built in era 2 only"
    if d.industries[t.industry].flip != "already_flipped":
        yield "the Locomotive Works is already flipped"
    if FreeDevelop(3) not in t.flip_reward:
        yield "the Locomotive Works gives 3 free develops"
    if t.vp_special != VpPerHeavyTrainBuilt(4):
        yield "the Locomotive Works scores 4 VP per heavy train built"


def _skyscraper_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    if d.industries[t.industry].flip != "already_flipped":
        yield "the Skyscraper is already flipped"
    if BonusSell() not in t.flip_reward:
        yield "the Skyscraper gives a bonus sell action"


_CROWN_JEWEL_RULES = {
    "oil_city": _oil_city_rules,
    "polyphase_alternator": _polyphase_rules,
    "locomotive_works": _locomotive_rules,
    "skyscraper": _skyscraper_rules,
}


def _validate_links(d: PittsburghData) -> None:
    on_mat = d.links_on_mat()
    light = d.light_trains
    heavy = "heavy_trains.json"
    need(light.count == RULEBOOK_SUPPLY["light"], "light_trains.json", "count_mismatch",
         f"{light.count} light trains; the rulebook puts {RULEBOOK_SUPPLY['light']} in the "
         f"personal supply ({RULEBOOK_LINKS_PER_COLOUR} link tiles per colour in all)")  # fmt: skip
    total = light.count + len(d.heavy_trains) + len(d.pipelines)
    need(total == RULEBOOK_LINKS_PER_COLOUR, heavy, "count_mismatch",
         f"{light.count} light + {len(d.heavy_trains)} heavy + {len(d.pipelines)} pipelines = "
         f"{total} link tiles per colour; the rulebook gives "
         f"{RULEBOOK_LINKS_PER_COLOUR}")  # fmt: skip
    supply = {"light": light.count, "heavy": len(d.heavy_trains.keys() - on_mat),
              "pipelines": len(d.pipelines.keys() - on_mat)}  # fmt: skip
    need(supply == RULEBOOK_SUPPLY, "player_mat.json", "count_mismatch",
         f"the personal supply at setup would be {supply}; the rulebook says "
         f"{RULEBOOK_SUPPLY}")  # fmt: skip
    need(light.cost == RULEBOOK_LINK_COSTS["light"], "light_trains.json", "rulebook_mismatch",
         "a light train costs 1 coal")  # fmt: skip
    types = {h.type for h in d.heavy_trains.values()}
    need(types == RULEBOOK_HEAVY_TYPES, heavy, "rulebook_mismatch",
         f"heavy train types are {sorted(types)}; the rulebook names "
         f"{sorted(RULEBOOK_HEAVY_TYPES)}")  # fmt: skip
    for h in d.heavy_trains.values():
        where = f"heavy train {h.id}"
        need(h.cost == RULEBOOK_LINK_COSTS["heavy"], heavy, "rulebook_mismatch",
             f"{where}: a heavy train costs 2 steel")  # fmt: skip
        need(bool(h.carries) == (h.type == "resource"), heavy, "bad_value",
             f"{where}: exactly the resource trains carry resources")  # fmt: skip
        for res in h.carries:
            need(res in RESOURCES, heavy, "bad_value", f"{where}: carries {res}")
        need((h.link_score_multiplier == 2) == (h.type == "double_link"), heavy,
             "rulebook_mismatch", f"{where}: only the double link train scores double")  # fmt: skip
        need(h.type != "whiskey" or any(isinstance(e, Whiskey) for e in h.reward), heavy,
             "rulebook_mismatch", f"{where}: the whiskey train gives whiskey")  # fmt: skip
    variants = {r for h in d.heavy_trains.values() for r in h.carries}
    need({"coke", "steel", "oil"} <= variants, heavy, "rulebook_mismatch",
         "resource trains carry coke, steel or oil barrels; each variant must exist")  # fmt: skip
    types = {p.type for p in d.pipelines.values()}
    need(types == RULEBOOK_PIPELINE_TYPES, "pipelines.json", "rulebook_mismatch",
         f"pipeline types are {sorted(types)}; the rulebook names "
         f"{sorted(RULEBOOK_PIPELINE_TYPES)}")  # fmt: skip
    paid_as = {"money": Money, "income": IncomeSpaces, "vp": Vp}
    for p in d.pipelines.values():
        where = f"pipeline {p.id}"
        need(p.cost == RULEBOOK_LINK_COSTS["pipeline"], "pipelines.json", "rulebook_mismatch",
             f"{where}: a pipeline costs 1 iron")  # fmt: skip
        if p.type == "reserve":
            need(p.per_barrel is None and p.adds_oil_when_built == 1, "pipelines.json",
                 "rulebook_mismatch",
                 f"{where}: a reserve pipeline adds 1 oil and pays nothing")  # fmt: skip
        else:
            need(isinstance(p.per_barrel, paid_as[p.type]) and p.adds_oil_when_built == 0,
                 "pipelines.json", "bad_value", f"{where}: a {p.type} pipeline pays "
                 f"{p.type} per barrel and adds no oil")  # fmt: skip


def _validate_tiles_on_board(d: PittsburghData) -> None:
    mt, file = d.merchant_tiles, "merchant_tiles.json"
    need(len(mt) == RULEBOOK_MERCHANT_TILES, file, "count_mismatch",
         f"{len(mt)} merchant tiles; the rulebook lists {RULEBOOK_MERCHANT_TILES}")  # fmt: skip
    removed = [t.id for t in mt.values() if t.min_players > 2]
    fifteen = [t.id for t in mt.values() if Money(15) in t.reward]
    need(removed == fifteen and len(fifteen) == 1, file, "rulebook_mismatch",
         "exactly one merchant tile rewards $15 and only it is removed in a 2-player game "
         f"(removed: {removed}, $15: {fifteen})")  # fmt: skip
    for t in mt.values():
        bad = set(t.accepts) - RULEBOOK_SELLABLE
        need(not bad, file, "unknown_reference",
             f"merchant tile {t.id} shows {sorted(bad)}, which cannot be sold")  # fmt: skip
    for players in d.constants.players:
        shown = {i for t in mt.values() if t.min_players <= players for i in t.accepts}
        need(shown == RULEBOOK_SELLABLE, file, "bad_value",
             f"with {players} players no merchant tile buys "
             f"{sorted(RULEBOOK_SELLABLE - shown)}")  # fmt: skip
    ot, file = d.oilfield_tiles, "oilfield_tiles.json"
    need(len(ot) == RULEBOOK_OIL_TILES, file, "count_mismatch",
         f"{len(ot)} oilfield tiles; the rulebook lists {RULEBOOK_OIL_TILES}")  # fmt: skip
    removed = [t.id for t in ot.values() if t.min_players > 2]
    three = [t.id for t in ot.values() if t.production == 3]
    need(removed == three and len(three) == 1, file, "rulebook_mismatch",
         "exactly one oilfield tile produces 3 oil and only it is removed in a 2-player game "
         f"(removed: {removed}, producing 3: {three})")  # fmt: skip
    qr, file = d.quality_rewards, "quality_rewards.json"
    need(len(qr) == RULEBOOK_QUALITY_REWARDS, file, "count_mismatch",
         f"{len(qr)} Quality Rewards tiles; the rulebook lists "
         f"{RULEBOOK_QUALITY_REWARDS}")  # fmt: skip
    for t in qr.values():
        need(t.stars_required > 0 and bool(t.reward), file, "bad_value",
             f"{t.id} needs a positive star requirement and a reward")  # fmt: skip


def _validate_cards(d: PittsburghData) -> None:
    file = "cards.json"
    need(len(d.cards) == RULEBOOK_CARDS, file, "count_mismatch",
         f"{len(d.cards)} cards; the rulebook lists {RULEBOOK_CARDS}")  # fmt: skip
    built = Counter(i for t in d.industry_types.values() for i in t.builds)
    for ind in d.industries:
        need(built[ind] == 1, file, "bad_value",
             f"industry {ind!r} must be built by exactly one card type, is by "
             f"{built[ind]}")  # fmt: skip
    for name, t in d.industry_types.items():
        for ind in t.builds:
            need(ind in d.industries, file, "unknown_reference",
                 f"card type {name} builds unknown industry {ind!r}")  # fmt: skip
    for card in d.cards:
        counts = card.player_counts
        need(bool(counts) and set(counts) <= set(d.constants.players), file, "bad_value",
             f"card {card.id} shows player counts {counts}")  # fmt: skip
        if isinstance(card, IndustryCard):
            need(card.industry in d.industry_types, file, "unknown_reference",
                 f"card {card.id} shows unknown industry type {card.industry!r}")  # fmt: skip
            continue
        for side in d.sides.values():
            for players in set(counts) & set(side.players):
                need(card.location in side.cities, file, "unknown_reference",
                     f"card {card.id} names {card.location!r}, which is no city on the "
                     f"{side.id} side used with {players} players")  # fmt: skip
    c = d.constants
    # An era's cards: era 1 spends one face-down card and every action of its rounds (one
    # fewer in round 1), era 2 every action; either way "8 rounds" fixes the deck size.
    era1 = (
        c.extra_face_down_discard_era1
        + c.actions_first_round_era1
        + (c.rounds_per_era_nominal - 1) * c.actions_per_turn
    )
    era2 = c.rounds_per_era_nominal * c.actions_per_turn
    for players in c.players:
        deck = len(d.deck_for(players))
        need(deck == players * era1 and deck == players * era2, file, "count_mismatch",
             f"{deck} cards show the {players}-player icon; {c.rounds_per_era_nominal} "
             f"rounds per era need {players * era2} ({era2} per player)")  # fmt: skip


def _validate_income_track(d: PittsburghData) -> None:
    file = "income_track.json"
    track = income_track(d.income_track, file, check=need)  # level 0 at the start
    need(track.start_space == RULEBOOK_START_SPACE, file, "rulebook_mismatch",
         "the income marker starts on space 10, income level 0")  # fmt: skip
    need(track.min_level == RULEBOOK_MIN_LEVEL, file, "rulebook_mismatch",
         "the lowest income level is -10, on space 0")  # fmt: skip


def _validate_sides(d: PittsburghData) -> None:
    file = "board_sides.json"
    for players, chosen in d.default_side_by_players.items():
        need(chosen in d.sides, file, "unknown_reference",
             f"default side for {players} players is unknown side {chosen!r}")  # fmt: skip
        need(players in d.sides[chosen].players, file, "bad_value",
             f"default side {chosen} for {players} players is not marked for "
             f"{players}")  # fmt: skip
    two = [s.id for s in d.sides.values() if s.players == [2]]
    need(len(two) == 1 and len(d.sides) == 2, file, "rulebook_mismatch",
         "the board has two sides, one marked for 2 players")  # fmt: skip


def _validate_side(d: PittsburghData, side: BoardSide) -> None:
    sid, file = side.id, "board_sides.json"
    places = side.cities.keys() | side.merchants.keys()
    kinds_on_slots = {i for c in side.cities.values() for slot in c.slots for i in slot}
    for city in side.cities.values():
        for slot in city.slots:
            for ind in slot:
                need(ind in d.industries, file, "unknown_reference",
                     f"{sid}: {city.id} has a slot for unknown industry {ind!r}")  # fmt: skip
    for tile in d.mat.tiles.values():
        need(tile.build_on != "industry_space" or tile.industry in kinds_on_slots, file,
             "bad_value", f"{sid}: no slot allows {tile.industry}")  # fmt: skip
    for players in side.players:
        spaces = sum(
            1 for m in side.merchants.values() for s in m.spaces if s.min_players <= players
        )
        tiles = sum(1 for t in d.merchant_tiles.values() if t.min_players <= players)
        need(spaces == tiles, file, "count_mismatch",
             f"{sid} with {players} players: {spaces} merchant spaces for {tiles} "
             "tiles")  # fmt: skip
    _validate_lines(side, places)
    _validate_oil(d, side)
    _validate_markets(d, side)


def _validate_lines(side: BoardSide, places: set[str]) -> None:
    """The side's railroad lines pass the family's line checks (:func:`line_graph`), each
    refusal with its code."""
    lines = [(f"{side.id}: line {line.id}", line.endpoints) for line in side.lines]
    line_graph(sorted(places), lines, "lines.json", f"{side.id}: lines", check=need)


def _validate_oil(d: PittsburghData, side: BoardSide) -> None:
    sid, routes, fields_file = side.id, "pipeline_routes.json", "oilfields.json"
    seen: set[str] = set()
    for route in side.pipeline_routes:
        where = f"{sid}: route {route.id}"
        need(route.oilfield in side.oilfields, routes, "unknown_reference",
             f"{where} starts at unknown oilfield {route.oilfield!r}")  # fmt: skip
        need(route.city in side.cities, routes, "unknown_reference",
             f"{where} ends at unknown city {route.city!r}")  # fmt: skip
        need(route.id not in seen, routes, "duplicate_id", f"{where} is twice")
        seen.add(route.id)
    served = {r.oilfield for r in side.pipeline_routes}
    for field in side.oilfields:
        need(field in served, routes, "bad_value",
             f"{sid}: no pipeline route reaches oilfield {field}")  # fmt: skip
        need(field not in side.cities and field not in side.merchants, fields_file, "bad_value",
             f"{sid}: oilfield {field} must not be a location")  # fmt: skip
    for tid in side.oilfield_tile_display:
        need(tid in d.oilfield_tiles, fields_file, "unknown_reference",
             f"{sid}: the tile display shows unknown oilfield tile {tid!r}")  # fmt: skip
    for players in side.players:
        fields = sum(1 for o in side.oilfields.values() if o.min_players <= players)
        shown = sum(
            1 for t in side.oilfield_tile_display if d.oilfield_tiles[t].min_players <= players
        )
        need(fields == shown, fields_file, "count_mismatch",
             f"{sid} with {players} players: {fields} oilfields for {shown} oilfield "
             "tiles")  # fmt: skip


def _validate_markets(d: PittsburghData, side: BoardSide) -> None:
    file, sid = "markets.json", side.id
    per_kind = Counter(m.kind for m in side.markets)
    need(per_kind == dict.fromkeys(RULEBOOK_MARKETS, RULEBOOK_MARKETS_PER_KIND), file,
         "count_mismatch",
         f"{sid}: markets per kind are {dict(per_kind)}; want 3 Coal & Iron and 3 Coke & "
         "Steel")  # fmt: skip
    initial: Counter[str] = Counter()
    top_price: dict[str, int] = {}
    for m in side.markets:
        where = f"{sid}: market {m.id}"
        need(m.city in side.cities, file, "unknown_reference",
             f"{where} sits at unknown city {m.city!r}")  # fmt: skip
        need(sorted(m.ladders) == sorted(RULEBOOK_MARKETS[m.kind]), file, "bad_value",
             f"{where} ({m.kind}) has ladders {sorted(m.ladders)}")  # fmt: skip
        need((m.placement == "perimeter") == side.cities[m.city].perimeter, file, "bad_value",
             f"{where}: placement {m.placement!r} disagrees with {m.city}'s perimeter "
             "flag")  # fmt: skip
        for res, ladder in m.ladders.items():
            prices = ladder.prices
            check_ladder(ladder, f"{where}: {res}", file, check=need)
            need(len(set(prices)) == len(prices), file, "bad_value",
                 f"{where}: {res} prices {prices} must rise strictly to the top space")  # fmt: skip
            want = 1 if res == "coke" else len(prices)
            need(ladder.initial == want, file, "rulebook_mismatch",
                 f"{where}: {res} starts with {ladder.initial} cubes; setup puts "
                 f"{want}")  # fmt: skip
            need(res != "coke" or ladder.vp == RULEBOOK_COKE_VP_PER_CUBE, file,
                 "rulebook_mismatch",
                 f"{where}: every coke space gives {RULEBOOK_COKE_VP_PER_CUBE} VP")  # fmt: skip
            initial[res] += ladder.initial
            top_price[res] = max(top_price.get(res, 0), prices[-1])
    for res, n in initial.items():
        have = getattr(d.constants.components, res)
        need(n <= have, file, "count_mismatch",
             f"{sid}: setup needs {n} {res} cubes, the box has {have}")  # fmt: skip
    vb = side.vanderbilt
    need(sorted(vb) == sorted(CUBES), "vanderbilt.json", "bad_value",
         f"{sid}: Vanderbilt prices are for {sorted(vb)}; he delivers exactly "
         f"{list(CUBES)}")  # fmt: skip
    for res, price in vb.items():
        need(price > top_price.get(res, 0), "vanderbilt.json", "bad_value",
             f"{sid}: Vanderbilt's {res} price ${price} must be above every market "
             "price")  # fmt: skip
