"""Brass: Pittsburgh through the generic conformance suite (random playouts to the end,
replay, listed moves accepted, unlisted refused, hidden information, positions, seeds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conformance import CHECKS, params_for

from plugins.brass_pittsburgh.game import BrassPittsburgh


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_game_conforms(game: BrassPittsburgh, check: Callable[[Any, Any], None]) -> None:
    check(game, params_for(game))
