"""The lobby (``GET /matches``): filters by game, status and open seats, paged; and every
operation refuses a query parameter it does not take instead of ignoring it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.hooks import hookimpl
from core.registry import GameRegistry
from core.service import MatchService
from plugins.brass_birmingham.game import BrassBirmingham
from tests.test_api import assert_problem, claim_all, new_match, play_one


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def finish(client: TestClient[Any], match_id: str) -> None:
    tokens = claim_all(client, match_id)
    for _ in range(100):
        if client.get(f"/matches/{match_id}").json()["finished"]:
            return
        play_one(client, match_id, tokens)
    pytest.fail("the match did not end")


@pytest.fixture
def lobby(client: TestClient[Any]) -> dict[str, str]:
    """One highcard match in each status, and an open Brass match."""
    open_match = new_match(client)
    full = new_match(client)
    claim_all(client, full)
    done = new_match(client)
    finish(client, done)
    brass = client.post("/matches", json={"game": "brass-birmingham", "players": 2}).json()["id"]
    return {"open": open_match, "playing": full, "finished": done, "brass": brass}


def listed(client: TestClient[Any], **params: Any) -> list[str]:
    response = client.get("/matches", params=params)
    assert response.status_code == 200, response.text
    page = response.json()
    assert page["total"] >= len(page["items"])
    return [m["id"] for m in page["items"]]


def test_lobby_filters_by_game(client: TestClient[Any], lobby: dict[str, str]) -> None:
    assert listed(client, game="brass-birmingham") == [lobby["brass"]]
    highcard = {lobby["open"], lobby["playing"], lobby["finished"]}
    assert set(listed(client, game="highcard")) == highcard


def test_a_lobby_filter_naming_no_game_is_refused_naming_the_installed_ones(
    client: TestClient[Any], lobby: dict[str, str]
) -> None:
    """``?game=brass-birmingam`` answered an empty lobby (200), which a client takes for
    "nobody is playing": a misspelt filter is refused, as a misspelt parameter is."""
    body = assert_problem(client.get("/matches", params={"game": "brass-birmingam"}), 400,
                          "unknown_game")  # fmt: skip
    assert "'brass-birmingam'" in body["detail"]
    assert "brass-birmingham" in body["detail"] and "highcard" in body["detail"]


def test_the_lobby_still_finds_stored_matches_of_a_game_no_longer_installed(
    service: MatchService, lobby: dict[str, str]
) -> None:
    """A game uninstalled keeps its matches in the store (``unavailable``): its id is no
    misspelling while such a match is stored, so the filter finds them."""
    without_highcard = GameRegistry()
    without_highcard.register(_BrassOnly(), name="brass-only")
    reader = MatchService(service.store, without_highcard)
    with TestClient(create_app(reader)) as client:
        found = client.get("/matches", params={"game": "highcard"}).json()["items"]
        assert {m["id"] for m in found} == {lobby["open"], lobby["playing"], lobby["finished"]}
        assert {m["status"] for m in found} == {"unavailable"}
        both = client.get("/matches", params={"game": "highcard", "status": "open"})
        assert both.status_code == 200 and both.json()["items"] == []


class _BrassOnly:
    @hookimpl
    def ironworks_games(self) -> list[Any]:
        return [BrassBirmingham()]


def test_lobby_filters_by_status(client: TestClient[Any], lobby: dict[str, str]) -> None:
    assert listed(client, status="open") == [lobby["brass"], lobby["open"]]
    assert listed(client, status="playing") == [lobby["playing"]]
    assert listed(client, status="finished") == [lobby["finished"]]
    assert_problem(client.get("/matches", params={"status": "active"}), 400, "invalid_request")


def test_lobby_open_seats_lists_the_matches_a_newcomer_can_join(
    client: TestClient[Any], lobby: dict[str, str]
) -> None:
    assert listed(client, open_seats="true") == [lobby["brass"], lobby["open"]]
    assert listed(client, open_seats="false") == [lobby["finished"], lobby["playing"]]
    assert listed(client, open_seats="true", game="highcard") == [lobby["open"]]


def test_filtered_lobby_pages_through_the_matches_that_pass(
    client: TestClient[Any], lobby: dict[str, str]
) -> None:
    page = client.get("/matches", params={"game": "highcard", "limit": 2}).json()
    assert page["total"] == 3 and page["limit"] == 2
    rest = client.get("/matches", params={"game": "highcard", "offset": 2, "limit": 2}).json()
    assert rest["total"] == 3
    ids = [m["id"] for m in page["items"] + rest["items"]]
    assert ids == [lobby["finished"], lobby["playing"], lobby["open"]]


def test_lobby_items_show_seats_and_status(client: TestClient[Any], lobby: dict[str, str]) -> None:
    items = {m["id"]: m for m in client.get("/matches").json()["items"]}
    assert items[lobby["playing"]]["status"] == "playing"
    assert [s["claimed"] for s in items[lobby["playing"]]["seats"]] == [True, True]
    assert [s["claimed"] for s in items[lobby["open"]]["seats"]] == [False, False]


def test_a_query_parameter_given_twice_is_a_problem_not_half_ignored(
    client: TestClient[Any], lobby: dict[str, str]
) -> None:
    twice = client.get("/matches", params=[("status", "open"), ("status", "finished")])
    body = assert_problem(twice, 400, "repeated_query_parameter")
    assert "status" in body["detail"]
    events = f"/matches/{lobby['open']}/events"
    assert_problem(client.get(events, params=[("after", 1), ("after", 2)]), 400,
                   "repeated_query_parameter")  # fmt: skip


def test_unknown_query_parameter_is_a_problem_never_ignored(
    client: TestClient[Any], lobby: dict[str, str]
) -> None:
    body = assert_problem(
        client.get("/matches", params={"open": "true"}), 400, "unknown_query_parameter"
    )
    assert "open" in body["detail"] and "open_seats" in body["detail"]
    match_id = lobby["open"]
    for path in (f"/matches/{match_id}", f"/matches/{match_id}/events", "/games", "/health"):
        assert_problem(client.get(path, params={"nonsense": "1"}), 400, "unknown_query_parameter")
    assert client.get(f"/matches/{match_id}/events", params={"after": 1}).status_code == 200
    assert client.get("/", params={"v": "2"}).status_code == 200  # the web table is no API
