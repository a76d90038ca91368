"""Game details, client guides and position export over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.registry import GameRegistry
from core.service import MatchService

GAMES_WITH_GUIDES = ("brass-birmingham", "brass-pittsburgh", "age-of-steam")


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def _bot_match(client: TestClient[Any], game: str, players: int) -> str:
    match_id = client.post("/matches", json={"game": game, "players": players}).json()["id"]
    for seat in range(players):
        client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
    return match_id


def test_one_game_is_described_like_in_the_list(client: TestClient[Any]) -> None:
    listed = {g["id"]: g for g in client.get("/games").json()}
    for game_id, info in listed.items():
        assert client.get(f"/games/{game_id}").json() == info


def test_an_unknown_game_is_a_404_problem(client: TestClient[Any]) -> None:
    answer = client.get("/games/no-such-game")
    assert answer.status_code == 404
    assert answer.json()["code"] == "unknown_game"


@pytest.mark.parametrize("game_id", GAMES_WITH_GUIDES)
def test_each_game_serves_its_client_guide_as_markdown(
    client: TestClient[Any], game_id: str
) -> None:
    guide = client.get(f"/games/{game_id}").json()["guide"]
    assert guide == f"/games/{game_id}/guide"
    answer = client.get(guide)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/markdown")
    assert answer.text.startswith("# ")


def test_a_game_without_a_guide_says_so(client: TestClient[Any]) -> None:
    assert client.get("/games/highcard").json()["guide"] is None
    answer = client.get("/games/highcard/guide")
    assert answer.status_code == 404
    assert answer.json()["code"] == "no_guide"


def test_a_position_with_hidden_cards_is_refused_while_the_match_runs(
    client: TestClient[Any],
) -> None:
    match_id = client.post("/matches", json={"game": "brass-birmingham", "players": 2}).json()
    answer = client.get(f"/matches/{match_id['id']}/position")
    assert answer.status_code == 403
    assert answer.json()["code"] == "position_hidden"


@pytest.mark.parametrize("game_id", ["brass-birmingham", "brass-pittsburgh", "highcard"])
def test_a_finished_match_exports_a_position_that_starts_a_new_match(
    client: TestClient[Any], registry: GameRegistry, game_id: str
) -> None:
    match_id = _bot_match(client, game_id, 2)
    assert client.get(f"/matches/{match_id}").json()["finished"]
    exported = client.get(f"/matches/{match_id}/position").json()
    assert exported["version"] == client.get(f"/matches/{match_id}").json()["version"]
    game = registry.get(game_id)
    assert game.export_position(game.load_position(exported["position"])) == exported["position"]
    again = client.post(
        "/matches", json={"game": game_id, "players": 2, "position": exported["position"]}
    )
    assert again.status_code == 201, again.json()
    assert client.get(f"/matches/{again.json()['id']}").json()["finished"]


def test_a_game_without_hidden_information_exports_its_position_mid_match(
    client: TestClient[Any],
) -> None:
    match_id = client.post("/matches", json={"game": "age-of-steam", "players": 3}).json()["id"]
    answer = client.get(f"/matches/{match_id}/position")
    assert answer.status_code == 200
    restarted = client.post(
        "/matches",
        json={"game": "age-of-steam", "players": 3, "position": answer.json()["position"]},
    )
    assert restarted.status_code == 201, restarted.json()
    assert (
        client.get(f"/matches/{restarted.json()['id']}").json()["view"]["players"]
        == client.get(f"/matches/{match_id}").json()["view"]["players"]
    )


@pytest.mark.parametrize(
    ("game_id", "players", "options", "field", "value"),
    [
        ("age-of-steam", 2, {"map": "st_lucia"}, "map", "st_lucia"),
        ("brass-pittsburgh", 2, {"board_side": "main"}, "board_side", "main"),
    ],
)
def test_a_match_from_a_position_records_the_positions_options(
    client: TestClient[Any],
    game_id: str,
    players: int,
    options: dict[str, Any],
    field: str,
    value: str,
) -> None:
    first = client.post("/matches", json={"game": game_id, "players": players, "options": options})
    for seat in range(players):
        client.post(f"/matches/{first.json()['id']}/seats/{seat}/bot", json={"bot": "random"})
    position = client.get(f"/matches/{first.json()['id']}/position").json()["position"]
    again = client.post(
        "/matches", json={"game": game_id, "players": players, "position": position}
    )
    created = client.get(f"/matches/{again.json()['id']}/events", params={"limit": 1}).json()
    assert created["events"][0]["payload"]["options"][field] == value


def test_the_exported_position_starts_a_match_as_it_is(client: TestClient[Any]) -> None:
    """What ``GET /matches/{id}/position`` gives goes back as ``position`` unchanged."""
    match_id = _bot_match(client, "brass-birmingham", 2)
    exported = client.get(f"/matches/{match_id}/position").json()
    again = client.post(
        "/matches", json={"game": "brass-birmingham", "players": 2, "position": exported}
    )
    assert again.status_code == 201, again.json()
    assert client.get(f"/matches/{again.json()['id']}").json()["finished"]


def test_an_exported_position_of_another_game_is_refused(client: TestClient[Any]) -> None:
    match_id = _bot_match(client, "brass-birmingham", 2)
    exported = client.get(f"/matches/{match_id}/position").json()
    again = client.post(
        "/matches", json={"game": "brass-pittsburgh", "players": 2, "position": exported}
    )
    assert again.status_code == 422 and again.json()["code"] == "position_of_another_game"
