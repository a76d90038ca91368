"""Brass: Pittsburgh rule sentences the rules audit (notes/bp_audit.md §4) found untested, and
the readings where the team followed the literal rulebook (package docstring), played
through the engine.

Board facts, tiles and prices are those of the PROVISIONAL data set (0.1.0).
"""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from test_bp_turns import Match, events_of, oil_sale

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass.events import Drew
from plugins.brass.moves import Done, ScoreEra
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.state import ERA2, PLAY, SCORING


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


def space(game: BrassPittsburgh, tile: str) -> int:
    return game.rules.mat.index[tile]


def skyscraper_built(m: Match) -> None:
    """The current seat builds a Skyscraper at Pittsburgh and stops at its bonus sell."""
    game, s, seat = m.game, m.state, m.seat
    s.money[seat] = 60
    for tile in ("I1", "I2", "I3", "S2", "S3"):
        s.mat[seat][space(game, tile)] = 0
    card = m.card("pittsburgh")
    m.act(mv.Build(card=card, space=space(game, "SK"), slot=m.slot("pittsburgh", 0)))
    while s.pending[0].kind != "bonus_sell":
        m.act(m.legal()[0])


# --- selling ---------------------------------------------------------------------------------


def test_bonus_sell_may_sell_several_tiles_adding_their_stars(game: BrassPittsburgh) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    refinery = oil_sale(m)  # Kerosene II: 1 star, 1 barrel
    goods = m.tile("cleveland", 1, seat, "M2", flipped=False)  # 1 star, 1 barrel
    s.oil[m.board.oilfield_index["bradford"]] = 2
    s.quality_rewards, s.quality_faceup = ["QR_2_MONEY", "QR_3_VP", "QR_5_VP"], [True] * 3
    skyscraper_built(m)
    hand = list(s.hands[seat])
    m.act(mv.BonusSell(refinery, 0))
    assert mv.SellAlso(goods, 0) in m.legal()
    m.act(mv.SellAlso(goods, 0))
    assert s.pending[0].kind == "quality" and s.pending[0].n == 1 + 1
    assert mv.ClaimQuality(0) in m.legal()  # two stars, no whiskey
    m.act(mv.ClaimQuality(0))
    assert all(step.kind != "quality" for step in s.pending)  # one Quality Reward at most
    m.finish_action()
    assert s.slot_flipped[refinery] and s.slot_flipped[goods]
    assert not s.quality_faceup[0]
    flips = [e.slot for e in events_of(m.log, ev.TileFlipped)]
    assert flips[-2:] == [refinery, goods]
    assert s.hands[seat] == hand or len(s.hands[seat]) == 8  # no card for the bonus sell


def test_flip_reward_bonus_sell_excludes_tiles_being_sold(game: BrassPittsburgh) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    s.era = ERA2
    refinery = oil_sale(m)
    s.merchant_tile[0] = "MT_DEVELOP"  # Chicago buys kerosene, goods and automobiles
    s.oil[m.board.oilfield_index["bradford"]] = 2 + 1 + 2
    car = m.tile("cleveland", 1, seat, "A2", flipped=False)  # flips for a bonus sell
    third = m.tile("erie", 0, seat, "K3", flipped=False)
    fourth = m.tile("erie", 1, seat, "M3", flipped=False)  # no oil
    m.act(mv.Sell(car, 0))
    m.discard_any()
    while s.pending[0].kind != "more_sell":
        m.act(m.legal()[0])
    m.act(mv.SellAlso(refinery, 0))
    while s.pending[0].kind != "bonus_sell":
        options = m.legal()
        m.act(Done() if Done() in options else options[0])
    offered = {b.slot for b in m.legal() if isinstance(b, mv.BonusSell)}
    assert offered == {third, fourth}  # the car flipping and the refinery still being sold
    m.act(mv.BonusSell(third, 0))
    while s.pending[0].kind != "more_sell":
        m.act(m.legal()[0])
    assert {x.slot for x in m.legal() if isinstance(x, mv.SellAlso)} == {fourth}
    m.act(mv.SellAlso(fourth, 0))
    m.finish_action()
    flips = [e.slot for e in events_of(m.log, ev.TileFlipped)]
    # the bonus sale's tiles flip at its end, before the sale that offered it finishes
    assert flips == [car, third, fourth, refinery]


def test_taking_the_last_cube_flips_the_tile_and_pays_its_owner(game: BrassPittsburgh) -> None:
    m = Match(game)
    seat, other = m.seat, (m.seat + 1) % 4
    mine = m.tile("kittanning", 0, other, "C2", flipped=False, cubes=1)
    m.act(mv.Network("LT", m.board.line_index["franklin~kittanning"]))
    m.discard_any()
    assert m.legal() == [mv.Pay("coal", "tile", mine)] or m.state.slot_cubes[mine] == 0
    m.finish_action()
    assert (m.state.slot_cubes[mine], m.state.slot_flipped[mine]) == (0, True)
    assert m.state.income[other] == 10 + 6  # Coal Plant II's flip: 6 income spaces
    assert m.state.money[seat] == 30


# --- oil ---------------------------------------------------------------------------------------


def test_oil_added_after_the_oil_city_flips_lands_on_it_without_a_second_reward(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    owner = (seat + 2) % 4
    s.actions_left = 2
    refinery = oil_sale(m)
    field = m.board.oilfield_index["bradford"]
    s.oil_city_owner[field], s.oil_city_flipped[field], s.oil[field] = owner, True, 0
    m.tile("titusville", 0, seat, "M3", flipped=False)
    m.act(mv.Network("PL_MONEY1", m.board.route_index["bradford~titusville"]))  # 1 icon
    m.finish_action()
    assert s.oil[field] == 1  # on the Oil City, which holds its oilfield's oil
    money = s.money[owner]
    m.act(mv.Sell(refinery, 0))
    m.finish_action()
    assert s.oil[field] == 0 and s.slot_flipped[refinery]
    assert events_of(m.log, ev.OilCityFlipped) == [] and s.money[owner] == money


def test_a_reserve_pipeline_as_first_pipeline_reveals_the_oilfield_tile(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    route = m.board.route_index["oil_creek~titusville"]  # 2 oil icons
    field = m.board.oilfield_index["oil_creek"]
    tile = game.rules.data.oilfield_tiles[s.oilfield_tile[field]]
    m.act(mv.Network("PL_RESERVE", route))
    m.finish_action()
    assert s.route_pipeline[route] == "PL_RESERVE" and s.route_owner[route] == seat
    assert s.oilfield_revealed[field]
    assert (s.oil[field], s.oil_pending[field]) == (2 + 1, tile.production)


def test_swapping_a_reserve_pipeline_adds_the_routes_oil_through_decide(
    game: BrassPittsburgh,
) -> None:
    # Literal reading: the swap places a pipeline on the route, whose icons add oil.
    m = Match(game)
    s, seat = m.state, m.seat
    route = m.board.route_index["oil_creek~titusville"]
    field = m.board.oilfield_index["oil_creek"]
    s.route_owner[route], s.route_pipeline[route] = seat, "PL_RESERVE"
    s.link_supply[seat].remove("PL_RESERVE")
    s.oil[field] = 3
    m.act(mv.Network("PL_MONEY1", route))
    m.finish_action()
    assert s.route_pipeline[route] == "PL_MONEY1" and "PL_RESERVE" in s.link_supply[seat]
    assert s.oil[field] == 3 + 2
    assert not s.oilfield_revealed[field]  # the route joined the oilfield already


def test_oilfield_left_without_a_tile_in_two_players_still_takes_pipelines_and_route_oil(
    game: BrassPittsburgh,
) -> None:
    # The setup removes only the 3-oil tile; its oilfield space stays on the board.
    m = Match(game, players=2)
    (start,) = game.setup(Options(board_side="main"), 2, Random(3))
    m.state, m.board = game.evolve(None, start), game.rules.board_of("main")
    s = m.state
    field = m.board.oilfield_index["washington_field"]
    assert s.oilfield_tile[field] == ""
    route = m.board.route_index["washington_field~washington"]  # 1 oil icon
    assert mv.Network("PL_MONEY1", route) in m.legal()
    m.act(mv.Network("PL_MONEY1", route))
    m.finish_action()
    assert (s.oil[field], s.oilfield_revealed[field]) == (1, False)


def test_income_pipeline_raises_its_owners_income_by_spaces_per_barrel(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    s, other = m.state, (m.seat + 1) % 4
    refinery = oil_sale(m)
    route = m.board.route_index["bradford~warren"]
    s.route_pipeline[route] = "PL_INCOME1"
    s.income[other] = 11  # level 1 spans spaces 11 and 12; level 2 starts at 13
    m.act(mv.Sell(refinery, 0))
    m.finish_action()
    assert s.income[other] == 12 and s.slot_flipped[refinery]


# --- links -------------------------------------------------------------------------------------


def test_replacement_train_may_be_built_on_an_empty_line_through_decide(
    game: BrassPittsburgh,
) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    s.money[seat] = 100
    s.link_supply[seat].append("HT_REPLACE")
    line = m.board.line_index["buffalo~erie"]
    assert mv.Network("HT_REPLACE", line) in m.legal()
    m.act(mv.Network("HT_REPLACE", line))
    m.finish_action()
    assert (s.line_owner[line], s.line_link[line]) == (seat, "HT_REPLACE")
    assert events_of(m.log, ev.TrainReplaced) == []


def test_whiskey_train_gains_a_whiskey_when_built(game: BrassPittsburgh) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    s.money[seat] = 60
    s.link_supply[seat].append("HT_WHISKEY")
    line = m.board.line_index["buffalo~erie"]  # no bonus icon
    m.act(mv.Network("HT_WHISKEY", line))
    m.finish_action()
    assert (s.line_link[line], s.whiskey[seat]) == ("HT_WHISKEY", 1)


def test_second_link_may_use_what_the_first_link_gained(game: BrassPittsburgh) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    s.money[seat] = 100
    s.mat[seat][space(game, "S2")] = 0  # the steel train is unlocked
    s.link_supply[seat] += ["HT_STEEL", "HT_WHISKEY"]
    steel_train = m.board.line_index["homestead~pittsburgh"]
    m.act(mv.Network("HT_STEEL", steel_train))
    while s.pending[0].kind != "more_link":
        m.act(m.legal()[0])
    m.act(mv.SecondLink("HT_WHISKEY", m.board.line_index["allegheny~pittsburgh"]))
    assert mv.Pay("steel", "train", steel_train) in m.legal()
    m.act(mv.Pay("steel", "train", steel_train))
    m.finish_action()
    assert s.line_cargo[steel_train] == 0 and s.whiskey[seat] == 1


def test_tile_with_an_income_cost_is_refused_below_minus_ten(game: BrassPittsburgh) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    s.money[seat] = 60
    for tile in ("I1", "I2", "I3", "S2", "S3"):
        s.mat[seat][space(game, tile)] = 0
    s.income[seat] = 0  # level -10: the Skyscraper costs one level more
    card = m.card("pittsburgh")
    build = mv.Build(card=card, space=space(game, "SK"), slot=m.slot("pittsburgh", 0))
    assert build not in m.legal()
    with pytest.raises(IllegalMove) as info:
        m.act(build)
    assert info.value.code == "income_floor"
    s.income[seat] = 1  # level -9
    assert build in m.legal()


# --- crown jewels ------------------------------------------------------------------------------


def test_locomotive_works_upgrades_a_flipped_automobile(game: BrassPittsburgh) -> None:
    # "a Manufacturing industry tile": a tile of the Manufacturing path, Automobiles included.
    m = Match(game)
    s, seat = m.state, m.seat
    s.era = ERA2
    s.money[seat] = 60
    for tile in ("M1", "M2", "M3", "M4", "M5"):
        s.mat[seat][space(game, tile)] = 0
    m.tile("pittsburgh", 2, seat, "A1", flipped=True)
    card = m.card("manufacturing")
    move = mv.Build(card=card, space=space(game, "LW"), slot=m.slot("pittsburgh", 2))
    assert move in m.legal()


def test_crown_jewel_may_be_developed_through_decide(game: BrassPittsburgh) -> None:
    m = Match(game)
    s, seat = m.state, m.seat
    for tile in ("C1", "C2", "C3", "C4"):
        s.mat[seat][space(game, tile)] = 0
    empty = s.mat[seat].count(0)
    m.act(mv.Develop(space(game, "PA")))
    m.finish_action()
    assert s.mat[seat][space(game, "PA")] == 0 and s.mat[seat].count(0) == empty + 1


# --- cards ---------------------------------------------------------------------------------------


def test_hands_shrink_after_the_deck_runs_out_and_empty_hands_skip_their_turn(
    game: BrassPittsburgh,
) -> None:
    m = Match(game, players=2)
    s = m.state
    second = s.order[1]
    s.deck = []
    s.discards[second].append(s.hands[second].pop())  # the second seat runs out first
    sizes = [len(h) for h in s.hands]
    turns_without_second = 0
    while m.state.phase == PLAY:
        s = m.state
        assert s.hands[s.current], "a seat with no cards never gets a turn"
        if not s.hands[second]:
            turns_without_second += 1
        m.act(mv.Pass())
        m.finish_action()
        now = [len(h) for h in m.state.hands]
        assert all(a <= b for a, b in zip(now, sizes, strict=True))  # never refilled
        sizes = now
    assert m.state.phase == SCORING and turns_without_second > 0
    assert all(e.cards == [] for e in events_of(m.log, Drew))


def test_era2_deck_contains_the_face_down_discards(game: BrassPittsburgh) -> None:
    m = Match(game, players=2)
    s = m.state
    facedown = [card for cards in s.facedown for card in cards]
    assert facedown
    every = Counter(s.deck) + sum((Counter(h) for h in s.hands), Counter())
    every += Counter(facedown)
    s.discards[0] += s.deck  # the deck has been drawn and played
    s.deck = []
    for seat in s.order:  # the era's last round: one card left each
        s.discards[seat] += s.hands[seat][1:]
        s.hands[seat] = s.hands[seat][:1]
    for _ in s.order:
        m.act(mv.Pass())
    m.act(ScoreEra(), actor=SYSTEM)
    s = m.state
    dealt = Counter(s.deck) + sum((Counter(h) for h in s.hands), Counter())
    assert dealt == every and s.facedown == [[], []]
