"""Brass: Pittsburgh player mat: accessible tiles along paths, branches and shortcuts.

Tile ids (K1, S3, ...) and arrows are those of the PROVISIONAL data set (0.1.0).
"""

from __future__ import annotations

import random

import pytest

from plugins.brass_pittsburgh.data import default_data
from plugins.brass_pittsburgh.mat import MatGraph


@pytest.fixture(scope="module")
def mat() -> MatGraph:
    return MatGraph(default_data())


def accessible_ids(mat: MatGraph, left: list[int]) -> set[str]:
    return {mat.tiles[i].id for i in mat.accessible(left)}


def emptied(mat: MatGraph, *ids: str) -> list[int]:
    left = mat.initial()
    for tile_id in ids:
        left[mat.index[tile_id]] = 0
    return left


def test_bottommost_tile_of_each_path_is_accessible_at_setup(mat: MatGraph) -> None:
    assert accessible_ids(mat, mat.initial()) == {"K1", "C1", "M1", "CK", "I1"}


def test_next_tile_waits_until_the_whole_stack_below_is_gone(mat: MatGraph) -> None:
    left = mat.initial()
    mat.take(left, mat.index["K1"])
    assert "K2" not in accessible_ids(mat, left)  # one K1 is still on the mat
    mat.take(left, mat.index["K1"])
    assert {"K2"} <= accessible_ids(mat, left)
    assert "K1" not in accessible_ids(mat, left)


def test_steel_path_branches_into_skyscrapers(mat: MatGraph) -> None:
    left = emptied(mat, "I1", "I2", "I3", "S2", "S3")
    assert {"S4", "SK"} <= accessible_ids(mat, left)


def test_manufacturing_branches_into_automobiles_and_the_locomotive_works(mat: MatGraph) -> None:
    left = emptied(mat, "M1", "M2", "M3", "M4", "M5")
    assert {"A1", "LW"} <= accessible_ids(mat, left)


def test_manufacturing_shortcut_reaches_the_coal_path_on_its_left(mat: MatGraph) -> None:
    left = emptied(mat, "M1", "M2")
    assert "C3" in accessible_ids(mat, left)  # C1 and C2 still full


def test_coke_shortcuts_reach_both_neighbouring_paths(mat: MatGraph) -> None:
    left = emptied(mat, "CK")
    assert {"A1", "S3"} <= accessible_ids(mat, left)


def test_a_tile_further_up_a_path_is_not_accessible(mat: MatGraph) -> None:
    left = mat.initial()
    with pytest.raises(ValueError, match="not accessible"):
        mat.take(left, mat.index["K3"])


def test_locked_link_moves_to_the_supply_when_the_tile_below_it_goes(mat: MatGraph) -> None:
    left = emptied(mat, "K1")
    assert mat.take(left, mat.index["K2"]) == ["PL_MONEY2"]
    assert mat.take(left, mat.index["C1"]) == []


def test_empty_spaces_count_spaces_not_tiles(mat: MatGraph) -> None:
    left = mat.initial()
    mat.take(left, mat.index["K1"])
    assert mat.empty_spaces(left) == 0  # one K1 left in that space
    mat.take(left, mat.index["K1"])
    assert mat.empty_spaces(left) == 1
    assert sum(left) == 34  # tiles, still counted


def test_accessible_exactly_when_holding_a_tile_and_unpointed_or_pointed_by_an_empty_space(
    mat: MatGraph,
) -> None:
    # Every mat of emptied and part-taken spaces, against the rule read off the arrows.
    rng = random.Random(12)
    for _ in range(3000):
        left = [rng.choice((0, 0, 1, n)) for n in mat.initial()]
        expected = [
            i
            for i, preds in enumerate(mat.predecessors)
            if left[i] > 0 and (not preds or any(left[p] == 0 for p in preds))
        ]
        assert mat.accessible(left) == expected
