"""A Brass state's ``clone`` (a move's and the search bots' hot path) is a shallow copy with
every list and dict copied anew: a field it forgets would be shared by the two states, and
changing one would change the other."""

from __future__ import annotations

from random import Random
from typing import Any

import msgspec
import pytest

from core.playout import playout
from core.registry import default_registry

BRASS = ["brass-birmingham", "brass-lancashire", "brass-pittsburgh"]


def _states(game: Any) -> list[Any]:
    states: list[Any] = []
    playout(game, game.Options(), 3, Random(5), observe=states.append)
    return states[:: max(1, len(states) // 8)]


def _shared(a: Any, b: Any, where: str) -> list[str]:
    """Where ``a`` and ``b`` (equal values) share a list or a dict, nested ones too."""
    if isinstance(a, list | dict):
        if a is b:
            return [where]
        items = zip(*((a.values(), b.values()) if isinstance(a, dict) else (a, b)), strict=True)
        return [found for x, y in items for found in _shared(x, y, f"{where}[…]")]
    return []


@pytest.mark.parametrize("game_id", BRASS)
def test_a_clone_equals_its_state_and_shares_no_list_or_dict_with_it(game_id: str) -> None:
    game = default_registry().get(game_id)
    for state in _states(game):
        copy = game.clone(state)
        assert type(copy) is type(state) and copy == state
        shared = [
            found
            for name in state.__struct_fields__
            for found in _shared(getattr(state, name), getattr(copy, name), name)
        ]
        assert shared == [], f"{game_id}: the clone shares {shared}"
        assert msgspec.structs.asdict(copy) == msgspec.structs.asdict(state)
