"""Brass: Lancashire data files: the published facts, and every kind of broken file refused.

The expected values are the Roxley 2018 edition's, as recorded in
``shared/reference/brass-lancashire.json`` (0.1.0) and, for money, loans and links, the
Lancashire column of the Pittsburgh rulebook's "Differences in Each Brass Game" table.
Tests of a provisional fact say so in their name.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from plugins.brass.data import DataError
from plugins.brass.mat import EMPTY
from plugins.brass_lancashire.data import (
    COAL,
    COTTON,
    DATA,
    INDUSTRIES,
    IRON,
    PORT,
    SHIPYARD,
    Lancashire,
    lancashire,
)

D = lancashire()

# (industry, level, per player, £, coal, iron, cubes, income spaces, VP, link icons, canal, rail)
TILE_TABLE = [
    ("cotton", 1, 3, 12, 0, 0, 0, 5, 5, 1, True, False),
    ("cotton", 2, 3, 14, 1, 0, 0, 4, 5, 1, True, True),
    ("cotton", 3, 3, 16, 1, 1, 0, 3, 9, 1, True, True),
    ("cotton", 4, 3, 18, 1, 1, 0, 2, 12, 1, True, True),
    ("coal", 1, 1, 5, 0, 0, 2, 4, 1, 1, True, False),
    ("coal", 2, 2, 7, 0, 0, 3, 7, 2, 1, True, True),
    ("coal", 3, 2, 8, 0, 1, 4, 6, 3, 1, True, True),
    ("coal", 4, 2, 10, 0, 1, 5, 5, 4, 1, True, True),
    ("iron", 1, 1, 5, 1, 0, 4, 3, 3, 1, True, False),
    ("iron", 2, 1, 7, 1, 0, 4, 3, 5, 1, True, True),
    ("iron", 3, 1, 9, 1, 0, 5, 2, 7, 1, True, True),
    ("iron", 4, 1, 12, 1, 0, 6, 1, 9, 1, True, True),
    ("port", 1, 2, 6, 0, 0, 0, 3, 2, 1, True, False),
    ("port", 2, 2, 7, 0, 0, 0, 3, 4, 1, True, True),
    ("port", 3, 2, 8, 0, 0, 0, 4, 6, 1, True, True),
    ("port", 4, 2, 9, 0, 0, 0, 4, 9, 1, True, True),
    ("shipyard", 1, 2, 16, 1, 1, 0, 2, 10, 1, True, False),
    ("shipyard", 2, 2, 25, 1, 1, 0, 1, 18, 1, False, True),
]


@pytest.mark.parametrize("row", TILE_TABLE, ids=lambda r: f"{r[0]}-{r[1]}")
def test_tile_table_row_matches_the_reference(row: tuple) -> None:
    name, level, count, money, coal, iron, cubes, income, vp, icons, canal, rail = row
    ind = INDUSTRIES.index(name)
    tile = D.tile(ind, level)
    assert D.stacks.sequence[ind].count(level) == count
    assert (tile.money, tile.coal, tile.iron, tile.cubes) == (money, coal, iron, cubes)
    assert (tile.income, tile.vp, tile.link_icons) == (income, vp, icons)
    assert (tile.canal, tile.rail, tile.develop) == (canal, rail, True)


def test_cotton_mill_i_vp_is_provisional_five_not_the_2007_three() -> None:
    marks = {tuple(m.path): m for m in D.provisional()["industries.json"]}
    mark = marks[("tiles", "cotton", 0, "vp")]
    assert (mark.value, mark.alternative) == (5, 3)
    assert D.tile(COTTON, 1).vp == 5


def test_each_player_has_37_industry_tiles_across_five_industries() -> None:
    sizes = {name: len(D.stacks.sequence[k]) for k, name in enumerate(INDUSTRIES)}
    assert sizes == {"cotton": 12, "coal": 7, "iron": 4, "port": 8, "shipyard": 6}
    assert sum(sizes.values()) == 37


def test_level_0_shipyards_are_never_built_and_leave_only_by_develop() -> None:
    locked = D.tile(SHIPYARD, 0)
    assert D.stacks.sequence[SHIPYARD] == [0, 0, 1, 1, 2, 2]
    assert locked.locked and locked.develop
    assert not (locked.buildable(0) or locked.buildable(1))
    assert not any(D.tile(k, 1).locked for k in range(len(INDUSTRIES)))


def test_the_mat_offers_the_level_0_shipyards_first_and_reads_an_empty_stack_as_empty() -> None:
    taken = [0] * len(INDUSTRIES)
    assert D.stacks.top_level(SHIPYARD, 0) == 0
    assert D.stacks.top_level(SHIPYARD, 2) == 1
    size = D.stacks.sizes[SHIPYARD]
    assert D.stacks.top_level(SHIPYARD, size) == EMPTY
    taken[SHIPYARD] = size
    assert SHIPYARD not in D.stacks.accessible(taken)


def test_level_1_tiles_cannot_be_built_in_the_rail_era_nor_shipyard_ii_in_the_canal_era() -> None:
    assert all(D.tile(k, 1).buildable(0) and not D.tile(k, 1).buildable(1) for k in range(5))
    assert D.tile(SHIPYARD, 2).buildable(1) and not D.tile(SHIPYARD, 2).buildable(0)
    assert D.rules.level_removed_after_canal_era == 1


def test_only_mines_and_works_produce_and_each_industry_flips_its_own_way() -> None:
    flips = {name: kind.flips for name, kind in zip(INDUSTRIES, D.kinds, strict=True)}
    assert flips == {"cotton": "sold", "coal": "emptied", "iron": "emptied",
                     "port": "sold_through", "shipyard": "built"}  # fmt: skip
    assert [k.produces for k in D.kinds] == [None, "coal", "iron", None, None]


def test_every_build_space_names_known_industries_in_the_published_numbers() -> None:
    assert (len(D.towns), D.n_locations - len(D.towns), D.n_slots) == (19, 6, 43)
    per_industry = Counter(k for icons in D.slot_icons for k in icons)
    assert per_industry == {COTTON: 24, COAL: 18, IRON: 6, PORT: 10, SHIPYARD: 3}
    shared = Counter(icons for icons in D.slot_icons if len(icons) > 1)
    assert shared == {(COTTON, COAL): 16, (COTTON, PORT): 2}
    shipyards = sorted(D.locations[loc].id for loc in D.industry_locs[SHIPYARD])
    assert shipyards == ["barrow_in_furness", "birkenhead", "liverpool"]


def test_ports_stand_in_the_six_port_towns() -> None:
    ports = Counter(D.locations[D.slot_loc[s]].id for s, i in enumerate(D.slot_icons) if PORT in i)
    assert ports == {"liverpool": 3, "lancaster": 2, "preston": 2, "ellesmere_port": 1,
                     "fleetwood": 1, "warrington_and_runcorn": 1}  # fmt: skip


def test_external_locations_give_two_link_icons_and_three_carry_the_trade_icon() -> None:
    external = {loc.id: loc for loc in D.locations if loc.kind == "external"}
    assert sorted(external) == ["blackpool", "northwich", "scotland", "southport",
                                "the_midlands", "yorkshire"]  # fmt: skip
    assert {loc.link_icons for loc in external.values()} == {2}
    assert sorted(D.locations[i].id for i in D.trade_icon_locs) == [
        "scotland", "the_midlands", "yorkshire"]  # fmt: skip
    assert all(loc.link_icons == 0 for loc in D.locations if loc.kind == "town")


def test_every_link_joins_two_known_locations_with_the_published_canal_and_rail_lines() -> None:
    assert D.n_links == 36
    assert (sum(D.link_canal), sum(D.link_rail)) == (23, 35)
    canal_only = [n for n, c, r in zip(D.link_names, D.link_canal, D.link_rail, strict=True)
                  if not r]  # fmt: skip
    assert canal_only == ["ellesmere_port~liverpool"]
    assert all(len(nodes) == 2 for nodes in D.graph.link_nodes)


def test_barrow_and_birkenhead_are_reached_only_by_rail() -> None:
    for town in ("barrow_in_furness", "birkenhead"):
        lines = D.graph.node_links[D.loc_index[town]]
        assert lines and not any(D.link_canal[li] for li in lines)


def test_liverpool_birkenhead_is_only_the_classic_virtual_link() -> None:
    assert "birkenhead~liverpool" not in D.link_names
    pair = tuple(sorted((D.loc_index["birkenhead"], D.loc_index["liverpool"])))
    assert D.virtual_links == [pair]


def test_deck_per_player_count_has_the_published_size() -> None:
    assert {p: sum(c) for p, c in D.deck_copies.items()} == {2: 40, 3: 54, 4: 64}
    assert D.under_deck_tile == (1, 2)


def test_each_era_ends_exactly_on_the_last_card() -> None:
    r = D.rules
    for players, copies in D.deck_copies.items():
        rounds = r.rounds_per_era[str(players)]
        canal = players * (r.actions_first_round + (rounds - 1) * r.actions_per_turn)
        assert sum(copies) - players * D.under_deck_tile[0] == canal
        assert sum(copies) == players * rounds * r.actions_per_turn
    assert r.rounds_per_era == {"2": 10, "3": 9, "4": 8}


def test_burnley_and_colne_cards_are_four_player_only_and_there_are_no_wild_cards() -> None:
    copies = {D.cards.defs[k].name: [D.deck_copies[p][k] for p in (2, 3, 4)]
              for k in range(len(D.cards))}  # fmt: skip
    assert copies["location:burnley"] == copies["location:colne"] == [0, 0, 2]
    assert copies["location:manchester"] == [4, 4, 4]
    assert copies["industry:cotton"] == [0, 5, 8]
    assert D.cards.wild_location == D.cards.wild_industry == -1


def test_coal_cards_three_four_four_are_provisional() -> None:
    marks = {tuple(m.path): m for m in D.provisional()["cards.json"]}
    assert marks[("industry", 1, "copies")].value == {"2": 3, "3": 4, "4": 4}
    coal = D.cards.index("industry:coal")
    assert [D.deck_copies[p][coal] for p in (2, 3, 4)] == [3, 4, 4]


def test_markets_hold_the_published_cubes_and_sell_at_five_when_empty() -> None:
    for market, data in ((D.coal_market, D.markets.coal), (D.iron_market, D.markets.iron)):
        assert market.prices == [1, 1, 2, 2, 3, 3, 4, 4]
        assert data.initial == market.capacity == 8
        assert market.buy_cost(8, 9) == 20 + 5
        assert market.sell(0, 3) == (3, 4 + 4 + 3)
    assert D.markets.coal.needs_trade_connection and not D.markets.iron.needs_trade_connection
    assert D.markets.port_tiles_are_trade_icons


def test_distant_market_track_and_tiles_per_player_count() -> None:
    dm = D.distant_market
    assert dm.income_spaces == [3, 3, 2, 2, 1, 1, 0, 0]  # then X
    assert dm.start == 0 and dm.reset_after_canal_era and dm.needs_trade_connection
    assert {p: len(t) for p, t in D.demand_tiles.items()} == {2: 8, 3: 10, 4: 12}
    assert D.demand_tiles[4] == [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4]


def test_two_player_demand_tiles_are_provisional() -> None:
    marks = {tuple(m.path): m for m in D.provisional()["distant_market.json"]}
    assert marks[("tiles", "2")].value == {"1": 1, "2": 3, "3": 3, "4": 1}


def test_income_track_starts_on_space_10_at_level_0_and_loans_drop_levels() -> None:
    track = D.income
    assert (track.start_space, track.level(10), track.min_level, track.max_level) == (
        10, 0, -10, 30)  # fmt: skip
    assert [track.drop_levels(10, loan.levels) for loan in D.rules.loans] == [9, 8, 7]
    assert track.drop_levels(0, 1) is None


def test_rules_match_the_lancashire_column_of_the_comparison_table() -> None:
    r = D.rules
    assert r.starting_money == 30
    assert [(loan.money, loan.levels) for loan in r.loans] == [(10, 1), (20, 2), (30, 3)]
    assert r.no_loans_final_rounds_rail_era == 4
    assert (r.canal_link_cost, r.canal_links_per_action) == (3, 1)
    assert (r.rail_link_cost, r.double_rail_cost, r.coal_per_rail) == (5, 15, 1)
    assert r.rail_links_per_action == 2
    assert (r.double_action_build.cards, r.double_action_build.actions) == (2, 2)
    assert (r.players.min, r.players.max, r.hand_size, r.face_down_discards) == (2, 4, 8, 0)


def test_layout_places_every_location_space_and_link() -> None:
    assert set(D.layout.locations) == {loc.id for loc in D.locations}
    assert set(D.layout.spaces) == {D.slot_name(s) for s in range(D.n_slots)}
    assert set(D.layout.links) == set(D.link_names)


def test_the_data_readme_names_every_file_with_its_confidence() -> None:
    text = (DATA / "README.md").read_text()
    for name in D.manifest.files:
        assert f"`{name}`" in text


# --- planted defects: each broken file is refused, naming the file and the field ---------

Json = dict[str, Any]


def _edit(name: str, change: Callable[[Json], None]) -> Callable[[Path], None]:
    def apply(directory: Path) -> None:
        path = directory / name
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))

    return apply


def _locations(doc: Json) -> dict[str, Json]:
    return {loc["id"]: loc for loc in doc["locations"]}


def _set(doc: Json, path: list[Any], value: Any) -> None:
    for step in path[:-1]:
        doc = doc[step]
    doc[path[-1]] = value


DEFECTS: dict[str, tuple[Callable[[Path], None], str, str]] = {
    "unknown industry on a space": (
        _edit("board.json", lambda d: _set(_locations(d)["bolton"], ["slots", 0], ["potery"])),
        "board.json", "slots[0]",
    ),
    "external location with a space": (
        _edit("board.json", lambda d: _set(_locations(d)["scotland"], ["slots"], [["coal"]])),
        "board.json", "slots",
    ),
    "link to an unknown location": (
        _edit("links.json", lambda d: _set(d, ["links", 0, "nodes", 0], "atlantis")),
        "links.json", "nodes",
    ),
    "link twice": (
        _edit("links.json", lambda d: d["links"].append(d["links"][0])),
        "links.json", "twice",
    ),
    "link in no era": (
        _edit("links.json", lambda d: d["links"][0].update(canal=False, rail=False)),
        "links.json", "links[0]",
    ),
    "missing level": (
        _edit("industries.json", lambda d: d["tiles"]["cotton"].pop(1)),
        "industries.json", "tiles.cotton",
    ),
    "unknown tile field": (
        _edit("industries.json", lambda d: _set(d, ["tiles", "port", 0, "beer"], 1)),
        "industries.json", "beer",
    ),
    "port producing cubes": (
        _edit("industries.json", lambda d: _set(d, ["tiles", "port", 1, "produce"], 2)),
        "industries.json", "tiles.port[level 2].produce",
    ),
    "deck size off": (
        _edit("cards.json", lambda d: _set(d, ["location", 0, "copies", "4"], 3)),
        "cards.json", "deck_size.4",
    ),
    "card for an external location": (
        _edit("cards.json", lambda d: _set(d, ["location", 0, "location"], "scotland")),
        "cards.json", "location[0]",
    ),
    "copies shrinking with players": (
        _edit("cards.json", lambda d: _set(d, ["location", 1, "copies", "4"], 1)),
        "cards.json", "copies",
    ),
    "market prices unsorted": (
        _edit("markets.json", lambda d: _set(d, ["iron", "prices"], [4, 4, 3, 3, 2, 2, 1, 1])),
        "markets.json", "iron.prices",
    ),
    "market missing a field": (
        _edit("markets.json", lambda d: d["coal"].pop("empty_price")),
        "markets.json", "empty_price",
    ),
    "demand rising down the track": (
        _edit("distant_market.json", lambda d: _set(d, ["income_spaces", 7], 4)),
        "distant_market.json", "income_spaces",
    ),
    "demand tiles without a player count": (
        _edit("distant_market.json", lambda d: d["tiles"].pop("3")),
        "distant_market.json", "tiles",
    ),
    "income start off level 0": (
        _edit("income.json", lambda d: _set(d, ["start_space"], 12)),
        "income.json", "start_space",
    ),
    "rules missing a field": (
        _edit("rules.json", lambda d: d.pop("starting_money")),
        "rules.json", "starting_money",
    ),
    "unknown tie-break": (
        _edit("rules.json", lambda d: _set(d, ["tie_breaks", 1], "charm")),
        "rules.json", "tie_breaks",
    ),
    "file of another version": (
        _edit("links.json", lambda d: _set(d, ["_", "version"], "0.0.9")),
        "links.json", "_.version",
    ),
    "provisional fact changed without its mark": (
        _edit("industries.json", lambda d: _set(d, ["tiles", "cotton", 0, "vp"], 3)),
        "industries.json", "_.provisional[0]",
    ),
    "provisional mark leading nowhere": (
        _edit("rules.json", lambda d: _set(d, ["_", "provisional", 0, "path"], ["nowhere"])),
        "rules.json", "_.provisional[0].path",
    ),
    "layout missing a space": (
        _edit("layout.json", lambda d: d["spaces"].pop("bolton:0")),
        "layout.json", "bolton:0",
    ),
    "manifest missing a file": (
        _edit("manifest.json", lambda d: d["files"].remove("cards.json")),
        "manifest.json", "files",
    ),
    "file missing": (lambda directory: (directory / "markets.json").unlink(),
                     "markets.json", "missing"),
    "not JSON": (lambda directory: (directory / "board.json").write_text("{"),
                 "board.json", "not valid JSON"),
}  # fmt: skip


@pytest.mark.parametrize("defect", DEFECTS, ids=str)
def test_a_broken_file_is_refused_naming_the_file_and_the_field(
    defect: str, tmp_path: Path
) -> None:
    plant, file, field = DEFECTS[defect]
    directory = tmp_path / "data"
    shutil.copytree(DATA, directory)
    Lancashire(directory)  # the copy loads before the defect is planted
    plant(directory)
    with pytest.raises(DataError) as refused:
        Lancashire(directory)
    message = str(refused.value)
    assert message.startswith(f"{file}: ")
    assert field in message


def test_the_variants_rule_switches_are_read_from_rules_json(tmp_path: Path) -> None:
    from plugins.brass_lancashire.variant import lancashire_variant

    shipped = lancashire_variant(D)
    assert shipped.links_per_era == (1, 2) and not shipped.first_link_anywhere
    directory = tmp_path / "data"
    shutil.copytree(DATA, directory)
    _edit("rules.json", lambda d: d.update(rail_links_per_action=1, first_link_anywhere=True))(
        directory
    )
    v = lancashire_variant(Lancashire(directory))
    assert v.links_per_era == (1, 1) and v.first_link_anywhere
    assert v.overbuild_opponent == shipped.overbuild_opponent
