"""Brass: Pittsburgh rewards, crown jewels, upgrades and era-end scoring as pure functions.

Tile, pipeline and reward values are those of the PROVISIONAL data set (0.1.0).
"""

from __future__ import annotations

import pytest

from plugins.brass.scoring import link_icons
from plugins.brass_pittsburgh.board import BuiltPipeline, PittsburghBoard
from plugins.brass_pittsburgh.data import PittsburghData, default_data
from plugins.brass_pittsburgh.industries import (
    BuiltIndustry,
    already_flipped,
    card_builds,
    leaves_at_end_of_era1,
    oil_city_barrels,
    oil_city_sites,
    upgrade_targets,
)
from plugins.brass_pittsburgh.rewards import (
    Gains,
    claimable_quality_rewards,
    era_end_vp,
    gains,
    pipeline_pays,
)
from plugins.brass_pittsburgh.rules import default_rules
from plugins.brass_pittsburgh.scoring import train_leaves_at_era_end, train_link_vp


@pytest.fixture(scope="module")
def data() -> PittsburghData:
    return default_data()


@pytest.fixture(scope="module")
def board() -> PittsburghBoard:
    rules = default_rules()
    return rules.board_of(rules.side_for(4))


def test_polyphase_alternator_pays_twice_the_income_level(data: PittsburghData) -> None:
    reward = data.mat.tiles["PA"].flip_reward
    assert gains(reward, income_level=7).money == 14
    assert gains(reward, income_level=-3).money == 0  # never takes money


def test_pipeline_owner_earns_its_reward_per_barrel(data: PittsburghData) -> None:
    assert pipeline_pays(data.pipelines["PL_VP2"], 2) == Gains(vp=4)
    assert pipeline_pays(data.pipelines["PL_INCOME1"], 3) == Gains(income_spaces=3)
    assert pipeline_pays(data.pipelines["PL_RESERVE"], 1) == Gains()


def test_whiskey_adds_one_star_per_token_to_claim_a_quality_reward(data: PittsburghData) -> None:
    faceup = [data.quality_rewards[t] for t in ("QR_2_MONEY", "QR_3_VP", "QR_5_VP")]
    options = {t.id: w for t, w in claimable_quality_rewards(2, 1, faceup)}
    assert options == {"QR_2_MONEY": 0, "QR_3_VP": 1}


def test_crown_jewels_score_at_era_end(data: PittsburghData) -> None:
    pa, lw = data.mat.tiles["PA"], data.mat.tiles["LW"]
    assert era_end_vp([pa.vp_special], empty_mat_spaces=9, heavy_trains_built=2) == 9
    assert era_end_vp([lw.vp_special], empty_mat_spaces=9, heavy_trains_built=2) == 8


def test_locomotive_works_gives_three_free_develops(data: PittsburghData) -> None:
    assert gains(data.mat.tiles["LW"].flip_reward).free_develops == 3


def test_skyscraper_gives_a_bonus_sell(data: PittsburghData) -> None:
    assert gains(data.mat.tiles["SK"].flip_reward).bonus_sells == 1


def test_crown_jewels_other_than_oil_city_are_already_flipped(data: PittsburghData) -> None:
    flipped = {t.id for t in data.mat.tiles.values() if already_flipped(data, t)}
    assert flipped == {"PA", "LW", "SK"}


def test_upgrade_replaces_only_own_flipped_tile_of_its_path(data: PittsburghData) -> None:
    built = [
        BuiltIndustry(owner=0, tile="C2", flipped=True),  # slot 0: the only target
        BuiltIndustry(owner=0, tile="C3", flipped=False),  # unflipped
        BuiltIndustry(owner=1, tile="C1", flipped=True),  # someone else's
        BuiltIndustry(owner=0, tile="I1", flipped=True),  # another path
        None,  # an empty space is never upgraded
    ]
    assert upgrade_targets(data, data.mat.tiles["PA"], 0, built) == [0]
    assert upgrade_targets(data, data.mat.tiles["K2"], 0, built) == []


def test_oil_city_needs_a_pipeline_joining_the_oilfield_to_the_network(
    board: PittsburghBoard,
) -> None:
    route = [None] * len(board.routes)
    route[board.route_index["butler_field~allegheny"]] = BuiltPipeline(1, "PL_MONEY1")
    field = board.oilfield_index["butler_field"]
    assert oil_city_sites(board, {board.node["allegheny"]}, route, []) == [field]
    assert oil_city_sites(board, {board.node["erie"]}, route, []) == []
    assert oil_city_sites(board, {board.node["allegheny"]}, route, [field]) == []


def test_oil_city_takes_the_oilfields_oil_plus_three(data: PittsburghData) -> None:
    assert oil_city_barrels(data.mat.tiles["OC"], oil_on_field=4) == 7


def test_industry_card_builds_its_path_including_the_crown_jewel(board: PittsburghBoard) -> None:
    table = default_rules().cards["main"]
    card = table.defs[table.index("kerosene")]
    assert card_builds(board.data, board, card) == {"kerosene", "oil_city"}


def test_location_card_builds_what_its_city_shows(board: PittsburghBoard) -> None:
    table = default_rules().cards["main"]
    card = table.defs[table.index("connellsville")]
    assert card_builds(board.data, board, card) == {"coke", "coal", "polyphase_alternator"}


def test_level_one_tiles_leave_at_the_end_of_era1(data: PittsburghData) -> None:
    gone = {t.id for t in data.mat.tiles.values() if leaves_at_end_of_era1(t)}
    assert gone == {"K1", "C1", "M1", "A1", "I1"}


def test_double_link_train_scores_double(board: PittsburghBoard) -> None:
    icons = link_icons(board.printed_link_icons, [(board.node["homestead"], 2)])
    line = board.line_index["homestead~pittsburgh"]
    assert train_link_vp(board, line, icons, 1) == 3  # Pittsburgh prints 1 icon
    assert train_link_vp(board, line, icons, 2) == 6


def test_light_trains_leave_every_era_end_heavy_trains_only_the_last() -> None:
    assert train_leaves_at_era_end(1, heavy=False) and train_leaves_at_era_end(2, heavy=False)
    assert not train_leaves_at_era_end(1, heavy=True)
    assert train_leaves_at_era_end(2, heavy=True)
