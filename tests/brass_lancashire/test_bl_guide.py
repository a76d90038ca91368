"""The client guide's examples are real: its position loads, its move is legal there."""

from __future__ import annotations

from pathlib import Path

import msgspec
from bl_helpers import GAME

from plugins.brass_lancashire import moves as mv
from tests.guide_examples import position_examples

GUIDE = Path(__file__).resolve().parents[2] / "plugins/brass_lancashire/CLIENTS.md"


def test_the_guides_position_loads_and_its_move_is_listed() -> None:
    docs, moves = position_examples(GUIDE)
    state = GAME.load_position(docs[0])
    for move in moves:
        assert msgspec.convert(move, mv.Move) in GAME.legal_moves(state, 0)
    assert GAME.view(state, 0)["distant_market"]["income"] == 2
