"""The Brass-family engine pieces (plugins.brass) on Birmingham's data."""

from __future__ import annotations

from random import Random

import pytest
from bb_helpers import load

from plugins.brass import events as fev
from plugins.brass.cards import refill, without
from plugins.brass.graph import nearest
from plugins.brass.hidden import deal, resample_cards
from plugins.brass.scoring import link_points, ranking
from plugins.brass.state import apply_core
from plugins.brass.turn import TurnResolver
from plugins.brass.turns import next_turn_order
from plugins.brass_birmingham.data import birmingham
from plugins.brass_birmingham.variant import birmingham_variant

D = birmingham()
V = birmingham_variant(D)
TRACK = D.income


def test_five_space_flip_from_space_ten_reaches_level_three() -> None:
    space = TRACK.advance(10, 5)
    assert (space, TRACK.level(space)) == (15, 3)


def test_spaces_25_26_share_level_8_and_31_to_33_share_level_11() -> None:
    assert {TRACK.level(s) for s in (25, 26)} == {8}
    assert {TRACK.level(s) for s in (31, 32, 33)} == {11}


def test_income_level_is_capped_at_30_at_the_end_of_the_track() -> None:
    assert TRACK.advance(95, 10) == 99
    assert TRACK.level(99) == 30


def test_loan_drops_three_levels_to_the_highest_space_of_the_new_level() -> None:
    space_level_5 = 19
    assert TRACK.level(space_level_5) == 5
    new = TRACK.drop_levels(space_level_5, 3)
    assert (new, TRACK.level(new)) == (14, 2)


def test_loan_below_minus_ten_is_impossible() -> None:
    assert TRACK.drop_levels(3, 3) == 0  # level -7 -> -10: allowed, the floor
    assert TRACK.drop_levels(2, 3) is None  # level -8 -> -11: refused


def test_turn_order_least_spent_first_ties_keep_their_order() -> None:
    # seat 2 spent 5; seats 3 and 1 tie at 8 and keep their order; seat 0 spent 10
    assert next_turn_order([2, 0, 3, 1], [10, 8, 5, 8]) == [2, 3, 1, 0]
    assert next_turn_order([3, 1, 0], [0, 0, 0, 0]) == [3, 1, 0]


def test_refill_draws_to_eight_or_what_remains() -> None:
    hand, deck = [3, 1], [7, 8, 9]
    assert refill(hand, deck, 8) == [7, 8, 9]
    assert hand == [1, 3, 7, 8, 9] and deck == []
    hand, deck = [1] * 6, [4, 5, 6]
    assert refill(hand, deck, 8) == [5, 6] and deck == [4]


def test_without_refuses_cards_not_held() -> None:
    assert without([1, 1, 2], [1, 2]) == [1]
    assert without([1, 2], [3]) is None


def test_market_buys_cheapest_first_and_costs_the_empty_price_beyond() -> None:
    coal = D.coal_market
    assert coal.buy_cost(13, 1) == 1  # one £1 space empty at setup: the other £1 cube
    assert coal.buy_cost(13, 2) == 3
    assert coal.buy_cost(1, 3) == 7 + 8 + 8


def test_new_iron_works_sells_into_the_most_expensive_vacancies() -> None:
    iron = D.iron_market
    # the rule text's example: vacancies at £2, £1, £1 -> three cubes sold for £4
    assert iron.sell(7, 4) == (3, 4)
    assert iron.sell(10, 4) == (0, 0)


def test_nearest_returns_every_tied_source_and_skips_unreachable() -> None:
    dist = [0, 1, 1, 2, -1]
    assert nearest(dist, [(3, 30), (1, 10), (2, 20), (4, 40)]) == [10, 20]
    assert nearest(dist, [(4, 40)]) == []


def test_link_scores_the_icons_of_every_location_it_touches() -> None:
    assert link_points((0, 1, 2), [2, 3, 0, 9]) == 5


def test_ranking_shares_places_on_equal_keys() -> None:
    assert ranking([(50, 3, 10), (50, 3, 10), (40, 9, 99)]) == [1, 1, 3]
    assert ranking([(50, 3, 10), (50, 4, 0)]) == [2, 1]


def test_graph_distance_counts_links_over_anyones_built_links() -> None:
    owners = [-1] * D.n_links
    bd = D.link_names.index("birmingham~dudley")
    dk = D.link_names.index("dudley~kidderminster")
    owners[bd], owners[dk] = 0, 1
    dist = D.graph.distances([D.loc_index["birmingham"]], owners)
    assert dist[D.loc_index["kidderminster"]] == 2
    assert dist[D.loc_index["worcester"]] == -1


def test_market_with_space_vp_and_no_empty_price() -> None:
    from plugins.brass.market import Market

    coke = Market([1, 2, 3], None, vp=[4, 4, 4])
    assert coke.sell(1, 5) == (2, 2 + 1) and coke.sell_vp(1, 5) == 8
    assert coke.buy_cost(2, 2) == 2 + 3
    with pytest.raises(ValueError, match="cannot sell more"):
        coke.buy_cost(1, 2)


def test_network_may_add_locations_the_game_knows_about() -> None:
    owners = [-1] * D.n_links
    assert D.graph.network([3], owners, 0, extra_nodes=[7]) == {3, 7}


def test_deal_gives_hands_then_face_down_cards_from_the_top() -> None:
    deck = list(range(20))
    hands, down = deal(deck, 2, 8, 1)
    assert hands == [list(range(12, 20)), list(range(4, 12))]
    assert down == [[3], [2]] and deck == [0, 1]


def test_resample_keeps_counts_and_the_seats_own_hand() -> None:
    s = load(hands={0: ["coventry", "dudley"], 1: ["redditch", "iron", "coal"]})
    before = s.clone()
    resample_cards(s, 0, Random(3))
    assert s.hands[0] == before.hands[0]
    assert [len(h) for h in s.hands] == [2, 3] and len(s.deck) == len(before.deck)

    def unseen(x):  # type: ignore[no-untyped-def]
        return sorted([*x.deck, *x.hands[1], *(c for f in x.facedown for c in f)])

    assert unseen(s) == unseen(before)


def test_era_end_refuses_while_cards_remain() -> None:
    from core.errors import IllegalMove

    s = load(hands={0: ["coventry"]})
    with pytest.raises(IllegalMove) as err:
        TurnResolver(V, s, -1).end_era(Random(0), [0, 0], [0, 0])
    assert err.value.code == "not_era_end"


class _MarkedEraChange(TurnResolver):
    def era_change(self, era: int) -> None:
        self.emit(fev.Paid(0, 0))  # a marker: where the game's board changes would go


def test_era_change_comes_after_scores_and_before_the_deal() -> None:
    s = load(phase="scoring", deck=[], round=11)
    events = _MarkedEraChange(V, s, -1).end_era(Random(0), [1, 2], [3, 4])
    assert [type(e) for e in events] == [fev.EraScored, fev.Paid, fev.EraBegan]


def test_era_change_comes_before_the_game_ends() -> None:
    s = load(era="rail", phase="scoring", deck=[], round=11)
    events = _MarkedEraChange(V, s, -1).end_era(Random(0), [0, 0], [0, 0])
    assert [type(e) for e in events] == [fev.EraScored, fev.Paid, fev.GameEnded]


def test_apply_core_ignores_events_it_does_not_know() -> None:
    s = load()
    assert apply_core(D.turn_rules, s, object()) is False
