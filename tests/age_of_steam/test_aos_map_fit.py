"""Age of Steam takes 1 to 6 players over its maps, but each map only its own range, and
map-specific options only on their map: a mismatch is refused at match creation with a
clear sentence (HTTP 400), never silently ignored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.errors import BadRequest
from core.service import MatchService
from plugins.age_of_steam.game import AgeOfSteam


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def refusal(service: MatchService, players: int, **options: Any) -> BadRequest:
    with pytest.raises(BadRequest) as info:
        service.create_match("age-of-steam", players, options=options)
    return info.value


def test_too_few_players_for_rust_belt_names_the_maps_that_take_them(service) -> None:
    error = refusal(service, 2)
    assert error.code == "bad_player_count"
    assert error.message == (
        "Rust Belt takes 3 to 6 players, not 2; "
        "choose map barbados for 1 player or st_lucia for 2 players"
    )


def test_a_one_player_map_says_exactly_one_player(service) -> None:
    error = refusal(service, 3, map="barbados")
    assert error.message.startswith("Barbados takes exactly 1 player, not 3;")
    assert "1 to 1" not in error.message


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"barbados_easy": True}, "barbados_easy"),
        ({"st_lucia_turn_order_action": False}, "st_lucia_turn_order_action"),
        ({"st_lucia_first_section_income": 2}, "st_lucia_first_section_income"),
    ],
)
def test_an_option_of_another_map_is_refused_not_ignored(service, options, named) -> None:
    error = refusal(service, 3, **options)
    assert error.code == "bad_options"
    assert named in error.message and "Rust Belt" in error.message


def test_an_option_on_its_own_map_is_accepted(service) -> None:
    match = service.create_match(
        "age-of-steam", 1, options={"map": "barbados", "barbados_easy": True}
    )
    assert match.players == 1


def test_api_answers_an_option_of_another_map_with_a_400_problem(client) -> None:
    response = client.post(
        "/matches",
        json={
            "game": "age-of-steam",
            "players": 2,
            "options": {"map": "st_lucia", "barbados_easy": True},
        },
    )
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "bad_options"
    assert "barbados_easy" in body["detail"]


def test_metadata_gives_each_maps_player_range_and_options() -> None:
    maps = AgeOfSteam.metadata["maps"]
    assert {m: (v["min_players"], v["max_players"]) for m, v in maps.items()} == {
        "rust_belt": (3, 6),
        "barbados": (1, 1),
        "st_lucia": (2, 2),
    }
    assert maps["barbados"]["options"] == ["barbados_easy"]
    assert maps["rust_belt"]["options"] == []
