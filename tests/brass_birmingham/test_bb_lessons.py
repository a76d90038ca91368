"""The rule text's lessons and decisions that are not pinned elsewhere, one test each.

Lessons already pinned in the topic modules: coal nearest first, iron without connection,
beer yours and theirs, which iron works to empty (test_bb_resources); rail place-then-coal,
double rail, develop lowest tile, develop one or two, loan, scout (test_bb_actions); sell
and flip, sell several, merchant beer or your own (test_bb_sell); round end, era scoring
and rail transition (test_bb_rounds).
"""

from __future__ import annotations

from bb_helpers import GAME, act, cname, load, of_type, score, slot

from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv

COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)


def test_lesson_build_cards_space_and_payment_iron_two_in_birmingham() -> None:
    s = load(hands={0: ["birmingham", "coventry"]}, mats={0: {"iron": 1}},
             links={"birmingham~oxford": 0}, markets=(13, 8))  # fmt: skip
    s, events = act(s, 0, mv.Build(cname("birmingham"), "birmingham:2", "iron"))
    assert ev.TilePlaced(0, slot("birmingham:2"), IRON, 2) in events
    assert ev.Paid(0, 7) in events and ev.MarketBought("coal", 1) in events
    # four iron produced; the two empty £1 spaces are filled at once for £2
    assert ev.Produced(slot("birmingham:2"), 4, 2, 2) in events
    assert s.iron_market == 10 and s.slot_cubes[slot("birmingham:2")] == 2
    assert s.money[0] == 17 - 7 - 1 + 2


def test_lesson_market_buying_and_replenishment() -> None:
    # 1. no board coal: buy market coal (Redditch reaches Oxford) and build iron works,
    #    which replenishes the iron market at once (four vacancies: all four sold, flip)
    s = load(hands={0: ["redditch", "coventry"]}, links={"oxford~redditch": 0}, markets=(13, 6))
    s, events = act(s, 0, mv.Build(cname("redditch"), "redditch:1", "iron"))
    assert ev.MarketBought("coal", 1) in events
    assert ev.Produced(slot("redditch:1"), 4, 4, 6) in events and s.iron_market == 10
    assert s.slot_flipped[slot("redditch:1")]
    # 2. a new mine connected to a merchant replenishes the coal market
    s = load(hands={0: ["redditch", "coventry"]}, links={"oxford~redditch": 0}, markets=(10, 8))
    s, events = act(s, 0, mv.Build(cname("redditch"), "redditch:0", "coal"))
    assert ev.Produced(slot("redditch:0"), 2, 2, 4) in events and s.coal_market == 12
    # 3. no iron on the board: development buys market iron, no connection needed
    s = load(hands={0: ["coventry", "coventry"]}, markets=(13, 3))
    s, events = act(s, 0, mv.Develop("cotton"), mv.Done())
    assert ev.MarketBought("iron", 1) in events and ev.Paid(0, 4) in events


def test_lesson_overbuild_yours_and_opponents() -> None:
    tiles = [
        {"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 1},
        {"space": "birmingham:3", "owner": 1, "industry": "manufacturer", "level": 2},
    ]
    s = load(hands={0: ["birmingham", "coventry"]}, tiles=tiles, mats={0: {"manufacturer": 1}},
             links={"birmingham~oxford": 0})  # fmt: skip
    legal = GAME.legal_moves(s, 0)
    assert mv.Build(cname("birmingham"), "birmingham:3", "manufacturer") not in legal
    s, events = act(s, 0, mv.Build(cname("birmingham"), "birmingham:1", "manufacturer"))
    assert ev.TilePlaced(0, slot("birmingham:1"), MANUFACTURER, 2) in events
    # the next manufacturer is level II too: an equal level cannot overbuild
    assert not any(isinstance(m, mv.Build) and m.space == "birmingham:1"
                   for m in GAME.legal_moves(s, 0))  # fmt: skip


def mills(sell: str):  # type: ignore[no-untyped-def]
    """Decision "Level I income or level II retention?": the deck and the opponent's hand
    are empty, one card left; cotton I and II built, one barrel of own beer."""
    tiles = [
        {"space": "kidderminster:1", "owner": 0, "industry": "cotton", "level": 1},
        {"space": "worcester:0", "owner": 0, "industry": "cotton", "level": 2},
        {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 1, "cubes": 1},
    ]
    s = load(hands={0: ["coventry"]}, deck=[], tiles=tiles, mats={0: {"cotton": 4}},
             links={"kidderminster~worcester": 0, "gloucester~worcester": 0},
             beer={"gloucester": [0, 0]})  # fmt: skip
    s, _ = act(s, 0, mv.Sell(sell, "gloucester:0"))
    assert s.phase == "scoring"
    return score(s)


def test_decision_level_one_income_or_level_two_retention() -> None:
    sold_one, events_one = mills("kidderminster:1")
    sold_two, events_two = mills("worcester:0")
    # cotton I gives one more income space (5 against 4) ...
    assert sold_one.income[0] - sold_two.income[0] == 1
    # ... both score 5 VP now, but only the level II survives into the rail era, flipped
    assert events_one[0].industries[0] == events_two[0].industries[0] == 5 + 4
    assert sold_two.slot_flipped[slot("worcester:0")]
    assert sold_one.slot_owner[slot("kidderminster:1")] == -1
    assert not sold_one.slot_flipped[slot("worcester:0")]


def last_rail_action():  # type: ignore[no-untyped-def]
    """Decision "Rail link points or iron works?": rail era, deck and the opponent's hand
    empty, one card left; the iron market has exactly four vacancies."""
    tiles = [
        {"space": "walsall:0", "owner": 0, "industry": "manufacturer", "level": 2,
         "flipped": True},
        {"space": "cannock:0", "owner": 1, "industry": "coal", "level": 2, "flipped": True},
        {"space": "cannock:1", "owner": 1, "industry": "coal", "level": 3, "cubes": 2},
    ]  # fmt: skip
    return load(era="rail", hands={0: ["birmingham"]}, deck=[], tiles=tiles,
                mats={0: {"iron": 1, "manufacturer": 3}, 1: {"coal": 4}},
                links={"birmingham~oxford": 1}, markets=(13, 6), vp=[0, 0])  # fmt: skip


def test_decision_rail_link_points_or_iron_works() -> None:
    rail, _ = act(last_rail_action(), 0, mv.Network("cannock~walsall"))
    rail, rail_events = score(rail)
    works, events = act(last_rail_action(), 0,
                        mv.Build(cname("birmingham"), "birmingham:2", "iron"))  # fmt: skip
    assert ev.Flipped(slot("birmingham:2")) in events  # all four iron sold at once
    works, works_events = score(works)
    # the rail scores Walsall's flipped manufacturer II (1) + Cannock's flipped coal II (1)
    assert rail_events[0].links[0] == 2
    # the iron works II, flipped at once, scores its 5 VP; the manufacturer its 5 as well
    assert works_events[0].industries[0] == 5 + 5 and rail_events[0].industries[0] == 5
    assert works.vp[0] > rail.vp[0]


def tempo(move_cards: list):  # type: ignore[no-untyped-def]
    """Decision "Loan and next-round tempo": seat 0 is last this round with one action
    left, has spent nothing; seat 1 declared £3; seven cards in hand, twelve in the deck."""
    deck = ["burton_on_trent"] * 2 + ["cannock"] * 2 + ["kidderminster"] * 2 + ["worcester"] * 2 + [
        "iron"] * 4  # fmt: skip
    hand = ["dudley"] * 2 + ["coalbrookdale"] * 3 + ["wolverhampton"] * 2
    s = load(hands={0: hand, 1: ["birmingham"] * 2}, deck=deck, order=[1, 0], turn=1,
             actions_left=1, spent=[0, 3], mats={0: {"coal": 1}})  # fmt: skip
    return act(s, 0, *move_cards)


def test_decision_loan_and_next_round_tempo() -> None:
    loan, loan_events = tempo([mv.Loan(), mv.Discard(cname("coalbrookdale"))])
    build, build_events = tempo([mv.Build(cname("dudley"), "dudley:0", "coal")])
    (loan_end,) = of_type(loan_events, ev.RoundEnded)
    (build_end,) = of_type(build_events, ev.RoundEnded)
    assert loan_end.order == [0, 1] and build_end.order == [1, 0]  # £0 < £3 < £7
    assert loan_end.income[0] == -3 and build_end.income[0] == 0  # three levels down
    assert loan.money[0] == 17 + 30 - 3 and build.money[0] == 17 - 7
    assert build.slot_owner[slot("dudley:0")] == 0
    assert len(loan.hands[0]) == len(build.hands[0]) == 8 and len(loan.deck) == 10


def factory(industry: str, space: str, build_card: str, sell_card: str):  # type: ignore[no-untyped-def]
    """Decision "Cotton, manufactured goods or pottery?": two cards left, deck and the
    opponent's hand empty; build one factory and sell it with the own brewery's beer."""
    brewery = {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 2,
               "cubes": 1}  # fmt: skip
    merchants = {"shrewsbury": ["mt_cotton_a"], "gloucester": ["mt_blank_a", "mt_blank_b"],
                 "oxford": ["mt_any", "mt_manufacturer_a"]}  # fmt: skip
    s = load(hands={0: [build_card, sell_card]}, deck=[], tiles=[brewery], money=[30, 17],
             links={"birmingham~oxford": 0, "birmingham~coventry": 0}, merchants=merchants,
             beer={"oxford": [0, 0]}, mats={0: {"brewery": 3}})  # fmt: skip
    s, _ = act(s, 0, mv.Build(cname(build_card), space, industry))
    s, _ = act(s, 0, mv.Sell(space, "oxford:0"))
    s, events = score(s)
    return s, events[0]


def test_decision_cotton_manufactured_goods_or_pottery() -> None:
    cotton, cotton_era = factory("cotton", "birmingham:0", "birmingham", "coventry")
    goods, goods_era = factory("manufacturer", "birmingham:1", "birmingham", "coventry")
    pottery, pottery_era = factory("pottery", "coventry:0", "coventry", "birmingham")
    # each factory: five income spaces; the emptied brewery II: five more and 5 VP
    assert cotton.income[0] == goods.income[0] == pottery.income[0] == 10 + 5 + 5
    assert [cotton_era.industries[0], goods_era.industries[0], pottery_era.industries[0]] == [
        5 + 5, 3 + 5, 10 + 5]  # fmt: skip
    # costs: £12; £8 + one market coal (£1); £17 + one market iron (£2); then the round's
    # income at space 20 (level 5)
    assert [cotton.money[0], goods.money[0], pottery.money[0]] == [23, 26, 16]
