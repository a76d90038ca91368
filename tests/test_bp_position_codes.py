"""A document that is not a position at all is refused with one code, ``invalid_position``,
in Brass: Pittsburgh as in the other games of the service (semantic impossibilities keep
their own codes)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from core.errors import InvalidPosition
from plugins.age_of_steam.game import AgeOfSteam
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh

GAMES = (BrassBirmingham(), BrassPittsburgh(), AgeOfSteam())
MALFORMED: list[Any] = [
    {},
    [],
    {"format": "chess/1"},
    {"players": "two", "unknown_field": 1},
]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@pytest.mark.parametrize("doc", MALFORMED, ids=["empty", "list", "format", "types"])
def test_malformed_position_document_is_refused_as_invalid_position(game: Any, doc: Any) -> None:
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "invalid_position"
    assert info.value.message


def test_pittsburgh_keeps_specific_codes_for_impossible_positions() -> None:
    game = BrassPittsburgh()
    s = game.evolve(None, game.setup(game.Options(), 2, Random(1))[0])
    doc = game.export_position(s)
    doc["data_version"] = "0"
    with pytest.raises(InvalidPosition) as info:
        game.load_position(doc)
    assert info.value.code == "data_version_mismatch"
