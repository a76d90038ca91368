"""Brass: Pittsburgh end of era on a state: train links, flipped industries, crown jewels,
obsolete tiles and oil release. Tile VP and icons are PROVISIONAL (0.1.0)."""

from __future__ import annotations

from random import Random

import pytest

from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.scoring import score_era
from plugins.brass_pittsburgh.state import ERA2, State


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


class Table:
    """A fresh 4-player state with helpers to put tiles and trains on the board."""

    def __init__(self, game: BrassPittsburgh) -> None:
        self.rules: Rules = game.rules
        (event,) = game.setup(Options(), 4, Random(5))
        self.state: State = game.evolve(None, event)
        self.board = self.rules.board_of(self.state.side)

    def train(self, line_id: str, seat: int, link: str = "LT") -> int:
        line = self.board.line_index[line_id]
        self.state.line_owner[line], self.state.line_link[line] = seat, link
        return line

    def tile(self, city: str, k: int, seat: int, tile: str, flipped: bool = True) -> int:
        slot = self.board.city_slots[self.board.node[city]][k]
        s = self.state
        s.slot_owner[slot], s.slot_tile[slot], s.slot_flipped[slot] = seat, tile, flipped
        return slot


def test_train_links_score_icons_at_both_ends_and_double_trains_twice(
    game: BrassPittsburgh,
) -> None:
    t = Table(game)
    t.tile("homestead", 0, 0, "S2")  # flipped: 1 link icon at Homestead
    t.train("homestead~pittsburgh", 0)  # Pittsburgh prints 1 icon: 1 + 1
    t.train("braddock~homestead", 1, "HT_DOUBLE")  # (0 + 1) x 2
    t.train("erie~warren", 2)  # no icons at either end
    assert score_era(t.rules, t.state).link_vp == [2, 2, 0, 0]


def test_unflipped_tiles_show_no_link_icons_and_score_nothing(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.tile("homestead", 0, 0, "S2", flipped=False)
    t.train("braddock~homestead", 1)
    score = score_era(t.rules, t.state)
    assert score.link_vp == [0, 0, 0, 0] and score.industry_vp == [0, 0, 0, 0]


def test_flipped_industries_score_their_vp(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.tile("homestead", 0, 0, "S2")
    t.tile("connellsville", 1, 2, "C1")
    assert score_era(t.rules, t.state).industry_vp == [5, 0, 1, 0]


def test_light_trains_leave_after_era1_heavy_trains_stay(game: BrassPittsburgh) -> None:
    t = Table(game)
    light = t.train("homestead~pittsburgh", 0)
    t.train("braddock~homestead", 1, "HT_DOUBLE")
    assert score_era(t.rules, t.state).trains_removed == [light]


def test_every_train_leaves_after_era2(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.state.era = ERA2
    light = t.train("homestead~pittsburgh", 0)
    heavy = t.train("braddock~homestead", 1, "HT_DOUBLE")
    assert score_era(t.rules, t.state).trains_removed == [light, heavy]


def test_level_one_tiles_leave_the_board_after_era1_only(game: BrassPittsburgh) -> None:
    t = Table(game)
    level_one = t.tile("connellsville", 1, 2, "C1", flipped=False)
    t.tile("homestead", 0, 0, "S2")
    assert score_era(t.rules, t.state).slots_cleared == [level_one]
    t.state.era = ERA2
    assert score_era(t.rules, t.state).slots_cleared == []


def test_oil_under_the_oilfields_is_released_after_era1_only(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.state.oil_pending[1] = 2
    assert score_era(t.rules, t.state).oil_released[1] == 2
    t.state.era = ERA2
    assert score_era(t.rules, t.state).oil_released[1] == 0


def test_polyphase_alternator_scores_each_empty_mat_space(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.tile("wheeling", 2, 3, "PA")
    for tile_id in ("K1", "C1", "M1"):
        t.state.mat[3][t.rules.mat.index[tile_id]] = 0
    assert score_era(t.rules, t.state).industry_vp[3] == 3


def test_locomotive_works_scores_four_per_heavy_train_built(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.state.era = ERA2
    t.tile("pittsburgh", 2, 1, "LW")
    t.train("braddock~homestead", 1, "HT_DOUBLE")
    t.train("homestead~pittsburgh", 1, "HT_WHISKEY")
    t.train("erie~warren", 1)  # a light train is no heavy train
    assert score_era(t.rules, t.state).industry_vp[1] == 8


def test_flipped_oil_city_scores_its_vp(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.state.oil_city_owner[0], t.state.oil_city_flipped[0] = 2, True
    t.state.oil_city_owner[1] = 3  # still holds oil: unflipped
    assert score_era(t.rules, t.state).industry_vp == [0, 0, 6, 0]
