"""Each game's ``<game>.View`` schema in the OpenAPI document is what the server shows: the
views of whole played-out games, for every seat and a spectator, and the API's own match
answers, validate against the committed document, with no key the schema does not name."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from random import Random
from typing import Any

import jsonschema_rs
import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.cli import OPENAPI_PATH
from core.playout import playout
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore

GAMES = ("brass-birmingham", "brass-pittsburgh", "age-of-steam")
SAMPLE_EVERY = 7
"""Views of every 7th state (and the last) are checked: enough to see every phase."""


def closed(node: Any) -> Any:
    """``node`` with every object that names its properties refusing any other: a view key
    the schema does not document is a failure, not a pass."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: closed(value) for key, value in node.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    document = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    return closed(copy.deepcopy(document["components"]))


def validator(components: dict[str, Any], name: str) -> Any:
    schema = {"$ref": f"#/components/schemas/{name}", "components": components}
    return jsonschema_rs.Draft202012Validator(schema)


def errors(check: Any, instance: Any) -> list[str]:
    return [f"{e.instance_path}: {e.message}" for e in check.iter_errors(instance)][:5]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_of_a_played_game_fits_the_games_view_schema(
    game_id: str, registry: GameRegistry, components: dict[str, Any]
) -> None:
    game = registry.get(game_id)
    check = validator(components, f"{game_id}.View")
    players = 3  # every game takes three with its default options (Rust Belt: 3 to 6)
    states: list[Any] = []
    final, _ = playout(game, game.Options(), players, Random(11), observe=states.append)
    sampled = [*states[::SAMPLE_EVERY], final]
    for n, state in enumerate(sampled):
        for seat in [None, *range(players)]:
            view = game.view(state, seat)
            assert not errors(check, view), (n, seat, errors(check, view))
    assert game.pending_tasks(final) == [], "the playout reached the end"


@pytest.fixture
def client(registry: GameRegistry) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as test_client:
        yield test_client


@pytest.mark.parametrize("game_id", GAMES)
def test_served_match_answers_fit_the_match_view_schema(
    game_id: str, client: TestClient[Any], components: dict[str, Any]
) -> None:
    check = validator(components, "MatchView")
    created = client.post("/matches", json={"game": game_id, "players": 3}).json()
    token = client.post(f"/matches/{created['id']}/seats/0/claim").json()["token"]
    for headers in ({}, {"Authorization": f"Bearer {token}"}):
        answer = client.get(f"/matches/{created['id']}", headers=headers).json()
        assert not errors(check, answer), errors(check, answer)
    # a view of another game's schema is no fit: the union does not pass anything
    other = next(g for g in GAMES if g != game_id and g.split("-")[0] != game_id.split("-")[0])
    assert errors(validator(components, f"{other}.View"), answer["view"])
