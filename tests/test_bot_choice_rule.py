"""One rule for choosing a bot, wherever it is chosen: a seat's bot and a match's stand-in
over the API, ``ironworks tournament --bots`` and ``ironworks play --bot`` on the command
line. Each refuses the same choices with the same sentence (``core.bots.checked_choice``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.cli import main
from core.service import MatchService
from worker.tournament import parse_entrants


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def _seat_refusal(client: TestClient[Any], body: dict[str, Any]) -> dict[str, Any]:
    match_id = client.post("/matches", json={"game": "highcard", "players": 2}).json()["id"]
    response = client.post(f"/matches/{match_id}/seats/0/bot", json=body)
    assert response.status_code == 400, response.text
    return response.json()


def _stand_in_refusal(client: TestClient[Any], stand_in: dict[str, Any]) -> dict[str, Any]:
    body = {"game": "highcard", "players": 2, "rules": {"stand_in": stand_in}}
    response = client.post("/matches", json=body)
    assert response.status_code == 400, response.text
    return response.json()


def _cli_refusal(spec: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(ValueError) as refused:
        parse_entrants(spec)
    argv = ["tournament", "--game", "highcard", "--players", "2", "--bots", spec, "--quiet"]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == f"ironworks tournament: {refused.value}"
    return str(refused.value)


@pytest.mark.parametrize(
    ("spec", "body", "code"),
    [
        ("search@10", {"bot": "search", "think_ms": 10}, "think_ms_out_of_range"),
        ("search@49", {"bot": "search", "think_ms": 49}, "think_ms_out_of_range"),
        ("search@10001", {"bot": "search", "think_ms": 10001}, "think_ms_out_of_range"),
        ("search@0", {"bot": "search", "think_ms": 0}, "think_ms_out_of_range"),
        ("oracle", {"bot": "oracle"}, "unknown_bot"),
        ("search:godlike", {"bot": "search", "level": "godlike"}, "unknown_level"),
        ("greedy:hard", {"bot": "greedy", "level": "hard"}, "bot_has_no_levels"),
        ("random@500", {"bot": "random", "think_ms": 500}, "bot_has_no_levels"),
    ],
)
def test_a_bot_the_api_refuses_is_refused_by_the_cli_with_the_same_sentence(
    client: TestClient[Any], capsys: pytest.CaptureFixture[str], spec: str,
    body: dict[str, Any], code: str,
) -> None:  # fmt: skip
    """``ironworks tournament --bots search@10`` was played although the API refuses a
    budget under 50 ms; a stand-in bot of an unknown kind was "Invalid enum value" with no
    kinds named."""
    sentence = _cli_refusal(spec, capsys)
    for problem in (_seat_refusal(client, body), _stand_in_refusal(client, body)):
        assert (problem["code"], problem["detail"]) == (code, sentence)


def test_an_unknown_bot_kind_is_refused_naming_the_known_kinds(
    client: TestClient[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    sentence = _cli_refusal("oracle", capsys)
    assert sentence == "unknown bot 'oracle'; available: random, greedy, search"
    assert _stand_in_refusal(client, {"bot": "oracle"})["detail"] == sentence


def test_the_bounds_of_a_think_budget_are_accepted_everywhere(client: TestClient[Any]) -> None:
    assert [e.think_ms for e in parse_entrants("search@50,search:hard@10000")] == [50, 10000]
    body = {"game": "highcard", "players": 2, "rules": {"stand_in": {"bot": "search",
                                                                      "think_ms": 50}}}  # fmt: skip
    match = client.post("/matches", json=body)
    assert match.status_code == 201, match.text
    seat = client.post(f"/matches/{match.json()['id']}/seats/0/bot",
                       json={"bot": "search", "think_ms": 10000})  # fmt: skip
    assert seat.status_code == 200 and seat.json()["think_ms"] == 10000, seat.text


def test_the_openapi_document_names_every_bot_choice(client: TestClient[Any]) -> None:
    """The seat's bot was a free string in the document (Litestar drops msgspec's
    ``extra_json_schema``), so a generated client offered any text."""
    schemas = client.get("/docs/openapi.json").json()["components"]["schemas"]

    def choices(field: dict[str, Any]) -> list[Any]:
        return field.get("enum") or [v for f in field.get("anyOf", []) for v in choices(f)]

    kinds = ["random", "greedy", "search"]
    for name in ("HandToBot", "BotChoice", "core.BotChoice"):
        fields = schemas[name]["properties"]
        assert choices(fields["bot"]) == kinds, name
        assert set(choices(fields["level"])) - {None} == {"easy", "medium", "hard"}, name
    think = schemas["HandToBot"]["properties"]["think_ms"]
    assert (think["minimum"], think["maximum"]) == (50, 10000)
    assert None in choices(schemas["HandToBot"]["properties"]["level"])  # it may be null
    assert choices(schemas["core.SeatBotted"]["properties"]["bot"]) == kinds
