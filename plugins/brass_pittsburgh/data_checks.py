"""Brass: Pittsburgh's data set checked against its rulebook and against itself.

Decoding already refuses what a record's shape rules out (:mod:`.data`: a game number of
``constants.json`` other than the rulebook's, the only value its field admits; a negative
printed number, a tile count below 1, a resource or player count that does not exist, a
cost in oil, an unknown field); the family checks what every Brass board shares (line graphs,
price ladders, the income track). This module holds what Pittsburgh's rulebook states
(component counts, crown-jewel effects, link costs, market fills, the income track's start
and floor), each record's facts as a table of sentences, and the references between the
files as one list. Every refusal is a :class:`.data.DataError` with a stable code:
``count_mismatch`` and ``rulebook_mismatch`` for a number the rulebook gives,
``unknown_reference``, ``duplicate_id``, ``bad_value`` and ``bad_graph`` for the set's own
consistency.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter

from plugins.brass.boarddata import check_ladder, income_track, line_graph
from plugins.brass.data import Reference, by_id, check_references
from plugins.brass_pittsburgh.data import (
    CUBES,
    BoardSide,
    BonusSell,
    Cost,
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
RULEBOOK_SUPPLY = {"heavy_trains": 2, "pipelines": 2}
"""Link tiles of each kind in the personal supply at setup (the others start on the mat)."""
RULEBOOK_PATHS = ("Kerosene", "Coal", "Manufacturing", "Coke", "Iron & Steel")
RULEBOOK_SELLABLE = {"kerosene", "manufactured_goods", "automobile"}
RULEBOOK_HEAVY_TYPES = {"resource", "whiskey", "double_link", "replacement"}
RULEBOOK_PIPELINE_TYPES = {"money", "income", "vp", "reserve"}
RULEBOOK_LINK_COSTS = {"light": Cost(coal=1), "heavy": Cost(steel=2), "pipeline": Cost(iron=1)}
RULEBOOK_MARKETS = {"coal_iron": ["coal", "iron"], "coke_steel": ["coke", "steel"]}
RULEBOOK_MARKETS_PER_KIND = 3
RULEBOOK_COKE_VP_PER_CUBE = 4
RULEBOOK_START_SPACE, RULEBOOK_MIN_LEVEL = 10, -10
CROWN_JEWELS = ("oil_city", "polyphase_alternator", "locomotive_works", "skyscraper")
PAID_PER_BARREL = {"money": Money, "income": IncomeSpaces, "vp": Vp, "reserve": type(None)}


def _counts(d: PittsburghData) -> Iterator[tuple[str, str, int, int]]:
    """The rulebook's component counts: (file, what is counted, the files' count, the
    rulebook's)."""
    tiles, light, c = d.mat.tiles.values(), d.light_trains.count, d.constants
    yield "player_mat.json", "industry tiles per colour", sum(t.count for t in tiles), 36
    for industry, want in RULEBOOK_TILE_COUNTS.items():
        got = sum(t.count for t in tiles if t.industry == industry)
        yield "player_mat.json", f"{industry} tiles per colour", got, want
    yield "light_trains.json", "light trains (of the 21 link tiles per colour)", light, 9
    links = light + len(d.heavy_trains) + len(d.pipelines)
    yield "heavy_trains.json", "link tiles per colour (light, heavy, pipelines)", links, 21
    yield "merchant_tiles.json", "merchant tiles", len(d.merchant_tiles), 5
    yield "oilfield_tiles.json", "oilfield tiles", len(d.oilfield_tiles), 5
    yield "quality_rewards.json", "Quality Rewards tiles", len(d.quality_rewards), 6
    yield "cards.json", "cards", len(d.cards), 68
    # A player spends a card per action and era 1's face-down card: 1 + 1 + 7 x 2 in era 1,
    # 8 x 2 in era 2; so "8 rounds per era" fixes each player count's deck.
    per_player = c.rounds_per_era_nominal * c.actions_per_turn
    for n in c.players:
        what = f"cards show the {n}-player icon ({per_player} per player for 8 rounds per era)"
        yield "cards.json", what, len(d.deck_for(n)), n * per_player


def _references(d: PittsburghData) -> Iterator[Reference]:
    """Every reference between the files (the lines' are the family's :func:`line_graph`)."""
    mat, tiles, paths = "player_mat.json", d.mat.tiles, {p.id for p in d.mat.paths}
    for ind in d.industries.values():
        yield "industries.json", f"industry {ind.id}'s mat path", ind.path, paths
    for t in tiles.values():
        yield mat, f"tile {t.id}'s industry", t.industry, d.industries
        if t.upgrade_of is not None:
            yield mat, f"tile {t.id}'s upgraded path", t.upgrade_of, paths
    for a in d.mat.arrows:
        yield from ((mat, f"arrow {a.from_}->{a.to}", end, tiles) for end in (a.from_, a.to))
    for ls in d.mat.link_spaces:
        yield mat, "a link space", ls.link, d.heavy_trains.keys() | d.pipelines.keys()
        yield mat, f"link {ls.link}'s unlocking tile", ls.unlocked_by, tiles
    for mt in d.merchant_tiles.values():
        where = f"merchant tile {mt.id} (sellable industries only)"
        yield from (("merchant_tiles.json", where, i, RULEBOOK_SELLABLE) for i in mt.accepts)
    for name, kind in d.industry_types.items():
        yield from (("cards.json", f"card type {name}", i, d.industries) for i in kind.builds)
    for card in d.cards:
        if isinstance(card, IndustryCard):
            yield "cards.json", f"card {card.id}", card.industry, d.industry_types
            continue
        for side in d.sides.values():
            if set(card.player_counts) & set(side.players):
                where = f"card {card.id} (on the {side.id} side)"
                yield "cards.json", where, card.location, side.cities
    for n, sid in d.default_side_by_players.items():
        yield "board_sides.json", f"the default side for {n} players", sid, d.sides
    for side in d.sides.values():
        for city in side.cities.values():
            where = f"{side.id}: {city.id}'s slots"
            yield from (("board_sides.json", where, i, d.industries) for s in city.slots for i in s)
        for r in side.pipeline_routes:
            where = f"{side.id}: route {r.id}"
            yield "pipeline_routes.json", where, r.oilfield, side.oilfields
            yield "pipeline_routes.json", where, r.city, side.cities
        display = f"{side.id}: the oilfield tile display"
        yield from (
            ("oilfields.json", display, t, d.oilfield_tiles) for t in side.oilfield_tile_display
        )
        yield from (
            ("markets.json", f"{side.id}: market {m.id}", m.city, side.cities) for m in side.markets
        )


def _facts(file: str, where: str, facts: dict[str, bool], code: str = "bad_value") -> None:
    """Refuse the first of ``facts`` (a rule's sentence: whether ``where`` obeys it) that
    ``where`` breaks."""
    for fact, holds in facts.items():
        need(holds, file, code, f"{where}: {fact}")


# --- the checks ------------------------------------------------------------------------------


def check_data(d: PittsburghData) -> None:
    """Refuse a data set that breaks a rule of the rulebook or one of its own references."""
    need(len(d.characters) * 2 >= max(d.constants.players), "characters.json", "count_mismatch",
         "there must be a character tile per player")  # fmt: skip
    for file, what, got, want in _counts(d):
        need(got == want, file, "count_mismatch", f"{got} {what}; the rulebook needs {want}")
    check_references(_references(d), need)
    _check_industries(d)
    _check_mat(d)
    _check_links(d)
    _check_tiles_on_board(d)
    _check_cards(d)
    file = "income_track.json"
    track = income_track(d.income_track, file, check=need)  # level 0 at the start
    _facts(file, "the income track", {
        "the income marker starts on space 10, income level 0":
            track.start_space == RULEBOOK_START_SPACE,
        "the lowest income level is -10, on space 0": track.min_level == RULEBOOK_MIN_LEVEL,
    }, "rulebook_mismatch")  # fmt: skip
    _check_sides(d)
    for side in d.sides.values():
        _check_side(d, side)


def _check_industries(d: PittsburghData) -> None:
    file = "industries.json"
    sellable = {i.id for i in d.industries.values() if i.sellable}
    need(sellable == RULEBOOK_SELLABLE, file, "rulebook_mismatch",
         f"sellable industries are {sorted(sellable)}; the rulebook's Sell action names "
         f"{sorted(RULEBOOK_SELLABLE)}")  # fmt: skip
    for ind in d.industries.values():
        need(not ind.sellable or ind.flip == "sell", file, "bad_value",
             f"{ind.id} is sellable, so it must flip by 'sell'")  # fmt: skip
    for cj in CROWN_JEWELS:
        need(cj in d.industries, file, "rulebook_mismatch", f"crown jewel {cj!r} is missing")


def _tile_facts(d: PittsburghData, t: MatTile) -> dict[str, bool]:
    ind = d.industries[t.industry]
    return {
        "crown_jewel must be true exactly for the four crown jewels":
            t.crown_jewel == (t.industry in CROWN_JEWELS),
        "oil_to_sell is given exactly for sellable industries":
            (t.oil_to_sell is not None) == ind.sellable,
        "only sellable industries show quality stars": ind.sellable or t.quality_stars == 0,
        "tiles that flip by depletion produce resources, others do not":
            (ind.flip == "resources_depleted") == bool(t.produces),
        "build_on 'upgrade' goes with upgrade_of":
            (t.build_on == "upgrade") == (t.upgrade_of is not None),
    }  # fmt: skip


def _crown_jewel_facts(d: PittsburghData, t: MatTile) -> dict[str, bool]:
    """What the rulebook says of the crown jewel ``t`` is (nothing for other tiles)."""
    c, rewards, flipped = d.constants, t.flip_reward, d.industries[t.industry].flip
    already = flipped == "already_flipped"
    return {
        "oil_city": {
            "Oil City is built directly on an oilfield": t.build_on == "oilfield",
            "Oil City is built in era 2 only": t.era == "era2_only",
            f"Oil City adds {c.oil_city_extra_barrels} barrels":
                t.produces == {"oil": c.oil_city_extra_barrels},
            f"Oil City flips for ${c.oil_city_flip_money}":
                rewards == [Money(c.oil_city_flip_money)],
        },
        "polyphase_alternator": {
            "the Polyphase Alternator upgrades a Coal tile":
                (t.upgrade_of, t.build_on) == ("coal", "upgrade"),
            "the Polyphase Alternator is already flipped": already,
            "the Polyphase Alternator pays 2x the income": any(
                isinstance(e, MoneyTimesIncomeLevel) and e.multiplier == 2 for e in rewards),
            "the Polyphase Alternator scores per empty industry space on the mat":
                isinstance(t.vp_special, VpPerEmptyMatSpace),
        },
        "locomotive_works": {
            "the Locomotive Works upgrades a Manufacturing tile":
                (t.upgrade_of, t.build_on) == ("manufacturing", "upgrade"),
            "the Locomotive Works is built in era 2 only": t.era == "era2_only",
            "the Locomotive Works is already flipped": already,
            "the Locomotive Works gives 3 free develops": FreeDevelop(3) in rewards,
            "the Locomotive Works scores 4 VP per heavy train built":
                t.vp_special == VpPerHeavyTrainBuilt(4),
        },
        "skyscraper": {
            "the Skyscraper is already flipped": already,
            "the Skyscraper gives a bonus sell action": BonusSell() in rewards,
        },
    }.get(t.industry, {})  # fmt: skip


def _check_mat(d: PittsburghData) -> None:
    file, tiles = "player_mat.json", d.mat.tiles
    names = tuple(p.name for p in sorted(d.mat.paths, key=lambda p: p.column))
    need(names == RULEBOOK_PATHS, file, "rulebook_mismatch",
         f"paths left to right are {list(names)}; the rulebook names "
         f"{list(RULEBOOK_PATHS)}")  # fmt: skip
    for t in tiles.values():
        _facts(file, f"tile {t.id}", _tile_facts(d, t))
        _facts(file, f"tile {t.id}", _crown_jewel_facts(d, t), "rulebook_mismatch")
    path_of = {t: d.industries[tile.industry].path for t, tile in tiles.items()}
    column = {p.id: p.column for p in d.mat.paths}
    below: dict[str, list[str]] = {t: [] for t in tiles}
    above: dict[str, list[str]] = {t: [] for t in tiles}
    for a in d.mat.arrows:
        need((path_of[a.from_] == path_of[a.to]) != (a.kind == "shortcut"), file, "bad_value",
             f"arrow {a.from_}->{a.to}: a shortcut joins two paths, other arrows stay on one "
             "path")  # fmt: skip
        below[a.to].append(a.from_)
        above[a.from_].append(a.to)
    for path in d.mat.paths:
        roots = [t for t in tiles if path_of[t] == path.id and not below[t]]
        need(len(roots) == 1, file, "bad_graph",
             f"path {path.id} must have exactly one bottom tile, has {roots}")  # fmt: skip
    try:
        TopologicalSorter(below).prepare()
    except CycleError as exc:
        need(
            False, file, "bad_graph", f"the arrows form a cycle through {sorted(set(exc.args[1]))}"
        )
    shortcuts = [a for a in d.mat.arrows if a.kind == "shortcut"]
    for p in ("manufacturing", "coke"):
        sides = {column[path_of[a.to]] > column[p] for a in shortcuts if path_of[a.from_] == p}
        need(sides == {True, False}, file, "rulebook_mismatch",
             f"the {p} path must have shortcut branches to either side")  # fmt: skip
    need(any(a.kind == "branch" and (tiles[a.from_].industry, tiles[a.to].industry)
             == ("steel", "skyscraper") for a in d.mat.arrows),
         file, "rulebook_mismatch", "the Steel path must branch into Skyscrapers")  # fmt: skip
    on_path = {a.from_ for a in d.mat.arrows if a.kind != "shortcut"}
    for t in tiles.values():
        need(not (t.crown_jewel and t.id in on_path), file, "bad_graph",
             f"crown jewel {t.id} must sit at the top of its path")  # fmt: skip
    seen: Counter[str] = Counter(ls.link for ls in d.mat.link_spaces)
    for ls in d.mat.link_spaces:
        need(seen[ls.link] == 1, file, "duplicate_id", f"link {ls.link} sits on the mat twice")
        need(tiles[ls.unlocked_by].count == 1, file, "bad_value", f"link {ls.link} must sit "
             f"above a single-tile space, not {ls.unlocked_by}")  # fmt: skip


def _check_links(d: PittsburghData) -> None:
    on_mat, heavy = d.links_on_mat(), "heavy_trains.json"
    for kind, want in RULEBOOK_SUPPLY.items():
        got = len(getattr(d, kind).keys() - on_mat)
        need(got == want, "player_mat.json", "count_mismatch",
             f"{got} {kind} start in the personal supply; the rulebook says {want}")  # fmt: skip
    need(d.light_trains.cost == RULEBOOK_LINK_COSTS["light"], "light_trains.json",
         "rulebook_mismatch", "a light train costs 1 coal")  # fmt: skip
    for got, want, file in [
        ({h.type for h in d.heavy_trains.values()}, RULEBOOK_HEAVY_TYPES, heavy),
        ({p.type for p in d.pipelines.values()}, RULEBOOK_PIPELINE_TYPES, "pipelines.json"),
    ]:
        need(got == want, file, "rulebook_mismatch",
             f"types are {sorted(got)}; the rulebook names {sorted(want)}")  # fmt: skip
    for h in d.heavy_trains.values():
        _facts(heavy, f"heavy train {h.id}", {
            "a heavy train costs 2 steel": h.cost == RULEBOOK_LINK_COSTS["heavy"],
            "only the double link train scores double":
                (h.link_score_multiplier == 2) == (h.type == "double_link"),
            "the whiskey train gives whiskey":
                h.type != "whiskey" or any(isinstance(e, Whiskey) for e in h.reward),
        }, "rulebook_mismatch")  # fmt: skip
        _facts(heavy, f"heavy train {h.id}", {
            "exactly the resource trains carry resources": bool(h.carries) == (h.type == "resource")
        })  # fmt: skip
    variants = {r for h in d.heavy_trains.values() for r in h.carries}
    need({"coke", "steel", "oil"} <= variants, heavy, "rulebook_mismatch",
         "resource trains carry coke, steel or oil barrels; each variant must exist")  # fmt: skip
    for p in d.pipelines.values():
        reserve = p.type == "reserve"
        _facts("pipelines.json", f"pipeline {p.id}", {
            "a pipeline costs 1 iron": p.cost == RULEBOOK_LINK_COSTS["pipeline"],
            "a reserve pipeline adds 1 oil and pays nothing":
                not reserve or (p.per_barrel, p.adds_oil_when_built) == (None, 1),
        }, "rulebook_mismatch")  # fmt: skip
        _facts("pipelines.json", f"pipeline {p.id}", {
            f"a {p.type} pipeline pays {p.type} per barrel and adds no oil": reserve or (
                isinstance(p.per_barrel, PAID_PER_BARREL[p.type]) and not p.adds_oil_when_built)
        })  # fmt: skip


def _check_tiles_on_board(d: PittsburghData) -> None:
    mt, ot = d.merchant_tiles.values(), d.oilfield_tiles.values()
    for file, removed, special, what in [
        ("merchant_tiles.json", [t.id for t in mt if t.min_players > 2],
         [t.id for t in mt if Money(15) in t.reward], "merchant tile rewards $15"),
        ("oilfield_tiles.json", [t.id for t in ot if t.min_players > 2],
         [t.id for t in ot if t.production == 3], "oilfield tile produces 3 oil"),
    ]:  # fmt: skip
        need(removed == special and len(special) == 1, file, "rulebook_mismatch",
             f"exactly one {what} and only it is removed in a 2-player game (removed: "
             f"{removed}, the one: {special})")  # fmt: skip
    for n in d.constants.players:
        shown = {i for t in mt if t.min_players <= n for i in t.accepts}
        need(shown == RULEBOOK_SELLABLE, "merchant_tiles.json", "bad_value", f"with {n} "
             f"players no merchant tile buys {sorted(RULEBOOK_SELLABLE - shown)}")  # fmt: skip


def _check_cards(d: PittsburghData) -> None:
    built = Counter(i for t in d.industry_types.values() for i in t.builds)
    for ind in d.industries:
        need(built[ind] == 1, "cards.json", "bad_value",
             f"industry {ind!r} must be built by exactly one card type, is by "
             f"{built[ind]}")  # fmt: skip


def _check_sides(d: PittsburghData) -> None:
    file = "board_sides.json"
    for n, chosen in d.default_side_by_players.items():
        need(n in d.sides[chosen].players, file, "bad_value",
             f"default side {chosen} for {n} players is not marked for {n}")  # fmt: skip
    two = [s.id for s in d.sides.values() if s.players == [2]]
    need(len(two) == 1 and len(d.sides) == 2, file, "rulebook_mismatch",
         "the board has two sides, one marked for 2 players")  # fmt: skip


def _check_side(d: PittsburghData, side: BoardSide) -> None:
    sid = side.id
    kinds_on_slots = {i for c in side.cities.values() for slot in c.slots for i in slot}
    for tile in d.mat.tiles.values():
        need(tile.build_on != "industry_space" or tile.industry in kinds_on_slots,
             "board_sides.json", "bad_value", f"{sid}: no slot allows {tile.industry}")  # fmt: skip
    for n in side.players:
        for file, what, got, want in [
            ("board_sides.json", ("merchant spaces", "merchant tiles"),
             [s for m in side.merchants.values() for s in m.spaces if s.min_players <= n],
             [t for t in d.merchant_tiles.values() if t.min_players <= n]),
            ("oilfields.json", ("oilfields", "oilfield tiles"),
             [o for o in side.oilfields.values() if o.min_players <= n],
             [t for t in side.oilfield_tile_display if d.oilfield_tiles[t].min_players <= n]),
        ]:  # fmt: skip
            need(len(got) == len(want), file, "count_mismatch", f"{sid} with {n} players: "
                 f"{len(got)} {what[0]} for {len(want)} {what[1]}")  # fmt: skip
    places = sorted(side.cities.keys() | side.merchants.keys())
    lines = [(f"{sid}: line {line.id}", line.endpoints) for line in side.lines]
    line_graph(places, lines, "lines.json", f"{sid}: lines", check=need)
    by_id("pipeline_routes.json", side.pipeline_routes, f"{sid}: route", need)
    served = {r.oilfield for r in side.pipeline_routes}
    for field in side.oilfields:
        need(field in served, "pipeline_routes.json", "bad_value",
             f"{sid}: no pipeline route reaches oilfield {field}")  # fmt: skip
        need(field not in places, "oilfields.json", "bad_value",
             f"{sid}: oilfield {field} must not be a location")  # fmt: skip
    _check_markets(d, side)


def _check_markets(d: PittsburghData, side: BoardSide) -> None:
    file, sid = "markets.json", side.id
    per_kind = Counter(m.kind for m in side.markets)
    need(per_kind == dict.fromkeys(RULEBOOK_MARKETS, RULEBOOK_MARKETS_PER_KIND), file,
         "count_mismatch", f"{sid}: markets per kind are {dict(per_kind)}; want 3 Coal & Iron "
         "and 3 Coke & Steel")  # fmt: skip
    initial: Counter[str] = Counter()
    top_price: Counter[str] = Counter()
    for m in side.markets:
        where = f"{sid}: market {m.id}"
        need(sorted(m.ladders) == RULEBOOK_MARKETS[m.kind], file, "bad_value",
             f"{where} ({m.kind}) has ladders {sorted(m.ladders)}")  # fmt: skip
        need((m.placement == "perimeter") == side.cities[m.city].perimeter, file, "bad_value",
             f"{where}: placement {m.placement!r} disagrees with {m.city}'s perimeter "
             "flag")  # fmt: skip
        for res, ladder in m.ladders.items():
            prices, at = ladder.prices, f"{where}: {res}"
            check_ladder(ladder, at, file, check=need)
            need(len(set(prices)) == len(prices), file, "bad_value",
                 f"{at} prices {prices} must rise strictly to the top space")  # fmt: skip
            want = 1 if res == "coke" else len(prices)
            _facts(file, at, {
                f"setup puts {want} cubes, not {ladder.initial}": ladder.initial == want,
                f"every coke space gives {RULEBOOK_COKE_VP_PER_CUBE} VP":
                    res != "coke" or ladder.vp == RULEBOOK_COKE_VP_PER_CUBE,
            }, "rulebook_mismatch")  # fmt: skip
            initial[res] += ladder.initial
            top_price[res] = max(top_price[res], prices[-1])
    for res, n in initial.items():
        have = getattr(d.constants.components, res)
        need(n <= have, file, "count_mismatch",
             f"{sid}: setup needs {n} {res} cubes, the box has {have}")  # fmt: skip
    for res in CUBES:  # Vanderbilt delivers every cube (and no oil: decoding refuses it)
        need(side.vanderbilt.get(res, 0) > top_price[res], "vanderbilt.json", "bad_value",
             f"{sid}: Vanderbilt delivers {res} dearer than every market sells it")  # fmt: skip
