"""Barbados (1 player) and St. Lucia (2 players): their setup and rule changes."""

from __future__ import annotations

import pytest
from aos_helpers import GAME, Match, cube_total, raw

from core.errors import IllegalMove
from plugins.age_of_steam import moves as mv

# --- Barbados -------------------------------------------------------------------------------


def test_barbados_setup_one_cube_per_city_and_top_row_of_the_display():
    m = Match("barbados", 1)
    b = m.board
    assert [len(m.state.goods[b.hex_of(c.col, c.row)]) for c in b.spec.cities] == [1] * 6
    assert [len(c) for c in m.state.display] == [1] * 10
    assert "purple" not in m.state.bag and cube_total(m.state) == 76
    assert m.state.last_turn == 10


def test_barbados_easy_variant_puts_two_cubes_per_city():
    m = Match("barbados", 1, barbados_easy=True)
    assert all(len(c) == 2 for c in m.state.goods.values())


def test_barbados_new_city_rows_never_start_with_their_own_colour():
    for seed in range(30):
        m = Match("barbados", 1, seed=seed)
        ids = m.board.display_ids
        assert m.state.display[ids.index("A")] != ["red"]
        assert m.state.display[ids.index("B")] != ["blue"]


def test_barbados_allows_one_share_per_turn_and_has_no_auction():
    m = Match("barbados", 1)
    assert m.legal(0) == [mv.IssueShares(0), mv.IssueShares(1)]
    m.do(0, mv.IssueShares(1))
    assert m.state.phase == "actions"


def test_barbados_actions_cycle_through_all_four_before_repeating():
    m = Match("barbados", 1)
    m.do(0, mv.IssueShares(0))
    names = [x.action for x in m.legal(0)]
    assert names == ["engineer", "locomotive", "urbanization", "production"]
    m.do(0, mv.SelectAction("engineer"))
    m.state.actions = {}
    m.state.phase, m.state.queue = "actions", [0]
    assert mv.SelectAction("engineer") not in m.legal(0)
    for name in ("locomotive", "urbanization", "production"):
        m.state.actions = {}
        m.state.phase, m.state.queue = "actions", [0]
        m.do(0, mv.SelectAction(name))
    assert m.state.cycle_used == []


def test_barbados_must_select_an_action():
    m = Match("barbados", 1)
    m.do(0, mv.IssueShares(0))
    assert all(isinstance(x, mv.SelectAction) for x in m.legal(0))


def test_barbados_growth_rolls_two_light_dice():
    m = Match("barbados", 1)
    m.state.phase = "growth"
    grown = m.system()[0]
    assert len(grown.light) == 2 and grown.dark == []


def test_barbados_score_is_money_after_buying_back_every_share():
    m = Match("barbados", 1)
    m.state.turn = 10
    m.state.pl[0].money, m.state.pl[0].shares = 30, 4
    m.state.phase = "growth"
    m.system()
    result = GAME.result(m.state)
    assert result.scores == [10] and result.details["won"] == [True]


def test_barbados_player_who_cannot_buy_back_loses():
    m = Match("barbados", 1)
    m.state.turn = 10
    m.state.pl[0].money, m.state.pl[0].shares = 5, 2
    m.state.phase = "growth"
    m.system()
    assert GAME.result(m.state).details["won"] == [False]


# --- St. Lucia ------------------------------------------------------------------------------


def test_st_lucia_setup_one_cube_on_each_clear_and_river_hex():
    m = Match("st_lucia", 2)
    assert sum(len(c) for c in m.state.goods.values()) == 38
    assert all(m.board.town_at[h] < 0 for h in m.state.goods)
    assert m.state.display == [] and m.state.last_turn == 8


def test_st_lucia_turn_order_comes_before_shares():
    m = Match("st_lucia", 2)
    assert m.state.phase == "first_player"
    holder = m.state.queue[0]
    assert m.legal(holder) == [mv.BuyFirst(), mv.DeclineFirst()]


def test_st_lucia_holder_may_pay_5_to_go_first():
    m = Match("st_lucia", 2)
    holder = m.state.queue[0]
    m.do(holder, mv.BuyFirst())
    assert m.state.order[0] == holder and m.state.pl[holder].money == 5
    assert m.state.phase == "shares"


def test_st_lucia_other_player_may_buy_when_the_holder_declines():
    m = Match("st_lucia", 2)
    holder, other = m.state.queue
    m.do(holder, mv.DeclineFirst())
    m.do(other, mv.BuyFirst())
    assert m.state.order == [other, holder] and m.state.pl[other].money == 5


def test_st_lucia_holder_goes_first_free_when_both_decline():
    m = Match("st_lucia", 2)
    holder, other = m.state.queue
    m.do(holder, mv.DeclineFirst())
    m.do(other, mv.DeclineFirst())
    assert m.state.order == [holder, other]
    assert [p.money for p in m.state.pl] == [10, 10]


def test_st_lucia_first_decision_alternates_each_turn():
    m = Match("st_lucia", 2)
    holder = m.state.first_holder
    m.state.phase = "growth"
    m.system()
    assert m.state.first_holder == 1 - holder and m.state.queue[0] == 1 - holder


def test_st_lucia_turn_order_action_gives_the_first_decision():
    m = Match("st_lucia", 2)
    holder = m.state.first_holder
    m.state.actions["turn_order"] = holder
    m.state.phase = "growth"
    m.system()
    assert m.state.first_holder == holder


def test_st_lucia_option_removes_the_turn_order_action():
    m = Match("st_lucia", 2, st_lucia_turn_order_action=False)
    m.state.phase, m.state.queue = "actions", [0]
    names = [x.action for x in m.legal(0)]
    assert "turn_order" not in names and "production" not in names


def test_st_lucia_has_no_production_and_no_goods_growth():
    m = Match("st_lucia", 2)
    m.state.phase, m.state.queue = "actions", [0]
    assert mv.SelectAction("production") not in m.legal(0)
    m.state.phase = "growth"
    grown = m.system()[0]
    assert grown.light == [] and grown.dark == []


def _cube_on_track(first_section_income: int = 1) -> Match:
    m = Match("st_lucia", 2, st_lucia_first_section_income=first_section_income)
    castries = m.hex(2, 2)
    m.state.new_cities[castries] = "A"  # red
    m.put_goods(2, 3, ["red"])
    # (2,3) is the river hex south of Castries: track from its N side (Castries) to SE
    raw(m, 2, 3, "straight", [[0, 3, 1, 1]])
    return m


def test_st_lucia_cube_on_built_track_is_delivered_even_from_an_unfinished_link():
    m = _cube_on_track()
    m.at_move(0, engine=1)
    assert mv.MoveGood(2, 3, "red", [0]) in m.legal(0)
    (moved,) = m.do(0, mv.MoveGood(2, 3, "red", [0]))
    assert (moved.to_col, moved.to_row) == (2, 2)
    assert moved.income == [(1, 1)]


def test_st_lucia_option_gives_the_track_owner_one_extra_income():
    m = _cube_on_track(first_section_income=2)
    m.at_move(0, engine=1)
    (moved,) = m.do(0, mv.MoveGood(2, 3, "red", [0]))
    assert moved.income == [(1, 2)]


def test_st_lucia_cube_without_track_cannot_move():
    m = Match("st_lucia", 2)
    m.state.new_cities[m.hex(2, 2)] = "A"
    m.put_goods(2, 3, ["red"])
    m.at_move(0, engine=1)
    with pytest.raises(IllegalMove) as err:
        m.do(0, mv.MoveGood(2, 3, "red", [0]))
    assert err.value.code == "no_track"


@pytest.mark.parametrize(("map_id", "players"), [("barbados", 2), ("st_lucia", 1), ("st_lucia", 3)])
def test_small_maps_refuse_other_player_counts(map_id, players):
    from core.errors import BadRequest

    with pytest.raises(BadRequest):
        Match(map_id, players)
