"""Steps 5-10: moving goods, income, expenses, income reduction, goods growth, game end."""

from __future__ import annotations

import pytest
from aos_helpers import GAME, Match, cube_total

from core.errors import IllegalMove
from plugins.age_of_steam import events as ev
from plugins.age_of_steam import flow
from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.state import OWNERLESS

# Evansville (9,9) leaves by side 0 to Indianapolis (10,8); Indianapolis by spoke 1 to
# Cincinnati (12,8). Both cities take blue goods.
TO_CINCINNATI = [0, 1]


def _network(seat: int = 0) -> Match:
    m = Match(players=3)
    m.evansville_to_cincinnati(seat)
    m.put_goods(9, 9, ["blue", "red"])
    return m


def test_a_good_moves_along_completed_links_to_a_city_of_its_colour():
    m = _network()
    m.at_move(1, engine=2)
    assert mv.MoveGood(9, 9, "blue", TO_CINCINNATI) in m.legal(1)
    (moved,) = m.do(1, mv.MoveGood(9, 9, "blue", TO_CINCINNATI))
    assert (moved.to_col, moved.to_row) == (12, 8)
    assert m.state.goods[m.hex(9, 9)] == ["red"]


def test_a_delivered_good_returns_to_the_bag():
    m = _network()
    m.at_move(1, engine=2)
    before = m.state.bag["blue"]
    cin = list(m.state.goods.get(m.hex(12, 8), []))
    m.do(1, mv.MoveGood(9, 9, "blue", TO_CINCINNATI))
    assert m.state.bag["blue"] == before + 1
    assert m.state.goods.get(m.hex(12, 8), []) == cin
    assert cube_total(m.state) == 96


def test_goods_must_end_at_a_matching_city():
    m = _network()
    m.at_move(1, engine=2)
    assert not any(isinstance(x, mv.MoveGood) and x.color == "red" for x in m.legal(1))
    with pytest.raises(IllegalMove) as err:
        m.do(1, mv.MoveGood(9, 9, "red", TO_CINCINNATI))
    assert err.value.code == "no_destination"


def test_movement_is_limited_by_the_engine():
    m = _network()
    m.at_move(1, engine=1)
    assert not any(isinstance(x, mv.MoveGood) for x in m.legal(1))
    with pytest.raises(IllegalMove) as err:
        m.do(1, mv.MoveGood(9, 9, "blue", TO_CINCINNATI))
    assert err.value.code == "engine_too_small"


def test_a_good_enters_each_city_or_town_only_once():
    m = _network()
    m.at_move(1, engine=3)
    with pytest.raises(IllegalMove) as err:
        m.do(1, mv.MoveGood(9, 9, "blue", [0, 4]))
    assert err.value.code == "revisit"


def test_a_good_stops_at_the_first_city_of_its_colour():
    m = _network()
    # Indianapolis becomes New City B (blue): the blue cube must stop there
    m.state.actions["urbanization"] = 0
    m.at_build(0)
    m.do(0, mv.Urbanize(10, 8, "B"))
    m.at_move(1, engine=2)
    with pytest.raises(IllegalMove) as err:
        m.do(1, mv.MoveGood(9, 9, "blue", TO_CINCINNATI))
    assert err.value.code == "passes_own_colour"
    assert mv.MoveGood(9, 9, "blue", [0]) in m.legal(1)


def test_goods_move_only_over_completed_links():
    m = Match(players=3)
    m.lay(0, (9, 8, "gentle", 1))  # Evansville -> open end at Indianapolis
    m.put_goods(9, 9, ["blue"])
    m.at_move(0, engine=2)
    with pytest.raises(IllegalMove) as err:
        m.do(0, mv.MoveGood(9, 9, "blue", [0]))
    assert err.value.code == "no_link"


def test_each_link_gives_its_owner_one_income():
    m = Match(players=3)
    m.lay(0, (9, 8, "gentle", 1), (10, 8, "town_1", 4))
    m.lay(1, (11, 7, "gentle", 2), (10, 8, "straight", 1))
    m.put_goods(9, 9, ["blue"])
    m.at_move(2, engine=2)
    (moved,) = m.do(2, mv.MoveGood(9, 9, "blue", TO_CINCINNATI))
    assert moved.income == [(0, 1), (1, 1)]
    assert [p.income for p in m.state.pl] == [1, 1, 0]


def test_ownerless_links_give_nobody_income():
    m = _network()
    for ht in m.state.track.values():
        for sec in ht.sections:
            sec[2] = OWNERLESS
    m.state.net = None
    m.at_move(1, engine=2)
    m.do(1, mv.MoveGood(9, 9, "blue", TO_CINCINNATI))
    assert [p.income for p in m.state.pl] == [0, 0, 0]


def test_instead_of_moving_a_player_may_raise_the_engine_once_per_turn():
    m = Match(players=3)
    m.state.phase, m.state.queue, m.state.move_round = "move", [0, 0], 0
    m.do(0, mv.RaiseEngine())
    assert m.state.pl[0].engine == 2
    assert mv.RaiseEngine() not in m.legal(0)
    with pytest.raises(IllegalMove) as err:
        m.do(0, mv.RaiseEngine())
    assert err.value.code == "engine_once"


def test_engine_stops_at_6_links():
    m = Match(players=3)
    m.at_move(0, engine=6)
    assert m.legal(0) == [mv.PassMove()]


def test_move_goods_has_two_rounds_in_player_order():
    m = Match(players=3)
    m.state.phase = "build"
    flow.enter(m.board, m.state, "move")
    order = m.state.order
    seen = []
    while m.state.phase == "move":
        seat = m.state.queue[0]
        seen.append(seat)
        m.do(seat, mv.PassMove())
    assert seen == order + order and m.state.phase == "settle"


# --- income, expenses, reduction ---------------------------------------------------------


def _settle(m: Match) -> list:
    m.state.phase = "settle"
    m.state.queue = []
    return m.system()


def test_players_collect_their_income():
    m = Match(players=3)
    m.state.pl[0].income = 7
    _settle(m)
    assert m.state.pl[0].money == 10 + 7 - 3


def test_expenses_are_1_per_share_and_1_per_engine_link():
    m = Match(players=3)
    m.state.pl[1].shares, m.state.pl[1].engine = 5, 3
    _settle(m)
    assert m.state.pl[1].money == 10 - 8


def test_a_shortfall_lowers_income_by_1_per_dollar():
    m = Match(players=3)
    p = m.state.pl[2]
    p.money, p.income, p.shares, p.engine = 0, 5, 6, 2
    _settle(m)
    assert (p.money, p.income, p.eliminated) == (0, 2, False)


def test_income_at_0_or_below_after_a_shortfall_eliminates_and_frees_the_track():
    m = _network(seat=2)
    p = m.state.pl[2]
    p.money, p.income, p.shares, p.engine = 0, 3, 5, 1  # $3 against $6: short 3
    events = _settle(m)
    assert events[1].eliminated == [2] and p.eliminated
    assert all(s[2] == OWNERLESS for ht in m.state.track.values() for s in ht.sections)
    assert 2 not in m.state.order


def test_a_player_who_pays_in_full_is_not_eliminated_at_income_0():
    m = Match(players=3)
    _settle(m)
    assert not any(p.eliminated for p in m.state.pl)


@pytest.mark.parametrize(
    ("income", "after"),
    [(0, 0), (10, 10), (11, 9), (20, 18), (21, 17), (30, 26), (31, 25), (40, 34), (41, 33),
     (50, 42), (51, 41), (60, 50)],
)  # fmt: skip
def test_income_reduction_brackets(income, after):
    m = Match(players=3)
    m.state.pl[0].income = income
    m.state.pl[0].money = 100
    _settle(m)
    assert m.state.pl[0].income == after


# --- goods growth --------------------------------------------------------------------------


def test_growth_rolls_one_die_per_starting_player_for_each_set():
    m = Match(players=4)
    m.state.phase = "growth"
    grown = m.system()[0]
    assert len(grown.light) == 4 and len(grown.dark) == 4
    assert all(1 <= d <= 6 for d in grown.light + grown.dark)


def test_each_die_moves_a_display_cube_to_the_city_with_that_number():
    m = Match(players=3)
    chicago = m.hex(7, 5)
    before = len(m.state.goods[chicago])
    top = m.state.display[m.board.display_ids.index("light-1")][-1]
    flow.apply(m.board, m.state, ev.GoodsGrown([1], []))
    assert len(m.state.goods[chicago]) == before + 1 and m.state.goods[chicago][-1] == top
    assert cube_total(m.state) == 96


def test_growth_feeds_a_new_city_once_it_is_on_the_map():
    m = Match(players=3)
    milwaukee = m.hex(7, 3)
    flow.apply(m.board, m.state, ev.GoodsGrown([3], []))
    assert milwaukee not in m.state.goods
    m.state.new_cities[milwaukee] = "A"  # New City A shares light die 3
    flow.apply(m.board, m.state, ev.GoodsGrown([3], []))
    assert len(m.state.goods[milwaukee]) == 1


def test_an_empty_display_column_gives_nothing():
    m = Match(players=3)
    i = m.board.display_ids.index("light-1")
    for c in m.state.display[i]:
        m.state.bag[c] += 1
    m.state.display[i] = []
    before = list(m.state.goods[m.hex(7, 5)])
    flow.apply(m.board, m.state, ev.GoodsGrown([1], []))
    assert m.state.goods[m.hex(7, 5)] == before


def test_production_draws_two_cubes_onto_the_display_before_growth():
    m = Match(players=3)
    # make room on the display: two cubes back to the bag
    i = m.board.display_ids.index("dark-6")
    for c in m.state.display[i][:2]:
        m.state.bag[c] += 1
    m.state.display[i] = m.state.display[i][2:]
    m.state.actions["production"] = 1
    _settle(m)
    assert m.state.phase == "production"
    (drawn,) = m.system()
    assert isinstance(drawn, ev.ProductionDrawn) and len(drawn.cubes) == 2
    assert m.legal(1) == [mv.PlaceCube("dark-6")]
    m.do(1, mv.PlaceCube("dark-6"))
    m.do(1, mv.PlaceCube("dark-6"))
    assert m.state.phase == "growth" and len(m.state.display[i]) == 3
    assert cube_total(m.state) == 96


# --- turn marker and game end ---------------------------------------------------------------


def test_turn_marker_advances_after_growth():
    m = Match(players=3)
    m.state.phase = "growth"
    m.system()
    assert m.state.turn == 2 and m.state.phase == "shares"


def test_game_ends_after_the_last_turn_with_the_scoring_formula():
    m = _network(seat=0)
    m.state.turn = m.state.last_turn
    m.state.pl[0].income, m.state.pl[0].shares = 10, 4
    m.state.pl[1].income, m.state.pl[1].shares = 5, 2
    m.state.phase = "growth"
    m.system()
    result = GAME.result(m.state)
    # seat 0: 3*10 - 3*4 + 4 sections (two plain tracks, two town spokes)
    assert result.scores == [30 - 12 + 4, 15 - 6, -6]
    assert result.ranking == [1, 2, 3]
    assert GAME.pending_tasks(m.state) == []


def test_ties_are_shared():
    m = Match(players=3)
    m.state.turn = m.state.last_turn
    m.state.phase = "growth"
    m.system()
    assert GAME.result(m.state).ranking == [1, 1, 1]


def test_eliminated_players_rank_below_the_rest():
    m = Match(players=3)
    m.state.pl[0].eliminated, m.state.pl[0].out_turn = True, 2
    m.state.pl[0].income = 40
    m.state.order = [s for s in m.state.order if s != 0]
    m.state.turn = m.state.last_turn
    m.state.phase = "growth"
    m.system()
    assert GAME.result(m.state).ranking[0] == 3


def test_incomplete_track_scores_nothing():
    m = Match(players=3)
    m.lay(0, (9, 8, "gentle", 1))
    m.state.turn = m.state.last_turn
    m.state.phase = "growth"
    m.system()
    assert GAME.result(m.state).scores[0] == -6


def test_cash_has_no_value_at_the_end():
    m = Match(players=3)
    m.state.turn = m.state.last_turn
    m.state.pl[0].money = 500
    m.state.phase = "growth"
    m.system()
    assert GAME.result(m.state).scores[0] == -6


def test_the_turn_order_action_lets_its_holder_pass_in_the_next_auction():
    m = Match(players=3)
    holder = m.state.order[2]
    m.state.actions["turn_order"] = holder
    m.state.phase = "growth"
    m.system()
    for seat in list(m.state.queue):
        m.do(seat, mv.IssueShares(0))
    assert m.state.auction.pass_seat == holder


def test_when_every_seat_is_eliminated_the_result_gives_each_seats_elimination_turn():
    m = Match(players=3)
    for seat, turn in ((0, 2), (1, 4), (2, 2)):
        m.state.pl[seat].eliminated, m.state.pl[seat].out_turn = True, turn
    m.state.order = []
    m.state.turn = m.state.last_turn
    m.state.phase = "growth"
    m.system()
    result = GAME.result(m.state)
    assert result.details["eliminated_turn"] == [2, 4, 2]
    assert result.ranking == [2, 1, 2]


def test_a_seat_still_in_has_no_elimination_turn_in_the_result():
    m = Match(players=3)
    m.state.pl[0].eliminated, m.state.pl[0].out_turn = True, 2
    m.state.order = [s for s in m.state.order if s != 0]
    m.state.turn = m.state.last_turn
    m.state.phase = "growth"
    m.system()
    assert GAME.result(m.state).details["eliminated_turn"] == [2, None, None]
