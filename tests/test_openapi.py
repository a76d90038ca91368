"""The committed OpenAPI document: valid, complete for every game, never stale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from litestar.testing import TestClient

from api.app import DOCS_PATH, create_app
from api.cli import OPENAPI_PATH
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
