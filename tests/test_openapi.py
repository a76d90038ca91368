"""The committed OpenAPI document: valid, complete for every game, never stale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
import msgspec
import pytest
import schemathesis
from litestar.testing import TestClient

from api.app import DOCS_PATH, create_app
from api.cli import OPENAPI_PATH
from api.openapi_doc import build_document
from core.service import MatchService
from core.store.memory import MemoryStore

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def document(registry: Any) -> dict[str, Any]:
    """The document served by an app with highcard installed."""
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as client:
        return client.get(f"{DOCS_PATH}/openapi.json").json()


def test_committed_document_matches_what_the_installed_games_generate() -> None:
    # A fresh interpreter: only the games really installed, not the test-only highcard
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    check = subprocess.run(
        [sys.executable, "-m", "api.cli", "openapi", "--check", "--output", str(OPENAPI_PATH)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert check.returncode == 0, (
        f"{OPENAPI_PATH} differs from the app: run `ironworks openapi`\n{check.stderr[-2000:]}"
    )


def test_committed_document_leaves_out_the_test_only_game() -> None:
    assert "highcard" not in OPENAPI_PATH.read_text(encoding="utf-8")


def test_document_is_valid_openapi_31(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1")
    schemathesis.openapi.from_dict(document).validate()


def test_every_game_move_and_event_is_a_component(document: dict[str, Any], registry: Any) -> None:
    schemas = document["components"]["schemas"]
    for game in registry.games():
        assert f"{game.id}.AnyMove" in schemas and f"{game.id}.AnyEvent" in schemas
    assert set(schemas["highcard.AnyMove"]["discriminator"]["mapping"]) == {"deal", "play"}
    assert schemas["highcard.Play"]["properties"]["card"]["type"] == "integer"
    assert "highcard.Dealt" in schemas and "highcard.RoundWon" in schemas


def test_move_fields_point_at_the_games_move_unions(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    refs = {r["$ref"] for r in schemas["SubmitMove"]["properties"]["move"]["anyOf"]}
    assert "#/components/schemas/highcard.AnyMove" in refs
    assert (
        schemas["LegalMoves"]["properties"]["moves"]["items"]
        == (schemas["SubmitMove"]["properties"]["move"])
    )


def test_every_game_options_struct_is_a_component_of_create_match(
    document: dict[str, Any], registry: Any
) -> None:
    schemas = document["components"]["schemas"]
    options = schemas["CreateMatch"]["properties"]["options"]
    refs = {r.get("$ref") for r in options["anyOf"]}
    for game in registry.games():
        component = schemas[f"{game.id}.Options"]
        assert component["title"] == f"{game.title} options"
        assert "#/components/schemas/" + f"{game.id}.Options" in refs, game.id
    assert {"type": "null"} in options["anyOf"]  # the server takes null for "defaults"
    assert "options" not in schemas["CreateMatch"]["required"]
    assert schemas["highcard.Options"]["properties"]["rounds"]["default"] == 3


def test_options_components_are_closed_like_their_structs(
    document: dict[str, Any], registry: Any
) -> None:
    schemas = document["components"]["schemas"]
    for game in registry.games():
        closed = game.Options.__struct_config__.forbid_unknown_fields
        assert (schemas[f"{game.id}.Options"].get("additionalProperties") is False) == closed


def test_options_of_another_game_are_a_documented_400(
    document: dict[str, Any], registry: Any
) -> None:
    # Valid against the anyOf (brass-pittsburgh's options) yet not highcard's: the anyOf
    # cannot tie options to `game`, so the answer must be a 400 the document lists.
    pittsburgh = document["components"]["schemas"]["brass-pittsburgh.Options"]
    assert "board_side" in pittsburgh["properties"]
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as client:
        response = client.post(
            "/matches",
            json={"game": "highcard", "players": 2, "options": {"board_side": "main"}},
        )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_options"
    responses = document["paths"]["/matches"]["post"]["responses"]
    assert "application/problem+json" in responses["400"]["content"]


class _Speed(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    speed: int = 1


class _Go(msgspec.Struct, tag="go"):
    pass


class _Plain:
    """Just what the document needs of a game whose options struct is not named Options."""

    id, title, min_players = "plain", "Plain", 1
    Options, Move, Event = _Speed, _Go, _Go


class _Undescribable(_Plain):
    id, title = "odd", "Odd"
    Move = complex  # msgspec has no JSON schema for it


class _Registry:
    def __init__(self, *games: Any) -> None:
        self._games = list(games)

    def games(self) -> list[Any]:
        return self._games


def _document_for(registry: Any, *games: Any) -> dict[str, Any]:
    app = create_app(MatchService(MemoryStore(), registry))
    return build_document(app.openapi_schema.to_schema(), _Registry(*games))


def test_options_struct_of_another_name_still_gets_the_options_component(registry: Any) -> None:
    schemas = _document_for(registry, _Plain)["components"]["schemas"]
    assert schemas["plain.Options"] == {"$ref": "#/components/schemas/plain._Speed"}
    assert schemas["plain._Speed"]["title"] == "Plain options"
    options = schemas["CreateMatch"]["properties"]["options"]
    assert {"$ref": "#/components/schemas/plain.Options"} in options["anyOf"]


def test_options_stay_a_free_object_when_a_game_has_no_schemas(registry: Any) -> None:
    # Listing only the describable games would refuse the other game's valid options.
    schemas = _document_for(registry, _Plain, _Undescribable)["components"]["schemas"]
    assert "plain.Options" in schemas and "odd.Options" not in schemas
    assert "$ref" not in str(schemas["CreateMatch"]["properties"]["options"])


def test_request_bodies_are_documented_as_closed(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name in ("CreateMatch", "SubmitMove", "HandToBot"):
        assert schemas[name]["additionalProperties"] is False


def test_every_operation_documents_problem_responses(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            problems = {
                status for status, response in operation["responses"].items()
                if "application/problem+json" in response.get("content", {})
            }  # fmt: skip
            assert {"400", "500"} <= problems, f"{method.upper()} {path}"


def test_interactive_docs_are_served(registry: Any) -> None:
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as client:
        page = client.get(DOCS_PATH)
    assert page.status_code == 200
    assert "swagger" in page.text.lower()
    assert "highcard.AnyMove" in page.text  # the page shows the games' schemas too


def test_every_component_title_is_unique_as_generators_name_classes_after_them(
    document: dict[str, Any],
) -> None:
    titles = [s["title"] for s in document["components"]["schemas"].values() if "title" in s]
    assert len(titles) == len(set(titles))
    assert document["components"]["schemas"]["brass-birmingham.Build"]["title"] == (
        "Brass: Birmingham Build"
    )


def test_no_schema_is_a_boolean_one_which_generators_refuse(document: dict[str, Any]) -> None:
    def booleans(node: Any) -> int:
        if isinstance(node, dict):
            return sum(
                (v is False or v is True) and k in {"items", "additionalItems"}
                for k, v in node.items()
            ) + sum(booleans(v) for v in node.values())
        return sum(booleans(v) for v in node) if isinstance(node, list) else 0

    assert booleans(document) == 0
    goods = document["components"]["schemas"]["age-of-steam.Started"]["properties"]["goods"]
    assert goods["items"]["maxItems"] == len(goods["items"]["prefixItems"]) == 3


def test_no_object_schema_leaves_its_properties_unsaid(document: dict[str, Any]) -> None:
    """openapi-typescript reads a bare ``{"type": "object"}`` as an object with no properties
    (``Record<string, never>``): an Age of Steam view's options and a Pittsburgh merchant's
    rewards, as served, did not fit the generated types."""
    said = ("properties", "additionalProperties", "patternProperties", "$ref", "anyOf", "oneOf")

    def bare(node: Any, path: str) -> list[str]:
        if isinstance(node, list):
            return [p for i, v in enumerate(node) for p in bare(v, f"{path}[{i}]")]
        if not isinstance(node, dict):
            return []
        here = [path] if node.get("type") == "object" and not any(k in node for k in said) else []
        return here + [p for k, v in node.items() for p in bare(v, f"{path}/{k}")]

    committed = msgspec.json.decode(OPENAPI_PATH.read_bytes())
    assert bare(document, "") == [] and bare(committed, "") == []
    view = committed["components"]["schemas"]["age-of-steam.View"]["properties"]["options"]
    assert view == {"type": "object", "additionalProperties": {}}


def test_every_example_match_is_one_the_server_creates(registry: Any) -> None:
    """Age of Steam's example asked for 1 player, its least, which its default map refuses
    (400 ``bad_player_count``): "Try it out" failed as it stood."""
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as client:
        examples = client.get(f"{DOCS_PATH}/openapi.json").json()["components"]["schemas"][
            "CreateMatch"
        ]["examples"]
        assert {e["game"] for e in examples} >= {"age-of-steam", "brass-birmingham"}
        for example in examples:
            response = client.post("/matches", json=example)
            assert response.status_code == 201, (example, response.text)


@pytest.mark.parametrize(
    "choice",
    [
        {"bot": "greedy", "think_ms": 50},
        {"level": "hard"},
        {"bot": "random", "level": None},
        {"bot": "search", "level": "easy", "think_ms": 50},
        {},
    ],
)
def test_a_bot_choice_fits_the_document_exactly_when_the_service_takes_it(
    registry: Any, document: dict[str, Any], choice: dict[str, Any]
) -> None:
    """``{"bot": "greedy", "think_ms": 50}`` fitted ``HandToBot`` and ``BotChoice`` and was
    refused (400 ``bot_has_no_levels``): schemathesis's "schema-valid request rejected"."""
    schemas = document["components"]["schemas"]
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as client:
        for name in ("HandToBot", "BotChoice"):
            schema = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
            fits = jsonschema_rs.Draft202012Validator(schema).is_valid(choice)
            if name == "HandToBot":
                match = client.post("/matches", json={"game": "highcard", "players": 2}).json()
                taken = client.post(f"/matches/{match['id']}/seats/0/bot", json=choice)
            else:
                rules = {"stand_in": choice}
                taken = client.post("/matches", json={"game": "highcard", "players": 2,
                                                      "rules": rules})  # fmt: skip
            assert fits == (taken.status_code < 300), (name, taken.text)


def test_the_lobby_game_filter_names_the_installed_games(
    document: dict[str, Any], registry: Any
) -> None:
    """It read as any string, and an id of no game was a 400 ``unknown_game``: a schema-valid
    request refused (schemathesis ST202)."""
    (game,) = [p for p in document["paths"]["/matches"]["get"]["parameters"]
               if p["name"] == "game"]  # fmt: skip
    assert game["schema"]["enum"] == [g.id for g in registry.games()]
    assert "unknown_game" in game["description"]


def test_every_operation_and_parameter_is_described(document: dict[str, Any]) -> None:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            assert operation.get("summary") and operation.get("description"), where
            assert "callable" not in operation["description"].lower(), where
            for parameter in operation.get("parameters", []):
                assert parameter.get("description"), f"{where} {parameter['name']}"


def test_last_event_id_is_typed_as_the_version_it_carries(document: dict[str, Any]) -> None:
    stream = document["paths"]["/matches/{match_id}/stream"]["get"]
    (header,) = [p for p in stream["parameters"] if p["name"] == "Last-Event-ID"]
    assert header["schema"]["type"] == "integer" and header["schema"]["minimum"] == 0
