"""Build: cards, network, spaces, era limits, farm breweries, overbuilding."""

from __future__ import annotations

from random import Random

import pytest
from bb_helpers import GAME, D, act, card, cname, link, load, of_type, slot

from core.errors import IllegalMove
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv

COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)
# seat 0 is on the board (a Coventry pottery) so the no-presence exception does not apply
PRESENT = [{"space": "coventry:0", "owner": 0, "industry": "pottery", "level": 1}]


def refused(state, seat, move):  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as err:
        GAME.decide(state, seat, move, Random(0))
    assert move not in GAME.legal_moves(state, seat)
    return err.value.code


def test_location_card_builds_outside_the_network() -> None:
    s = load(hands={0: ["dudley", "dudley"]}, tiles=PRESENT)
    s, events = act(s, 0, mv.Build(cname("dudley"), "dudley:0", "coal"))
    assert of_type(events, ev.TilePlaced) == [ev.TilePlaced(0, slot("dudley:0"), COAL, 1)]
    assert s.money[0] == 12 and s.hands[0] == [card("dudley")]


def test_industry_card_needs_the_location_in_your_network() -> None:
    s = load(hands={0: ["coal", "coal"]}, tiles=PRESENT)
    assert refused(s, 0, mv.Build(cname("coal"), "dudley:0", "coal")) == "not_in_network"
    s = load(hands={0: ["coal", "coal"]}, tiles=PRESENT, links={"birmingham~coventry": 0})
    assert refused(s, 0, mv.Build(cname("coal"), "dudley:0", "coal")) == "not_in_network"
    s = load(hands={0: ["coal", "coal"]}, tiles=PRESENT,
             links={"birmingham~coventry": 0, "birmingham~dudley": 0})  # fmt: skip
    act(s, 0, mv.Build(cname("coal"), "dudley:0", "coal"))


def test_an_opponents_link_does_not_extend_your_network() -> None:
    # seat 1's Coventry-Birmingham canal touches seat 0's Coventry pottery, not its network
    s = load(hands={0: ["iron", "iron"]}, tiles=PRESENT, links={"birmingham~coventry": 1})
    assert refused(s, 0, mv.Build(cname("iron"), "birmingham:2", "iron")) == "not_in_network"


def test_location_card_for_another_town_is_refused() -> None:
    s = load(hands={0: ["dudley"]}, tiles=PRESENT)
    assert refused(s, 0, mv.Build(cname("dudley"), "redditch:1", "iron")) == "card_wrong_location"


def test_industry_card_builds_only_its_industry() -> None:
    s = load(hands={0: ["coal"]})
    assert refused(s, 0, mv.Build(cname("coal"), "dudley:1", "iron")) == "card_wrong_industry"


def test_single_icon_space_is_used_before_a_shared_one() -> None:
    s = load(hands={0: ["birmingham"]})
    m = mv.Build(cname("birmingham"), "birmingham:0", "manufacturer")
    assert refused(s, 0, m) == "single_icon_space_first"
    full = [
        {"space": "birmingham:1", "owner": 1, "industry": "manufacturer", "level": 1},
        {"space": "birmingham:3", "owner": 2, "industry": "manufacturer", "level": 1},
    ]
    s = load(players=3, hands={0: ["birmingham"]}, tiles=full, links={"birmingham~oxford": 0})
    act(s, 0, m)


def test_space_must_show_the_industry_icon() -> None:
    s = load(hands={0: ["birmingham"]})
    assert refused(s, 0, mv.Build(cname("birmingham"), "birmingham:2", "cotton")) == "wrong_space"


def test_canal_era_allows_one_own_industry_per_location_rail_era_more() -> None:
    mill = [{"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 2}]
    s = load(hands={0: ["birmingham"]}, tiles=mill)
    m = mv.Build(cname("birmingham"), "birmingham:2", "iron")
    assert refused(s, 0, m) == "one_industry_per_location"
    s = load(era="rail", hands={0: ["birmingham", "birmingham"]}, tiles=mill,
             mats={0: {"iron": 1}}, links={"birmingham~oxford": 1})  # fmt: skip
    act(s, 0, mv.Build(cname("birmingham"), "birmingham:2", "iron"))


def test_canal_only_level_one_tiles_cannot_be_built_in_the_rail_era() -> None:
    s = load(era="rail", hands={0: ["birmingham"]})
    assert refused(s, 0, mv.Build(cname("birmingham"), "birmingham:2", "iron")) == "tile_wrong_era"


def test_level_one_pottery_may_be_built_in_the_rail_era() -> None:
    s = load(era="rail", hands={0: ["coventry", "coventry"]},
             tiles=[{"space": "dudley:1", "owner": 1, "industry": "iron", "level": 2,
                     "cubes": 2}])  # fmt: skip
    s, _ = act(s, 0, mv.Build(cname("coventry"), "coventry:0", "pottery"))
    assert s.slot_level[slot("coventry:0")] == 1


def test_rail_only_tiles_cannot_be_built_in_the_canal_era() -> None:
    s = load(hands={0: ["brewery"]}, mats={0: {"brewery": 6}},
             tiles=[{"space": "dudley:1", "owner": 1, "industry": "iron", "level": 1,
                     "cubes": 2}])  # fmt: skip
    assert refused(s, 0, mv.Build(cname("brewery"), "stafford:0", "brewery")) == "tile_wrong_era"


def test_lowest_tile_of_the_type_is_always_the_one_built() -> None:
    s = load(hands={0: ["birmingham"]}, mats={0: {"manufacturer": 3}},
             links={"birmingham~oxford": 0})  # fmt: skip
    s, events = act(s, 0, mv.Build(cname("birmingham"), "birmingham:1", "manufacturer"))
    assert ev.TilePlaced(0, slot("birmingham:1"), MANUFACTURER, 3) in events
    assert s.mat[0][MANUFACTURER] == 4


def test_without_board_presence_an_industry_card_builds_anywhere() -> None:
    s = load(hands={0: ["coal", "coal"]})
    act(s, 0, mv.Build(cname("coal"), "dudley:0", "coal"))


def test_without_board_presence_any_card_starts_a_link_on_any_line() -> None:
    s = load(hands={0: ["coal"]})
    s, events = act(s, 0, mv.Network("belper~derby"))
    assert ev.LinkPlaced(0, link("belper~derby")) in events and s.money[0] == 14


def test_farm_brewery_takes_a_brewery_or_wild_industry_card_never_a_location_card() -> None:
    iron = [{"space": "dudley:1", "owner": 1, "industry": "iron", "level": 1, "cubes": 3}]
    farm = "farm_brewery_north:0"
    s = load(hands={0: ["brewery", "wild:industry", "wild:location"]}, tiles=iron)
    legal = GAME.legal_moves(s, 0)
    assert mv.Build(cname("brewery"), farm, "brewery") in legal
    assert mv.Build(cname("wild:industry"), farm, "brewery") in legal
    assert (
        refused(s, 0, mv.Build(cname("wild:location"), farm, "brewery")) == "wild_location_unnamed"
    )


def test_farm_brewery_still_needs_the_network_once_you_are_on_the_board() -> None:
    iron = [{"space": "dudley:1", "owner": 1, "industry": "iron", "level": 1, "cubes": 3}]
    s = load(hands={0: ["brewery"]}, tiles=iron + PRESENT)
    farm = "farm_brewery_south:0"
    assert refused(s, 0, mv.Build(cname("brewery"), farm, "brewery")) == "not_in_network"
    # the Kidderminster-Worcester link also reaches the southern farm
    s = load(hands={0: ["brewery"]}, tiles=iron + PRESENT, links={"kidderminster~worcester": 0})
    act(s, 0, mv.Build(cname("brewery"), farm, "brewery"))


def test_wild_cards_return_to_their_supply_when_used() -> None:
    s = load(hands={0: ["wild:location", "wild:industry"]})
    s.wild_supply = [3, 3]
    s, _ = act(s, 0, mv.Build(cname("wild:location"), "dudley:0", "coal"))
    assert s.wild_supply == [4, 3] and s.discards[0] == []


def test_cannot_build_what_you_cannot_afford() -> None:
    s = load(hands={0: ["coventry"]}, markets=(13, 8))
    assert refused(s, 0, mv.Build(cname("coventry"), "coventry:0", "pottery")) == "cannot_afford"


# --- overbuilding ------------------------------------------------------------------------


def test_overbuild_own_industry_with_a_higher_level_of_the_same_type() -> None:
    own = [{"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 1,
            "flipped": True}]  # fmt: skip
    s = load(hands={0: ["birmingham"]}, tiles=own, mats={0: {"cotton": 3}},
             links={"birmingham~oxford": 0}, income=[15, 10], vp=[7, 0])  # fmt: skip
    s, _ = act(s, 0, mv.Build(cname("birmingham"), "birmingham:0", "cotton"))
    assert (s.slot_level[slot("birmingham:0")], s.slot_flipped[slot("birmingham:0")]) == (2, False)
    assert s.income[0] == 15 and s.vp[0] == 7  # earlier income and VP remain


def test_overbuild_needs_a_higher_level() -> None:
    own = [{"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 1}]
    s = load(hands={0: ["birmingham"]}, tiles=own, mats={0: {"cotton": 1}})
    assert (
        refused(s, 0, mv.Build(cname("birmingham"), "birmingham:0", "cotton"))
        == "overbuild_not_higher"
    )


def test_opponents_mill_or_brewery_can_never_be_overbuilt() -> None:
    theirs = [{"space": "birmingham:0", "owner": 1, "industry": "cotton", "level": 1}]
    s = load(hands={0: ["birmingham"]}, tiles=theirs, mats={0: {"cotton": 3}},
             links={"birmingham~oxford": 0})  # fmt: skip
    assert (
        refused(s, 0, mv.Build(cname("birmingham"), "birmingham:0", "cotton"))
        == "overbuild_opponent"
    )


def test_opponents_coal_mine_only_when_no_coal_is_left_on_board_or_market() -> None:
    theirs = [{"space": "dudley:0", "owner": 1, "industry": "coal", "level": 1, "flipped": True}]
    m = mv.Build(cname("dudley"), "dudley:0", "coal")
    s = load(hands={0: ["dudley"]}, tiles=theirs, mats={0: {"coal": 1}})
    assert refused(s, 0, m) == "overbuild_resource_left"  # the market still has coal
    elsewhere = [*theirs, {"space": "cannock:1", "owner": 1, "industry": "coal", "level": 2,
                           "cubes": 1}]  # fmt: skip
    s = load(hands={0: ["dudley"]}, tiles=elsewhere, mats={0: {"coal": 1}}, markets=(0, 8))
    assert refused(s, 0, m) == "overbuild_resource_left"  # one mine elsewhere has coal
    s = load(hands={0: ["dudley"]}, tiles=theirs, mats={0: {"coal": 1}}, markets=(0, 8))
    s, events = act(s, 0, m)
    assert ev.TilePlaced(0, slot("dudley:0"), COAL, 2) in events
    assert s.slot_owner[slot("dudley:0")] == 0


def test_opponents_iron_works_only_when_no_iron_is_left_on_board_or_market() -> None:
    theirs = {"space": "dudley:1", "owner": 1, "industry": "iron", "level": 2, "flipped": True}
    own_coal = {"space": "dudley:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 1}
    m = mv.Build(cname("dudley"), "dudley:1", "iron")
    kw = dict(era="rail", hands={0: ["dudley"]}, mats={0: {"iron": 2}})
    s = load(**kw, tiles=[theirs, own_coal], markets=(13, 1))
    assert refused(s, 0, m) == "overbuild_resource_left"  # one cube on the market
    works = {"space": "coalbrookdale:1", "owner": 1, "industry": "iron", "level": 3, "cubes": 1}
    s = load(**kw, tiles=[theirs, own_coal, works], markets=(13, 0))
    assert refused(s, 0, m) == "overbuild_resource_left"  # one cube on a works elsewhere
    s = load(**kw, tiles=[theirs, own_coal], markets=(13, 0))
    s, events = act(s, 0, m)
    assert ev.TilePlaced(0, slot("dudley:1"), IRON, 3) in events
    assert s.slot_owner[slot("dudley:1")] == 0 and s.income[1] == 10  # its income stays


def test_overbuild_removes_the_old_tiles_cubes() -> None:
    own = [{"space": "dudley:0", "owner": 0, "industry": "coal", "level": 1, "cubes": 1}]
    s = load(hands={0: ["dudley"]}, tiles=own, mats={0: {"coal": 1}})
    s, _ = act(s, 0, mv.Build(cname("dudley"), "dudley:0", "coal"))
    assert s.slot_cubes[slot("dudley:0")] == 3  # the new coal II's own three cubes only


def test_northern_farm_brewery_joins_a_network_only_through_its_own_link() -> None:
    iron = [{"space": "dudley:1", "owner": 1, "industry": "iron", "level": 1, "cubes": 3}]
    cannock = [{"space": "cannock:0", "owner": 0, "industry": "coal", "level": 1, "cubes": 1}]
    farm = "farm_brewery_north:0"
    s = load(hands={0: ["brewery"]}, tiles=iron + cannock)
    assert refused(s, 0, mv.Build(cname("brewery"), farm, "brewery")) == "not_in_network"
    s = load(hands={0: ["brewery"]}, tiles=iron + cannock,
             links={"cannock~farm_brewery_north": 0})  # fmt: skip
    act(s, 0, mv.Build(cname("brewery"), farm, "brewery"))


def test_a_town_whose_cards_were_removed_for_the_player_count_is_still_buildable() -> None:
    # two players: no Belper card in the deck, yet a wild location card or (with no board
    # presence, or Belper in the network) an industry card builds there
    assert D.deck_copies[2][card("belper")] == 0 < D.deck_copies[4][card("belper")]
    s = load(hands={0: ["wild:location"]})
    s, _ = act(s, 0, mv.Build(cname("wild:location"), "belper:1", "coal"))
    assert s.slot_owner[slot("belper:1")] == 0
    s = load(hands={0: ["coal"]})
    act(s, 0, mv.Build(cname("coal"), "belper:1", "coal"))
