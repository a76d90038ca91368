"""Coal, iron and beer sourcing; production into the markets; flipping."""

from __future__ import annotations

from random import Random

import pytest
from bb_helpers import GAME, act, load, merchant, of_type, slot

from core.errors import IllegalMove
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv

COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)


def coal_board(**extra):  # type: ignore[no-untyped-def]
    """Seat 0 builds cotton II in Birmingham (card + £14 + 1 coal). Seat 1's mines: Dudley
    and Tamworth one link away, Cannock two links away."""
    kw = dict(
        hands={0: ["birmingham"]},
        mats={0: {"cotton": 3}},
        tiles=[
            {"space": "dudley:0", "owner": 1, "industry": "coal", "level": 2, "cubes": 2},
            {"space": "tamworth:0", "owner": 1, "industry": "coal", "level": 2, "cubes": 1},
            {"space": "cannock:1", "owner": 1, "industry": "coal", "level": 3, "cubes": 3},
        ],
        links={"birmingham~dudley": 1, "birmingham~tamworth": 1, "birmingham~walsall": 0,
               "cannock~walsall": 1},
    )  # fmt: skip
    kw.update(extra)
    return load(**kw)


def test_lesson_coal_nearest_first_ties_are_the_players_choice() -> None:
    s, _ = act(coal_board(), 0, mv.Build("location:birmingham",
                                         "birmingham:0", "cotton"))  # fmt: skip
    options = GAME.legal_moves(s, 0)
    assert set(options) == {mv.PickCoal("dudley:0"), mv.PickCoal("tamworth:0")}
    assert s.money[0] == 17 - 14


def test_a_farther_mine_cannot_be_chosen_while_a_nearer_one_has_coal() -> None:
    s, _ = act(coal_board(), 0, mv.Build("location:birmingham",
                                         "birmingham:0", "cotton"))  # fmt: skip
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.PickCoal("cannock:1"), Random(0))
    assert err.value.code == "coal_not_nearest"


def test_taking_the_last_cube_flips_the_mine_and_advances_its_owner_income() -> None:
    s, _ = act(coal_board(), 0, mv.Build("location:birmingham",
                                         "birmingham:0", "cotton"))  # fmt: skip
    s, events = act(s, 0, mv.PickCoal("tamworth:0"))
    assert of_type(events, ev.Flipped) == [ev.Flipped(slot("tamworth:0"))]
    assert s.income[1] == 10 + 7  # coal II flips for seven spaces
    assert s.slot_flipped[slot("tamworth:0")]


def test_single_nearest_mine_is_used_without_asking() -> None:
    s = coal_board(links={"birmingham~dudley": 1, "birmingham~walsall": 0, "cannock~walsall": 1},
                   hands={0: ["birmingham", "birmingham"]})  # fmt: skip
    s, events = act(s, 0, mv.Build("location:birmingham",
                                   "birmingham:0", "cotton"))  # fmt: skip
    assert ev.CubeTaken(slot("dudley:0")) in events
    assert not s.pending and s.actions_left == 1


def test_market_coal_needs_a_merchant_connection() -> None:
    # no mine connected, but Birmingham~Oxford reaches a merchant: buy the £1 cube
    s = load(hands={0: ["birmingham"]}, mats={0: {"cotton": 3}}, links={"birmingham~oxford": 0})
    s, events = act(s, 0, mv.Build("location:birmingham",
                                   "birmingham:0", "cotton"))  # fmt: skip
    assert ev.MarketBought("coal", 1) in events and ev.Paid(0, 1) in events
    assert s.coal_market == 12 and s.money[0] == 17 - 14 - 1
    # without the link to Oxford there is no way to get coal
    s = load(hands={0: ["birmingham"]}, mats={0: {"cotton": 3}}, links={"birmingham~dudley": 0})
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.Build("location:birmingham",
                                   "birmingham:0", "cotton"), Random(0))  # fmt: skip
    assert err.value.code == "no_coal"


def test_empty_coal_market_sells_coal_at_eight_pounds() -> None:
    s = load(hands={0: ["birmingham"]}, mats={0: {"cotton": 3}}, links={"birmingham~oxford": 0},
             markets=(0, 8), money=[30, 17])  # fmt: skip
    s, events = act(s, 0, mv.Build("location:birmingham",
                                   "birmingham:0", "cotton"))  # fmt: skip
    assert ev.Paid(0, 8) in events and s.coal_market == 0


def test_lesson_iron_from_any_works_without_a_connection() -> None:
    # seat 1's works in Coalbrookdale touch no link at all; seat 0 develops with its iron
    s = load(hands={0: ["coventry"]}, links={"birmingham~coventry": 0},
             tiles=[{"space": "coalbrookdale:1", "owner": 1, "industry": "iron", "level": 1,
                     "cubes": 2}])  # fmt: skip
    s, events = act(s, 0, mv.Develop("cotton"))
    assert ev.CubeTaken(slot("coalbrookdale:1")) in events
    assert s.iron_market == 8 and s.money[0] == 17


def test_market_iron_only_when_the_board_has_none_and_six_pounds_when_empty() -> None:
    s = load(hands={0: ["coventry"]})
    s, events = act(s, 0, mv.Develop("cotton"))
    assert ev.MarketBought("iron", 1) in events and ev.Paid(0, 2) in events  # £1 spaces empty
    s = load(hands={0: ["coventry"]}, markets=(13, 0))
    s, events = act(s, 0, mv.Develop("cotton"))
    assert ev.Paid(0, 6) in events


def test_decision_which_iron_works_to_empty() -> None:
    s = load(hands={0: ["coventry"]},
             tiles=[{"space": "coalbrookdale:1", "owner": 1, "industry": "iron", "level": 1,
                     "cubes": 2},
                    {"space": "birmingham:2", "owner": 0, "industry": "iron", "level": 1,
                     "cubes": 1}])  # fmt: skip
    s, _ = act(s, 0, mv.Develop("cotton"))
    assert set(GAME.legal_moves(s, 0)) == {mv.PickIron("birmingham:2"),
                                           mv.PickIron("coalbrookdale:1")}  # fmt: skip
    # decision lesson "Which iron works to empty?": the last own cube flips for three spaces
    mine, _ = act(s, 0, mv.PickIron("birmingham:2"))
    assert mine.slot_flipped[slot("birmingham:2")] and mine.income[0] == 13
    theirs, _ = act(s, 0, mv.PickIron("coalbrookdale:1"))
    assert not theirs.slot_flipped[slot("coalbrookdale:1")] and theirs.income == [10, 10]


def test_new_iron_works_sells_to_market_vacancies_and_keeps_the_rest() -> None:
    # vacancies £2, £1, £1 (seven cubes left): sell three for £4, keep one
    s = load(hands={0: ["birmingham", "coventry"]}, markets=(13, 7),
             links={"birmingham~oxford": 0})  # fmt: skip
    s, events = act(s, 0, mv.Build("location:birmingham",
                                   "birmingham:2", "iron"))  # fmt: skip
    assert ev.Produced(slot("birmingham:2"), 4, 3, 4) in events
    assert s.iron_market == 10 and s.slot_cubes[slot("birmingham:2")] == 1
    assert s.money[0] == 17 - 5 - 1 + 4  # £5 build, £1 market coal, £4 from the market
    assert s.spent[0] == 6  # selling to the market does not offset spending


def test_new_iron_works_that_sells_all_four_flips_at_once() -> None:
    s = load(hands={0: ["birmingham"]}, markets=(13, 6), links={"birmingham~oxford": 0})
    s, events = act(s, 0, mv.Build("location:birmingham",
                                   "birmingham:2", "iron"))  # fmt: skip
    assert ev.Flipped(slot("birmingham:2")) in events
    assert s.income[0] == 13


def test_new_coal_mine_sells_to_the_market_only_when_connected_to_a_merchant() -> None:
    connected = load(hands={0: ["redditch"]}, markets=(11, 8), links={"oxford~redditch": 1})
    s, events = act(connected, 0, mv.Build("location:redditch",
                                           "redditch:0", "coal"))  # fmt: skip
    assert ev.Produced(slot("redditch:0"), 2, 2, 3) in events  # the £2 and a £1 space
    assert s.slot_flipped[slot("redditch:0")] and s.income[0] == 14
    alone = load(hands={0: ["redditch"]}, markets=(11, 8))
    s, events = act(alone, 0, mv.Build("location:redditch",
                                       "redditch:0", "coal"))  # fmt: skip
    assert ev.Produced(slot("redditch:0"), 2, 0, 0) in events and s.coal_market == 11


@pytest.mark.parametrize(("era", "barrels"), [("canal", 1), ("rail", 2)])
def test_brewery_gets_one_beer_in_canal_two_in_rail(era: str, barrels: int) -> None:
    mats = {0: {"brewery": 2}} if era == "rail" else None
    s = load(era=era, hands={0: ["brewery"]}, mats=mats, round=3,
             tiles=[{"space": "coalbrookdale:1", "owner": 1, "industry": "iron", "level": 2,
                     "cubes": 3}])  # fmt: skip
    s, _ = act(s, 0, mv.Build("industry:brewery",
                              "stafford:0", "brewery"))  # fmt: skip
    assert s.slot_cubes[slot("stafford:0")] == barrels


def test_lesson_beer_yours_needs_no_connection_theirs_does() -> None:
    # seat 0 sells its Birmingham manufacturer to Oxford (one beer); breweries are far away
    base = dict(
        players=2, hands={0: ["coventry"]},
        tiles=[{"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 1}],
        links={"birmingham~oxford": 0}, beer={"oxford": [0, 0]},
    )  # fmt: skip
    tiles = base["tiles"] + [
        {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 1, "cubes": 1}
    ]
    s = load(**{**base, "tiles": tiles})
    assert mv.Sell("birmingham:1", "oxford:0") in GAME.legal_moves(s, 0)
    tiles = base["tiles"] + [
        {"space": "stafford:0", "owner": 1, "industry": "brewery", "level": 1, "cubes": 1}
    ]
    s = load(**{**base, "tiles": tiles})
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.Sell("birmingham:1", "oxford:0"), Random(0))
    assert err.value.code == "not_enough_beer"
    s = load(**{**base, "tiles": tiles, "links": {"birmingham~oxford": 0, "cannock~stafford": 1,
                                                  "birmingham~walsall": 1,
                                                  "cannock~walsall": 1}})  # fmt: skip
    assert mv.Sell("birmingham:1", "oxford:0") in GAME.legal_moves(s, 0)


def test_empty_merchant_location_still_gives_market_coal_access() -> None:
    # two players: no merchant tile at Warrington, but its location reaches the coal market
    s = load(hands={0: ["stafford", "stafford"]}, mats={0: {"manufacturer": 0}},
             links={"stoke_on_trent~warrington": 1, "stafford~stone": 0,
                    "stoke_on_trent~stone": 1})  # fmt: skip
    assert s.merchant_tile[merchant("warrington")] == -1
    s, events = act(s, 0, mv.Build("location:stafford",
                                   "stafford:0", "manufacturer"))  # fmt: skip
    assert ev.MarketBought("coal", 1) in events


def test_coal_for_one_build_may_come_from_a_mine_and_then_the_market() -> None:
    # Manufacturer III needs two coal: Dudley's last cube, then a £1 cube bought through
    # the Oxford link; without a merchant connection the second cube cannot be had
    kw = dict(hands={0: ["birmingham"]}, mats={0: {"manufacturer": 3}},
              tiles=[{"space": "dudley:0", "owner": 1, "industry": "coal", "level": 2,
                      "cubes": 1}])  # fmt: skip
    m = mv.Build("location:birmingham", "birmingham:1", "manufacturer")
    s = load(**kw, links={"birmingham~dudley": 1, "birmingham~oxford": 0})
    s, events = act(s, 0, m)
    assert events.index(ev.CubeTaken(slot("dudley:0"))) < events.index(ev.MarketBought("coal", 1))
    assert ev.Paid(0, 1) in events and s.money[0] == 17 - 12 - 1 and s.coal_market == 12
    s = load(**kw, links={"birmingham~dudley": 1})
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, m, Random(0))
    assert err.value.code == "no_coal"


def test_a_mine_built_unconnected_never_sells_to_the_market_later() -> None:
    s = load(hands={0: ["redditch", "coventry"]}, markets=(11, 8))
    s, events = act(s, 0, mv.Build("location:redditch", "redditch:0", "coal"))
    assert ev.Produced(slot("redditch:0"), 2, 0, 0) in events
    # a link to Oxford now connects it to a merchant: its cubes stay on the tile
    s, events = act(s, 0, mv.Network("oxford~redditch"))
    assert not of_type(events, ev.Produced) and not of_type(events, ev.MarketBought)
    assert s.slot_cubes[slot("redditch:0")] == 2 and s.coal_market == 11
