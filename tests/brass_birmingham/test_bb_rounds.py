"""Turns, rounds, income, era end, the rail transition and the final ranking."""

from __future__ import annotations

from random import Random

import pytest
from bb_helpers import GAME, act, cname, load, merchant, of_type, score, slot

from core.errors import IllegalMove
from core.game import Task
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv

COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)


def last_turn(**extra):  # type: ignore[no-untyped-def]
    """Seat 1, last in this round's order, has one action left and two cards."""
    kw = dict(hands={0: ["coventry"] * 2, 1: ["dudley", "dudley"]}, turn=1, actions_left=1)
    kw.update(extra)
    return load(**kw)


def test_turn_order_example_least_spender_first_and_income_levels() -> None:
    # A (seat 0) spent £10 (market earnings do not offset it), B (seat 1) £8: B goes first.
    # A at space 15 (level 3) collects £3; B at space 8 (level -2) pays £2.
    s = last_turn(spent=[10, 8], income=[15, 8], money=[20, 20])
    s, events = act(s, 1, mv.Pass())
    (end,) = of_type(events, ev.RoundEnded)
    assert end == ev.RoundEnded([1, 0], [3, -2], [0, 0])
    assert s.order == [1, 0] and s.money == [23, 18] and s.spent == [0, 0]
    assert s.current == 1 and s.actions_left == 2


def test_equal_spending_keeps_the_relative_order() -> None:
    s = load(hands={0: ["coventry"] * 2, 1: ["dudley"] * 2}, order=[1, 0], turn=1,
             actions_left=1, spent=[5, 5])  # fmt: skip
    s, events = act(s, 0, mv.Pass())
    assert of_type(events, ev.RoundEnded)[0].order == [1, 0]


def test_refill_to_eight_after_the_turn_from_the_deck_top() -> None:
    deck = ["redditch", "nuneaton", "worcester", "walsall", "birmingham", "iron"]
    s = load(hands={0: ["coventry"] * 3, 1: ["dudley"] * 2}, deck=deck)
    s, events = act(s, 0, mv.Pass(), mv.Pass())
    (drew,) = of_type(events, ev.Drew)
    assert drew.seat == 0 and len(drew.cards) == 6 and s.deck == []
    assert len(s.hands[0]) == 7  # only what remained: hands shrink once the deck is empty


def test_lesson_round_end_track_and_order() -> None:
    # spent £4 already, seven cards after the first action, twelve in the deck; the second
    # action develops the last cotton I with the final cube of the player's iron works
    deck = ["dudley"] * 2 + ["coalbrookdale"] * 3 + ["birmingham"] * 3 + ["iron"] * 4
    works = [{"space": "birmingham:2", "owner": 1, "industry": "iron", "level": 1, "cubes": 1}]
    hand = ["stafford"] * 2 + ["cannock"] * 2 + ["kidderminster"] * 2 + ["redditch"]
    s = load(hands={0: ["coventry"] * 3, 1: hand}, deck=deck, tiles=works,
             order=[0, 1], turn=1, actions_left=1, spent=[6, 4], mats={1: {"cotton": 2}},
             income=[10, 12])  # fmt: skip
    s, events = act(s, 1, mv.Develop("cotton"), mv.Discard(cname("redditch")), mv.Done())
    assert s.mat[1][COTTON] == 3 and s.slot_flipped[slot("birmingham:2")]
    (drew,) = of_type(events, ev.Drew)
    assert len(drew.cards) == 2 and len(s.deck) == 10  # refilled to eight
    (end,) = of_type(events, ev.RoundEnded)
    assert end.order == [1, 0]  # £4 beats £6
    assert end.income[1] == 3  # space 12 + 3 spaces = 15: level 3, not £3 per space


def test_an_empty_deck_does_not_end_the_era_while_hands_remain() -> None:
    s = load(hands={0: ["coventry"] * 2, 1: ["dudley"] * 2}, deck=[], turn=1, actions_left=1)
    s, _ = act(s, 1, mv.Pass())
    assert s.phase == "play" and s.round == 3


def test_era_ends_after_the_round_in_which_deck_and_hands_run_out() -> None:
    s = load(hands={1: ["dudley"]}, deck=[], turn=1, actions_left=2)
    s, events = act(s, 1, mv.Pass())
    assert of_type(events, ev.RoundEnded) and s.phase == "scoring"
    assert GAME.pending_tasks(s) == [Task(kind="system", move=mv.ScoreEra())]
    assert GAME.legal_moves(s, 0) == GAME.legal_moves(s, 1) == []


def test_seats_without_cards_have_no_turn() -> None:
    # seat 0 plays its last card; seat 1 (next) has none and is skipped: the round ends
    s = load(players=3, hands={0: ["coventry"], 2: ["dudley", "dudley"]}, deck=[],
             actions_left=2)  # fmt: skip
    s, events = act(s, 0, mv.Pass())
    assert of_type(events, ev.Drew) == [ev.Drew(0, []), ev.Drew(1, [])]
    assert s.current == 2


def canal_end(**extra):  # type: ignore[no-untyped-def]
    tiles = [
        {"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 2, "flipped": True},
        {"space": "birmingham:1", "owner": 1, "industry": "manufacturer", "level": 1},
        {"space": "dudley:0", "owner": 1, "industry": "coal", "level": 1, "flipped": True},
    ]
    kw = dict(phase="scoring", deck=[], tiles=tiles, round=11, beer={"oxford": [0, 0]},
              links={"birmingham~oxford": 0, "birmingham~dudley": 1})  # fmt: skip
    kw.update(extra)
    return load(**kw)


def test_lesson_era_scoring_links_count_flipped_icons_and_merchant_icons() -> None:
    s, events = score(canal_end())
    # seat 0's canal: Birmingham's flipped cotton II (2) + Oxford (2); seat 1's canal:
    # Birmingham (2) + Dudley's flipped coal I (2). The unflipped manufacturer adds nothing.
    # Industry VP: cotton II 5 for seat 0, coal I 1 for seat 1 (unflipped tiles score none).
    assert events[0] == ev.EraScored(0, [4, 4], [5, 1])
    assert s.vp == [9, 5]


def test_lesson_rail_transition_removes_canals_and_every_level_one_tile() -> None:
    s, events = score(canal_end())
    began = events[1]
    assert isinstance(began, ev.EraBegan) and began.era == 1
    assert s.link_owner == [-1] * len(s.link_owner)
    assert s.slot_owner[slot("birmingham:0")] == 0  # level II stays (and may score again)
    assert s.slot_owner[slot("birmingham:1")] == -1  # even an unflipped level I goes
    assert s.slot_owner[slot("dudley:0")] == -1
    assert s.merchant_beer[3] == 1  # empty merchant beer refilled
    # every card, face-down discards included, reshuffled; eight dealt, none face down
    assert [len(h) for h in s.hands] == [8, 8] and len(s.deck) == 40 - 16
    assert s.facedown == [[], []] and s.discards == [[], []]
    assert (s.era, s.round, s.actions_left, s.phase) == (1, 1, 2, "play")


def test_retained_industries_do_not_refill_resources() -> None:
    mine = {"space": "dudley:0", "owner": 1, "industry": "coal", "level": 2, "cubes": 1}
    s, _ = score(canal_end(tiles=[mine]))
    assert s.slot_cubes[slot("dudley:0")] == 1


def test_a_surviving_flipped_level_two_scores_again_after_rail() -> None:
    mill = {"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 2,
            "flipped": True}  # fmt: skip
    s = load(era="rail", phase="scoring", deck=[], tiles=[mill], round=11)
    s, events = score(s)
    assert events[0] == ev.EraScored(1, [0, 0], [5, 0]) and isinstance(events[1], ev.GameEnded)
    assert GAME.pending_tasks(s) == [] and GAME.result(s).scores == [5, 0]


def test_no_income_after_the_last_round_of_the_game() -> None:
    s = load(era="rail", hands={1: ["dudley"]}, deck=[], turn=1, actions_left=2,
             income=[30, 30], round=8)  # fmt: skip
    s, events = act(s, 1, mv.Pass())
    assert of_type(events, ev.RoundEnded)[0].income == [0, 0] and s.phase == "scoring"


def test_canal_era_last_round_still_pays_income() -> None:
    s = load(hands={1: ["dudley"]}, deck=[], turn=1, actions_left=2, income=[15, 15])
    s, events = act(s, 1, mv.Pass())
    assert of_type(events, ev.RoundEnded)[0].income == [3, 3]


def test_unpaid_income_sells_own_industries_for_half_their_cost() -> None:
    mine = {"space": "dudley:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 1}
    s = last_turn(income=[7, 10], money=[1, 17], tiles=[mine])  # level -3, £1
    s, events = act(s, 1, mv.Pass())
    assert ev.Liquidated(0, slot("dudley:0"), 3) in events  # coal II cost £7: £3 back
    assert s.money[0] == 1 and s.slot_owner[slot("dudley:0")] == -1 and s.vp[0] == 0


def test_unpaid_income_the_player_chooses_which_industries_to_sell() -> None:
    tiles = [
        {"space": "dudley:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 1},
        {"space": "coventry:0", "owner": 0, "industry": "pottery", "level": 1},
        {"space": "redditch:1", "owner": 0, "industry": "iron", "level": 1, "cubes": 1},
    ]
    s = last_turn(income=[5, 10], money=[1, 17], tiles=tiles)  # level -5, £1
    s, events = act(s, 1, mv.Pass())
    assert not of_type(events, ev.RoundEnded) and s.current == 0
    assert GAME.pending_tasks(s) == [Task(kind="turn", seat=0)] and GAME.legal_moves(s, 1) == []
    assert set(GAME.legal_moves(s, 0)) == {
        mv.Liquidate(x) for x in ("dudley:0", "coventry:0", "redditch:1")}  # fmt: skip
    # the coal mine refunds £3: £4 is not yet £5, so the seat is asked again
    s2, _ = act(s, 0, mv.Liquidate("dudley:0"))
    assert s2.current == 0 and s2.money[0] == 4 and len(GAME.legal_moves(s2, 0)) == 2
    s2, events = act(s2, 0, mv.Liquidate("redditch:1"))  # £2 more: enough
    assert of_type(events, ev.RoundEnded)[0].income[0] == -5 and s2.money[0] == 1
    assert s2.slot_owner[slot("coventry:0")] == 0  # the rest stays
    # selling the pottery alone (£8) covers the debt and keeps the other two
    s3, events = act(s, 0, mv.Liquidate("coventry:0"))
    assert of_type(events, ev.RoundEnded) and s3.money[0] == 1 + 8 - 5
    assert s3.slot_owner[slot("dudley:0")] == s3.slot_owner[slot("redditch:1")] == 0


def test_unpaid_income_with_a_single_industry_sells_it_without_asking() -> None:
    tiles = [{"space": "coventry:0", "owner": 0, "industry": "pottery", "level": 1}]
    s = last_turn(income=[5, 10], money=[1, 17], tiles=tiles)
    s, events = act(s, 1, mv.Pass())
    assert ev.Liquidated(0, slot("coventry:0"), 8) in events and s.money[0] == 4


def test_unpaid_income_without_industries_costs_one_vp_per_pound() -> None:
    s = last_turn(income=[7, 10], money=[1, 17], vp=[5, 0])
    s, events = act(s, 1, mv.Pass())
    assert of_type(events, ev.RoundEnded)[0].vp_lost == [2, 0]
    assert s.money[0] == 0 and s.vp[0] == 3


def test_winner_by_vp_then_income_level_then_money_else_shared() -> None:
    def final(vp, income, money):  # type: ignore[no-untyped-def]
        s = load(players=3, era="rail", phase="over", deck=[], vp=vp, income=income,
                 money=money)  # fmt: skip
        return GAME.result(s).ranking

    assert final([50, 60, 40], [10, 10, 10], [0, 0, 0]) == [2, 1, 3]
    assert final([60, 60, 40], [15, 16, 99], [0, 0, 0]) == [1, 1, 3]  # same level 3
    assert final([60, 60, 40], [15, 17, 10], [9, 0, 0]) == [2, 1, 3]  # level 4 beats 3
    assert final([60, 60, 40], [15, 15, 10], [9, 8, 0]) == [1, 2, 3]  # then money
    assert final([60, 60, 40], [15, 15, 10], [9, 9, 0]) == [1, 1, 3]  # else shared


def test_kidderminster_worcester_link_also_scores_the_southern_farms_icons() -> None:
    tiles = [
        {"space": "farm_brewery_south:0", "owner": 1, "industry": "brewery", "level": 2,
         "flipped": True},
        {"space": "worcester:0", "owner": 0, "industry": "cotton", "level": 2, "flipped": True},
    ]  # fmt: skip
    s = load(phase="scoring", deck=[], tiles=tiles, links={"kidderminster~worcester": 0})
    s, events = score(s)
    assert events[0].links == [2 + 2, 0]  # the farm brewery's 2 icons + the mill's 2


def test_unused_merchant_location_still_scores_its_two_link_icons() -> None:
    # decision kept from the audit: the icons are printed on the board, not on the tiles
    s = load(phase="scoring", deck=[], round=11,
             links={"stoke_on_trent~warrington": 0, "derby~nottingham": 1})  # fmt: skip
    assert s.merchant_tile[merchant("warrington")] == s.merchant_tile[merchant("nottingham")] == -1
    _, events = score(s)
    assert events[0].links == [2, 2]


def test_pottery_one_leaves_the_board_at_canal_end_like_every_level_one_tile() -> None:
    tiles = [
        {"space": "coventry:0", "owner": 0, "industry": "pottery", "level": 1, "flipped": True},
        {"space": "stafford:1", "owner": 1, "industry": "pottery", "level": 1},
    ]  # fmt: skip
    s, events = score(load(phase="scoring", deck=[], round=11, tiles=tiles))
    assert events[0].industries == [10, 0]  # the flipped one scores first
    assert s.slot_owner[slot("coventry:0")] == s.slot_owner[slot("stafford:1")] == -1


def test_vp_lost_for_unpaid_income_stops_at_zero() -> None:
    s = last_turn(income=[7, 10], money=[1, 17], vp=[1, 0])  # owes £3, has £1 and 1 VP
    s, events = act(s, 1, mv.Pass())
    assert of_type(events, ev.RoundEnded)[0].vp_lost == [1, 0]
    assert s.money[0] == 0 and s.vp[0] == 0


def test_rail_era_seat_left_with_nothing_on_the_board_links_anywhere_but_needs_rail_coal() -> None:
    tiles = [
        {"space": "dudley:0", "owner": 0, "industry": "coal", "level": 1, "flipped": True},
        {"space": "cannock:1", "owner": 1, "industry": "coal", "level": 2, "cubes": 2},
    ]  # fmt: skip
    s = load(phase="scoring", deck=[], round=11, tiles=tiles,
             links={"birmingham~dudley": 0})  # fmt: skip
    s, _ = score(s)
    # the canal and the level I mine are gone: seat 0 has no presence
    assert 0 not in s.slot_owner and 0 not in s.link_owner and s.current == 0
    legal = GAME.legal_moves(s, 0)
    assert mv.Network("cannock~walsall") in legal  # coal from Cannock over the new rail
    assert mv.Network("birmingham~oxford") in legal  # market coal through Oxford
    assert mv.Network("dudley~kidderminster") not in legal  # no coal reaches it
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.Network("dudley~kidderminster"), Random(0))
    assert err.value.code == "no_coal"
