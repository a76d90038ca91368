"""Brass: Pittsburgh over HTTP: a full 4-player match of random bots run by the worker, and
what a seat and a spectator see of it.

The game is registered here directly (not through its entry point), so these tests run
whether or not the plugin offers it yet.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.hooks import hookimpl
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from plugins.brass_pittsburgh.game import BrassPittsburgh
from worker.inprocess import InlineRunner


class _Plugin:
    @hookimpl
    def ironworks_games(self) -> list[Any]:
        return [BrassPittsburgh()]


@pytest.fixture
def client() -> Iterator[TestClient[Any]]:
    registry = GameRegistry()
    registry.register(_Plugin(), name="brass-pittsburgh-under-test")
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner, snapshot_every=25)
    runner.bind(service)
    with TestClient(create_app(service)) as test_client:
        yield test_client


def new_match(client: TestClient[Any], players: int) -> str:
    response = client.post(
        "/matches", json={"game": "brass-pittsburgh", "players": players, "seed": "bp-1"}
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_games_list_marks_the_data_provisional(client: TestClient[Any]) -> None:
    games = {g["id"]: g for g in client.get("/games").json()}
    meta = games["brass-pittsburgh"]["metadata"]
    assert meta["provisional"] is True and meta["data_version"] == "0.1.0-provisional"


def test_four_random_bots_play_a_full_match_through_the_worker(client: TestClient[Any]) -> None:
    match_id = new_match(client, 4)
    for seat in range(4):
        response = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
        assert response.status_code == 200, response.text
    state = client.get(f"/matches/{match_id}").json()
    assert state["finished"], "the bots did not finish the match"
    assert sorted(state["result"]["ranking"])[0] == 1
    events: list[dict[str, Any]] = []
    while page := client.get(
        f"/matches/{match_id}/events", params={"after": len(events), "limit": 500}
    ).json()["events"]:
        events += page
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(versions) + 1))
    types = [e["type"] for e in events]
    assert types.count("era_scored") == 2 and types[-1] == "game_ended"


def test_seat_sees_its_own_hand_and_spectator_none(client: TestClient[Any]) -> None:
    match_id = new_match(client, 3)
    token = client.post(f"/matches/{match_id}/seats/1/claim").json()["token"]
    mine = client.get(f"/matches/{match_id}", headers={"Authorization": f"Bearer {token}"})
    view = mine.json()["view"]
    assert len(view["hand"]) == 8
    assert [p["hand_count"] for p in view["players"]] == [8, 8, 8]
    assert "hands" not in view and "deck" not in view
    spectator = client.get(f"/matches/{match_id}").json()["view"]
    assert spectator["hand"] is None
    started = client.get(f"/matches/{match_id}/events").json()["events"][1]["payload"]
    assert started["hand"] is None and "hands" not in started
