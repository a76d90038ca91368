"""Brass: Pittsburgh data set: the shipped files load, and every kind of broken file is refused.

Each refusal test copies the shipped data, breaks one fact, and expects a DataError naming
the file and a stable code.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from plugins.brass.data import DataError as FamilyDataError
from plugins.brass_pittsburgh.data import (
    DATA_DIR,
    DataError,
    IndustryCard,
    LocationCard,
    default_data,
    load_data,
)
from plugins.brass_pittsburgh.rules import default_rules

Json = dict[str, Any]


def test_shipped_data_loads_and_is_marked_provisional() -> None:
    data = default_data()
    assert data.version == "0.1.0-provisional"
    assert data.manifest.provisional is True
    assert "PROVISIONAL" in (DATA_DIR / "README.md").read_text()


def test_shipped_data_meets_the_rulebook_component_list() -> None:
    data = default_data()
    assert sum(t.count for t in data.mat.tiles.values()) == 36
    assert data.light_trains.count + len(data.heavy_trains) + len(data.pipelines) == 21
    assert len(data.cards) == 68
    assert (len(data.oilfield_tiles), len(data.quality_rewards), len(data.merchant_tiles)) == (
        5,
        6,
        5,
    )
    assert len(data.links_on_mat()) == 8  # the rest: 9 light + 2 heavy + 2 pipelines


def test_deck_keeps_only_cards_showing_the_player_count() -> None:
    data = default_data()
    assert [len(data.deck_for(n)) for n in (2, 3, 4)] == [32, 48, 64]
    assert all(2 in c.player_counts for c in data.deck_for(2))
    assert all(4 in c.player_counts for c in data.deck_for(4))


def test_two_player_cards_name_cities_of_the_two_player_side() -> None:
    data = default_data()
    side = data.sides[default_rules().side_for(2)]
    assert side.players == [2]
    for card in data.deck_for(2):
        if isinstance(card, LocationCard):
            assert card.location in side.cities
        else:
            assert isinstance(card, IndustryCard)


def test_pittsburgh_data_error_is_a_family_data_error() -> None:
    assert issubclass(DataError, FamilyDataError)


# --- refusals --------------------------------------------------------------------------------


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def edit(directory: Path, name: str, change: Callable[[Json], object]) -> None:
    path = directory / name
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def refused(directory: Path) -> DataError:
    with pytest.raises(DataError) as info:
        load_data(directory)
    return info.value


def assert_refused(
    directory: Path, name: str, change: Callable[[Json], object], code: str, fragment: str
) -> None:
    """Once ``change`` breaks file ``name``, loading refuses it with ``code``, the message
    naming ``fragment``."""
    edit(directory, name, change)
    err = refused(directory)
    assert (err.file, err.code) == (name, code)
    assert fragment in err.message


def tile(doc: Json, tile_id: str) -> Json:
    return next(t for t in doc["tiles"] if t["id"] == tile_id)


def side(doc: Json, side_id: str) -> Json:
    return next(s for s in doc["sides"] if s["id"] == side_id)


def test_missing_file_is_refused(data_copy: Path) -> None:
    (data_copy / "markets.json").unlink()
    err = refused(data_copy)
    assert (err.file, err.code) == ("markets.json", "unreadable")


def test_malformed_json_is_refused(data_copy: Path) -> None:
    (data_copy / "cards.json").write_text("{ not json")
    assert (refused(data_copy).file, refused(data_copy).code) == ("cards.json", "unreadable")


def test_unknown_field_is_refused_not_ignored(data_copy: Path) -> None:
    edit(data_copy, "player_mat.json", lambda d: tile(d, "K2").update(vp_bonus=3))
    err = refused(data_copy)
    assert err.file == "player_mat.json" and "vp_bonus" in err.message


def test_unknown_effect_type_is_refused(data_copy: Path) -> None:
    edit(
        data_copy,
        "quality_rewards.json",
        lambda d: d["quality_rewards"][0].update(reward=[{"type": "beer", "amount": 1}]),
    )
    assert refused(data_copy).file == "quality_rewards.json"


def test_negative_printed_amount_is_refused_naming_the_field(data_copy: Path) -> None:
    # Costs, oil icons, market prices and box counts are printed numbers: the family's
    # Amount refuses a negative one when the file is decoded.
    edit(data_copy, "player_mat.json", lambda d: tile(d, "K1")["cost"].update(money=-8))
    err = refused(data_copy)
    assert (err.file, err.code) == ("player_mat.json", "unreadable")
    assert "cost.money" in err.message


def test_negative_reward_is_refused(data_copy: Path) -> None:
    edit(
        data_copy,
        "quality_rewards.json",
        lambda d: d["quality_rewards"][0].update(reward=[{"type": "vp", "amount": -2}]),
    )
    err = refused(data_copy)
    assert (err.file, err.code) == ("quality_rewards.json", "unreadable")


def test_negative_oil_icons_on_a_route_are_refused(data_copy: Path) -> None:
    edit(data_copy, "pipeline_routes.json", lambda d: d["sides"]["main"][0].update(oil_icons=-1))
    err = refused(data_copy)
    assert (err.file, err.code) == ("pipeline_routes.json", "unreadable")


DECODE_REFUSALS = [
    # the rulebook's numbers: constants.json admits only them
    ("constants.json", lambda d: d["components"].update(coal=17), "components.coal"),
    ("constants.json", lambda d: d.update(players=[2, 3]), "players"),
    # no build cost is paid in oil barrels
    ("player_mat.json", lambda d: tile(d, "K2")["cost"].update(oil=1), "cost.oil"),
    # a mat space holds at least one tile
    ("player_mat.json", lambda d: tile(d, "K2").update(count=0), "count"),
    # tiles produce cubes or oil, trains carry them
    ("player_mat.json", lambda d: tile(d, "C2").update(produces={"beer": 1}), "produces"),
    ("heavy_trains.json", lambda d: d["heavy_trains"][0].update(carries={"beer": 1}), "carries"),
    # a Quality Rewards tile needs stars and gives something
    ("quality_rewards.json", lambda d: d["quality_rewards"][0].update(stars_required=0), "stars"),
    ("quality_rewards.json", lambda d: d["quality_rewards"][0].update(reward=[]), "reward"),
    # cards show the icons of 2 to 4 players, at least one
    ("cards.json", lambda d: d["cards"][0].update(player_counts=[2, 5]), "player_counts"),
    ("cards.json", lambda d: d["cards"][0].update(player_counts=[]), "player_counts"),
    ("board_sides.json", lambda d: d["default_side_by_players"].update(x="main"), "default_side"),
    # markets and Vanderbilt trade cubes, never oil barrels
    ("markets.json", lambda d: d["sides"]["main"][0]["ladders"].update(oil={}), "ladders"),
    ("vanderbilt.json", lambda d: d["sides"]["main"].update(oil=20), "sides"),
]


@pytest.mark.parametrize(("name", "change", "field"), DECODE_REFUSALS)
def test_shape_the_rules_rule_out_is_refused_when_decoded_naming_the_field(
    data_copy: Path, name: str, change: Callable[[Json], object], field: str
) -> None:
    assert_refused(data_copy, name, change, "unreadable", field)


def _pair_off_places(d: Json) -> None:
    """Every location keeps a line, but only to one neighbour: the rail board falls apart."""
    places = sorted({end for line in d["sides"]["main"] for end in line["endpoints"]})
    pairs = [places[i : i + 2] for i in range(0, len(places) - 1, 2)]
    if len(places) % 2:
        pairs.append(places[-2:])
    d["sides"]["main"] = [{"endpoints": pair, "bonus": None} for pair in pairs]


def test_rail_board_in_pieces_is_refused(data_copy: Path) -> None:
    edit(data_copy, "lines.json", _pair_off_places)
    err = refused(data_copy)
    assert (err.file, err.code) == ("lines.json", "bad_graph")
    assert "the lines leave the board in pieces" in err.message


def test_location_without_a_line_is_refused(data_copy: Path) -> None:
    def strand_erie(d: Json) -> None:
        d["sides"]["main"] = [ln for ln in d["sides"]["main"] if "erie" not in ln["endpoints"]]

    edit(data_copy, "lines.json", strand_erie)
    err = refused(data_copy)
    assert (err.file, err.code) == ("lines.json", "bad_value")
    assert "no line reaches erie" in err.message


def test_line_joining_a_location_to_itself_is_refused(data_copy: Path) -> None:
    edit(
        data_copy, "lines.json", lambda d: d["sides"]["main"][0].update(endpoints=["erie", "erie"])
    )
    err = refused(data_copy)
    assert (err.file, err.code) == ("lines.json", "bad_value")
    assert "must be two distinct locations" in err.message


def test_file_of_another_data_version_is_refused(data_copy: Path) -> None:
    edit(data_copy, "lines.json", lambda d: d["_"].update(version="1.0.0"))
    err = refused(data_copy)
    assert (err.file, err.code) == ("lines.json", "version_mismatch")


def test_file_the_manifest_does_not_list_is_refused(data_copy: Path) -> None:
    edit(data_copy, "manifest.json", lambda d: d["files"].remove("vanderbilt.json"))
    err = refused(data_copy)
    assert (err.file, err.code) == ("manifest.json", "bad_value")
    assert "files: must list exactly" in err.message


def test_fact_changed_under_its_provisional_mark_is_refused(data_copy: Path) -> None:
    # CARD_38 lost its 4-player icon (a marked decision): changing it needs the mark changed
    edit(data_copy, "cards.json", lambda d: d["cards"][37].update(player_counts=[2, 3]))
    err = refused(data_copy)
    assert (err.file, err.code) == ("cards.json", "bad_value")
    assert "not the marked [3]" in err.message


def test_each_file_says_how_sure_its_facts_are(data_copy: Path) -> None:
    data = load_data(data_copy)
    assert data.files.headers["constants.json"].confidence == "high"
    assert data.files.headers["player_mat.json"].confidence == "low"
    assert data.manifest.provisional is True and data.manifest.status.startswith("PROVISIONAL")
    assert sorted(data.files.provisional()) == ["cards.json", "player_mat.json"]


def _break_line(d: Json) -> None:
    d["sides"]["main"][0]["endpoints"][1] = "atlantis"


def _break_route(d: Json) -> None:
    d["sides"]["main"][0]["oilfield"] = "spindletop"


def _break_card(d: Json) -> None:
    card = next(c for c in d["cards"] if c["kind"] == "location" and 2 in c["player_counts"])
    card["location"] = "cleveland"  # a city of the main side only


def _break_market(d: Json) -> None:
    d["sides"]["two_player"][0]["city"] = "atlantis"


def _break_link_space(d: Json) -> None:
    d["link_spaces"][0]["link"] = "HT_GHOST"


def _break_arrow(d: Json) -> None:
    d["arrows"][0]["to"] = "K9"


def _break_display(d: Json) -> None:
    d["sides"]["main"]["tile_display"][0] = "OT_Z"


def _break_slot(d: Json) -> None:
    side(d, "main")["cities"][0]["slots"][0] = ["brewery"]


DANGLING = [
    ("lines.json", _break_line, "atlantis"),
    ("pipeline_routes.json", _break_route, "spindletop"),
    ("cards.json", _break_card, "cleveland"),
    ("markets.json", _break_market, "atlantis"),
    ("player_mat.json", _break_link_space, "HT_GHOST"),
    ("player_mat.json", _break_arrow, "K9"),
    ("oilfields.json", _break_display, "OT_Z"),
    ("board_sides.json", _break_slot, "brewery"),
]


@pytest.mark.parametrize(
    ("name", "change", "culprit"), DANGLING, ids=[d[1].__name__ for d in DANGLING]
)
def test_reference_to_something_that_does_not_exist_is_refused(
    data_copy: Path, name: str, change: Callable[[Json], None], culprit: str
) -> None:
    assert_refused(data_copy, name, change, "unknown_reference", culprit)


def test_duplicate_card_id_is_refused(data_copy: Path) -> None:
    edit(data_copy, "cards.json", lambda d: d["cards"][1].update(id=d["cards"][0]["id"]))
    assert refused(data_copy).code == "duplicate_id"


def test_duplicate_line_is_refused(data_copy: Path) -> None:
    edit(data_copy, "lines.json", lambda d: d["sides"]["main"].append(d["sides"]["main"][0]))
    assert refused(data_copy).code == "duplicate_id"


def test_per_side_file_missing_a_side_is_refused(data_copy: Path) -> None:
    edit(data_copy, "vanderbilt.json", lambda d: d["sides"].pop("two_player"))
    err = refused(data_copy)
    assert (err.file, err.code) == ("vanderbilt.json", "side_mismatch")


COUNTS = [
    # 37 industry tiles per colour instead of 36
    ("player_mat.json", lambda d: tile(d, "C2").update(count=3), "36"),
    # 36 in all, but 7 Manufactured Goods instead of the 8 the component list names
    (
        "player_mat.json",
        lambda d: (tile(d, "M4").update(count=1), tile(d, "K2").update(count=2)),
        "manufactured_goods",
    ),
    ("cards.json", lambda d: d["cards"].pop(), "68"),
    ("light_trains.json", lambda d: d.update(count=8), "21"),
    ("quality_rewards.json", lambda d: d["quality_rewards"].pop(), "6"),
    ("merchant_tiles.json", lambda d: d["merchant_tiles"].pop(), "5"),
    ("oilfield_tiles.json", lambda d: d["oilfield_tiles"].pop(), "5"),
]


@pytest.mark.parametrize(("name", "change", "fragment"), COUNTS)
def test_component_count_other_than_the_rulebook_is_refused(
    data_copy: Path, name: str, change: Callable[[Json], object], fragment: str
) -> None:
    assert_refused(data_copy, name, change, "count_mismatch", fragment)


def test_deck_must_hold_sixteen_cards_per_player_for_eight_rounds(data_copy: Path) -> None:
    # 1 face-down card + 1 + 7 x 2 actions in era 1, 8 x 2 actions in era 2.
    def give_a_four_player_icon(d: Json) -> None:
        i = next(i for i, c in enumerate(d["cards"]) if c["player_counts"] == [3])
        d["cards"][i]["player_counts"] = [3, 4]
        # the icon it lost is a provisional mark: the changed card is no longer doubtful
        d["_"]["provisional"] = [m for m in d["_"]["provisional"] if m["path"][1] != i]

    edit(data_copy, "cards.json", give_a_four_player_icon)
    err = refused(data_copy)
    assert (err.file, err.code) == ("cards.json", "count_mismatch")
    assert "65 cards show the 4-player icon" in err.message and "needs 64" in err.message


def test_personal_supply_must_be_nine_light_two_heavy_two_pipelines(data_copy: Path) -> None:
    edit(data_copy, "player_mat.json", lambda d: d["link_spaces"].pop())
    err = refused(data_copy)
    assert (err.file, err.code) == ("player_mat.json", "count_mismatch")


def test_two_player_removal_must_be_the_fifteen_dollar_merchant(data_copy: Path) -> None:
    def change(d: Json) -> None:
        for t in d["merchant_tiles"]:
            t["min_players"] = 3 if t["id"] == "MT_VP" else 2

    edit(data_copy, "merchant_tiles.json", change)
    err = refused(data_copy)
    assert (err.file, err.code) == ("merchant_tiles.json", "rulebook_mismatch")


def test_two_player_removal_must_be_the_oilfield_tile_producing_three(data_copy: Path) -> None:
    edit(data_copy, "oilfield_tiles.json", lambda d: d["oilfield_tiles"][-1].update(production=2))
    err = refused(data_copy)
    assert (err.file, err.code) == ("oilfield_tiles.json", "rulebook_mismatch")


def test_merchant_spaces_must_match_merchant_tiles_in_play(data_copy: Path) -> None:
    edit(
        data_copy,
        "board_sides.json",
        lambda d: side(d, "main")["merchants"][-1]["spaces"][0].update(min_players=2),
    )
    err = refused(data_copy)
    assert (err.file, err.code) == ("board_sides.json", "count_mismatch")


def test_oilfields_must_match_the_oilfield_tiles_shown_under_the_side(data_copy: Path) -> None:
    edit(data_copy, "oilfields.json", lambda d: d["sides"]["two_player"]["tile_display"].pop())
    err = refused(data_copy)
    assert (err.file, err.code) == ("oilfields.json", "count_mismatch")


def test_coke_market_must_start_with_one_cube_in_its_top_space(data_copy: Path) -> None:
    def change(d: Json) -> None:
        d["sides"]["main"][3]["ladders"]["coke"]["initial"] = 3

    edit(data_copy, "markets.json", change)
    err = refused(data_copy)
    assert (err.file, err.code) == ("markets.json", "rulebook_mismatch")


def test_coal_market_must_start_full(data_copy: Path) -> None:
    edit(
        data_copy,
        "markets.json",
        lambda d: d["sides"]["main"][0]["ladders"]["coal"].update(initial=3),
    )
    assert refused(data_copy).code == "rulebook_mismatch"


def test_market_ladder_must_get_cheaper_downwards(data_copy: Path) -> None:
    def change(d: Json) -> None:
        d["sides"]["main"][0]["ladders"]["iron"]["prices"].reverse()

    edit(data_copy, "markets.json", change)
    err = refused(data_copy)
    assert (err.file, err.code) == ("markets.json", "bad_value")


def test_vanderbilt_must_charge_more_than_any_market(data_copy: Path) -> None:
    edit(data_copy, "vanderbilt.json", lambda d: d["sides"]["main"].update(steel=8))
    err = refused(data_copy)
    assert (err.file, err.code) == ("vanderbilt.json", "bad_value")


def test_vanderbilt_delivers_every_cube(data_copy: Path) -> None:
    edit(data_copy, "vanderbilt.json", lambda d: d["sides"]["main"].pop("coke"))
    err = refused(data_copy)
    assert (err.file, err.code) == ("vanderbilt.json", "bad_value")
    assert "coke" in err.message


def test_locomotive_works_must_give_three_free_develops(data_copy: Path) -> None:
    edit(
        data_copy,
        "player_mat.json",
        lambda d: tile(d, "LW").update(flip_reward=[{"type": "free_develop", "count": 2}]),
    )
    err = refused(data_copy)
    assert (err.file, err.code) == ("player_mat.json", "rulebook_mismatch")
    assert "3 free develops" in err.message


def test_oil_city_must_be_era_two_only(data_copy: Path) -> None:
    edit(data_copy, "player_mat.json", lambda d: tile(d, "OC").update(era="both"))
    assert refused(data_copy).code == "rulebook_mismatch"


def test_heavy_train_must_cost_two_steel(data_copy: Path) -> None:
    edit(data_copy, "heavy_trains.json", lambda d: d["heavy_trains"][0].update(cost={"steel": 1}))
    err = refused(data_copy)
    assert (err.file, err.code) == ("heavy_trains.json", "rulebook_mismatch")


def test_reserve_pipeline_must_carry_no_oil_payment(data_copy: Path) -> None:
    def change(d: Json) -> None:
        reserve = next(p for p in d["pipelines"] if p["type"] == "reserve")
        reserve["per_barrel"] = {"type": "money", "amount": 1}

    edit(data_copy, "pipelines.json", change)
    assert refused(data_copy).code == "rulebook_mismatch"


def test_starting_money_must_be_thirty_dollars(data_copy: Path) -> None:
    edit(data_copy, "constants.json", lambda d: d.update(starting_money=17))
    err = refused(data_copy)
    assert (err.file, err.code) == ("constants.json", "unreadable")
    assert "starting_money" in err.message


def test_income_marker_must_start_on_space_ten_at_level_zero(data_copy: Path) -> None:
    edit(data_copy, "income_track.json", lambda d: d.update(start_space=11))
    assert refused(data_copy).code == "rulebook_mismatch"


def test_income_track_must_not_skip_a_level(data_copy: Path) -> None:
    edit(data_copy, "income_track.json", lambda d: d["space_to_level"].__setitem__(12, 3))
    err = refused(data_copy)
    assert (err.file, err.code) == ("income_track.json", "bad_value")


def test_mat_arrows_must_not_form_a_cycle(data_copy: Path) -> None:
    edit(
        data_copy,
        "player_mat.json",
        lambda d: d["arrows"].append({"from": "K3", "to": "K2", "kind": "path"}),
    )
    err = refused(data_copy)
    assert (err.file, err.code) == ("player_mat.json", "bad_graph")


def test_coke_path_must_have_shortcuts_to_either_side(data_copy: Path) -> None:
    edit(
        data_copy,
        "player_mat.json",
        lambda d: d.update(arrows=[a for a in d["arrows"] if (a["from"], a["to"]) != ("CK", "S3")]),
    )
    err = refused(data_copy)
    assert (err.file, err.code) == ("player_mat.json", "rulebook_mismatch")
    assert "coke" in err.message


def test_locked_link_must_sit_above_a_single_tile_space(data_copy: Path) -> None:
    edit(data_copy, "player_mat.json", lambda d: d["link_spaces"][0].update(unlocked_by="K1"))
    assert refused(data_copy).code == "bad_value"


def test_city_without_a_railroad_line_is_refused(data_copy: Path) -> None:
    def change(d: Json) -> None:
        d["sides"]["main"] = [
            line for line in d["sides"]["main"] if "kittanning" not in line["endpoints"]
        ]

    edit(data_copy, "lines.json", change)
    err = refused(data_copy)
    assert (err.file, err.code) == ("lines.json", "bad_value")
    assert "kittanning" in err.message


def test_merchant_tile_may_only_show_sellable_industries(data_copy: Path) -> None:
    edit(
        data_copy, "merchant_tiles.json", lambda d: d["merchant_tiles"][0]["accepts"].append("coal")
    )
    err = refused(data_copy)
    assert (err.file, err.code) == ("merchant_tiles.json", "unknown_reference")


def test_layout_drawn_for_another_data_version_is_refused() -> None:
    with pytest.raises(DataError) as info:
        default_data().files.check_version("layout.json", {"version": "1.0.0"})
    assert (info.value.file, info.value.code) == ("layout.json", "version_mismatch")
