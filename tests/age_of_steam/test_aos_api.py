"""A full 4-player Rust Belt match through the REST API: two seats played over HTTP by a
random client, two by the service's bots on the worker runner; system steps run as tasks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.service import MatchService


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def test_four_player_rust_belt_match_over_http_and_bots_reaches_a_ranking(client):
    rng = random.Random(11)
    response = client.post(
        "/matches", json={"game": "age-of-steam", "players": 4, "seed": "aos-api"}
    )
    assert response.status_code == 201, response.text
    match_id = response.json()["id"]
    tokens = {}
    for seat in (0, 1):
        claimed = client.post(f"/matches/{match_id}/seats/{seat}/claim")
        assert claimed.status_code == 201, claimed.text
        tokens[seat] = claimed.json()["token"]
    for seat in (2, 3):
        botted = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
        assert botted.status_code == 200, botted.text
    for _ in range(3000):
        state = client.get(f"/matches/{match_id}").json()
        if state["finished"]:
            break
        (seat,) = state["to_act"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        moves = client.get(f"/matches/{match_id}/moves", headers=auth).json()
        move = rng.choice(moves["moves"])
        posted = client.post(
            f"/matches/{match_id}/moves",
            json={"move": move, "expected_version": moves["version"]},
            headers=auth,
        )
        assert posted.status_code == 200, posted.text
    else:
        pytest.fail("the match did not end")
    ranking = state["result"]["ranking"]
    assert len(ranking) == 4 and min(ranking) == 1
    events = client.get(f"/matches/{match_id}/events").json()["events"]
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(versions) + 1))
    types = {e["type"] for e in events}
    assert {"started", "shares_issued", "income_collected", "goods_grown"} <= types


def test_illegal_age_of_steam_move_is_a_problem_naming_the_rule(client):
    match_id = client.post(
        "/matches", json={"game": "age-of-steam", "players": 3, "seed": "aos-api-2"}
    ).json()["id"]
    token = client.post(f"/matches/{match_id}/seats/0/claim").json()["token"]
    state = client.get(f"/matches/{match_id}").json()
    response = client.post(
        f"/matches/{match_id}/moves",
        json={"move": {"type": "issue_shares", "count": 99}, "expected_version": state["version"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 422
    assert response.json()["code"] in ("share_limit", "not_your_turn")


def test_greedy_bots_finish_a_match_whose_http_log_reads_in_the_documented_form(client):
    from plugins.age_of_steam.log import FORMS

    match_id = client.post(
        "/matches", json={"game": "age-of-steam", "players": 3, "seed": "aos-log"}
    ).json()["id"]
    for seat in range(3):
        botted = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "greedy"})
        assert botted.status_code == 200, botted.text
    assert client.get(f"/matches/{match_id}").json()["finished"]
    events: list[dict[str, Any]] = []
    while page := client.get(
        f"/matches/{match_id}/events", params={"after": len(events), "limit": 500}
    ).json()["events"]:
        events += page
    game_events = [e for e in events if e["type"] in FORMS]
    assert game_events[-1]["payload"]["game_over"] is True
    for e in game_events:
        payload = e["payload"]
        assert msgspec.to_builtins(msgspec.convert(payload, FORMS[e["type"]])) == payload
