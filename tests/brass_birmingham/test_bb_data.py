"""Brass: Birmingham data files: the rule text's tile tables, board facts, validation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from plugins.brass.data import DataError
from plugins.brass_birmingham.data import DATA, INDUSTRIES, Birmingham, birmingham

D = birmingham()

# The rule text's tile tables, row by row:
# (industry, level, per player, £, coal, iron, beer, income spaces, VP, link icons,
#  developable, canal, rail)
TILE_TABLE = [
    ("cotton", 1, 3, 12, 0, 0, 1, 5, 5, 1, True, True, False),
    ("cotton", 2, 2, 14, 1, 0, 1, 4, 5, 2, True, True, True),
    ("cotton", 3, 3, 16, 1, 1, 1, 3, 9, 1, True, True, True),
    ("cotton", 4, 3, 18, 1, 1, 1, 2, 12, 1, True, True, True),
    ("manufacturer", 1, 1, 8, 1, 0, 1, 5, 3, 2, True, True, False),
    ("manufacturer", 2, 2, 10, 0, 1, 1, 1, 5, 1, True, True, True),
    ("manufacturer", 3, 1, 12, 2, 0, 0, 4, 4, 0, True, True, True),
    ("manufacturer", 4, 1, 8, 0, 1, 1, 6, 3, 1, True, True, True),
    ("manufacturer", 5, 2, 16, 1, 0, 2, 2, 8, 2, True, True, True),
    ("manufacturer", 6, 1, 20, 0, 0, 1, 6, 7, 1, True, True, True),
    ("manufacturer", 7, 1, 16, 1, 1, 0, 4, 9, 0, True, True, True),
    ("manufacturer", 8, 2, 20, 0, 2, 1, 1, 11, 1, True, True, True),
    ("coal", 1, 1, 5, 0, 0, 0, 4, 1, 2, True, True, False),
    ("coal", 2, 2, 7, 0, 0, 0, 7, 2, 1, True, True, True),
    ("coal", 3, 2, 8, 0, 1, 0, 6, 3, 1, True, True, True),
    ("coal", 4, 2, 10, 0, 1, 0, 5, 4, 1, True, True, True),
    ("iron", 1, 1, 5, 1, 0, 0, 3, 3, 1, True, True, False),
    ("iron", 2, 1, 7, 1, 0, 0, 3, 5, 1, True, True, True),
    ("iron", 3, 1, 9, 1, 0, 0, 2, 7, 1, True, True, True),
    ("iron", 4, 1, 12, 1, 0, 0, 1, 9, 1, True, True, True),
    ("brewery", 1, 2, 5, 0, 1, 0, 4, 4, 2, True, True, False),
    ("brewery", 2, 2, 7, 0, 1, 0, 5, 5, 2, True, True, True),
    ("brewery", 3, 2, 9, 0, 1, 0, 5, 7, 2, True, True, True),
    ("brewery", 4, 1, 9, 0, 1, 0, 5, 10, 2, True, False, True),
    ("pottery", 1, 1, 17, 0, 1, 1, 5, 10, 1, False, True, True),
    ("pottery", 2, 1, 0, 1, 0, 1, 1, 1, 1, True, True, True),
    ("pottery", 3, 1, 22, 2, 0, 2, 5, 11, 1, False, True, True),
    ("pottery", 4, 1, 0, 1, 0, 1, 1, 1, 1, True, True, True),
    ("pottery", 5, 1, 24, 2, 0, 2, 5, 20, 1, True, False, True),
]
SUPPLY = {("coal", 1): 2, ("coal", 2): 3, ("coal", 3): 4, ("coal", 4): 5,
          ("iron", 1): 4, ("iron", 2): 4, ("iron", 3): 5, ("iron", 4): 6}  # fmt: skip


@pytest.mark.parametrize("row", TILE_TABLE, ids=lambda r: f"{r[0]}-{r[1]}")
def test_tile_table_row_matches_the_rule_text(row: tuple) -> None:
    name, level, count, money, coal, iron, beer, income, vp, icons, dev, canal, rail = row
    ind = INDUSTRIES.index(name)
    tile = D.tile(ind, level)
    assert D.stacks.sequence[ind].count(level) == count
    assert (tile.money, tile.coal, tile.iron) == (money, coal, iron)
    assert (tile.beer, tile.income, tile.vp, tile.link_icons) == (beer, income, vp, icons)
    assert (tile.develop, tile.canal, tile.rail) == (dev, canal, rail)
    if name == "brewery":
        assert (tile.produce_canal, tile.produce_rail) == (1, 2)
    elif (name, level) in SUPPLY:
        assert tile.produce_canal == tile.produce_rail == SUPPLY[(name, level)]
    else:
        assert tile.produce_canal == tile.produce_rail == 0


def test_manufacturer_iv_costs_eight_pounds_as_the_rule_text_says() -> None:
    assert D.tile(INDUSTRIES.index("manufacturer"), 4).money == 8


def test_each_player_has_45_tiles_across_six_types() -> None:
    sizes = dict(zip(INDUSTRIES, D.stacks.sizes, strict=True))
    assert sizes == {"cotton": 11, "manufacturer": 11, "pottery": 5, "coal": 7, "iron": 4,
                     "brewery": 7}  # fmt: skip
    assert sum(sizes.values()) == 45


def test_board_has_the_reference_counts() -> None:
    towns = [loc for loc in D.locations if loc.kind == "town"]
    farms = [loc for loc in D.locations if loc.kind == "farm"]
    merchants = [loc for loc in D.locations if loc.kind == "merchant"]
    assert (len(towns), len(farms), len(merchants)) == (20, 2, 5)
    assert D.n_slots == 49 and D.n_links == 39
    assert sum(D.link_canal) == 31 and sum(D.link_rail) == 38


def test_birmingham_spaces_read_the_printed_icons() -> None:
    icons = [
        tuple(INDUSTRIES[k] for k in D.slot_icons[s])
        for s in D.loc_slots[D.loc_index["birmingham"]]
    ]
    assert icons == [("cotton", "manufacturer"), ("manufacturer",), ("iron",), ("manufacturer",)]


def test_kidderminster_worcester_link_also_reaches_the_southern_farm() -> None:
    li = D.link_names.index("kidderminster~worcester")
    assert D.loc_index["farm_brewery_south"] in D.link_nodes[li]


def test_merchant_locations_carry_two_link_icons_and_their_bonus() -> None:
    bonus = {D.locations[i].id: (D.loc_bonus[i].kind, D.loc_bonus[i].amount)
             for i in D.merchant_nodes}  # fmt: skip
    assert bonus == {"warrington": ("money", 5), "nottingham": ("vp", 3),
                     "shrewsbury": ("vp", 4), "oxford": ("income", 2),
                     "gloucester": ("develop", 1)}  # fmt: skip
    assert all(D.loc_icons[i] == 2 for i in D.merchant_nodes)


@pytest.mark.parametrize(("players", "size"), [(2, 40), (3, 54), (4, 64)])
def test_deck_size_by_player_count(players: int, size: int) -> None:
    assert sum(D.deck_copies[players]) == size


def test_two_players_remove_blue_and_teal_cards_three_remove_teal() -> None:
    def count(players: int, town: str) -> int:
        return D.deck_copies[players][D.cards.index(f"location:{town}")]

    for town in ("belper", "derby"):  # teal
        assert count(2, town) == count(3, town) == 0 < count(4, town)
    for town in ("leek", "stoke_on_trent", "stone"):  # blue
        assert count(2, town) == 0 < count(3, town)
    assert (count(2, "uttoxeter"), count(3, "uttoxeter"), count(4, "uttoxeter")) == (0, 1, 2)


def test_markets_and_income_track_facts() -> None:
    assert D.coal_market.prices == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]
    assert D.iron_market.prices == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert (D.coal_market.empty_price, D.iron_market.empty_price) == (8, 6)
    assert (D.coal_initial, D.iron_initial) == (13, 8)
    assert D.income.level(10) == 0 and D.income.level(0) == -10 and D.income.max_level == 30


def _broken(tmp_path: Path, file: str, change) -> Path:  # type: ignore[no-untyped-def]
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    doc = json.loads((target / file).read_text())
    change(doc)
    (target / file).write_text(json.dumps(doc))
    return target


def test_unknown_industry_on_a_space_is_refused_naming_the_file(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["locations"][0]["slots"][0] = ["steel"]

    with pytest.raises(
        DataError, match=r"board\.json: locations\[0\] \(belper\): unknown industry"
    ):
        Birmingham(_broken(tmp_path, "board.json", change))


def test_link_to_unknown_location_is_refused(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["links"][0]["nodes"][1] = "atlantis"

    with pytest.raises(DataError, match="link to unknown atlantis"):
        Birmingham(_broken(tmp_path, "board.json", change))


def test_deck_size_mismatch_is_refused(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["location"][0]["copies"]["4"] = 3

    with pytest.raises(DataError, match="4-player deck has 65 cards, not 64"):
        Birmingham(_broken(tmp_path, "cards.json", change))


def test_tile_levels_out_of_order_are_refused(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["tiles"]["iron"][1]["level"] = 3

    with pytest.raises(DataError, match="iron: levels must run"):
        Birmingham(_broken(tmp_path, "industries.json", change))


def test_merchant_tiles_must_fill_the_spaces_of_each_player_count(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["tiles"][0]["min_players"] = 3

    with pytest.raises(DataError, match="2 players: 4 merchant tiles for 5 merchant spaces"):
        Birmingham(_broken(tmp_path, "merchants.json", change))


def test_unknown_field_is_refused(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["coal"]["colour"] = "black"

    with pytest.raises(DataError, match=r"markets\.json"):
        Birmingham(_broken(tmp_path, "markets.json", change))


def test_income_track_with_a_skipped_level_is_refused(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["space_to_level"][20] = 9

    with pytest.raises(DataError, match=r"income\.json"):
        Birmingham(_broken(tmp_path, "income.json", change))


def test_a_merchant_listed_before_a_town_is_refused(tmp_path: Path) -> None:
    """The family's board reader: towns (with build spaces), then the off-board locations."""

    def change(doc: dict) -> None:
        merchant = next(i for i, loc in enumerate(doc["locations"]) if loc["kind"] == "merchant")
        doc["locations"].insert(0, doc["locations"].pop(merchant))

    with pytest.raises(DataError, match="come before the merchant ones"):
        Birmingham(_broken(tmp_path, "board.json", change))


def test_an_unknown_tie_break_is_refused(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        doc["tie_breaks"] = ["income_level", "charm"]

    with pytest.raises(DataError, match="tie_breaks: each must be one of"):
        Birmingham(_broken(tmp_path, "rules.json", change))


def test_ties_break_on_income_level_then_money_by_default() -> None:
    assert D.rules.tie_breaks == ["income_level", "money"]


# --- the data set: manifest, headers, provisional facts ------------------------------------

CONFIDENCE = {"rules.json": "high", "board.json": "high", "industries.json": "high",
              "cards.json": "high", "merchants.json": "medium", "markets.json": "high",
              "income.json": "high"}  # fmt: skip


def test_every_file_is_of_the_manifests_version_with_the_references_confidence() -> None:
    assert sorted(D.manifest.files) == sorted([*CONFIDENCE, "layout.json"])
    headers = D.files.headers
    assert {name: h.confidence for name, h in headers.items()} == CONFIDENCE
    assert {h.version for h in headers.values()} == {D.manifest.version} == {"1.0.0"}
    assert D.layout.header["version"] == D.manifest.version


def test_the_three_player_blank_merchant_tile_is_provisional() -> None:
    assert list(D.provisional()) == ["merchants.json"]
    (mark,) = D.provisional()["merchants.json"]
    tile = D.merchant_tiles[mark.path[1]]
    assert (tile.id, tile.min_players, tile.accepts) == ("mt_blank_c", 3, [])
    assert mark.alternative == ["cotton", "manufacturer", "pottery"]


def test_game_metadata_lists_the_provisional_facts_as_lancashire_does() -> None:
    from plugins.brass_birmingham.game import BrassBirmingham

    (mark,) = BrassBirmingham().metadata["provisional"]["merchants.json"]
    assert mark["path"] == ["tiles", 6, "accepts"] and mark["value"] == []


def test_the_data_readme_names_every_file() -> None:
    text = (DATA / "README.md").read_text()
    assert all(f"`{name}`" in text for name in D.manifest.files)


def _set(path: list, value: object):  # type: ignore[no-untyped-def]
    def change(doc: dict) -> None:
        for step in path[:-1]:
            doc = doc[step]
        doc[path[-1]] = value

    return change


DATA_SET_DEFECTS = {
    "file of another version": ("cards.json", _set(["_", "version"], "0.9.0"), "_.version"),
    "provisional fact changed without its mark": (
        "merchants.json", _set(["tiles", 6, "accepts"], ["pottery"]), "_.provisional[0]"),
    "provisional mark leading nowhere": (
        "merchants.json", _set(["_", "provisional", 0, "path"], ["tiles", 9]), "leads nowhere"),
    "header without a confidence": ("rules.json", lambda d: d["_"].pop("confidence"),
                                    "confidence"),
    "manifest missing a file": ("manifest.json", lambda d: d["files"].remove("income.json"),
                                "files: must list exactly"),
    "layout of another version": ("layout.json", _set(["_", "version"], "0.9.0"), "stale"),
}  # fmt: skip


@pytest.mark.parametrize("defect", DATA_SET_DEFECTS, ids=str)
def test_a_broken_data_set_is_refused_naming_the_file(defect: str, tmp_path: Path) -> None:
    file, change, field = DATA_SET_DEFECTS[defect]
    with pytest.raises(DataError) as refused:
        Birmingham(_broken(tmp_path, file, change))
    assert str(refused.value).startswith(f"{file}: ") and field in str(refused.value)
