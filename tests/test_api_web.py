"""What the web table needs from the API: its files, offline docs, CORS, the lobby listing,
stream tickets for EventSource, and replays (``GET /matches/{id}?at=N``)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.cli import RedactSecrets, build_parser
from api.tickets import issue_ticket, seat_for_ticket
from core.errors import Unauthorized
from core.service import MatchService
from tests.test_api import (
    assert_problem,
    bearer,
    claim_all,
    new_match,
    play_one,
    sse_messages,
)


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


# --- the files -----------------------------------------------------------------------------


def test_web_client_page_is_served_at_the_root(client: TestClient[Any]) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in response.text
    assert client.get("/static/app.js").headers["content-type"].split(";")[0] in (
        "text/javascript", "application/javascript",
    )  # fmt: skip


def test_web_client_loads_nothing_from_other_hosts(client: TestClient[Any]) -> None:
    page = client.get("/").text
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    for name in ("app.js", "style.css"):
        assert "//cdn" not in client.get(f"/static/{name}").text


def test_docs_page_loads_swagger_ui_from_this_server(client: TestClient[Any]) -> None:
    page = client.get("/docs").text
    assets = re.findall(r"(?:src|href)=['\"]([^'\"]+)['\"]", page)
    assert assets and all(a.startswith("/docs/assets/") for a in assets), assets
    for asset in assets:
        assert client.get(asset).status_code == 200, asset


def test_missing_static_file_is_a_404_problem(client: TestClient[Any]) -> None:
    assert_problem(client.get("/static/no-such-file.js"), 404, "not_found")


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/docs/assets/swagger-ui.css"])
def test_a_file_the_browser_holds_is_answered_304_when_its_etag_still_matches(
    client: TestClient[Any], path: str
) -> None:
    """The page's files are sent ``no-cache`` so that browsers ask whether they changed;
    ``If-None-Match`` was never read, so every visit downloaded every module again."""
    first = client.get(path)
    etag = first.headers["etag"]
    for given in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = client.get(path, headers={"If-None-Match": given})
        assert again.status_code == 304, given
        assert again.content == b"" and again.headers["etag"] == etag
        assert again.headers.get("cache-control") == first.headers.get("cache-control")
    assert client.head(path, headers={"If-None-Match": etag}).status_code == 304
    changed = client.get(path, headers={"If-None-Match": '"an-older-etag"'})
    assert changed.status_code == 200 and changed.content == first.content


# --- CORS ------------------------------------------------------------------------------------


def test_cors_is_off_by_default(client: TestClient[Any]) -> None:
    response = client.get("/games", headers={"Origin": "http://elsewhere.test"})
    assert "access-control-allow-origin" not in response.headers


def test_cors_allows_only_the_configured_origins(service: MatchService) -> None:
    app = create_app(service, cors_origins=["http://table.test"])
    with TestClient(app) as client:
        allowed = client.options(
            "/matches", headers={"Origin": "http://table.test",
                                 "Access-Control-Request-Method": "POST",
                                 "Access-Control-Request-Headers": "authorization"},
        )  # fmt: skip
        assert allowed.headers["access-control-allow-origin"] == "http://table.test"
        assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
        other = client.get("/games", headers={"Origin": "http://elsewhere.test"})
        assert "access-control-allow-origin" not in other.headers


def test_a_page_on_another_origin_may_read_retry_after_request_id_and_date(
    service: MatchService,
) -> None:
    """Only Location was exposed: a browser client elsewhere could not read when to retry
    a 503, the request id to quote, nor the server's clock its deadlines are in."""
    app = create_app(service, cors_origins=["http://table.test"])
    with TestClient(app) as client:
        answer = client.get("/games", headers={"Origin": "http://table.test"})
    exposed = {
        h.strip().lower() for h in answer.headers["access-control-expose-headers"].split(",")
    }
    assert {"retry-after", "x-request-id", "date"} <= exposed


def test_serve_takes_repeatable_cors_origins() -> None:
    args = build_parser().parse_args(
        ["serve", "--cors-origin", "http://a.test", "--cors-origin", "http://b.test"]
    )
    assert args.cors_origin == ["http://a.test", "http://b.test"]
    assert build_parser().parse_args(["serve"]).cors_origin == []


# --- the lobby -------------------------------------------------------------------------------


def test_match_list_shows_seats_status_and_who_is_to_act(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/seats/0/claim")
    (item,) = client.get("/matches").json()["items"]
    assert item["status"] == "open"
    assert [(s["seat"], s["claimed"], s["bot"]) for s in item["seats"]] == [
        (0, True, None), (1, False, None),
    ]  # fmt: skip
    assert item["seats"] == client.get(f"/matches/{match_id}").json()["seats"]
    assert item["to_act"] == client.get(f"/matches/{match_id}").json()["to_act"]
    client.post(f"/matches/{match_id}/seats/1/claim")
    assert client.get("/matches").json()["items"][0]["status"] == "playing"


def test_match_list_marks_finished_matches(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    for seat in range(2):
        client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
    (item,) = client.get("/matches").json()["items"]
    assert (item["status"], item["finished"], item["to_act"]) == ("finished", True, [])
    assert [s["bot"] for s in item["seats"]] == ["random", "random"]


# --- stream tickets --------------------------------------------------------------------------


def test_stream_ticket_opens_the_seats_own_stream(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    response = client.post(f"/matches/{match_id}/stream-ticket", headers=bearer(tokens[1]))
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["match_id"], body["seat"], body["expires_in"]) == (match_id, 1, 60)
    assert tokens[1] not in body["ticket"]
    version = client.get(f"/matches/{match_id}").json()["version"]
    by_ticket = client.get(
        f"/matches/{match_id}/stream",
        params={"ticket": body["ticket"], "until_version": version},
    )
    by_token = client.get(
        f"/matches/{match_id}/stream", params={"until_version": version},
        headers=bearer(tokens[1]),
    )  # fmt: skip
    assert by_ticket.status_code == 200
    assert by_ticket.text == by_token.text
    dealt = [json.loads(m["data"]) for m in sse_messages(by_ticket.text)]
    own = client.get(f"/matches/{match_id}", headers=bearer(tokens[1])).json()["view"]["hand"]
    assert any(e["type"] == "dealt" and e["payload"]["hand"] == own for e in dealt)


def test_stream_ticket_needs_the_seat_token(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    assert_problem(client.post(f"/matches/{match_id}/stream-ticket"), 401, "token_required")
    response = client.post(f"/matches/{match_id}/stream-ticket", headers=bearer("nope"))
    assert_problem(response, 403, "bad_token")


def test_forged_or_foreign_stream_ticket_is_refused(client: TestClient[Any]) -> None:
    first, second = new_match(client), new_match(client)
    tokens = claim_all(client, first)
    claim_all(client, second)
    ticket = client.post(f"/matches/{first}/stream-ticket", headers=bearer(tokens[0])).json()
    ticket = ticket["ticket"]
    other_match = client.get(f"/matches/{second}/stream", params={"ticket": ticket})
    assert_problem(other_match, 401, "bad_ticket")
    prefix, seat, expires, signature = ticket.split(".")
    other_seat = ".".join((prefix, "1", expires, signature))
    assert_problem(client.get(f"/matches/{first}/stream", params={"ticket": other_seat}),
                   401, "bad_ticket")  # fmt: skip
    later = ".".join((prefix, seat, str(int(expires) + 3600), signature))
    assert_problem(client.get(f"/matches/{first}/stream", params={"ticket": later}),
                   401, "bad_ticket")  # fmt: skip
    assert_problem(client.get(f"/matches/{first}/stream", params={"ticket": "garbage"}),
                   401, "bad_ticket")  # fmt: skip


def test_stream_ticket_and_token_together_are_refused(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    ticket = client.post(f"/matches/{match_id}/stream-ticket", headers=bearer(tokens[0]))
    response = client.get(
        f"/matches/{match_id}/stream", params={"ticket": ticket.json()["ticket"]},
        headers=bearer(tokens[0]),
    )  # fmt: skip
    assert_problem(response, 400, "ticket_and_token")


def test_stream_ticket_expires_after_its_minute(service: MatchService) -> None:
    match = service.create_match("highcard", 2, seed="s1")
    service.claim_seat(match.match_id, 0)
    match = service.load(match.match_id)
    ticket = issue_ticket(match, 0, now=1000.0)
    assert seat_for_ticket(match, ticket, now=1060.0) == 0
    with pytest.raises(Unauthorized) as refused:
        seat_for_ticket(match, ticket, now=1061.0)
    assert refused.value.code == "ticket_expired"


def test_free_seat_gets_no_ticket_that_verifies(service: MatchService) -> None:
    match = service.create_match("highcard", 2, seed="s1")
    forged = issue_ticket(match, 1, now=1000.0)  # seat 1 has no token: nothing to sign with
    with pytest.raises(Unauthorized):
        seat_for_ticket(match, forged, now=1000.0)


def test_access_log_lines_never_show_a_ticket() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/matches/m1/stream?after=3&ticket=t1.0.99.SECRET", "1.1", 200),
        None,
    )  # fmt: skip
    assert RedactSecrets().filter(record)
    line = record.getMessage()
    assert "SECRET" not in line
    assert "/matches/m1/stream?after=3&ticket=" in line


# --- replays ---------------------------------------------------------------------------------


def finished_highcard(client: TestClient[Any]) -> tuple[str, list[str]]:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    for _ in range(100):
        if client.get(f"/matches/{match_id}").json()["finished"]:
            return match_id, tokens
        play_one(client, match_id, tokens)
    pytest.fail("the match did not end")


def test_replay_shows_each_older_version_as_a_spectator_saw_it(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    seen = {}
    for _ in range(100):
        state = client.get(f"/matches/{match_id}").json()
        seen[state["version"]] = state
        if state["finished"]:
            break
        play_one(client, match_id, tokens)
    for version, state in seen.items():
        then = client.get(f"/matches/{match_id}", params={"at": version}, headers=bearer(tokens[0]))
        assert then.status_code == 200, then.text
        assert then.json() == state  # a spectator's, even with a seat token


def test_replay_of_an_unfinished_match_with_hidden_information_is_refused(
    client: TestClient[Any],
) -> None:
    match_id = new_match(client)
    claim_all(client, match_id)
    assert_problem(client.get(f"/matches/{match_id}", params={"at": 2}), 403, "history_hidden")


def test_replay_of_an_open_information_game_is_allowed_while_it_runs(
    client: TestClient[Any],
) -> None:
    response = client.post("/matches", json={"game": "age-of-steam", "players": 3, "seed": "r"})
    match_id = response.json()["id"]
    before = client.get(f"/matches/{match_id}").json()
    token = client.post(f"/matches/{match_id}/seats/0/claim").json()["token"]
    moves = client.get(f"/matches/{match_id}/moves", headers=bearer(token)).json()
    client.post(
        f"/matches/{match_id}/moves", headers=bearer(token),
        json={"move": moves["moves"][1], "expected_version": moves["version"]},
    )  # fmt: skip
    then = client.get(f"/matches/{match_id}", params={"at": before["version"]}).json()
    assert then == before
    assert client.get(f"/matches/{match_id}").json()["version"] > before["version"]


def test_replay_outside_the_matchs_versions_is_404(client: TestClient[Any]) -> None:
    match_id, _ = finished_highcard(client)
    latest = client.get(f"/matches/{match_id}").json()["version"]
    response = client.get(f"/matches/{match_id}", params={"at": latest + 1})
    assert_problem(response, 404, "version_not_found")
    before_setup = client.get(f"/matches/{match_id}", params={"at": 1})  # only match_created
    assert_problem(before_setup, 404, "version_not_found")
    assert_problem(client.get(f"/matches/{match_id}", params={"at": 0}), 400, "invalid_request")
