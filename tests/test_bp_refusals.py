"""Brass: Pittsburgh refusals: every illegal move gets a code naming the broken rule.

Cities, slots and tiles are those of the PROVISIONAL data set (0.1.0).
"""

from __future__ import annotations

import pytest
from test_bp_turns import Match, oil_sale

from core.errors import IllegalMove
from plugins.brass.moves import Discard, ScoreEra
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.game import BrassPittsburgh
from plugins.brass_pittsburgh.state import ERA2


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


def refusal(m: Match, move: object, actor: int | None = None) -> str:
    with pytest.raises(IllegalMove) as info:
        m.act(move, actor)
    assert info.value.message
    return info.value.code


def space(game: BrassPittsburgh, tile: str) -> int:
    return game.rules.mat.index[tile]


def not_in_hand(m: Match) -> int:
    return next(k for k in range(len(m.game.rules.card_names)) if k not in m.state.hands[m.seat])


def test_playing_out_of_turn(game: BrassPittsburgh) -> None:
    m = Match(game)
    other = (m.seat + 1) % 4
    assert refusal(m, mv.Pass(), actor=other) == "not_your_turn"


def test_era_scoring_is_not_a_players_move(game: BrassPittsburgh) -> None:
    m = Match(game)
    assert refusal(m, ScoreEra()) == "system_only"


def test_build_with_a_card_not_in_hand(game: BrassPittsburgh) -> None:
    m = Match(game)
    move = mv.Build(card=not_in_hand(m), space=space(game, "K1"), slot=0)
    assert refusal(m, move) == "card_not_in_hand"


def test_build_with_whiskey_but_none_held(game: BrassPittsburgh) -> None:
    m = Match(game)
    move = mv.Build(card=-1, space=space(game, "K1"), slot=0, whiskey=True)
    assert refusal(m, move) == "no_whiskey"


def test_build_of_a_tile_further_up_the_path(game: BrassPittsburgh) -> None:
    m = Match(game)
    card = m.card("pittsburgh")
    move = mv.Build(card=card, space=space(game, "K2"), slot=m.slot("pittsburgh", 3))
    assert refusal(m, move) == "tile_not_accessible"


def test_build_of_an_era1_tile_in_era2(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.state.era = ERA2
    card = m.card("pittsburgh")
    move = mv.Build(card=card, space=space(game, "K1"), slot=m.slot("pittsburgh", 3))
    assert refusal(m, move) == "tile_wrong_era"


def test_build_on_a_slot_without_the_icon(game: BrassPittsburgh) -> None:
    m = Match(game)
    card = m.card("pittsburgh")
    move = mv.Build(card=card, space=space(game, "K1"), slot=m.slot("pittsburgh", 1))
    assert refusal(m, move) == "wrong_slot"


def test_build_on_a_taken_slot(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.tile("pittsburgh", 3, (m.seat + 1) % 4, "I1", flipped=False)
    card = m.card("pittsburgh")
    move = mv.Build(card=card, space=space(game, "K1"), slot=m.slot("pittsburgh", 3))
    assert refusal(m, move) == "slot_taken"


def test_second_tile_in_a_city_in_era1(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.tile("pittsburgh", 0, m.seat, "M1", flipped=False)
    card = m.card("pittsburgh")
    move = mv.Build(card=card, space=space(game, "K1"), slot=m.slot("pittsburgh", 3))
    assert refusal(m, move) == "one_per_city_in_era1"


def test_shared_slot_while_a_single_icon_slot_is_empty(game: BrassPittsburgh) -> None:
    m = Match(game)
    for tile in ("I1", "I2", "I3"):
        m.state.mat[m.seat][space(game, tile)] = 0
    card = m.card("homestead")
    move = mv.Build(card=card, space=space(game, "S2"), slot=m.slot("homestead", 1))
    assert refusal(m, move) == "single_icon_slot_first"


def test_location_card_for_another_city(game: BrassPittsburgh) -> None:
    m = Match(game)
    card = m.card("erie")
    move = mv.Build(card=card, space=space(game, "K1"), slot=m.slot("pittsburgh", 3))
    assert refusal(m, move) == "card_wrong_location"


def test_industry_card_outside_the_network(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.line("altoona~johnstown", m.seat)
    card = m.card("coal")
    move = mv.Build(card=card, space=space(game, "C1"), slot=m.slot("wheeling", 2))
    assert refusal(m, move) == "not_in_network"


def test_build_that_cannot_be_paid(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.state.money[m.seat] = 3
    card = m.card("pittsburgh")
    move = mv.Build(card=card, space=space(game, "K1"), slot=m.slot("pittsburgh", 3))
    assert refusal(m, move) == "cannot_afford"


def test_link_not_in_supply(game: BrassPittsburgh) -> None:
    m = Match(game)
    assert refusal(m, mv.Network("HT_COKE", 0)) == "link_not_in_supply"


def test_light_train_when_none_is_left(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.state.light_trains[m.seat] = 0
    assert refusal(m, mv.Network("LT", 0)) == "no_light_train"


def test_link_away_from_the_network(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.line("altoona~johnstown", m.seat)
    far = m.board.line_index["erie~warren"]
    assert refusal(m, mv.Network("LT", far)) == "link_site"


def test_link_that_cannot_be_paid(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.state.money[m.seat] = 0
    far = m.board.line_index["erie~warren"]  # coal only from Vanderbilt there
    assert refusal(m, mv.Network("LT", far)) == "cannot_afford"


def test_develop_of_a_tile_not_yet_accessible(game: BrassPittsburgh) -> None:
    m = Match(game)
    assert refusal(m, mv.Develop(space(game, "K3"))) == "tile_not_accessible"
    assert refusal(m, mv.Develop(space(game, "PA"))) == "tile_not_accessible"


def test_sale_of_someone_elses_tile(game: BrassPittsburgh) -> None:
    m = Match(game)
    slot = m.tile("cleveland", 0, (m.seat + 1) % 4, "K2", flipped=False)
    assert refusal(m, mv.Sell(slot, 0)) == "not_your_tile"


def test_sale_of_a_tile_that_flips_by_depletion(game: BrassPittsburgh) -> None:
    m = Match(game)
    slot = m.tile("wheeling", 2, m.seat, "C1", flipped=False, cubes=2)
    assert refusal(m, mv.Sell(slot, 0)) == "not_sellable"


def test_sale_of_a_flipped_tile(game: BrassPittsburgh) -> None:
    m = Match(game)
    slot = m.tile("cleveland", 0, m.seat, "K2", flipped=True)
    assert refusal(m, mv.Sell(slot, 0)) == "already_flipped"


def test_sale_to_an_unconnected_merchant(game: BrassPittsburgh) -> None:
    m = Match(game)
    refinery = oil_sale(m)
    assert refusal(m, mv.Sell(refinery, 3)) == "merchant_not_buying"  # Baltimore


def test_sale_without_the_oil_it_needs(game: BrassPittsburgh) -> None:
    m = Match(game)
    refinery = oil_sale(m)
    m.state.oil[m.board.oilfield_index["bradford"]] = 0
    assert refusal(m, mv.Sell(refinery, 0)) == "not_enough_oil"


def test_answering_a_discard_with_another_move(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.act(mv.Pass())
    assert refusal(m, mv.Pass()) == "discard_a_card"
    assert refusal(m, Discard(not_in_hand(m))) == "discard_a_card"


def test_paying_from_a_source_not_offered(game: BrassPittsburgh) -> None:
    m = Match(game)
    m.act(mv.Develop(space(game, "K1")))
    m.discard_any()
    assert refusal(m, mv.Pay("iron", "market", 0)) == "bad_source"
