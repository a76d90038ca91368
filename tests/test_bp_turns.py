"""Brass: Pittsburgh played through decide: turns, rounds, each action, bankruptcy, era end.

Board facts, prices and tile values are those of the PROVISIONAL data set (0.1.0).
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass.events import ActionDone, EraScored, RoundEnded
from plugins.brass.moves import Discard, Done, ScoreEra
from plugins.brass_pittsburgh import engine
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.state import ERA1, ERA2, SCORING, State


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


class Match:
    """A 4-player match (main side) driven move by move, with the engine's own moves
    (:mod:`.internal_moves`): these tests pin rules, not the client-facing names."""

    def __init__(self, game: BrassPittsburgh, players: int = 4, seed: int = 3) -> None:
        self.game = game
        self.rng = Random(seed)
        (event,) = game.setup(Options(), players, self.rng)
        self.state: State = game.evolve(None, event)
        self.board = game.rules.board_of(self.state.side)
        self.log: list[Any] = []

    @property
    def seat(self) -> int:
        return self.state.current

    def legal(self) -> list[Any]:
        return engine.legal_moves(self.game.rules, self.state, self.seat)

    def act(self, move: Any, actor: int | None = None) -> list[Any]:
        who = self.seat if actor is None else actor
        events = engine.decide(self.game.rules, self.state, who, move, self.rng)
        for e in events:
            self.state = self.game.evolve(self.state, e)
        self.log += events
        return events

    def discard_any(self) -> None:
        assert isinstance(self.legal()[0], Discard)
        self.act(self.legal()[0])

    def finish_action(self) -> None:
        """Answer every pending decision: decline offers, else take the first option."""
        while self.state.pending:
            options = self.legal()
            self.act(Done() if Done() in options else options[0])

    def card(self, name: str) -> int:
        """Put a card of ``name`` into the current seat's hand (in place of its first)."""
        kind = self.game.rules.card_names.index(name)
        hand = self.state.hands[self.seat]
        if kind not in hand:
            hand[0] = kind
            hand.sort()
        return kind

    def line(self, line_id: str, seat: int, link: str = "LT") -> int:
        line = self.board.line_index[line_id]
        s = self.state
        s.line_owner[line], s.line_link[line] = seat, link
        if link == "LT":
            s.light_trains[seat] -= 1
        return line

    def slot(self, city: str, k: int) -> int:
        return self.board.city_slots[self.board.node[city]][k]

    def tile(self, city: str, k: int, seat: int, tile: str, flipped: bool, cubes: int = 0) -> int:
        slot = self.slot(city, k)
        s = self.state
        s.slot_owner[slot], s.slot_tile[slot] = seat, tile
        s.slot_flipped[slot], s.slot_cubes[slot] = flipped, cubes
        return slot


def events_of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# --- turns and rounds --------------------------------------------------------------------------


def test_first_round_of_era1_has_one_action_each_then_two(game: BrassPittsburgh) -> None:
    m = Match(game)
    first_round = list(m.state.order)
    for seat in first_round:
        assert m.seat == seat and m.state.actions_left == 1
        m.act(mv.Pass())
        m.discard_any()
    assert m.state.round == 2 and m.state.actions_left == 2


def test_each_action_discards_a_card_and_the_turn_refills_to_eight(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat = m.seat
    m.act(mv.Pass())
    assert m.state.pending[0].kind == "discard" and m.seat == seat
    m.discard_any()
    assert len(m.state.hands[seat]) == 8 and len(m.state.discards[seat]) == 1


def test_pass_gains_a_whiskey_and_a_fourth_is_ignored(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    m.state.whiskey[seat] = 3
    m.act(mv.Pass())
    assert m.state.whiskey[seat] == 3
    m.state.whiskey[seat] = 1
    m.discard_any()
    assert m.state.whiskey[seat] == 1


def test_loan_gives_30_dollars_and_drops_three_income_levels(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    m.act(mv.Loan())
    m.discard_any()
    assert m.state.money[seat] == 60
    assert game.rules.income.level(m.state.income[seat]) == -3


def test_loan_below_minus_ten_is_refused(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.state.income[m.seat] = 2  # level -8
    assert mv.Loan() not in m.legal()
    with pytest.raises(IllegalMove) as info:
        m.act(mv.Loan())
    assert info.value.code == "income_floor"


def test_spending_decides_next_rounds_order_with_stable_ties(game: BrassPittsburgh) -> None:
    m = Match(game)
    order = list(m.state.order)
    spender = order[0]
    # The first seat lays a light train (its coal comes from Vanderbilt at $7); the others
    # pass and spend nothing, so they keep their order and the spender goes last.
    m.act(mv.Network("LT", m.board.line_index["erie~warren"]))
    m.finish_action()
    for _ in order[1:]:
        m.act(mv.Pass())
        m.discard_any()
    assert m.state.money[spender] == 30 - 7
    assert m.state.order == [*order[1:], spender]


def test_income_is_paid_at_round_end_and_bankruptcy_when_unpayable(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    rich, broke, payer = m.state.order[0], m.state.order[1], m.state.order[2]
    m.state.income[rich] = 14  # level 2
    m.state.income[broke] = m.state.income[payer] = 7  # level -3
    m.state.money[broke] = 2
    m.state.money[payer] = 5
    m.state.whiskey[broke] = 2
    m.state.vp[broke] = 5
    for _ in m.state.order:
        m.act(mv.Pass())
        m.discard_any()
    assert (m.state.money[rich], m.state.money[payer]) == (30 + 2, 5 - 3)
    assert events_of(m.log, ev.Bankrupt) == [ev.Bankrupt(broke)]
    assert (m.state.whiskey[broke], m.state.vp[broke], m.state.money[broke]) == (0, -35, 2)
    assert m.state.income[broke] == 10


# --- actions -----------------------------------------------------------------------------------


def test_develop_pays_vanderbilt_iron_or_steel_when_nothing_is_connected(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat = m.seat
    m.act(mv.Develop(game.rules.mat.index["K1"]))
    m.discard_any()
    pays = m.legal()
    assert {(p.resource, p.source) for p in pays} == {
        ("iron", "vanderbilt"),
        ("steel", "vanderbilt"),
    }
    m.act(mv.Pay("iron", "vanderbilt", -1))
    assert m.state.money[seat] == 30 - 8
    assert m.state.mat[seat][game.rules.mat.index["K1"]] == 1


def test_light_train_costs_a_coal_and_gains_the_lines_bonus(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    line = m.board.line_index["erie~warren"]  # a whiskey icon
    m.act(mv.Network("LT", line))
    m.discard_any()
    assert m.legal() == [mv.Pay("coal", "vanderbilt", -1)] or m.state.whiskey[seat] == 1
    m.finish_action()
    assert (m.state.line_owner[line], m.state.whiskey[seat]) == (seat, 1)
    assert m.state.money[seat] == 30 - 7


def test_second_link_costs_ten_dollars_more(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.state.actions_left = 2
    seat = m.seat
    franklin = m.board.line_index["franklin~titusville"]  # Franklin sells coal at $2
    m.act(mv.Network("LT", franklin))
    m.discard_any()
    market = next(i for i, mk in enumerate(m.board.markets) if mk.city == "franklin")
    assert m.legal() == [mv.Pay("coal", "market", market), mv.Pay("coal", "vanderbilt", -1)]
    m.act(mv.Pay("coal", "market", market))
    kittanning = m.board.line_index["franklin~kittanning"]
    assert mv.SecondLink("LT", kittanning) in m.legal()
    m.act(mv.SecondLink("LT", kittanning))
    m.act(mv.Pay("coal", "market", market))  # the ladder's next cube costs $3
    assert m.state.money[seat] == 30 - 2 - 10 - 3
    assert m.state.line_owner[kittanning] == seat


def test_build_pays_cost_and_sells_produced_coke_into_connected_markets(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat = m.seat
    for line in ("connellsville~greensburg", "greensburg~johnstown", "altoona~johnstown"):
        m.line(line, (seat + 1) % 4)
    card = m.card("connellsville")
    ck = game.rules.mat.index["CK"]
    move = mv.Build(card=card, space=ck, slot=m.slot("connellsville", 0))
    assert move in m.legal()
    m.act(move)
    m.finish_action()
    slot = m.slot("connellsville", 0)
    # $15 + Greensburg's $2 and $3 coal; 2 coke sold to Altoona at $9 and $8, 4 VP each.
    assert m.state.money[seat] == 30 - 15 - 2 - 3 + 9 + 8
    assert m.state.vp[seat] == 8
    assert (m.state.slot_cubes[slot], m.state.slot_flipped[slot]) == (2, False)


def test_building_with_whiskey_turns_any_card_into_the_needed_one(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat = m.seat
    m.state.whiskey[seat] = 1
    wild = [b for b in m.legal() if isinstance(b, mv.Build) and b.whiskey]
    target = next(b for b in wild if m.board.slot_name[b.slot] == "wheeling:2")
    m.act(target)
    m.discard_any()
    assert m.state.whiskey[seat] == 0
    assert m.state.slot_owner[m.slot("wheeling", 2)] == seat


def test_upgrade_scores_the_replaced_tile_and_pays_twice_the_income(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat = m.seat
    for tile in ("C1", "C2", "C3", "C4"):
        m.state.mat[seat][game.rules.mat.index[tile]] = 0
    m.tile("connellsville", 1, seat, "C2", flipped=True)
    m.state.income[seat] = 20  # level 5
    card = m.card("connellsville")
    m.line("connellsville~greensburg", (seat + 1) % 4)  # steel comes by Vanderbilt anyway
    move = mv.Build(card=card, space=game.rules.mat.index["PA"], slot=m.slot("connellsville", 1))
    assert move in m.legal()
    m.act(move)
    m.finish_action()
    slot = m.slot("connellsville", 1)
    assert (m.state.slot_tile[slot], m.state.slot_flipped[slot]) == ("PA", True)
    assert m.state.vp[seat] == 2  # the replaced Coal Plant II
    # $18 and a $10 Vanderbilt steel paid; 2 x income level 5 gained.
    assert m.state.money[seat] == 30 - 18 - 10 + 10


def oil_sale(m: Match) -> int:
    """The current seat's Kerosene II at Cleveland, Chicago (MT_15, face up) and one barrel
    at Bradford reachable through another seat's VP pipeline and trains."""
    seat = m.seat
    other = (seat + 1) % 4
    s = m.state
    s.merchant_tile[0], s.merchant_faceup[0] = "MT_15", True  # Chicago
    if "MT_15" in s.merchant_tile[1:]:
        s.merchant_tile[s.merchant_tile.index("MT_15", 1)] = "MT_WHISKEY"
    for line in ("chicago~cleveland", "cleveland~erie", "erie~warren"):
        m.line(line, other)
    route = m.board.route_index["bradford~warren"]
    s.route_owner[route], s.route_pipeline[route] = other, "PL_VP2"
    s.oil[m.board.oilfield_index["bradford"]] = 1
    return m.tile("cleveland", 0, seat, "K2", flipped=False)


def test_sale_uses_pipeline_oil_pays_merchant_and_flips_the_tile(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat, other = m.seat, (m.seat + 1) % 4
    refinery = oil_sale(m)
    m.act(mv.Sell(refinery, 0))
    m.finish_action()
    assert m.state.oil[m.board.oilfield_index["bradford"]] == 0
    assert m.state.vp[other] == 2  # the VP pipeline's reward for one barrel
    assert m.state.money[seat] == 30 + 15
    assert not m.state.merchant_faceup[0]
    assert m.state.slot_flipped[refinery]
    assert m.state.income[seat] == 10 + 5


def test_a_sale_may_claim_one_quality_reward_with_whiskey_as_stars(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat = m.seat
    s = m.state
    s.quality_rewards = ["QR_2_MONEY", "QR_3_VP", "QR_5_VP"]
    s.quality_faceup = [True, True, True]
    s.whiskey[seat] = 1
    refinery = oil_sale(m)  # Kerosene II shows one star
    m.act(mv.Sell(refinery, 0))
    m.discard_any()
    assert m.state.pending[0].kind == "quality"
    assert m.legal() == [mv.ClaimQuality(0), Done()]  # QR_3 would need two whiskey
    m.act(mv.ClaimQuality(0))
    assert (m.state.whiskey[seat], m.state.quality_faceup) == (0, [False, True, True])
    assert m.state.money[seat] == 30 + 15 + 8


def test_era_end_is_a_system_task_that_scores_and_deals_era2(game: BrassPittsburgh) -> None:
    m = Match(game, players=2)
    s = m.state
    s.deck = []
    for seat in s.order:  # the era's last round: one card left each
        s.discards[seat] += s.hands[seat][1:]
        s.hands[seat] = s.hands[seat][:1]
    light = m.line("homestead~pittsburgh", s.order[0])
    for _ in s.order:
        m.act(mv.Pass())
    assert m.state.phase == SCORING
    (task,) = game.pending_tasks(m.state)
    assert task.kind == "system" and task.move == ScoreEra()
    with pytest.raises(IllegalMove):
        m.act(ScoreEra(), actor=0)
    events = m.act(ScoreEra(), actor=SYSTEM)
    assert [type(e).__name__ for e in events] == ["EraScored", "BoardCleared", "EraBegan"]
    assert m.state.era == ERA2 and m.state.line_owner[light] == -1
    assert [len(h) for h in m.state.hands] == [8, 8] and m.state.facedown == [[], []]
    assert ERA1 != ERA2


# --- links, crown jewels and trains through decide -----------------------------------------------


def test_replacement_train_scores_the_light_train_for_its_owner(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat, other = m.seat, (m.seat + 1) % 4
    m.state.link_supply[seat].append("HT_REPLACE")
    m.line("braddock~homestead", seat)
    target = m.line("homestead~pittsburgh", other)
    m.tile("homestead", 0, seat, "S2", flipped=True)  # 1 icon; Pittsburgh prints 1
    move = mv.Network("HT_REPLACE", target)
    assert move in m.legal()
    m.act(move)
    m.finish_action()
    assert m.state.vp[other] == 2 and m.state.light_trains[other] == 9
    assert (m.state.line_owner[target], m.state.line_link[target]) == (seat, "HT_REPLACE")


def test_reserve_pipeline_is_swapped_back_into_its_owners_supply(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    s = m.state
    route = m.board.route_index["venango~franklin"]
    s.route_owner[route], s.route_pipeline[route] = seat, "PL_RESERVE"
    s.link_supply[seat].remove("PL_RESERVE")
    s.link_supply[seat].append("PL_VP1")
    oil = s.oil[m.board.oilfield_index["venango"]]
    m.act(mv.Network("PL_VP1", route))
    m.finish_action()
    assert s.route_pipeline[route] == "PL_VP1" and "PL_RESERVE" in s.link_supply[seat]
    icons = m.board.routes[route].oil_icons
    assert s.oil[m.board.oilfield_index["venango"]] == oil + icons  # the route's icons again


def test_oil_city_takes_the_oilfields_oil_plus_three_barrels(game: BrassPittsburgh) -> None:
    m = Match(game)
    s = m.state
    s.era = ERA2
    seat = m.seat
    for tile in ("K1", "K2", "K3", "K4"):
        s.mat[seat][game.rules.mat.index[tile]] = 0
    m.tile("allegheny", 0, seat, "M2", flipped=False)
    route = m.board.route_index["butler_field~allegheny"]
    s.route_owner[route], s.route_pipeline[route] = (seat + 1) % 4, "PL_MONEY1"
    field = m.board.oilfield_index["butler_field"]
    s.oil[field] = 2
    card = m.card("kerosene")
    move = mv.Build(card=card, space=game.rules.mat.index["OC"], oilfield=field)
    assert move in m.legal()
    m.act(move)
    m.finish_action()
    assert (s.oil_city_owner[field], s.oil[field]) == (seat, 2 + 3)
    assert s.money[seat] == 30 - 20 - 8  # $20 and a Vanderbilt iron


def test_skyscraper_gives_a_bonus_sell_without_a_card(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    s = m.state
    s.money[seat] = 60
    for tile in ("I1", "I2", "I3", "S2", "S3"):
        s.mat[seat][game.rules.mat.index[tile]] = 0
    refinery = oil_sale(m)
    card = m.card("pittsburgh")
    move = mv.Build(card=card, space=game.rules.mat.index["SK"], slot=m.slot("pittsburgh", 0))
    assert move in m.legal()
    m.act(move)
    while s.pending[0].kind != "bonus_sell":
        m.act(m.legal()[0])
    assert mv.BonusSell(refinery, 0) in m.legal() and Done() in m.legal()
    hand = len(s.hands[seat])
    m.act(mv.BonusSell(refinery, 0))
    m.finish_action()
    assert s.slot_flipped[refinery] and len(s.hands[seat]) in (hand, 8)
    assert game.rules.income.level(s.income[seat]) == game.rules.income.level(10 + 5) - 1


def test_locomotive_works_gives_three_free_develops(game: BrassPittsburgh) -> None:
    m = Match(game)
    s = m.state
    s.era = ERA2
    seat = m.seat
    s.money[seat] = 60
    for tile in ("M1", "M2", "M3", "M4", "M5"):
        s.mat[seat][game.rules.mat.index[tile]] = 0
    m.tile("pittsburgh", 2, seat, "M2", flipped=True)
    card = m.card("manufacturing")
    move = mv.Build(card=card, space=game.rules.mat.index["LW"], slot=m.slot("pittsburgh", 2))
    assert move in m.legal()
    m.act(move)
    while s.pending[0].kind != "free_develop":
        m.act(m.legal()[0])
    left = sum(s.mat[seat])
    for _ in range(3):
        free = [x for x in m.legal() if isinstance(x, mv.FreeDevelop)]
        m.act(free[0])
    assert sum(s.mat[seat]) == left - 3
    assert game.rules.income.level(s.income[seat]) == -2


def test_own_resource_train_supplies_its_owner_for_free(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    line = m.line("homestead~pittsburgh", seat, "HT_STEEL")
    m.state.line_cargo[line] = 1
    m.act(mv.Develop(game.rules.mat.index["K1"]))
    m.discard_any()
    assert mv.Pay("steel", "train", line) in m.legal()
    m.act(mv.Pay("steel", "train", line))
    assert m.state.line_cargo[line] == 0 and m.state.money[seat] == 30


def test_another_players_resource_train_is_no_source(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat, other = m.seat, (m.seat + 1) % 4
    line = m.line("homestead~pittsburgh", other, "HT_STEEL")
    m.state.line_cargo[line] = 1
    m.line("braddock~homestead", seat)  # the train is in reach of the seat's network
    m.act(mv.Develop(game.rules.mat.index["K1"]))
    m.discard_any()
    assert all(p.source != "train" for p in m.legal())


def test_steel_trains_own_cube_never_pays_for_it(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    m.state.mat[seat][game.rules.mat.index["S2"]] = 0  # the steel train is unlocked
    m.state.link_supply[seat].append("HT_STEEL")
    line = m.board.line_index["homestead~pittsburgh"]
    m.act(mv.Network("HT_STEEL", line))
    m.discard_any()
    m.finish_action()
    # Both steel came from Vanderbilt ($10 each); the cube on the new train stayed there.
    assert (m.state.line_cargo[line], m.state.money[seat]) == (1, 30 - 20)


def test_no_income_after_the_last_round_and_ties_broken_by_income_then_money(
    game: BrassPittsburgh,
) -> None:
    m = Match(game, players=2)
    s = m.state
    s.era, s.deck = ERA2, []
    for seat in s.order:
        s.discards[seat] += s.hands[seat][1:]
        s.hands[seat] = s.hands[seat][:1]
    s.income = [30, 30]  # level 10 each
    for _ in s.order:
        m.act(mv.Pass())
    assert m.state.phase == SCORING and m.state.money == [30, 30]
    m.act(ScoreEra(), actor=SYSTEM)
    assert game.result(m.state) is not None
    s = m.state
    s.vp, s.income, s.money = [10, 10], [30, 30], [5, 9]
    assert game.result(s).ranking == [2, 1]
    s.income = [31, 30]
    assert game.result(s).ranking == [1, 2]
    s.money = [9, 9]
    s.income = [30, 30]
    assert game.result(s).ranking == [1, 1]


# --- more of each action -------------------------------------------------------------------------


def test_produced_cubes_all_sold_flip_the_tile_and_pay_its_income(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    greensburg = next(i for i, mk in enumerate(m.board.markets) if mk.city == "greensburg")
    m.state.market_cubes[greensburg]["coal"] = 1  # three vacancies: $4, $3, $2
    card = m.card("greensburg")
    m.act(mv.Build(card=card, space=game.rules.mat.index["C1"], slot=m.slot("greensburg", 0)))
    m.finish_action()
    slot = m.slot("greensburg", 0)
    assert (m.state.slot_cubes[slot], m.state.slot_flipped[slot]) == (0, True)
    assert m.state.money[seat] == 30 - 6 + 4 + 3
    assert m.state.income[seat] == 10 + 4  # Coal Plant I's flip: 4 income spaces


def test_one_sale_may_sell_several_tiles_adding_their_stars(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    s = m.state
    refinery = oil_sale(m)  # 1 star, needs 1 barrel
    goods = m.tile("cleveland", 1, seat, "M2", flipped=False)  # 1 star, needs 1 barrel
    s.oil[m.board.oilfield_index["bradford"]] = 2
    s.quality_rewards, s.quality_faceup = ["QR_2_MONEY", "QR_3_VP", "QR_5_VP"], [True] * 3
    s.whiskey[seat] = 1
    m.act(mv.Sell(goods, 0))
    m.discard_any()
    assert mv.SellAlso(refinery, 0) in m.legal()
    m.act(mv.SellAlso(refinery, 0))
    assert s.pending[0].kind == "quality" and s.pending[0].n == 1 + 1
    assert mv.ClaimQuality(1) in m.legal()  # QR_3: two stars and a whiskey
    m.act(mv.ClaimQuality(1))
    m.finish_action()
    assert s.slot_flipped[goods] and s.slot_flipped[refinery] and s.whiskey[seat] == 0


def test_develop_may_remove_a_second_tile(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    m.act(mv.Develop(game.rules.mat.index["K1"]))
    m.discard_any()
    m.act(mv.Pay("iron", "vanderbilt", -1))
    assert mv.DevelopAlso(game.rules.mat.index["C1"]) in m.legal()
    m.act(mv.DevelopAlso(game.rules.mat.index["C1"]))
    m.act(mv.Pay("steel", "vanderbilt", -1))
    assert m.state.money[seat] == 30 - 8 - 10
    assert m.state.mat[seat][game.rules.mat.index["C1"]] == 0


def test_line_with_a_free_develop_icon_offers_a_develop_without_metal(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    seat = m.seat
    line = m.board.line_index["franklin~new_castle"]  # a free develop icon
    m.act(mv.Network("LT", line))
    m.discard_any()
    while m.state.pending[0].kind != "free_develop":
        m.act(m.legal()[0])
    m.act(mv.FreeDevelop(game.rules.mat.index["K1"]))
    assert m.state.mat[seat][game.rules.mat.index["K1"]] == 1


def test_first_pipeline_to_an_oilfield_reveals_its_tile(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    route = m.board.route_index["oil_creek~titusville"]  # two oil icons
    field = m.board.oilfield_index["oil_creek"]
    m.state.oilfield_tile[field] = "OT_B"  # $5; 2 barrels
    m.act(mv.Network("PL_MONEY1", route))
    m.finish_action()
    assert m.state.oilfield_revealed[field]
    # era 1: the reward at once, the tile's barrels when the era ends
    assert (m.state.oil[field], m.state.oil_pending[field]) == (2, 2)
    assert ev.Gained(seat=seat, money=5) in m.log
    assert m.game.view(m.state, None)["oilfields"][field]["tile"] == "OT_B"
    assert m.state.route_owner[route] == seat


def test_a_later_pipeline_to_an_oilfield_adds_its_oil_and_reveals_nothing(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    s = m.state
    field = m.board.oilfield_index["oil_creek"]
    joined = m.board.route_index["oil_creek~titusville"]
    s.route_owner[joined], s.route_pipeline[joined] = (m.seat + 1) % s.players, "PL_MONEY1"
    route = m.board.route_index["oil_creek~franklin"]  # one oil icon
    m.act(mv.Network("PL_RESERVE", route))
    m.finish_action()
    assert s.oil[field] == 1 + 1  # the route's icon and the reserve pipeline's own barrel
    assert not s.oilfield_revealed[field]
    assert not [e for e in m.log if isinstance(e, ev.OilfieldRevealed)]


def test_oilfield_revealed_in_era2_produces_at_once(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.state.era = ERA2
    route = m.board.route_index["oil_creek~titusville"]  # two oil icons
    field = m.board.oilfield_index["oil_creek"]
    m.state.oilfield_tile[field] = "OT_E"  # $2; 3 barrels
    m.act(mv.Network("PL_MONEY1", route))
    m.finish_action()
    assert (m.state.oil[field], m.state.oil_pending[field]) == (2 + 3, 0)
    assert ev.Gained(seat=m.state.route_owner[route], money=2) in m.log


def test_train_on_an_income_line_raises_income_by_spaces(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    m.act(mv.Network("LT", m.board.line_index["meadville~titusville"]))  # +2 income spaces
    m.finish_action()
    assert m.state.income[seat] == 10 + 2


def test_face_down_merchant_still_buys_but_pays_nothing(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    refinery = oil_sale(m)
    m.state.merchant_faceup[0] = False
    m.act(mv.Sell(refinery, 0))
    m.finish_action()
    assert m.state.slot_flipped[refinery] and m.state.money[seat] == 30


def test_resource_train_arrives_loaded_with_its_cubes(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    m.state.money[seat] = 60
    m.state.link_supply[seat].append("HT_COKE")
    line = m.board.line_index["buffalo~erie"]
    m.act(mv.Network("HT_COKE", line))
    m.finish_action()
    assert (m.state.line_link[line], m.state.line_cargo[line]) == ("HT_COKE", 2)


def test_whiskey_gained_beyond_three_is_ignored(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat = m.seat
    refinery = oil_sale(m)
    m.state.merchant_tile[0] = "MT_WHISKEY"  # two whiskey
    m.state.whiskey[seat] = 2
    m.act(mv.Sell(refinery, 0))
    m.finish_action()
    assert ev.Gained(seat=seat, whiskey=2) in m.log
    assert m.state.whiskey[seat] == 3


def coke_for_two_markets(m: Match, altoona_cubes: int) -> int:
    """The current seat builds a Coke Works at Connellsville (4 coke) joined by others'
    trains to Altoona's and Wheeling's coke ladders ($10, $9, $8 at 4 VP each); Wheeling's
    is empty. The coke waits for the split."""
    for line in (
        "connellsville~greensburg", "greensburg~johnstown", "altoona~johnstown",
        "connellsville~mckeesport", "mckeesport~washington", "washington~wheeling",
    ):  # fmt: skip
        m.line(line, (m.seat + 1) % 4)
    cubes = {mk.city: i for i, mk in enumerate(m.board.markets)}
    m.state.market_cubes[cubes["altoona"]]["coke"] = altoona_cubes
    m.state.market_cubes[cubes["wheeling"]]["coke"] = 0
    card = m.card("connellsville")
    slot = m.slot("connellsville", 0)
    m.act(mv.Build(card=card, space=m.game.rules.mat.index["CK"], slot=slot))
    while m.state.pending[0].kind != "produce":
        m.act(m.legal()[0])
    return slot


def test_the_chosen_split_of_produced_cubes_decides_the_money(game: BrassPittsburgh) -> None:
    sales = {}
    for plan in ([2, 2], [3, 1]):
        m = Match(game)
        seat = m.seat
        coke_for_two_markets(m, altoona_cubes=0)
        assert sorted(p.plan for p in m.legal()) == [[1, 3], [2, 2], [3, 1]]
        m.act(mv.SellProduced(plan))
        (sale,) = [e for e in events_of(m.log, ev.Gained) if e.vp]
        sales[tuple(plan)] = (sale.seat == seat, sale.money, sale.vp)
    assert sales == {
        (2, 2): (True, 10 + 9 + 10 + 9, 16),
        (3, 1): (True, 10 + 9 + 8 + 10, 16),
    }


def test_a_split_beyond_a_markets_vacancies_is_refused(game: BrassPittsburgh) -> None:
    m = Match(game)
    coke_for_two_markets(m, altoona_cubes=1)  # room for two
    assert sorted(p.plan for p in m.legal()) == [[1, 3], [2, 2]]
    with pytest.raises(IllegalMove):
        m.act(mv.SellProduced([3, 1]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_era_lasts_eight_rounds_at_every_player_count(
    game: BrassPittsburgh, players: int
) -> None:
    # 4 players leave out the four cards without a 4 icon (decision 5.1, data/README.md).
    rounds = 8
    m = Match(game, players=players)
    while m.state.phase != "over":
        if m.state.phase == SCORING:
            m.act(ScoreEra(), actor=SYSTEM)
        elif m.state.pending:
            m.act(m.legal()[0])
        else:
            m.act(mv.Pass())
    per_era = [0]
    actions = [[0] * players]
    for e in m.log:
        if isinstance(e, RoundEnded):
            per_era[-1] += 1
        elif isinstance(e, ActionDone):
            actions[-1][e.seat] += 1
        elif isinstance(e, EraScored):
            per_era.append(0)
            actions.append([0] * players)
    assert per_era == [rounds, rounds, 0]
    # every seat plays the same actions: 1 + 7 x 2 in era 1, 8 x 2 in era 2
    assert actions[:2] == [[15] * players, [16] * players]
