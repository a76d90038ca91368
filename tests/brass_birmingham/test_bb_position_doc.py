"""The "Positions" section of CLIENTS.md: its examples load and play, its defaults hold."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from bb_helpers import GAME, D

from core.errors import InvalidPosition
from core.service import MatchService
from plugins.brass_birmingham.data import INDUSTRIES
from tests.guide_examples import given_and_omitted, position_examples

GUIDE = Path(__file__).parents[2] / "plugins" / "brass_birmingham" / "CLIENTS.md"


POSITIONS, MOVES = position_examples(GUIDE)


def to_act(state: Any) -> int:
    return state.order[state.turn]


def test_the_section_has_a_position_and_a_move() -> None:
    assert POSITIONS and MOVES


@pytest.mark.parametrize("doc", POSITIONS)
def test_documented_position_loads_and_plays_a_documented_move(doc: dict[str, Any]) -> None:
    state = GAME.load_position(copy.deepcopy(doc))
    seat = to_act(state)
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
    seat = to_act(match.game_state)
    token = svc.claim_seat(match.match_id, seat)
    match = svc.load(match.match_id)
    legal = [msgspec.to_builtins(m) for m in svc.legal_moves(match, seat)]
    move = next(m for m in MOVES if m in legal)
    svc.submit(match.match_id, token, msgspec.json.encode(move), match.version)
    assert svc.load(match.match_id).version > match.version


def test_an_exported_document_of_the_example_loads_back_unchanged() -> None:
    state = GAME.load_position(copy.deepcopy(POSITIONS[0]))
    exported = GAME.export_position(state)
    assert exported["deck"], "the exporter writes the deck out"
    assert GAME.load_position(exported) == state


def test_omitted_deck_holds_every_card_held_nowhere_else() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    assert "deck" not in doc
    state = GAME.load_position(doc)
    held = Counter(state.deck)
    for seat in range(state.players):
        held.update(state.hands[seat] + state.discards[seat] + state.facedown[seat])
    wild = (D.cards.wild_location, D.cards.wild_industry)
    regular = Counter({k: c for k, c in held.items() if k not in wild})
    assert regular == Counter({k: c for k, c in enumerate(D.deck_copies[2]) if c})
    assert state.deck == sorted(state.deck)


def test_omitted_deck_cannot_hide_a_card_held_twice_too_many() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["seats"][1]["hand"] += ["location:walsall"]  # the 2-player deck has one
    with pytest.raises(InvalidPosition) as err:
        GAME.load_position(doc)
    assert err.value.code == "cards_not_conserved"


# (path to the field, the default CLIENTS.md documents for it)
DEFAULTS: list[tuple[tuple[Any, ...], Any]] = [
    (("format",), "brass-birmingham/1"),
    (("era",), "canal"),
    (("round",), 1),
    (("phase",), "play"),
    (("turn",), 0),
    (("actions_left",), 2),
    (("wild_supply",), {"location": 3, "industry": 4}),
    (("tiles",), []),
    (("links",), []),
    (("pending",), []),
    (("deciding",), -1),
    (("seats", 0, "spent"), 0),
    (("seats", 0, "vp"), 0),
    (("seats", 1, "hand"), []),
    (("seats", 1, "discards"), []),
    (("seats", 0, "facedown"), []),
    (("seats", 1, "mat"), {"cotton": 4, "coal": 2}),
    (("tiles", 3, "cubes"), 0),
    (("tiles", 0, "flipped"), False),
    (("merchants", 0, "beer"), 0),
]


@pytest.mark.parametrize(("path", "default"), DEFAULTS, ids=lambda v: str(v))
def test_an_omitted_field_takes_its_documented_default(path: tuple[Any, ...], default: Any) -> None:
    given, omitted = given_and_omitted(POSITIONS[0], path, default)
    assert GAME.load_position(omitted) == GAME.load_position(given)


def test_an_industry_left_out_of_the_mat_counts_the_tiles_its_board_tiles_need() -> None:
    state = GAME.load_position(copy.deepcopy(POSITIONS[0]))
    mat = dict(zip(INDUSTRIES, state.mat[0], strict=True))
    # Coal II, Iron II and Brewery II on the board; one Pottery I developed away
    assert mat == {"cotton": 0, "manufacturer": 0, "pottery": 1, "coal": 2, "iron": 2,
                   "brewery": 3}  # fmt: skip


def test_an_exported_mat_count_above_the_fewest_is_kept() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc["seats"][1]["mat"] = {"coal": 3}  # one more coal tile developed away
    assert GAME.load_position(doc).mat[1][INDUSTRIES.index("coal")] == 3


def test_actions_left_defaults_to_one_in_the_first_canal_round() -> None:
    doc = copy.deepcopy(POSITIONS[0])
    doc.update(era="canal", round=1)
    doc.pop("actions_left", None)
    assert GAME.load_position(doc).actions_left == 1
