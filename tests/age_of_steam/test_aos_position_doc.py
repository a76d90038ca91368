"""The "Positions" section of CLIENTS.md: its examples load and play, its defaults hold,
and track may be written as a build move names it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import msgspec
import pytest
from aos_helpers import GAME

from core.errors import InvalidPosition
from core.service import MatchService
from plugins.age_of_steam import flow
from plugins.age_of_steam.data import board
from tests.guide_examples import given_and_omitted, position_examples

GUIDE = Path(__file__).parents[2] / "plugins" / "age_of_steam" / "CLIENTS.md"


POSITIONS, MOVES = position_examples(GUIDE)


def exported(doc: dict[str, Any]) -> dict[str, Any]:
    return GAME.export_position(GAME.load_position(copy.deepcopy(doc)))


def test_the_section_has_a_position_and_a_move() -> None:
    assert POSITIONS and MOVES


@pytest.mark.parametrize("doc", POSITIONS)
def test_documented_position_loads_and_plays_a_documented_move(doc: dict[str, Any]) -> None:
    state = GAME.load_position(copy.deepcopy(doc))
    seat = flow.to_act(state)
    assert seat is not None
    legal = [msgspec.to_builtins(m) for m in GAME.legal_moves(state, seat)]
    playable = [m for m in MOVES if m in legal]
    assert playable, "no documented move is legal in the documented position"
    move = msgspec.convert(playable[0], GAME.Move)
    assert GAME.decide(state, seat, move, None)


@pytest.mark.parametrize("doc", POSITIONS)
def test_a_match_starts_from_the_documented_position(
    svc: MatchService, doc: dict[str, Any]
) -> None:
    match = svc.create_match(GAME.id, doc["players"], position=copy.deepcopy(doc))
    seat = flow.to_act(match.game_state)
    assert seat is not None
    token = svc.claim_seat(match.match_id, seat)
    match = svc.load(match.match_id)
    legal = [msgspec.to_builtins(m) for m in svc.legal_moves(match, seat)]
    move = next(m for m in MOVES if m in legal)
    svc.submit(match.match_id, token, msgspec.json.encode(move), match.version)
    assert svc.load(match.match_id).version > match.version


def test_the_exported_document_of_the_example_loads_back_unchanged() -> None:
    doc = exported(POSITIONS[0])
    assert exported(doc) == doc


def test_track_in_move_form_loads_as_the_exported_sections() -> None:
    doc = exported(POSITIONS[0])
    assert doc["track"]["7,4"] == {"tile": "straight", "sections": [[0, 3, 0, 1]]}
    assert doc["track"]["7,3"] == {"tile": "town_1", "sections": [[3, 6, 0, 1]]}
    assert doc["track"]["9,8"] == {"tile": "gentle", "sections": [[1, 3, 1, 1]]}


def test_track_laid_defaults_to_the_positions_turn() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    del doc["track"]["7,4"]["laid"]
    assert exported(doc)["track"]["7,4"]["sections"] == [[0, 3, 0, doc["turn"]]]


@pytest.mark.parametrize(
    ("track", "fragment"),
    [
        ({"tile": "straight", "rotation": 3, "owner": 0}, "takes rotations"),
        ({"tile": "straight", "owner": 0}, "rotation and an owner"),
        ({"tile": "straight", "rotation": 0, "owner": 0, "sections": [[0, 3, 0, 1]]}, "not both"),
    ],
)
def test_track_in_move_form_is_refused_when_incomplete_or_not_canonical(
    track: dict[str, Any], fragment: str
) -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["track"]["7,4"] = track
    with pytest.raises(InvalidPosition) as err:
        GAME.load_position(doc)
    assert err.value.code == "invalid_position"
    assert fragment in err.value.message


def test_omitted_bag_holds_every_cube_not_placed() -> None:
    doc = exported(POSITIONS[0])
    spec = board(doc["map"]).spec
    placed = [c for cubes in (*doc["goods"].values(), *doc["display"].values()) for c in cubes]
    assert {c: doc["bag"][c] + placed.count(c) for c in spec.bag} == dict(spec.bag)


def test_omitted_tiles_are_the_box_minus_the_map() -> None:
    doc = exported(POSITIONS[0])
    on_map = [t["tile"] for t in doc["track"].values()]
    box = {t.name: t.count for t in board(doc["map"]).components.tiles}
    assert doc["tiles"] == {name: n - on_map.count(name) for name, n in box.items()}


# (path to the field, the default CLIENTS.md documents for it)
DEFAULTS: list[tuple[tuple[Any, ...], Any]] = [
    (("format",), "age-of-steam-position/1"),
    (("options",), {"map": "rust_belt"}),
    (("last_turn",), 10),
    (("move_round",), 0),
    (("urbanize_open",), False),
    (("auction",), None),
    (("actions",), {}),
    (("first_holder",), 0),
    (("turn_order_seat",), None),
    (("cycle_used",), []),
    (("engine_raised",), []),
    (("production",), []),
    (("production_drawn",), False),
    (("new_cities",), {}),
    (("goods",), {}),
    (("final_scores",), None),
    (("display",), {"light-1": [], "A": []}),
    (("players_state", 2, "built"), False),
    (("players_state", 0, "eliminated"), False),
    (("players_state", 0, "out_turn"), 0),
    (("players_state", 1, "money"), 10),
    (("players_state", 1, "shares"), 2),
    (("players_state", 1, "income"), 0),
    (("players_state", 1, "engine"), 1),
]


@pytest.mark.parametrize(("path", "default"), DEFAULTS, ids=lambda v: str(v))
def test_an_omitted_field_takes_its_documented_default(path: tuple[Any, ...], default: Any) -> None:
    given, omitted = given_and_omitted(POSITIONS[0], path, default)
    assert exported(omitted) == exported(given)


def test_omitted_bag_and_tiles_equal_the_exported_counts() -> None:
    full = exported(POSITIONS[0])
    doc = copy.deepcopy(full)
    del doc["bag"], doc["tiles"]
    assert exported(doc) == full
