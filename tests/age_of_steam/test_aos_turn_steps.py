"""Setup and the first steps of a turn: shares, the turn-order auction, actions."""

from __future__ import annotations

import pytest
from aos_helpers import GAME, Match, cube_total

from core.errors import IllegalMove
from plugins.age_of_steam import moves as mv

# --- setup ---------------------------------------------------------------------------------


def test_goods_display_is_filled_with_52_cubes():
    m = Match(players=4)
    assert sum(len(c) for c in m.state.display) == 52


def test_pittsburgh_and_wheeling_get_3_cubes_every_other_city_2():
    m = Match(players=4)
    b = m.board
    for city in b.spec.cities:
        n = len(m.state.goods.get(b.hex_of(city.col, city.row), []))
        assert n == (3 if city.name in ("Pittsburgh", "Wheeling") else 2), city.name


def test_the_bag_keeps_the_other_18_cubes():
    m = Match(players=4)
    assert sum(m.state.bag.values()) == 96 - 52 - 26 and cube_total(m.state) == 96


def test_players_start_with_10_dollars_2_shares_engine_1_income_0():
    m = Match(players=5)
    for p in m.state.pl:
        assert (p.money, p.shares, p.engine, p.income) == (10, 2, 1, 0)


def test_first_player_order_is_random():
    orders = {tuple(Match(players=4, seed=s).state.order) for s in range(12)}
    assert len(orders) > 3


@pytest.mark.parametrize(("players", "turns"), [(3, 10), (4, 8), (5, 7), (6, 6)])
def test_game_length_depends_on_player_count(players, turns):
    assert Match(players=players).state.last_turn == turns


def test_rust_belt_refuses_two_players():
    from core.errors import BadRequest
    from plugins.age_of_steam.game import Options

    with pytest.raises(BadRequest):
        GAME.setup(Options(), 2, __import__("random").Random(1))


# --- step 1: issue shares ------------------------------------------------------------------


def test_each_share_gives_5_dollars():
    m = Match()
    seat = m.state.queue[0]
    m.do(seat, mv.IssueShares(3))
    assert m.state.pl[seat].money == 25 and m.state.pl[seat].shares == 5


def test_shares_are_issued_in_player_order():
    m = Match()
    first, second = m.state.order[:2]
    with pytest.raises(IllegalMove) as err:
        m.do(second, mv.IssueShares(1))
    assert err.value.code == "not_your_turn"
    m.do(first, mv.IssueShares(0))
    assert m.state.queue[0] == second


def test_at_most_15_shares_in_all():
    m = Match()
    seat = m.state.queue[0]
    m.state.pl[seat].shares = 13
    assert m.legal(seat) == [mv.IssueShares(0), mv.IssueShares(1), mv.IssueShares(2)]
    with pytest.raises(IllegalMove) as err:
        m.do(seat, mv.IssueShares(3))
    assert err.value.code == "share_limit"


# --- step 2: turn-order auction ------------------------------------------------------------


def _to_auction(m: Match) -> None:
    for seat in list(m.state.queue):
        m.do(seat, mv.IssueShares(0))
    assert m.state.phase == "auction"


def test_bidding_starts_with_the_first_player_at_1_dollar_minimum():
    m = Match()
    _to_auction(m)
    first = m.state.order[0]
    assert m.state.auction.to_act == first
    with pytest.raises(IllegalMove) as err:
        m.do(first, mv.Bid(0))
    assert err.value.code == "bid_too_low"
    assert mv.Bid(1) in m.legal(first)


def test_each_bid_must_be_higher_than_the_last():
    m = Match()
    _to_auction(m)
    a, b, _ = m.state.order
    m.do(a, mv.Bid(3))
    with pytest.raises(IllegalMove):
        m.do(b, mv.Bid(3))
    assert min(x.amount for x in m.legal(b) if isinstance(x, mv.Bid)) == 4


def test_a_bid_cannot_exceed_your_money():
    m = Match()
    _to_auction(m)
    a = m.state.order[0]
    with pytest.raises(IllegalMove) as err:
        m.do(a, mv.Bid(11))
    assert err.value.code == "cannot_afford"


def test_auction_payments_first_out_free_middle_half_up_last_two_full():
    m = Match(players=5, seed=3)
    for seat in list(m.state.queue):
        m.do(seat, mv.IssueShares(2))  # $20 each
    a, b, c, d, e = m.state.order
    m.do(a, mv.Bid(1))
    m.do(b, mv.Bid(2))
    m.do(c, mv.Bid(3))
    m.do(d, mv.Bid(5))
    m.do(e, mv.DropOut())  # first out: last place, pays 0 (bid nothing anyway)
    m.do(a, mv.DropOut())  # bid 1 -> pays 1 (half of 1 rounded up)
    m.do(b, mv.DropOut())  # bid 2 -> pays 1
    m.do(c, mv.Bid(7))
    m.do(d, mv.DropOut())  # second to last: pays its full bid 5, second place
    s = m.state
    assert s.phase == "actions"
    assert s.order == [c, d, b, a, e]
    assert [s.pl[x].money for x in (c, d, b, a, e)] == [20 - 7, 20 - 5, 20 - 1, 20 - 1, 20]


def test_first_player_to_drop_out_pays_nothing_even_after_bidding():
    m = Match(players=3, seed=4)
    for seat in list(m.state.queue):
        m.do(seat, mv.IssueShares(0))
    a, b, c = m.state.order
    m.do(a, mv.Bid(4))
    m.do(b, mv.Bid(5))
    m.do(c, mv.DropOut())
    m.do(a, mv.DropOut())  # second to last: pays full 4
    assert m.state.order == [b, a, c]
    assert [m.state.pl[x].money for x in (b, a, c)] == [5, 6, 10]


def test_turn_order_holder_may_pass_once_without_dropping_out():
    m = Match()
    m.state.turn_order_seat = m.state.order[1]
    _to_auction(m)
    a, b, c = m.state.order
    m.do(a, mv.Bid(1))
    assert mv.TurnOrderPass() in m.legal(b)
    assert mv.TurnOrderPass() not in m.legal(a if a != b else c)
    m.do(b, mv.TurnOrderPass())
    assert b in m.state.auction.active
    m.do(c, mv.DropOut())
    assert m.state.auction.to_act == b
    with pytest.raises(IllegalMove) as err:
        m.do(b, mv.TurnOrderPass())
    assert err.value.code == "no_free_pass"


# --- step 3: actions -----------------------------------------------------------------------


def _to_actions(m: Match) -> list[int]:
    _to_auction(m)
    while m.state.phase == "auction":
        m.do(m.state.auction.to_act, mv.DropOut())
    return m.state.order


def test_each_action_is_taken_once_per_turn():
    m = Match()
    a, b, _ = _to_actions(m)
    m.do(a, mv.SelectAction("engineer"))
    assert mv.SelectAction("engineer") not in m.legal(b)
    with pytest.raises(IllegalMove) as err:
        m.do(b, mv.SelectAction("engineer"))
    assert err.value.code == "action_taken"


def test_every_player_must_select_one_of_seven_actions():
    m = Match()
    a = _to_actions(m)[0]
    assert len(m.legal(a)) == 7 and all(isinstance(x, mv.SelectAction) for x in m.legal(a))


def test_locomotive_raises_the_engine_at_once_to_at_most_6():
    m = Match()
    a, _b, _ = _to_actions(m)
    m.do(a, mv.SelectAction("locomotive"))
    assert m.state.pl[a].engine == 2
    m2 = Match()
    a2 = _to_actions(m2)[0]
    m2.state.pl[a2].engine = 6
    m2.do(a2, mv.SelectAction("locomotive"))
    assert m2.state.pl[a2].engine == 6


def test_first_build_builds_first_and_engineer_builds_four():
    m = Match()
    a, b, c = _to_actions(m)
    m.do(a, mv.SelectAction("engineer"))
    m.do(b, mv.SelectAction("locomotive"))
    m.do(c, mv.SelectAction("first_build"))
    assert m.state.phase == "build" and m.state.queue == [c, a, b]
    assert m.state.builds_left == 3
    m.do(c, mv.DoneBuilding())
    assert m.state.builds_left == 4


def test_first_move_moves_first_in_both_rounds():
    m = Match()
    a, b, c = _to_actions(m)
    m.do(a, mv.SelectAction("engineer"))
    m.do(b, mv.SelectAction("locomotive"))
    m.do(c, mv.SelectAction("first_move"))
    for seat in list(m.state.queue):
        m.do(seat, mv.DoneBuilding())
    assert m.state.phase == "move" and m.state.queue == [c, a, b]
    for seat in (c, a, b):
        m.do(seat, mv.PassMove())
    assert m.state.move_round == 1 and m.state.queue == [c, a, b]


def test_a_turn_runs_the_ten_steps_in_order():
    from aos_helpers import playout

    steps: list[tuple[int, str]] = [(1, "shares")]

    def record(state, _events):
        if steps[-1] != (state.turn, state.phase):
            steps.append((state.turn, state.phase))

    playout("rust_belt", 3, 2, on_step=record)
    turn_one = [phase for turn, phase in steps if turn == 1]
    order = ["shares", "auction", "actions", "build", "move", "settle", "production", "growth"]
    assert [p for p in order if p in turn_one] == [p for p in turn_one if p in order]
    assert turn_one[0] == "shares" and turn_one[-1] == "growth"
    assert steps[-1][1] == "over"


def test_view_shows_money_shares_income_engine_track_and_only_bag_counts():
    m = Match(players=3)
    m.lay(0, (7, 4, "straight", 0))
    view = GAME.view(m.state, 1)
    assert [set(p) >= {"money", "shares", "income", "engine"} for p in view["players"]]
    (track,) = view["track"]
    assert track["hex"] == "7,4" and track["tile"] == "straight" and track["rotation"] == 0
    assert track["sections"] == [{"sides": [0, 3], "owner": 0, "laid": 1}]
    assert all(isinstance(n, int) for n in view["bag"].values())
    assert len(view["display"]) == 20 and any(c["cubes"] for c in view["cities"])
    assert view == GAME.view(m.state, None) | {"seat": 1}
