"""Sell: merchants, connections, beer per tile, several sales, merchant bonuses."""

from __future__ import annotations

from random import Random

import pytest
from bb_helpers import GAME, act, load, merchant, of_type, slot

from core.errors import IllegalMove
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv

COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)
OXFORD_COTTON = {"shrewsbury": ["mt_any"], "gloucester": ["mt_manufacturer_a", "mt_blank_a"],
                 "oxford": ["mt_cotton_a", "mt_blank_b"]}  # fmt: skip
MILL = {"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 1}


def sale_board(tiles=(), **extra):  # type: ignore[no-untyped-def]
    """Seat 0's Birmingham cotton mill, linked to Oxford whose first merchant buys cotton."""
    kw = dict(hands={0: ["coventry", "coventry"]}, tiles=[MILL, *tiles],
              links={"birmingham~oxford": 0}, merchants=OXFORD_COTTON)  # fmt: skip
    kw.update(extra)
    return load(**kw)


def test_lesson_sell_to_a_matching_merchant_flips_for_income_not_cash() -> None:
    s, events = act(sale_board(), 0, mv.Sell("birmingham:0", "oxford:0"))
    assert ev.Flipped(slot("birmingham:0")) in events
    # five spaces for the mill, two more for Oxford's merchant beer: spaces, not levels
    assert s.income[0] == 10 + 5 + 2 and s.money[0] == 17
    assert s.merchant_beer[merchant("oxford")] == 0


def test_coventry_has_no_merchant_so_an_unconnected_mill_cannot_sell() -> None:
    s = sale_board(links={"birmingham~coventry": 0})
    legal = GAME.legal_moves(s, 0)
    assert not any(isinstance(m, mv.Sell) for m in legal)
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.Sell("birmingham:0", "oxford:0"), Random(0))
    assert err.value.code == "merchant_not_connected"


def test_merchant_must_show_the_industry_being_sold() -> None:
    s = sale_board()
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.Sell("birmingham:0", "oxford:1"), Random(0))
    assert err.value.code == "merchant_refuses"  # a blank merchant buys nothing


def test_you_cannot_sell_an_opponents_industry() -> None:
    theirs = {**MILL, "owner": 1}
    s = load(hands={0: ["coventry"]}, tiles=[theirs], links={"birmingham~oxford": 0},
             merchants=OXFORD_COTTON)  # fmt: skip
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.Sell("birmingham:0", "oxford:0"), Random(0))
    assert err.value.code == "not_your_industry"


def test_decision_merchant_beer_or_your_own() -> None:
    own = {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 1, "cubes": 1}
    s, _ = act(sale_board([own]), 0, mv.Sell("birmingham:0", "oxford:0"))
    assert set(GAME.legal_moves(s, 0)) == {mv.PickBeer("stafford:0"), mv.PickBeer("oxford:0")}
    merchant_beer, _ = act(s, 0, mv.PickBeer("oxford:0"))
    assert merchant_beer.income[0] == 10 + 5 + 2
    assert merchant_beer.slot_cubes[slot("stafford:0")] == 1
    own_beer, _ = act(s, 0, mv.PickBeer("stafford:0"))
    assert own_beer.income[0] == 10 + 5 + 4  # the emptied brewery I flips for four
    assert own_beer.merchant_beer[merchant("oxford")] == 1


def test_a_sale_may_use_a_connected_opponents_beer() -> None:
    theirs = {"space": "walsall:1", "owner": 1, "industry": "brewery", "level": 1, "cubes": 1}
    s = sale_board([theirs], links={"birmingham~oxford": 0, "birmingham~walsall": 1},
                   beer={"oxford": [0, 0]})  # fmt: skip
    s, events = act(s, 0, mv.Sell("birmingham:0", "oxford:0"))
    assert ev.CubeTaken(slot("walsall:1")) in events and s.income[1] == 14


def test_lesson_sell_several_industries_with_one_card_beer_per_tile() -> None:
    second = {"space": "redditch:0", "owner": 0, "industry": "manufacturer", "level": 1}
    own = {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 1, "cubes": 1}
    merchants = {"shrewsbury": ["mt_any"], "gloucester": ["mt_blank_a", "mt_blank_b"],
                 "oxford": ["mt_cotton_a", "mt_manufacturer_a"]}  # fmt: skip
    s = load(hands={0: ["coventry", "coventry"]}, tiles=[MILL, second, own],
             links={"birmingham~oxford": 0, "oxford~redditch": 0}, merchants=merchants)  # fmt: skip
    s, _ = act(s, 0, mv.Sell("birmingham:0", "oxford:0"), mv.PickBeer("oxford:0"))
    assert mv.SellAlso("redditch:0", "oxford:1") in GAME.legal_moves(s, 0)
    s, _ = act(s, 0, mv.SellAlso("redditch:0", "oxford:1"),
               mv.PickBeer("stafford:0"))  # fmt: skip
    assert s.slot_flipped[slot("birmingham:0")] and s.slot_flipped[slot("redditch:0")]
    assert len(s.discards[0]) == 1 and s.actions_left == 1  # one card, one action
    # mill 5 + Oxford bonus 2 (merchant beer); manufacturer 5 with own beer (no bonus),
    # whose last barrel flips the brewery for 4
    assert s.income[0] == 10 + 5 + 2 + 5 + 4


def test_zero_beer_sale_cannot_take_merchant_beer_for_the_bonus() -> None:
    mfr3 = {"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 3}
    merchants = {"shrewsbury": ["mt_any"], "gloucester": ["mt_cotton_a", "mt_blank_b"],
                 "oxford": ["mt_manufacturer_a", "mt_blank_a"]}  # fmt: skip
    s = load(hands={0: ["coventry", "coventry"]}, tiles=[mfr3], merchants=merchants,
             links={"birmingham~oxford": 0})  # fmt: skip
    s, events = act(s, 0, mv.Sell("birmingham:1", "oxford:0"))
    assert of_type(events, ev.MerchantBeerTaken) == [] and of_type(events, ev.BonusGained) == []
    assert s.income[0] == 14 and s.merchant_beer[merchant("oxford")] == 1


def test_own_beer_only_never_claims_the_merchant_bonus() -> None:
    own = {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 1, "cubes": 1}
    s = sale_board([own], beer={"oxford": [0, 0]})
    s, events = act(s, 0, mv.Sell("birmingham:0", "oxford:0"))
    assert of_type(events, ev.BonusGained) == [] and s.income[0] == 10 + 5 + 4


BONUS_CASES = {
    # merchant location: (players, mill space, links, merchant tiles, expected bonus)
    "shrewsbury": (2, "kidderminster:1",
                   ["coalbrookdale~shrewsbury", "coalbrookdale~kidderminster"],
                   {"shrewsbury": ["mt_any"], "gloucester": ["mt_blank_a", "mt_blank_b"],
                    "oxford": ["mt_cotton_a", "mt_manufacturer_a"]},
                   ev.BonusGained(0, vp=4)),
    "nottingham": (4, "derby:1", ["derby~nottingham"],
                   {"shrewsbury": ["mt_blank_a"], "gloucester": ["mt_cotton_a", "mt_blank_b"],
                    "oxford": ["mt_manufacturer_a", "mt_blank_c"],
                    "warrington": ["mt_pottery", "mt_manufacturer_b"],
                    "nottingham": ["mt_any", "mt_cotton_b"]},
                   ev.BonusGained(0, vp=3)),
    "warrington": (3, "stoke_on_trent:0", ["stoke_on_trent~warrington"],
                   {"shrewsbury": ["mt_blank_a"], "gloucester": ["mt_cotton_a", "mt_blank_b"],
                    "oxford": ["mt_manufacturer_a", "mt_blank_c"],
                    "warrington": ["mt_any", "mt_pottery"]},
                   ev.BonusGained(0, money=5)),
    "oxford": (2, "birmingham:0", ["birmingham~oxford"], OXFORD_COTTON,
               ev.BonusGained(0, income=2)),
}  # fmt: skip


@pytest.mark.parametrize("location", sorted(BONUS_CASES))
def test_merchant_beer_bonus_by_location(location: str) -> None:
    players, space, links, merchants, bonus = BONUS_CASES[location]
    mill = {"space": space, "owner": 0, "industry": "cotton", "level": 1}
    s = load(players=players, hands={0: ["coal", "coal"]}, tiles=[mill],
             links=dict.fromkeys(links, 0), merchants=merchants)  # fmt: skip
    s, events = act(s, 0, mv.Sell(space, f"{location}:0"))
    assert bonus in events
    assert s.merchant_beer[merchant(location)] == 0


def test_gloucester_bonus_is_a_free_development_never_of_pottery_one() -> None:
    mill = {"space": "worcester:0", "owner": 0, "industry": "cotton", "level": 1}
    merchants = {"shrewsbury": ["mt_any"], "gloucester": ["mt_cotton_a", "mt_blank_a"],
                 "oxford": ["mt_manufacturer_a", "mt_blank_b"]}  # fmt: skip
    s = load(hands={0: ["coventry", "coventry"]}, tiles=[mill], merchants=merchants,
             links={"gloucester~worcester": 0}, mats={0: {"cotton": 1}})  # fmt: skip
    s, _ = act(s, 0, mv.Sell("worcester:0", "gloucester:0"))
    legal = GAME.legal_moves(s, 0)
    assert mv.FreeDevelop("cotton") in legal and mv.FreeDevelop("pottery") not in legal
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.FreeDevelop("pottery"), Random(0))
    assert err.value.code == "cannot_develop"
    s, events = act(s, 0, mv.FreeDevelop("cotton"))
    assert ev.TileDeveloped(0, COTTON, 1) in events
    assert of_type(events, ev.CubeTaken) == [] and of_type(events, ev.MarketBought) == []


def test_two_beer_sale_may_take_its_barrels_from_two_sources_and_pays_the_bonus_once() -> None:
    # Manufacturer V needs two beer: Oxford's barrel and seat 0's distant brewery II
    tiles = [{"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 5},
             {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 2,
              "cubes": 1}]  # fmt: skip
    s = load(hands={0: ["coventry"]}, tiles=tiles, links={"birmingham~oxford": 0})
    s, _ = act(s, 0, mv.Sell("birmingham:1", "oxford:0"))
    assert set(GAME.legal_moves(s, 0)) == {mv.PickBeer("stafford:0"), mv.PickBeer("oxford:0")}
    s, events = act(s, 0, mv.PickBeer("oxford:0"))
    assert of_type(events, ev.MerchantBeerTaken) == [ev.MerchantBeerTaken(merchant("oxford"))]
    assert of_type(events, ev.BonusGained) == [ev.BonusGained(0, income=2)]
    assert ev.CubeTaken(slot("stafford:0")) in events  # the only source left, not asked
    # manufacturer V 2 spaces, Oxford's bonus 2, the emptied brewery II 5
    assert s.income[0] == 10 + 2 + 2 + 5 and s.slot_flipped[slot("birmingham:1")]
