"""The "Positions" section of Brass: Pittsburgh's CLIENTS.md: its examples load and play,
its defaults hold, and places, mats and cards may be written by name."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest

from core.errors import InvalidPosition
from core.service import MatchService
from plugins.brass_pittsburgh.game import BrassPittsburgh
from tests.guide_examples import position_examples

GAME = BrassPittsburgh()
GUIDE = Path(__file__).parents[1] / "plugins" / "brass_pittsburgh" / "CLIENTS.md"


POSITIONS, MOVES = position_examples(GUIDE)


def load(doc: dict[str, Any]) -> Any:
    return GAME.load_position(copy.deepcopy(doc))


def exported(doc: dict[str, Any]) -> dict[str, Any]:
    return GAME.export_position(load(doc))


def test_the_section_has_a_position_and_moves() -> None:
    assert POSITIONS and len(MOVES) >= 2


@pytest.mark.parametrize("doc", POSITIONS)
@pytest.mark.parametrize("index", range(len(MOVES)))
def test_documented_position_plays_each_documented_move(doc: dict[str, Any], index: int) -> None:
    state = load(doc)
    legal = [msgspec.to_builtins(m) for m in GAME.legal_moves(state, state.current)]
    assert MOVES[index] in legal
    move = msgspec.convert(MOVES[index], GAME.Move)
    assert GAME.decide(state, state.current, move, Random(0))


@pytest.mark.parametrize("doc", POSITIONS)
def test_a_match_starts_from_the_documented_position(
    svc: MatchService, doc: dict[str, Any]
) -> None:
    match = svc.create_match(GAME.id, doc["state"]["players"], position=copy.deepcopy(doc))
    seat = match.game_state.current
    token = svc.claim_seat(match.match_id, seat)
    match = svc.load(match.match_id)
    legal = [msgspec.to_builtins(m) for m in svc.legal_moves(match, seat)]
    move = next(m for m in MOVES if m in legal)
    svc.submit(match.match_id, token, msgspec.json.encode(move), match.version)
    assert svc.load(match.match_id).version > match.version


def test_the_exported_document_of_the_example_loads_back_unchanged() -> None:
    doc = exported(POSITIONS[0])
    assert exported(doc) == doc


def test_places_written_by_name_land_on_the_board_order_index() -> None:
    state = load(POSITIONS[0])
    board = GAME.rules.board_of(state.side)
    slot = board.slot_name.index("connellsville:0")
    assert (state.slot_owner[slot], state.slot_tile[slot], state.slot_cubes[slot]) == (1, "CK", 4)
    assert [i for i, o in enumerate(state.slot_owner) if o >= 0] == [slot]
    line = [ln.id for ln in board.lines].index("allegheny~butler")
    assert (state.line_owner[line], state.line_link[line]) == (0, "LT")


def test_a_mat_written_by_name_keeps_unnamed_stacks_full() -> None:
    state = load(POSITIONS[0])
    full = GAME.rules.mat.initial()
    ck = [t.id for t in GAME.rules.mat.tiles].index("CK")
    assert state.mat[0] == full
    assert state.mat[1] == [*full[:ck], 0, *full[ck + 1 :]]


def test_an_unknown_place_name_is_refused_with_its_own_code() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["state"]["slot_owner"] = {"atlantis:0": 1}
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert err.value.code == "unknown_space"


def test_cards_load_by_hand_name_and_by_the_bare_name_of_the_first_release() -> None:
    doc = exported(POSITIONS[0])
    assert doc["state"]["hands"][0][0].startswith("industry:")
    bare = copy.deepcopy(doc)
    for key in ("hands", "discards", "facedown"):
        bare["state"][key] = [[c.split(":")[1] for c in cards] for cards in doc["state"][key]]
    bare["state"]["deck"] = [c.split(":")[1] for c in doc["state"]["deck"]]
    assert exported(bare) == doc


def test_a_card_named_with_the_wrong_kind_is_refused() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["state"]["hands"][0][0] = "location:coal"
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert err.value.code == "unknown_card"


def test_omitted_deck_holds_every_card_held_nowhere_else() -> None:
    state = load(POSITIONS[0])
    held = Counter(state.deck)
    for seat in range(state.players):
        held.update(state.hands[seat] + state.discards[seat] + state.facedown[seat])
    copies = GAME.rules.deck_copies(state.side, state.players)
    assert held == Counter({k: c for k, c in enumerate(copies) if c})
    assert state.deck == sorted(state.deck)


def test_omitted_deck_cannot_hide_a_card_held_once_too_often() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["state"]["hands"][1].append("location:erie")  # the 2-player deck has one
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert err.value.code == "cards_not_conserved"


# fields of `state` left out together, with the defaults CLIENTS.md documents for them
DEFAULTS: list[dict[str, Any]] = [
    {"era": 0},
    {"round": 1},
    {"turn": 0},
    {"phase": "play"},
    {"actions_left": 1},
    {"money": [30, 30]},
    {"income": [10, 10]},
    {"spent": [0, 0]},
    {"vp": [0, 0]},
    {"whiskey": [0, 0]},
    {"discards": [[], []]},
    {"facedown": [[], []]},
    {"light_trains": [9, 9]},
    # seat 1 has built its Coke works (mat space CK is empty): the coke train is unlocked
    {
        "link_supply": [
            ["HT_WHISKEY", "HT_DOUBLE", "PL_MONEY1", "PL_RESERVE"],
            ["HT_COKE", "HT_WHISKEY", "HT_DOUBLE", "PL_MONEY1", "PL_RESERVE"],
        ]
    },
    {"mat": [{}, {}]},
    {"slot_owner": {}, "slot_tile": {}, "slot_cubes": {}, "slot_flipped": {}},
    {"line_owner": {}, "line_link": {}, "line_cargo": {}},
    {"route_owner": {}, "route_pipeline": {}},
    {"oil": {}, "oil_pending": {}, "oilfield_revealed": {}},
    {"oil_city_owner": {}, "oil_city_flipped": {}},
    {"market_cubes": {}},
    {"pending": []},
    {"deciding": -1},
    {"wild_supply": []},
]


@pytest.mark.parametrize("defaults", DEFAULTS, ids=lambda v: ",".join(v))
def test_omitted_fields_take_their_documented_defaults(defaults: dict[str, Any]) -> None:
    given, omitted = copy.deepcopy(POSITIONS[0]), copy.deepcopy(POSITIONS[0])
    for field, default in defaults.items():
        given["state"][field] = default
        omitted["state"].pop(field, None)
    assert exported(omitted) == exported(given)


def test_a_link_unlocked_by_a_tile_off_the_mat_is_in_the_supply_by_default() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["state"].pop("link_supply", None)
    assert doc["state"]["mat"][1] == {"CK": 0}, "the guide's seat 1 has built its Coke works"
    assert "HT_COKE" in load(doc).link_supply[1]
    assert "HT_COKE" not in load(doc).link_supply[0]


def test_a_link_in_the_supply_while_its_tile_is_still_on_the_mat_is_refused() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["state"]["link_supply"] = [["HT_COKE", "HT_WHISKEY", "HT_DOUBLE", "PL_MONEY1",
                                    "PL_RESERVE"]] * 2  # fmt: skip
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert err.value.code == "links_not_conserved" and "seat 0" in err.value.message


def test_a_link_unlocked_but_in_no_supply_is_refused() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["state"]["link_supply"] = [["HT_WHISKEY", "HT_DOUBLE", "PL_MONEY1", "PL_RESERVE"]] * 2
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert err.value.code == "links_not_conserved" and "HT_COKE" in err.value.message


def test_merchant_and_quality_faceup_default_to_every_placed_tile_face_up() -> None:
    state = load(POSITIONS[0])
    assert state.merchant_faceup == [bool(t) for t in state.merchant_tile] == [True] * 4
    assert state.quality_faceup == [True] * len(state.quality_rewards)


@pytest.mark.parametrize("field", ["oilfield_tile", "merchant_tile", "quality_rewards"])
def test_the_random_parts_of_setup_are_required(field: str) -> None:
    doc = copy.deepcopy(POSITIONS[0])
    del doc["state"][field]
    with pytest.raises(InvalidPosition) as err:
        load(doc)
    assert err.value.code == "invalid_position"
