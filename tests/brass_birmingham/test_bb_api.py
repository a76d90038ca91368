"""Brass: Birmingham through the REST API and the worker: a full 4-player bot match,
a seat's own move, secrecy of hands, a refused move as a problem document."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.service import MatchService


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def new_match(client: TestClient[Any], players: int) -> str:
    response = client.post("/matches", json={"game": "brass-birmingham", "players": players,
                                             "seed": "bb-api"})  # fmt: skip
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_full_four_player_match_of_random_bots_over_http_and_the_worker(
    client: TestClient[Any],
) -> None:
    match_id = new_match(client, 4)
    for seat in range(4):
        response = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
        assert response.status_code == 200, response.text
    state = client.get(f"/matches/{match_id}").json()
    assert state["finished"], "the inline worker plays every bot move and era scoring"
    result = state["result"]
    assert sorted(result["ranking"])[0] == 1 and len(result["scores"]) == 4
    events: list[dict[str, Any]] = []
    while page := client.get(
        f"/matches/{match_id}/events", params={"after": len(events), "limit": 500}
    ).json()["events"]:
        events += page  # fmt: skip
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(versions) + 1))  # gapless
    types = [e["type"] for e in events]
    assert types.count("era_scored") == 2 and types[-1] == "game_ended"


def test_a_seat_plays_its_move_and_sees_only_its_own_hand(client: TestClient[Any]) -> None:
    match_id = new_match(client, 2)
    tokens = [client.post(f"/matches/{match_id}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    body = client.get(f"/matches/{match_id}").json()
    seat = body["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    mine = client.get(f"/matches/{match_id}", headers=auth).json()["view"]
    assert len(mine["hand"]) == 8 and body["view"]["hand"] is None
    moves = client.get(f"/matches/{match_id}/moves", headers=auth).json()
    passing = next(m for m in moves["moves"] if m["type"] == "pass")
    response = client.post(
        f"/matches/{match_id}/moves",
        headers=auth,
        json={"move": passing, "expected_version": moves["version"]},
    )
    assert response.status_code == 200, response.text
    other = {"Authorization": f"Bearer {tokens[1 - seat]}"}
    for event in client.get(f"/matches/{match_id}/events", headers=other).json()["events"]:
        payload = event["payload"]
        if event["type"] == "started":
            assert payload["hand"] is not None and "deck" not in payload
        if event["type"] == "drew" and payload["seat"] == seat:
            assert payload["cards"] is None


def test_an_unlisted_move_is_a_problem_naming_the_rule(client: TestClient[Any]) -> None:
    match_id = new_match(client, 2)
    tokens = [client.post(f"/matches/{match_id}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    body = client.get(f"/matches/{match_id}").json()
    seat = body["to_act"][0]
    response = client.post(
        f"/matches/{match_id}/moves",
        headers={"Authorization": f"Bearer {tokens[seat]}"},
        json={"move": {"type": "network", "link": "tamworth~walsall"},  # rail only
              "expected_version": body["version"]},
    )  # fmt: skip
    assert response.status_code == 422 and response.json()["code"] == "link_wrong_era"
    response = client.post(
        f"/matches/{match_id}/moves",
        headers={"Authorization": f"Bearer {tokens[1 - seat]}"},
        json={"move": {"type": "pass"}, "expected_version": body["version"]},
    )
    assert response.status_code == 422 and response.json()["code"] == "not_your_turn"


def test_games_lists_the_board_by_name_and_moves_come_back_named(client: TestClient[Any]) -> None:
    games = {g["id"]: g for g in client.get("/games").json()}
    meta = games["brass-birmingham"]["metadata"]
    assert meta["clients"].endswith("CLIENTS.md")
    spaces = {sp["space"] for sp in meta["board"]["spaces"]}
    match_id = new_match(client, 2)
    tokens = [client.post(f"/matches/{match_id}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    view = client.get(f"/matches/{match_id}", headers=auth).json()["view"]
    listed = client.get(f"/matches/{match_id}/moves", headers=auth).json()
    builds = [m for m in listed["moves"] if m["type"] == "build"]
    assert builds and all(m["space"] in spaces and m["card"] in view["hand"] for m in builds)
    response = client.post(
        f"/matches/{match_id}/moves",
        headers=auth,
        json={"move": {**builds[0], "space": "nowhere:0"}, "expected_version": listed["version"]},
    )
    assert response.status_code == 422 and response.json()["code"] == "unknown_space"
