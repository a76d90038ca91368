"""The committed OpenAPI document tells the truth about what the server serves: every event
of real matches of every game, read through the API by each seat and by a spectator,
validates against its ``payload`` schema (picked by its ``type`` through
``x-ironworks-payload-by-type``), every page against ``EventPage``, and every view against
the game's ``<game>.View`` and ``MatchView``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.cli import OPENAPI_PATH
from api.openapi_doc import PAYLOAD_BY_TYPE
from core.registry import GameRegistry, default_registry
from core.service import MatchService
from core.store.memory import MemoryStore
from worker.inprocess import InlineRunner

jsonschema_rs = pytest.importorskip(
    "jsonschema_rs", reason="jsonschema-rs (the test extra) is not installed"
)

DOCUMENT = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
SCHEMAS = DOCUMENT["components"]["schemas"]
MATCHES = [
    ("brass-birmingham", 2, {}),
    ("brass-birmingham", 4, {}),
    ("brass-pittsburgh", 2, {}),
    ("brass-pittsburgh", 3, {"board_side": "main"}),
    ("age-of-steam", 3, {"map": "rust_belt"}),
    ("age-of-steam", 1, {"map": "barbados"}),
    ("age-of-steam", 2, {"map": "st_lucia"}),
    ("age-of-steam", 5, {"map": "rust_belt"}),
]
_validators: dict[str, Any] = {}


def validator(name: str) -> Any:
    """A validator of component ``name``, its references resolved in the whole document."""
    if name not in _validators:
        schema = {"$ref": f"#/components/schemas/{name}", "components": DOCUMENT["components"]}
        _validators[name] = jsonschema_rs.Draft202012Validator(schema)
    return _validators[name]


def assert_valid(name: str, value: Any, where: str) -> None:
    errors = [f"{e.instance_path}: {e.message}" for e in validator(name).iter_errors(value)]
    assert not errors, f"{where} breaks {name}: {errors[:5]}"


def payload_schema(game: str, event_type: str) -> str:
    union = SCHEMAS["core.AnyLogPayload" if event_type.startswith("core.") else
                   f"{game}.AnyLogPayload"]  # fmt: skip
    assert event_type in union[PAYLOAD_BY_TYPE], f"{event_type} has no payload schema"
    return union[PAYLOAD_BY_TYPE][event_type]["$ref"].rsplit("/", 1)[1]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The installed games, every job run inline in the request."""
    registry: GameRegistry = default_registry()
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    with TestClient(create_app(service)) as test_client:
        yield test_client


def play_out(client: TestClient, game: str, players: int, options: dict[str, Any]) -> tuple:
    """A match of ``game`` played to its end by random bots, each seat claimed first so its
    token reads the seat's own log: (match id, tokens)."""
    body = {"game": game, "players": players, "options": options, "seed": f"{game}{players}"}
    match = client.post("/matches", json=body).json()
    assert "id" in match, match
    tokens = [client.post(f"/matches/{match['id']}/seats/{s}/claim").json()["token"]
              for s in range(players)]  # fmt: skip
    for seat, token in enumerate(tokens):
        handed = client.post(f"/matches/{match['id']}/seats/{seat}/bot", json={"bot": "random"},
                             headers={"authorization": f"Bearer {token}"})  # fmt: skip
        assert handed.is_success, handed.text
    return match["id"], tokens


def log_pages(client: TestClient, match_id: str, headers: dict[str, str]) -> Iterator[dict]:
    after = 0
    while True:
        page = client.get(f"/matches/{match_id}/events?after={after}&limit=500", headers=headers)
        assert page.status_code == 200, page.text
        page = page.json()
        if not page["events"]:
            return
        yield page
        after = page["events"][-1]["version"]


@pytest.mark.parametrize(("game", "players", "options"), MATCHES)
def test_every_served_event_and_view_of_a_whole_match_fits_the_document(
    client: TestClient, game: str, players: int, options: dict[str, Any]
) -> None:
    match_id, tokens = play_out(client, game, players, options)
    final = client.get(f"/matches/{match_id}").json()
    assert final["finished"], "the bots did not finish the match"
    readers = [{}] + [{"authorization": f"Bearer {t}"} for t in tokens]
    seen: set[str] = set()
    for reader, headers in enumerate(readers):
        who = f"seat {reader - 1}" if reader else "a spectator"
        for page in log_pages(client, match_id, headers):
            assert_valid("EventPage", page, f"a page read by {who}")
            for event in page["events"]:
                schema = payload_schema(game, event["type"])
                assert_valid(schema, event["payload"], f"{event['type']} v{event['version']}")
                seen.add(event["type"])
        view = client.get(f"/matches/{match_id}", headers=headers).json()
        assert_valid("MatchView", view, f"the view of {who}")
        assert_valid(f"{game}.View", view["view"], f"the view of {who}")
    # Views along the way, as a replay shows them
    for at in range(1, final["version"] + 1, max(1, final["version"] // 12)):
        old = client.get(f"/matches/{match_id}?at={at}")
        if old.status_code == 404:  # before the game's setup
            continue
        assert_valid(f"{game}.View", old.json()["view"], f"the view at version {at}")
    assert {"core.match_created", "core.seat_claimed", "core.seat_bot"} <= seen


def test_every_event_type_of_every_game_has_its_payload_schema() -> None:
    """Types no bot match happens to reach are still described."""
    registry = default_registry()
    for game in map(registry.get, SCHEMAS["CreateMatch"]["properties"]["game"]["enum"]):
        mapped = set(SCHEMAS[f"{game.id}.AnyLogPayload"][PAYLOAD_BY_TYPE])
        assert mapped == set(game.LogPayloads), game.id
    core = set(SCHEMAS["core.AnyLogPayload"][PAYLOAD_BY_TYPE])
    assert {"core.match_created", "core.seat_claimed", "core.seat_bot"} <= core


def test_the_served_payloads_are_not_the_stored_ones() -> None:
    """The issue's own example: a Birmingham link is served by name, not engine index."""
    link = SCHEMAS[payload_schema("brass-birmingham", "link_placed")]["properties"]["link"]
    assert link["type"] == "string"
    stored = SCHEMAS["brass-birmingham.LinkPlaced"]["properties"]["link"]
    assert stored["type"] == "integer"
