"""Network, Develop, Loan, Scout and Pass: costs and conditions."""

from __future__ import annotations

from random import Random

import pytest
from bb_helpers import GAME, act, card, cname, link, load, of_type, slot

from core.errors import IllegalMove
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv

COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)
PRESENT = [{"space": "coventry:0", "owner": 0, "industry": "pottery", "level": 1}]


def refused(state, seat, move):  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as err:
        GAME.decide(state, seat, move, Random(0))
    assert move not in GAME.legal_moves(state, seat)
    return err.value.code


# --- network -------------------------------------------------------------------------------


def test_canal_costs_three_pounds_and_must_touch_your_network() -> None:
    s = load(hands={0: ["coventry", "coventry"]}, tiles=PRESENT)
    s, events = act(s, 0, mv.Network("birmingham~coventry"))
    assert ev.Paid(0, 3) in events and s.link_owner[link("birmingham~coventry")] == 0
    assert refused(s, 0, mv.Network("dudley~kidderminster")) == "link_not_in_network"


def test_only_one_link_per_line() -> None:
    s = load(hands={0: ["coventry"]}, tiles=PRESENT, links={"birmingham~coventry": 1})
    assert refused(s, 0, mv.Network("birmingham~coventry")) == "link_taken"


def test_rail_only_lines_take_no_canal_and_canal_only_lines_no_rail() -> None:
    s = load(hands={0: ["coventry"]}, tiles=PRESENT)
    assert refused(s, 0, mv.Network("coventry~nuneaton")) == "link_wrong_era"
    s = load(era="rail", hands={0: ["coventry"]},
             tiles=[{"space": "walsall:0", "owner": 0, "industry": "iron", "level": 2,
                     "flipped": True}])  # fmt: skip
    assert refused(s, 0, mv.Network("burton_on_trent~walsall")) == "link_wrong_era"


def rail_board(**extra):  # type: ignore[no-untyped-def]
    """Rail era. Seat 0 has a flipped manufacturer in Birmingham; seat 1 a level-II mine in
    Dudley with one cube left, not yet connected to anything."""
    kw = dict(
        era="rail", hands={0: ["coventry", "coventry"]},
        tiles=[{"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 2,
                "flipped": True},
               {"space": "dudley:0", "owner": 1, "industry": "coal", "level": 2, "cubes": 1}],
    )  # fmt: skip
    kw.update(extra)
    return load(**kw)


def test_lesson_rail_is_placed_before_its_coal_is_found() -> None:
    # "Rail: place, then supply coal": the new rail reaches the last cube at Dudley
    s, events = act(rail_board(), 0, mv.Network("birmingham~dudley"))
    assert ev.Paid(0, 5) in events and ev.CubeTaken(slot("dudley:0")) in events
    assert ev.Flipped(slot("dudley:0")) in events and s.income[1] == 17
    assert s.money[0] == 12 and s.coal_market == 13


def test_rail_without_any_coal_source_is_refused() -> None:
    s = rail_board(tiles=[{"space": "birmingham:1", "owner": 0, "industry": "manufacturer",
                           "level": 2, "flipped": True}])  # fmt: skip
    assert refused(s, 0, mv.Network("birmingham~dudley")) == "no_coal"
    # a rail to a merchant location reaches the coal market
    s, events = act(s, 0, mv.Network("birmingham~oxford"))
    assert ev.MarketBought("coal", 1) in events and ev.Paid(0, 1) in events


def double_rail_board(brewery_owner: int, brewery_space: str, **extra):  # type: ignore[no-untyped-def]
    """Lesson "Double rail": Birmingham-Walsall then Walsall-Cannock. Seat 0's mine in
    Tamworth (one link from Birmingham) and seat 1's mine in Cannock supply the coal."""
    tiles = [
        {"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 2,
         "flipped": True},
        {"space": "tamworth:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 3},
        {"space": "cannock:1", "owner": 1, "industry": "coal", "level": 2, "cubes": 1},
        {"space": brewery_space, "owner": brewery_owner, "industry": "brewery", "level": 2,
         "cubes": 1},
    ]  # fmt: skip
    kw = dict(era="rail", hands={0: ["coventry", "coventry"]}, tiles=tiles,
              links={"birmingham~tamworth": 1})  # fmt: skip
    kw.update(extra)
    return load(**kw)


def test_lesson_double_rail_costs_fifteen_pounds_coal_per_rail_and_one_beer() -> None:
    s = double_rail_board(0, "stafford:0")  # own brewery, far away and unconnected
    s, first = act(s, 0, mv.Network("birmingham~walsall"))
    assert ev.CubeTaken(slot("tamworth:0")) in first
    assert mv.SecondLink("cannock~walsall") in GAME.legal_moves(s, 0)
    s, second = act(s, 0, mv.SecondLink("cannock~walsall"))
    # the second rail's coal is checked after placing it: Cannock's mine is now nearest
    assert ev.CubeTaken(slot("cannock:1")) in second
    assert ev.CubeTaken(slot("stafford:0")) in second  # own beer needs no connection
    assert s.money[0] == 17 - 15 and s.spent[0] == 15


def test_double_rail_beer_from_an_opponent_must_connect_to_the_second_rail() -> None:
    # seat 1's farm brewery hangs off Cannock: the second rail to Cannock connects it,
    # a second rail to Wolverhampton does not
    s = double_rail_board(
        1, "farm_brewery_north:0", links={"birmingham~tamworth": 1, "cannock~farm_brewery_north": 1}
    )
    s, _ = act(s, 0, mv.Network("birmingham~walsall"))
    legal = GAME.legal_moves(s, 0)
    assert mv.SecondLink("cannock~walsall") in legal
    assert mv.SecondLink("walsall~wolverhampton") not in legal
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.SecondLink("walsall~wolverhampton"), Random(0))
    assert err.value.code == "no_beer_for_double_rail"
    s, events = act(s, 0, mv.SecondLink("cannock~walsall"))
    assert ev.CubeTaken(slot("farm_brewery_north:0")) in events


def test_no_beer_in_reach_means_no_second_rail_is_offered() -> None:
    s = double_rail_board(1, "stafford:0")  # an opponent's brewery never connected
    s, _ = act(s, 0, mv.Network("birmingham~walsall"))
    assert not s.pending and s.actions_left == 1
    assert not any(isinstance(m, mv.SecondLink) for m in GAME.legal_moves(s, 0))


def test_merchant_beer_cannot_pay_for_a_double_rail() -> None:
    s = double_rail_board(1, "stafford:0", links={"birmingham~tamworth": 1,
                                                   "birmingham~oxford": 1})  # fmt: skip
    assert any(s.merchant_beer)
    s, _ = act(s, 0, mv.Network("birmingham~walsall"))
    assert not s.pending and s.actions_left == 1


def test_double_rail_is_not_offered_without_ten_more_pounds() -> None:
    s = double_rail_board(0, "stafford:0", money=[14, 17])
    s, _ = act(s, 0, mv.Network("birmingham~walsall"))
    assert s.money[0] == 9 and not s.pending


def test_second_rail_coal_comes_through_the_second_rail_and_the_market_needs_a_merchant() -> None:
    # the only mine (Tamworth, one cube) empties for the first rail; the second rail must
    # then buy market coal, which only a line reaching a merchant location can do
    tiles = [
        {"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 2,
         "flipped": True},
        {"space": "tamworth:0", "owner": 1, "industry": "coal", "level": 2, "cubes": 1},
        {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 2, "cubes": 2},
    ]  # fmt: skip
    s = load(era="rail", hands={0: ["coventry", "coventry"]}, tiles=tiles)
    s, first = act(s, 0, mv.Network("birmingham~tamworth"))
    assert ev.CubeTaken(slot("tamworth:0")) in first and s.coal_market == 13
    legal = GAME.legal_moves(s, 0)
    assert mv.SecondLink("birmingham~oxford") in legal
    assert mv.SecondLink("birmingham~walsall") not in legal
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.SecondLink("birmingham~walsall"), Random(0))
    assert err.value.code == "no_coal"
    s, second = act(s, 0, mv.SecondLink("birmingham~oxford"))
    assert ev.MarketBought("coal", 1) in second and ev.Paid(0, 1) in second
    assert s.money[0] == 17 - 15 - 1


def test_a_link_to_a_merchant_location_lets_you_extend_from_that_merchant() -> None:
    # decision kept from the audit: a merchant location your link touches is part of your
    # network, so Oxford and Gloucester pass a network on to their second line
    s = load(hands={0: ["coventry"]}, links={"birmingham~oxford": 0})
    assert mv.Network("oxford~redditch") in GAME.legal_moves(s, 0)
    s = load(hands={0: ["coventry"]}, links={"gloucester~worcester": 0})
    assert mv.Network("gloucester~redditch") in GAME.legal_moves(s, 0)
    s = load(hands={0: ["coventry"]}, links={"birmingham~coventry": 0})
    assert refused(s, 0, mv.Network("oxford~redditch")) == "link_not_in_network"


# --- develop -------------------------------------------------------------------------------


def test_lesson_develop_removes_the_lowest_tile_pottery_one_cannot_be_developed() -> None:
    works = [{"space": "dudley:1", "owner": 1, "industry": "iron", "level": 1, "cubes": 2}]
    s = load(hands={0: ["coventry", "coventry"]}, tiles=works)
    assert refused(s, 0, mv.Develop("pottery")) == "cannot_develop"
    s, events = act(s, 0, mv.Develop("cotton"), mv.Done())
    assert ev.TileDeveloped(0, COTTON, 1) in events and s.mat[0][COTTON] == 1
    assert of_type(events, ev.TilePlaced) == []  # developing builds nothing


def test_decision_develop_one_tile_or_two_second_is_the_next_lowest() -> None:
    works = [{"space": "birmingham:2", "owner": 0, "industry": "iron", "level": 1, "cubes": 2}]
    s = load(hands={0: ["coventry", "coventry"]}, tiles=works, mats={0: {"cotton": 2}})
    s, events = act(s, 0, mv.Develop("cotton"), mv.DevelopAlso("cotton"))
    assert of_type(events, ev.TileDeveloped) == [ev.TileDeveloped(0, COTTON, 1),
                                                  ev.TileDeveloped(0, COTTON, 2)]  # fmt: skip
    # decision "Develop one tile or two?": two empty the works for three income spaces
    assert s.slot_flipped[slot("birmingham:2")] and s.income[0] == 13
    one, _ = act(load(hands={0: ["coventry", "coventry"]}, tiles=works, mats={0: {"cotton": 2}}),
                 0, mv.Develop("cotton"), mv.Done())  # fmt: skip
    assert one.slot_cubes[slot("birmingham:2")] == 1 and one.income[0] == 10  # one iron kept


def test_two_developments_may_be_of_different_types() -> None:
    s = load(hands={0: ["coventry"]}, money=[30, 17])
    s, _ = act(s, 0, mv.Develop("cotton"), mv.DevelopAlso("coal"))
    assert s.mat[0][COTTON] == 1 and s.mat[0][COAL] == 1
    assert s.money[0] == 30 - 2 - 2  # market iron: £2 then £2


def test_develop_needs_iron_money_when_the_board_has_none() -> None:
    s = load(hands={0: ["coventry"]}, money=[1, 17])
    assert refused(s, 0, mv.Develop("cotton")) == "cannot_afford"


# --- loan, scout, pass ---------------------------------------------------------------------


def test_lesson_loan_gives_thirty_and_drops_three_levels_to_the_highest_space() -> None:
    s = load(hands={0: ["coventry", "coventry"]}, income=[19, 10])  # level 5
    s, events = act(s, 0, mv.Loan())
    assert ev.LoanTaken(0, 30, 14) in events  # level 2, its highest space
    assert s.money[0] == 47 and s.spent[0] == 0  # received cash is not spending


def test_loan_that_would_drop_below_minus_ten_is_refused() -> None:
    s = load(hands={0: ["coventry"]}, income=[2, 10])  # level -8
    assert refused(s, 0, mv.Loan()) == "loan_below_floor"


def test_lesson_scout_discards_three_cards_for_both_wild_cards() -> None:
    s = load(hands={0: ["coventry", "dudley", "redditch", "iron"]})
    s, _ = act(s, 0, mv.Scout(), mv.Discard(cname("coventry")), mv.Discard(cname("dudley")),
                    mv.Discard(cname("redditch")))  # fmt: skip
    assert sorted(s.hands[0]) == sorted([card("iron"), card("wild:location"),
                                         card("wild:industry")])  # fmt: skip
    assert s.wild_supply == [3, 3] and len(s.discards[0]) == 3


def test_scouting_with_fewer_than_three_cards_is_refused() -> None:
    s = load(hands={0: ["coventry", "dudley"]})
    assert refused(s, 0, mv.Scout()) == "scout_needs_three_cards"
    s = load(hands={0: ["coventry", "dudley", "redditch"]})
    assert mv.Scout() in GAME.legal_moves(s, 0)


def test_cannot_scout_while_holding_a_wild_card() -> None:
    s = load(hands={0: ["coventry", "dudley", "redditch", "wild:industry"]})
    s.wild_supply = [4, 3]
    assert refused(s, 0, mv.Scout()) == "scout_holding_wild"


def test_scout_then_build_with_a_wild_card_as_the_second_action() -> None:
    s = load(hands={0: ["coventry", "dudley", "redditch"]})
    s, _ = act(s, 0, mv.Scout(), mv.Discard(cname("coventry")), mv.Discard(cname("dudley")))
    s, _ = act(s, 0, mv.Build(cname("wild:location"), "redditch:0", "coal"))
    assert s.slot_owner[slot("redditch:0")] == 0 and s.wild_supply == [4, 3]


def test_pass_discards_one_card_and_the_discard_is_a_choice() -> None:
    s = load(hands={0: ["coventry", "dudley"]})
    s, _ = act(s, 0, mv.Pass())
    assert set(GAME.legal_moves(s, 0)) == {mv.Discard(cname("coventry")),
                                           mv.Discard(cname("dudley"))}  # fmt: skip
    s, _ = act(s, 0, mv.Discard(cname("dudley")))
    assert s.hands[0] == [card("coventry")] and s.discards[0][-1] == card("dudley")


def test_loan_then_build_is_legal_without_drawing_between_actions() -> None:
    s = load(hands={0: ["coventry", "coventry"]}, money=[0, 17])
    s, _ = act(s, 0, mv.Loan())
    assert s.hands[0] == [card("coventry")] and s.actions_left == 1
    act(s, 0, mv.Build(cname("coventry"), "coventry:0", "pottery"))


def test_a_second_link_when_none_is_offered_names_the_rule_that_blocks_it() -> None:
    s = double_rail_board(1, "stafford:0")  # an opponent's brewery never connected
    s, _ = act(s, 0, mv.Network("birmingham~walsall"))
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.SecondLink("cannock~walsall"), Random(0))
    assert err.value.code == "no_second_rail"
    assert "no_beer_for_double_rail" in str(err.value)


def test_the_view_tells_before_the_first_rail_whether_a_double_rail_is_open() -> None:
    open_board = GAME.view(double_rail_board(0, "stafford:0"), 1)  # own beer counts anywhere
    assert open_board["double_rail"] == {"possible": True}
    dry = GAME.view(double_rail_board(1, "stafford:0"), None)
    assert dry["double_rail"]["possible"] is False
    assert dry["double_rail"]["blocked_by"] == "no_beer_for_double_rail"
    poor = GAME.view(double_rail_board(0, "stafford:0", money=[14, 17]), 0)
    assert poor["double_rail"]["blocked_by"] == "cannot_afford"
    assert "double_rail" not in GAME.view(load(hands={0: ["coventry"]}, tiles=PRESENT), 0)
