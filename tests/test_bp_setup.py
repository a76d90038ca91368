"""Brass: Pittsburgh setup for 2, 3 and 4 players, one test per setup step of the rulebook,
plus what a seat may see of the result and the position document round trip."""

from __future__ import annotations

import typing
from collections import Counter
from random import Random
from typing import Any

import msgspec
import pytest

from core.errors import BadRequest, InvalidPosition
from plugins.brass.events import Drew
from plugins.brass_pittsburgh import plugin
from plugins.brass_pittsburgh.events import Started
from plugins.brass_pittsburgh.game import BoardSide, BrassPittsburgh, Options
from plugins.brass_pittsburgh.state import ERA1, State

PLAYERS = (2, 3, 4)


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


def started(game: BrassPittsburgh, players: int, seed: int = 7, **options: str) -> Started:
    (event,) = game.setup(Options(**options), players, Random(seed))
    assert isinstance(event, Started)
    return event


def new_state(game: BrassPittsburgh, players: int, seed: int = 7) -> State:
    return game.evolve(None, started(game, players, seed))


def test_board_side_marked_for_two_players_is_used_with_two(game: BrassPittsburgh) -> None:
    assert [started(game, n).side for n in PLAYERS] == ["two_player", "main", "main"]


def test_two_players_may_choose_the_two_to_four_player_side(game: BrassPittsburgh) -> None:
    assert started(game, 2, board_side="main").side == "main"
    with pytest.raises(BadRequest) as info:
        started(game, 3, board_side="two_player")
    assert info.value.code == "bad_options"


@pytest.mark.parametrize("players", PLAYERS)
def test_deck_keeps_only_cards_showing_the_player_count(
    game: BrassPittsburgh, players: int
) -> None:
    e = started(game, players)
    dealt = Counter(e.deck) + sum((Counter(h) for h in e.hands), Counter())
    dealt += sum((Counter(f) for f in e.facedown), Counter())
    names = game.rules.cards[e.side].name
    expected = Counter(
        c.industry if hasattr(c, "industry") else c.location
        for c in game.rules.data.deck_for(players)
    )
    assert Counter({names(k): n for k, n in dealt.items()}) == expected
    assert sum(dealt.values()) == {2: 32, 3: 48, 4: 64}[players]


def test_two_player_game_leaves_out_the_three_oil_tile_and_the_15_dollar_merchant(
    game: BrassPittsburgh,
) -> None:
    for seed in range(20):
        e = started(game, 2, seed)
        assert "OT_E" not in e.oilfield_tiles and "MT_15" not in e.merchant_tiles
        assert sorted(t for t in e.merchant_tiles if t) == [
            "MT_DEVELOP", "MT_INCOME", "MT_VP", "MT_WHISKEY"
        ]  # fmt: skip


@pytest.mark.parametrize("players", (3, 4))
def test_every_merchant_space_gets_a_random_merchant_tile(
    game: BrassPittsburgh, players: int
) -> None:
    layouts = {tuple(started(game, players, seed).merchant_tiles) for seed in range(10)}
    assert all(sorted(t) == sorted(game.rules.data.merchant_tiles) for t in layouts)
    assert len(layouts) > 1


@pytest.mark.parametrize("players", PLAYERS)
def test_one_facedown_oilfield_tile_on_each_oilfield(game: BrassPittsburgh, players: int) -> None:
    s = new_state(game, players)
    assert all(s.oilfield_tile) and len(set(s.oilfield_tile)) == len(s.oilfield_tile)
    assert not any(s.oilfield_revealed)
    shown = game.view(s, 0)["oilfields"]
    assert [o["tile"] for o in shown] == [None] * len(s.oilfield_tile)
    assert all(o["face_down"] for o in shown)


@pytest.mark.parametrize("players", PLAYERS)
def test_three_quality_rewards_are_drawn_face_up_from_six(
    game: BrassPittsburgh, players: int
) -> None:
    draws = {tuple(started(game, players, seed).quality_rewards) for seed in range(10)}
    assert all(len(set(d)) == 3 for d in draws)
    assert set().union(*draws) <= set(game.rules.data.quality_rewards)
    assert len(draws) > 1


@pytest.mark.parametrize("players", PLAYERS)
def test_markets_start_full_except_coke_with_one_cube_in_its_top_space(
    game: BrassPittsburgh, players: int
) -> None:
    s = new_state(game, players)
    board = game.rules.board_of(s.side)
    for market, cubes in zip(board.markets, s.market_cubes, strict=True):
        for res, ladder in market.ladders.items():
            want = 1 if res == "coke" else len(ladder.prices)
            assert cubes[res] == want


@pytest.mark.parametrize("players", PLAYERS)
def test_each_player_starts_with_30_dollars_income_space_10_and_no_vp(
    game: BrassPittsburgh, players: int
) -> None:
    s = new_state(game, players)
    assert s.money == [30] * players and s.income == [10] * players
    assert s.vp == [0] * players and s.whiskey == [0] * players
    assert [p["income_level"] for p in game.view(s, None)["players"]] == [0] * players


@pytest.mark.parametrize("players", PLAYERS)
def test_mat_full_links_on_their_spaces_and_the_rest_in_the_personal_supply(
    game: BrassPittsburgh, players: int
) -> None:
    s = new_state(game, players)
    assert all(left == game.rules.mat.initial() for left in s.mat)
    assert s.light_trains == [9] * players
    for supply in s.link_supply:
        assert sorted(supply) == ["HT_DOUBLE", "HT_WHISKEY", "PL_MONEY1", "PL_RESERVE"]


@pytest.mark.parametrize("players", PLAYERS)
def test_eight_cards_in_hand_and_one_face_down_discard_in_era1(
    game: BrassPittsburgh, players: int
) -> None:
    s = new_state(game, players)
    assert [len(h) for h in s.hands] == [8] * players
    assert [len(f) for f in s.facedown] == [1] * players
    assert s.discards == [[]] * players


def test_first_round_order_is_random(game: BrassPittsburgh) -> None:
    orders = {tuple(started(game, 4, seed).order) for seed in range(20)}
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)
    assert len(orders) > 1


def test_first_round_of_era1_gives_each_player_one_action(game: BrassPittsburgh) -> None:
    s = new_state(game, 3)
    assert (s.era, s.round, s.actions_left) == (ERA1, 1, 1)
    assert game.pending_tasks(s)[0].seat == s.order[0]


def test_setup_depends_only_on_the_seed(game: BrassPittsburgh) -> None:
    assert started(game, 4, seed=3) == started(game, 4, seed=3)
    assert started(game, 4, seed=3) != started(game, 4, seed=4)


# --- what a seat may see -----------------------------------------------------------------------


def test_view_shows_own_hand_and_only_counts_of_the_rest(game: BrassPittsburgh) -> None:
    s = new_state(game, 3)
    mine = game.view(s, 1)
    assert mine["hand"] == [game.names.card[c] for c in s.hands[1]]
    assert [p["hand_count"] for p in mine["players"]] == [8, 8, 8]
    assert mine["deck_count"] == len(s.deck)
    for hidden in ("hands", "deck", "facedown"):
        assert hidden not in mine
    assert game.view(s, None)["hand"] is None
    msgspec.json.encode(mine)


def test_started_event_shows_a_seat_only_its_own_hand(game: BrassPittsburgh) -> None:
    e = started(game, 3)
    seen = game.redact(e, 2)
    assert seen["hand_counts"] == [8, 8, 8] and "hands" not in seen and "deck" not in seen
    assert game.redact(e, None)["hand"] is None
    assert "oilfield_tiles" not in seen and "OT_" not in msgspec.json.encode(seen).decode()


def test_sampled_hidden_state_looks_the_same_to_the_seat(game: BrassPittsburgh) -> None:
    s = new_state(game, 4)
    differs = False
    for seed in range(5):
        other = game.sample_hidden(s, 0, Random(seed))
        assert game.view(other, 0) == game.view(s, 0)
        differs |= game.export_position(other) != game.export_position(s)
    assert differs


def test_metadata_marks_the_data_provisional_with_its_version(game: BrassPittsburgh) -> None:
    assert game.metadata["provisional"] is True
    assert game.metadata["data_version"] == "0.1.0-provisional"


def test_plugin_offers_the_game_with_its_provisional_data() -> None:
    (offered,) = plugin.ironworks_games()
    assert isinstance(offered, BrassPittsburgh) and offered.metadata["provisional"] is True


# --- positions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_position_document_round_trips(game: BrassPittsburgh, players: int) -> None:
    s = new_state(game, players)
    doc = game.export_position(s)
    assert game.export_position(game.load_position(msgspec.json.decode(msgspec.json.encode(doc))))
    assert game.export_position(game.load_position(doc)) == doc


def test_position_with_a_duplicated_card_is_refused(game: BrassPittsburgh) -> None:
    doc = game.export_position(new_state(game, 3))
    hand = doc["state"]["hands"][0]
    hand[0] = next(c for c in doc["state"]["deck"] if c != hand[0])  # one more of that card
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "cards_not_conserved"


def test_position_for_other_data_is_refused(game: BrassPittsburgh) -> None:
    doc = game.export_position(new_state(game, 3))
    doc["data_version"] = "1.0.0"
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "data_version_mismatch"


def test_position_with_an_unknown_card_is_refused(game: BrassPittsburgh) -> None:
    doc = game.export_position(new_state(game, 2))
    doc["state"]["deck"][0] = "atlantis"
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "unknown_card"


def test_position_with_a_merchant_tile_twice_is_refused(game: BrassPittsburgh) -> None:
    doc = game.export_position(new_state(game, 4))
    doc["state"]["merchant_tile"][1] = doc["state"]["merchant_tile"][0]
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "duplicate_tile"


def test_position_with_missing_seat_data_is_refused(game: BrassPittsburgh) -> None:
    doc = game.export_position(new_state(game, 4))
    doc["state"]["money"].pop()
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "bad_seats"


def test_drawn_cards_are_shown_sorted_so_the_deck_order_stays_hidden(
    game: BrassPittsburgh,
) -> None:
    names = game.rules.card_names
    seen = game.redact(Drew(1, [names.index("warren"), names.index("altoona")]), 1)
    assert seen["cards"] == ["location:altoona", "location:warren"]
    assert game.redact(Drew(1, [0, 1]), 0)["cards"] is None


def test_position_with_an_unknown_pending_decision_is_refused(game: BrassPittsburgh) -> None:
    doc = game.export_position(new_state(game, 2))
    doc["state"]["pending"] = [["teleport", 1, -1, -1]]
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "bad_pending"


def test_board_side_option_lists_exactly_the_sides_of_the_data(game: BrassPittsburgh) -> None:
    assert set(typing.get_args(BoardSide)) == set(game.rules.data.sides)


def test_an_unknown_board_side_is_refused_by_option_validation(service: Any) -> None:
    with pytest.raises(BadRequest) as info:
        service.create_match("brass-pittsburgh", 2, options={"board_side": "moon"})
    assert info.value.code == "bad_options"
    assert "board_side" in info.value.message


def test_options_schema_lists_the_board_sides() -> None:
    schema = msgspec.json.schema(Options)
    side = schema["$defs"]["Options"]["properties"]["board_side"]
    assert {"enum": ["main", "two_player"]} in side["anyOf"]
