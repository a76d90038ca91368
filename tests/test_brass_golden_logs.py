"""Both Brass games still store and show, byte for byte, what a seeded game did when its
golden log was written (``tests/records/golden_logs.py``): the safety net under the family
engine's rebuild (``plugins/brass/ENGINE_PLAN.md``, step 0)."""

from __future__ import annotations

import json

import pytest

from tests.records.golden_logs import TABLES, golden, path_of


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_a_seeded_brass_game_stores_and_shows_what_its_golden_log_holds(
    game_id: str, players: int
) -> None:
    expected = json.loads(path_of(game_id, players).read_text())
    got = json.loads(json.dumps(golden(game_id, players), sort_keys=True))
    for i, (old, new) in enumerate(zip(expected["events"], got["events"], strict=False)):
        assert new == old, f"event {i} differs from the golden log"
    assert len(got["events"]) == len(expected["events"])
    for at, views in expected["views"].items():
        assert got["views"].get(at) == views, f"the views after {at} decisions differ"
    assert got["views"].keys() == expected["views"].keys()
    assert got["position"] == expected["position"]
    assert got["scores"] == expected["scores"] and got["decisions"] == expected["decisions"]
