"""The REST API over the highcard test game: play, auth, secrecy, idempotency, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.service import MatchService
from core.store.memory import MemoryStore

PROBLEM = "application/problem+json"


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(client: TestClient[Any], players: int = 2, **extra: Any) -> str:
    response = client.post(
        "/matches", json={"game": "highcard", "players": players, "seed": "s1", **extra}
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def claim_all(client: TestClient[Any], match_id: str, players: int = 2) -> list[str]:
    tokens = []
    for seat in range(players):
        response = client.post(f"/matches/{match_id}/seats/{seat}/claim")
        assert response.status_code == 201, response.text
        tokens.append(response.json()["token"])
    return tokens


def play_one(client: TestClient[Any], match_id: str, tokens: list[str]) -> dict[str, Any]:
    """The seat to act plays its first legal move; returns the move response body."""
    state = client.get(f"/matches/{match_id}").json()
    seat = state["to_act"][0]
    moves = client.get(f"/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()
    response = client.post(
        f"/matches/{match_id}/moves",
        json={"move": moves["moves"][0], "expected_version": moves["version"]},
        headers=bearer(tokens[seat]),
    )
    assert response.status_code == 200, response.text
    return response.json()


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["title"] and body["detail"] and body["type"].endswith(code)
    return body


def sse_messages(text: str) -> list[dict[str, str]]:
    """Parse an SSE body into its messages (comments dropped)."""
    messages = []
    for block in text.split("\r\n\r\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value
        if fields:
            messages.append(fields)
    return messages


def test_health_reports_store_games_and_skipped_plugins(client: TestClient[Any]) -> None:
    body = client.get("/health").json()
    assert body["ok"] is True
    assert body["store"] == "memory"
    assert "highcard" in body["games"]
    assert isinstance(body["plugin_problems"], list)


def test_games_list_describes_highcard_with_its_options_schema(client: TestClient[Any]) -> None:
    games = {g["id"]: g for g in client.get("/games").json()}
    highcard = games["highcard"]
    assert (highcard["min_players"], highcard["max_players"]) == (2, 4)
    options = highcard["options_schema"]
    assert "rounds" in json.dumps(options)
    assert highcard["metadata"] == {"test_only": True}


def test_full_match_played_through_http_ends_with_a_result(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    for _ in range(100):
        state = client.get(f"/matches/{match_id}").json()
        if state["finished"]:
            break
        play_one(client, match_id, tokens)
    else:
        pytest.fail("the match did not end")
    assert state["to_act"] == []
    assert sorted(state["result"]["ranking"])[0] == 1
    assert sum(state["result"]["scores"]) == 3  # three rounds, each won by someone
    types = [e["type"] for e in client.get(f"/matches/{match_id}/events").json()["events"]]
    # Nobody asked for a deal: the dealer step ran by itself before each round
    assert types.count("dealt") == 3
    assert types[0] == "core.match_created"


def test_match_with_all_seats_on_bots_finishes_by_itself(client: TestClient[Any]) -> None:
    match_id = new_match(client, players=3)
    for seat in range(3):
        response = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
        assert response.status_code == 200, response.text
    for _ in range(50):
        state = client.get(f"/matches/{match_id}").json()
        if state["finished"]:
            break
    assert state["finished"] and state["result"] is not None
    assert [s["bot"] for s in state["seats"]] == ["random"] * 3


def test_a_search_bot_seat_takes_its_level_and_budget(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    response = client.post(f"/matches/{match_id}/seats/0/bot",
                           json={"bot": "search", "level": "hard", "think_ms": 200})  # fmt: skip
    assert response.status_code == 200, response.text
    assert response.json() | {"version": 0} == {
        "match_id": match_id, "seat": 0, "bot": "search", "level": "hard", "think_ms": 200,
        "version": 0}  # fmt: skip
    response = client.post(f"/matches/{match_id}/seats/1/bot", json={"bot": "search"})
    assert response.json()["level"] == "medium"
    state = client.get(f"/matches/{match_id}").json()
    assert state["finished"]
    assert [(s["bot"], s["level"]) for s in state["seats"]] == [
        ("search", "hard"),
        ("search", "medium"),
    ]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"bot": "greedy", "level": "hard"}, "bot_has_no_levels"),
        ({"bot": "search", "level": "expert"}, "unknown_level"),
        ({"bot": "search", "think_ms": 5}, "think_ms_out_of_range"),
        ({"bot": "search", "depth": 3}, "invalid_request"),
    ],
)
def test_bot_options_that_do_not_apply_are_refused(
    client: TestClient[Any], body: dict[str, Any], code: str
) -> None:
    match_id = new_match(client)
    response = client.post(f"/matches/{match_id}/seats/0/bot", json=body)
    assert response.status_code == 400 and response.json()["code"] == code, response.text


def test_each_game_lists_the_bots_and_levels_it_offers(client: TestClient[Any]) -> None:
    bots = {b["bot"]: b for b in client.get("/games/highcard").json()["bots"]}
    assert set(bots) == {"random", "greedy", "search"}
    assert bots["search"]["levels"] == ["easy", "medium", "hard"]
    assert bots["random"]["levels"] == []


def test_retry_with_same_idempotency_key_replays_without_moving(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    state = client.get(f"/matches/{match_id}").json()
    seat = state["to_act"][0]
    move = client.get(f"/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()
    body = {"move": move["moves"][0], "expected_version": move["version"]}
    headers = {**bearer(tokens[seat]), "Idempotency-Key": "k-1"}
    first = client.post(f"/matches/{match_id}/moves", json=body, headers=headers)
    again = client.post(f"/matches/{match_id}/moves", json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json()["replayed"] is False
    assert again.json() == {**first.json(), "replayed": True}
    assert client.get(f"/matches/{match_id}").json()["version"] == first.json()["version"]


def test_idempotency_key_reused_for_another_move_is_refused(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
    moves = client.get(f"/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()
    headers = {**bearer(tokens[seat]), "Idempotency-Key": "k-2"}
    url = f"/matches/{match_id}/moves"
    client.post(url, json={"move": moves["moves"][0], "expected_version": moves["version"]},
                headers=headers)  # fmt: skip
    other = {"move": moves["moves"][1], "expected_version": moves["version"]}
    assert_problem(client.post(url, json=other, headers=headers), 422, "idempotency_key_reused")


def test_stale_expected_version_is_409_with_current_version(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
    moves = client.get(f"/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()
    response = client.post(
        f"/matches/{match_id}/moves",
        json={"move": moves["moves"][0], "expected_version": moves["version"] - 1},
        headers=bearer(tokens[seat]),
    )
    body = assert_problem(response, 409, "version_conflict")
    assert body["current_version"] == moves["version"]
    assert body["expected_version"] == moves["version"] - 1


def test_moves_need_a_token_and_refuse_a_wrong_one(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    claim_all(client, match_id)
    url = f"/matches/{match_id}/moves"
    body = {"move": {"type": "play", "card": 1}, "expected_version": 4}
    assert_problem(client.get(url), 401, "token_required")
    assert_problem(client.post(url, json=body), 401, "token_required")
    assert_problem(client.get(url, headers=bearer("not-a-seat-token")), 403, "bad_token")
    assert_problem(client.post(url, json=body, headers=bearer("nope")), 403, "bad_token")
    basic = {"Authorization": "Basic dXNlcjpwdw=="}
    assert_problem(client.get(url, headers=basic), 401, "bad_authorization")


def test_a_token_followed_by_more_or_quoted_is_a_malformed_header_not_a_wrong_token(
    client: TestClient[Any],
) -> None:
    """``Bearer <token> <more>`` and ``Bearer "<token>"`` were looked up as tokens and
    refused as wrong ones (403 bad_token): RFC 6750's token has no blank or quote, so the
    header is what is broken (401), on the move lane's door as on the router's."""
    match_id = new_match(client)
    token = claim_all(client, match_id)[0]
    url = f"/matches/{match_id}/moves"
    move = {"move": {"type": "play", "card": 1}, "expected_version": 4}
    for value in (f"Bearer {token} extra", f'Bearer "{token}"', f"Bearer {token},x"):
        header = {"Authorization": value}
        assert_problem(client.get(url, headers=header), 401, "bad_authorization")
        answer = client.post(url, json=move, headers=header)
        assert_problem(answer, 401, "bad_authorization")
        assert answer.headers["www-authenticate"].endswith('error="invalid_request"')
    assert client.get(url, headers={"Authorization": f"bearer  {token}"}).status_code == 200


def test_every_401_says_how_to_authenticate(client: TestClient[Any]) -> None:
    """RFC 9110 has a 401 carry ``WWW-Authenticate``; none did (RFC 6750 says its form)."""
    match_id = new_match(client)
    claim_all(client, match_id)
    url = f"/matches/{match_id}/moves"
    move = {"move": {"type": "play", "card": 1}, "expected_version": 4}
    basic = {"Authorization": "Basic dXNlcjpwdw=="}
    refusals = {
        client.get(url): "token_required",
        client.post(url, json=move): "token_required",  # the move lane's answer
        client.post(url, json=move, headers=basic): "bad_authorization",
        client.get(url, headers=basic): "bad_authorization",
        client.head(url): "token_required",
        client.post(f"/matches/{match_id}/seats/0/invite"): "owner_token_required",
        client.get(f"/matches/{match_id}/stream", params={"ticket": "t1.x"}): "bad_ticket",
    }
    for response, code in refusals.items():
        assert response.status_code == 401 and response.headers["content-type"].startswith(
            PROBLEM
        ), response.text
        error = {"bad_authorization": "invalid_request", "bad_ticket": "invalid_token"}.get(code)
        assert response.headers["www-authenticate"] == 'Bearer realm="ironworks"' + (
            f', error="{error}"' if error else ""
        ), code


def test_token_of_another_match_is_refused(client: TestClient[Any]) -> None:
    first, second = new_match(client), new_match(client)
    token = claim_all(client, first)[0]
    assert_problem(client.get(f"/matches/{second}/moves", headers=bearer(token)), 403, "bad_token")


def test_a_foreign_token_is_refused_on_every_match_route_even_where_none_is_needed(
    client: TestClient[Any],
) -> None:
    first, second = new_match(client), new_match(client)
    token = claim_all(client, first)[0]
    for method, path in [
        ("GET", f"/matches/{second}"),
        ("GET", f"/matches/{second}?at=2"),  # a replay: the token is not needed there
        ("GET", f"/matches/{second}/position"),
        ("GET", f"/matches/{second}/record"),
        ("POST", f"/matches/{second}/seats/0/claim"),
        # the owner's routes: "only the owner may" would not tell it is the wrong token
        ("POST", f"/matches/{second}/seats/0/invite"),
        ("POST", f"/matches/{second}/seats/0/reissue"),
        ("POST", f"/matches/{second}/seats/0/remove"),
        ("DELETE", f"/matches/{second}/seats/0/bot"),
    ]:
        response = client.request(method, path, headers=bearer(token))
        assert_problem(response, 403, "bad_token")
    assert client.get(f"/matches/{second}").json()["seats"][0]["claimed"] is False


def test_a_malformed_authorization_header_is_refused_on_every_route(
    client: TestClient[Any],
) -> None:
    match_id = new_match(client)
    basic = {"Authorization": "Basic dXNlcjpwdw=="}
    for method, path in [
        ("GET", "/games"),
        ("GET", "/matches"),
        ("GET", f"/matches/{match_id}"),
        ("GET", f"/matches/{match_id}/position"),
        ("GET", f"/matches/{match_id}/record"),
        ("POST", f"/matches/{match_id}/seats/0/claim"),
    ]:
        response = client.request(method, path, headers=basic)
        assert_problem(response, 401, "bad_authorization")
    assert client.get("/", headers=basic).status_code == 200  # the web table's page


def test_health_probes_answer_whatever_authorization_a_proxy_forwards(
    client: TestClient[Any],
) -> None:
    basic = {"Authorization": "Basic dXNlcjpwdw=="}
    for path in ["/health/live", "/health/ready", "/health"]:
        assert client.get(path, headers=basic).status_code == 200, path


def test_head_answers_wherever_get_does_with_its_headers_and_no_body(
    client: TestClient[Any],
) -> None:
    match_id = new_match(client)
    token = claim_all(client, match_id)[0]
    for path in [
        "/",
        "/health/live",
        "/games",
        "/games/highcard",
        "/matches",
        f"/matches/{match_id}",
        f"/matches/{match_id}/moves",
        f"/matches/{match_id}/events",
        f"/matches/{match_id}/record",
    ]:
        auth = bearer(token)
        got, head = client.get(path, headers=auth), client.head(path, headers=auth)
        assert (head.status_code, head.content) == (got.status_code, b""), path
        assert head.headers["content-type"] == got.headers["content-type"], path
    refused = client.head(f"/matches/{match_id}/moves")
    assert (refused.status_code, refused.content) == (401, b"")


def test_head_of_a_refused_read_has_its_gets_headers_to_the_content_length(
    client: TestClient[Any],
) -> None:
    """A refusal's detail named the method ("HEAD /matches has no query parameter ..."),
    so a HEAD's Content-Length was one byte over its GET's."""
    match_id = new_match(client)
    for path in [
        "/matches?zzz=1",
        "/matches?limit=1&limit=2",
        "/matches?limit=abc",
        f"/matches/{match_id}/events?after=0&wait=99",
        f"/matches/{match_id}/position?x=1",
        "/games/nosuch",
        "/no/such/page",
    ]:
        got, head = client.get(path), client.head(path)
        assert got.status_code >= 400, path
        assert (head.status_code, head.content) == (got.status_code, b""), path
        assert head.headers["content-length"] == got.headers["content-length"], path
        assert head.headers["content-type"] == got.headers["content-type"], path


def test_head_answers_on_the_docs_and_metrics_as_their_get_does(
    client: TestClient[Any],
) -> None:
    """Litestar serves these pages to GET alone; a probe or scraper sending HEAD must not
    take a 405 for a page that is there (nor a 405 for one that is not)."""
    pages = ["/docs", "/docs/openapi.json", "/docs/oauth2-redirect.html", "/metrics"]
    for path in [*pages, "/docs/no-such-page"]:
        got, head = client.get(path), client.head(path)
        assert (head.status_code, head.content) == (got.status_code, b""), path
        if got.status_code == 200:
            assert head.headers["content-type"] == got.headers["content-type"], path


def test_options_lists_every_method_of_a_path_the_document_lists(
    client: TestClient[Any],
) -> None:
    """Where two handlers share a path (``GET`` and ``POST /matches``), OPTIONS named only
    the first one's methods."""
    match_id = new_match(client)
    doc = client.get("/docs/openapi.json").json()
    values = {"match_id": match_id, "seat": "0", "hook_id": "h1", "game_id": "highcard"}
    for template, operations in doc["paths"].items():
        path = template.format(**values)
        documented = {method.upper() for method in operations}
        if "GET" in documented:
            documented.add("HEAD")
        answer = client.options(path)
        assert answer.status_code == 204, path
        allowed = {m.strip() for m in answer.headers["allow"].split(",")}
        assert allowed == documented | {"OPTIONS"}, path


def test_a_write_that_takes_no_body_refuses_fields_it_would_drop_unread(
    client: TestClient[Any],
) -> None:
    """``{"reason": ...}`` on a resignation or ``{"bot": ...}`` on taking a seat back was
    dropped, and the client took it as heard; no body, ``{}`` and ``null`` still pass."""
    match = client.post("/matches", json={"game": "highcard", "players": 2}).json()
    match_id, owner = match["id"], bearer(match["owner_token"])
    tokens = claim_all(client, match_id)
    json_type = {"content-type": "application/json"}
    writes = [
        ("POST", f"/matches/{match_id}/seats/1/invite", owner),
        ("POST", f"/matches/{match_id}/seats/0/reissue", owner),
        ("POST", f"/matches/{match_id}/stream-ticket", bearer(tokens[1])),
        ("DELETE", f"/matches/{match_id}/seats/1/bot", bearer(tokens[1])),
        ("POST", f"/matches/{match_id}/seats/1/resign", bearer(tokens[1])),
    ]
    version = client.get(f"/matches/{match_id}").json()["version"]
    for method, url, auth in writes:
        for body in (b'{"reason": "tired"}', b"[]", b'"x"'):
            answer = client.request(method, url, content=body, headers={**auth, **json_type})
            problem = assert_problem(answer, 400, "invalid_request")
            assert "takes no body" in problem["detail"], (url, body)
    assert client.get(f"/matches/{match_id}").json()["version"] == version, "nothing changed"
    for body in (b"{}", b"null"):
        answer = client.post(
            f"/matches/{match_id}/stream-ticket", content=body,
            headers={**bearer(tokens[0]), **json_type},
        )  # fmt: skip
        assert answer.status_code == 200, (body, answer.text)


def test_head_on_the_event_stream_and_a_long_poll_answers_at_once(
    client: TestClient[Any],
) -> None:
    """The match goes on, so a GET would stream, or wait a minute, for events to come."""
    match_id = new_match(client)
    stream = client.head(f"/matches/{match_id}/stream")
    assert stream.status_code == 200 and stream.content == b""
    assert stream.headers["content-type"].startswith("text/event-stream")
    version = client.get(f"/matches/{match_id}").json()["version"]
    poll = client.head(f"/matches/{match_id}/events?after={version}&wait=60")
    assert poll.status_code == 200 and poll.content == b""


def test_playing_out_of_turn_is_an_illegal_move_with_the_rule_code(
    client: TestClient[Any],
) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    state = client.get(f"/matches/{match_id}").json()
    idle = 1 - state["to_act"][0]
    hand = client.get(f"/matches/{match_id}", headers=bearer(tokens[idle])).json()["view"]["hand"]
    response = client.post(
        f"/matches/{match_id}/moves",
        json={"move": {"type": "play", "card": hand[0]}, "expected_version": state["version"]},
        headers=bearer(tokens[idle]),
    )
    assert_problem(response, 422, "not_your_turn")


def test_spectator_sees_no_hand(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    body = client.get(f"/matches/{match_id}").json()
    assert body["you"] is None
    assert body["view"]["hand"] is None
    assert sum(body["view"]["hand_counts"]) == 4
    dealt = [e for e in client.get(f"/matches/{match_id}/events").json()["events"]
             if e["type"] == "dealt"]  # fmt: skip
    assert dealt and all(e["payload"]["hand"] is None for e in dealt)


def test_another_seats_hand_never_appears_in_view_events_or_stream(
    client: TestClient[Any],
) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    hands = [
        client.get(f"/matches/{match_id}", headers=bearer(t)).json()["view"]["hand"] for t in tokens
    ]
    assert len(hands[0]) == len(hands[1]) == 2
    version = client.get(f"/matches/{match_id}").json()["version"]
    for seat, token in enumerate(tokens):
        other = hands[1 - seat]
        view = client.get(f"/matches/{match_id}", headers=bearer(token)).json()
        events = client.get(f"/matches/{match_id}/events", headers=bearer(token)).json()
        stream = client.get(
            f"/matches/{match_id}/stream", params={"until_version": version},
            headers=bearer(token),
        )  # fmt: skip
        dealt = [e for e in events["events"] if e["type"] == "dealt"]
        streamed = [json.loads(m["data"]) for m in sse_messages(stream.text)]
        assert view["view"]["hand"] == hands[seat]
        assert dealt[0]["payload"]["hand"] == hands[seat]
        assert [e for e in streamed if e["type"] == "dealt"] == dealt
        for text in (json.dumps(view), json.dumps(events), stream.text):
            assert json.dumps(other) not in text
            assert "deck" not in text.replace("deck_count", "")
            assert "token_hash" not in text and '"seed"' not in text


@pytest.mark.parametrize("seed", ["s1", None])
def test_a_match_dealt_from_a_client_seed_says_so_to_every_seat_and_spectator(
    client: TestClient[Any], seed: str | None
) -> None:
    """Whoever chose the seed can deal the same hands in a private twin match, so the
    others must be able to see that a seed was chosen (never the seed itself)."""
    body = {"game": "highcard", "players": 2} | ({"seed": seed} if seed else {})
    created = client.post("/matches", json=body).json()
    match_id = created["id"]
    tokens = claim_all(client, match_id)
    chosen = seed is not None
    assert created["client_seed"] is chosen
    listed = {m["id"]: m for m in client.get("/matches").json()["items"]}
    assert listed[match_id]["client_seed"] is chosen
    for headers in [{}, *map(bearer, tokens)]:
        assert client.get(f"/matches/{match_id}", headers=headers).json()["client_seed"] is chosen
        first = client.get(f"/matches/{match_id}/events", headers=headers).json()["events"][0]
        assert first["type"] == "core.match_created"
        assert first["payload"]["client_seed"] is chosen
        assert "s1" not in json.dumps(first)


def test_a_server_refusing_client_seeds_deals_every_match_itself(registry: Any) -> None:
    from worker.inprocess import InlineRunner

    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner, client_seeds=False)
    runner.bind(service)
    with TestClient(create_app(service)) as client:
        refused = client.post("/matches", json={"game": "highcard", "players": 2, "seed": "s1"})
        assert_problem(refused, 403, "client_seed_refused")
        assert client.get("/matches").json()["total"] == 0
        created = client.post("/matches", json={"game": "highcard", "players": 2})
        assert created.status_code == 201 and created.json()["client_seed"] is False


def test_stream_resumes_after_last_event_id(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    tokens = claim_all(client, match_id)
    for _ in range(3):
        play_one(client, match_id, tokens)
    version = client.get(f"/matches/{match_id}").json()["version"]
    response = client.get(
        f"/matches/{match_id}/stream",
        params={"until_version": version},
        headers={"Last-Event-ID": "3"},
    )
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    messages = sse_messages(response.text)
    assert [int(m["id"]) for m in messages] == list(range(4, version + 1))
    assert [json.loads(m["data"])["version"] for m in messages] == list(range(4, version + 1))
    by_after = client.get(
        f"/matches/{match_id}/stream", params={"after": 3, "until_version": version}
    )
    assert by_after.text == response.text
    # A reconnecting EventSource sends the id it last read with the URL it was first given
    # (its ``after`` older): the id is where it left off, and wins (documented).
    reconnected = client.get(
        f"/matches/{match_id}/stream",
        params={"after": 1, "until_version": version},
        headers={"Last-Event-ID": "3"},
    )
    assert reconnected.text == response.text


def test_stream_of_a_finished_match_ends_after_its_last_event(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    for seat in range(2):
        client.post(f"/matches/{match_id}/seats/{seat}/bot", json={})
    state = client.get(f"/matches/{match_id}").json()
    assert state["finished"]
    messages = sse_messages(client.get(f"/matches/{match_id}/stream").text)
    assert int(messages[-1]["id"]) == state["version"]


def test_bad_last_event_id_is_a_problem(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    response = client.get(f"/matches/{match_id}/stream", headers={"Last-Event-ID": "abc"})
    assert_problem(response, 400, "bad_last_event_id")


@pytest.mark.parametrize("last_event_id", [2**53 + 1, 2**63, 10**30])
def test_a_last_event_id_beyond_any_version_is_refused_like_after(
    registry: Any, tmp_path: Any, last_event_id: int
) -> None:
    """On SQLite such an id overflowed the query and answered an empty 200 stream."""
    from core.store.sqlite import SQLiteStore
    from core.tasks import NullRunner

    service = MatchService(SQLiteStore(tmp_path / "events.sqlite3"), registry, NullRunner())
    with TestClient(create_app(service)) as client:
        match_id = new_match(client)
        for name, headers, params in [
            ("bad_last_event_id", {"Last-Event-ID": str(last_event_id)}, {}),
            ("invalid_request", {}, {"after": last_event_id}),
        ]:
            response = client.get(f"/matches/{match_id}/stream", headers=headers, params=params)
            assert_problem(response, 400, name)
    service.store.close()


def test_events_are_paged_with_after_and_limit(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    page = client.get(f"/matches/{match_id}/events", params={"after": 1, "limit": 1}).json()
    assert [e["version"] for e in page["events"]] == [2]
    assert page["version"] >= 3


def test_match_list_is_paged_newest_first(client: TestClient[Any]) -> None:
    ids = [new_match(client) for _ in range(3)]
    page = client.get("/matches", params={"offset": 0, "limit": 2}).json()
    assert page["total"] == 3 and page["limit"] == 2
    assert len(page["items"]) == 2
    rest = client.get("/matches", params={"offset": 2, "limit": 2}).json()["items"]
    listed = [item["id"] for item in page["items"] + rest]
    assert sorted(listed) == sorted(ids)
    assert {item["game"] for item in page["items"]} == {"highcard"}
    assert all(item["finished"] is False for item in page["items"])


def test_claimed_seat_cannot_be_claimed_again_or_botted_by_others(
    client: TestClient[Any],
) -> None:
    match_id = new_match(client)
    claim_all(client, match_id)
    assert_problem(client.post(f"/matches/{match_id}/seats/0/claim"), 409, "seat_taken")
    response = client.post(f"/matches/{match_id}/seats/0/bot", json={"bot": "random"})
    assert_problem(response, 403, "not_your_seat")


def test_body_over_the_limit_is_413(client: TestClient[Any]) -> None:
    big = {"game": "highcard", "players": 2, "options": {"x": "y" * 70_000}}
    assert_problem(client.post("/matches", json=big), 413, "body_too_large")


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "detail"),
    [
        ("GET", "/nowhere", {}, 404, "nothing answers GET /nowhere: the routes are at /docs"),
        ("POST", "/matches/m/seats/first/claim", {}, 404,
         "nothing answers POST /matches/m/seats/first/claim"),
        ("DELETE", "/games", {}, 405, "/games takes GET, HEAD, OPTIONS, not DELETE"),
        ("POST", "/matches", {"json": {"game": "highcard", "players": 2, "seed": "y" * 70_000}},
         413, "the body is over the 65536 bytes that POST /matches takes"),
    ],
)  # fmt: skip
def test_routing_and_size_refusals_say_what_was_asked_and_what_the_route_takes(
    client: TestClient[Any], method: str, path: str, kwargs: dict[str, Any], status: int,
    detail: str,
) -> None:  # fmt: skip
    code = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}[status]
    body = assert_problem(client.request(method, path, **kwargs), status, code)
    assert body["detail"].startswith(detail), body["detail"]


def test_unknown_field_in_a_body_is_refused(client: TestClient[Any]) -> None:
    response = client.post("/matches", json={"game": "highcard", "players": 2, "colour": "red"})
    body = assert_problem(response, 400, "invalid_request")
    assert "colour" in json.dumps(body)


def test_unknown_game_option_is_refused(client: TestClient[Any]) -> None:
    response = client.post(
        "/matches", json={"game": "highcard", "players": 2, "options": {"colour": 1}}
    )
    assert_problem(response, 400, "bad_options")


def test_move_that_is_not_a_move_of_the_game_is_400(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    token = claim_all(client, match_id)[0]
    response = client.post(
        f"/matches/{match_id}/moves",
        json={"move": {"type": "fly", "to": "moon"}, "expected_version": 4},
        headers=bearer(token),
    )
    assert_problem(response, 400, "bad_move")


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "code"),
    [
        ("GET", "/nowhere", {}, 404, "not_found"),
        ("DELETE", "/games", {}, 405, "method_not_allowed"),
        ("GET", "/matches/nope", {}, 404, "match_not_found"),
        ("POST", "/matches/nope/seats/0/claim", {}, 404, "match_not_found"),
        ("POST", "/matches", {"json": {"game": "chess", "players": 2}}, 404, "unknown_game"),
        ("POST", "/matches", {"json": {"game": "highcard", "players": 9}}, 400,
         "bad_player_count"),
        ("POST", "/matches", {"json": {"game": "highcard"}}, 400, "invalid_request"),
        ("POST", "/matches", {"json": ["not", "an", "object"]}, 400, "invalid_request"),
        ("POST", "/matches", {"content": b"{broken", "headers": {"content-type":
         "application/json"}}, 400, "invalid_request"),
        ("POST", "/matches", {"content": b"game=highcard", "headers": {"content-type":
         "application/x-www-form-urlencoded"}}, 415, "unsupported_media_type"),
        ("GET", "/matches", {"params": {"limit": 0}}, 400, "invalid_request"),
        ("GET", "/matches", {"params": {"offset": "x"}}, 400, "invalid_request"),
    ],
)  # fmt: skip
def test_every_error_is_a_problem_document_with_a_code(
    client: TestClient[Any], method: str, path: str, kwargs: dict[str, Any], status: int, code: str
) -> None:
    assert_problem(client.request(method, path, **kwargs), status, code)


def test_unknown_seat_is_404(client: TestClient[Any]) -> None:
    match_id = new_match(client)
    assert_problem(client.post(f"/matches/{match_id}/seats/7/claim"), 404, "seat_not_found")
    assert_problem(client.post(f"/matches/{match_id}/seats/-1/claim"), 404, "seat_not_found")


class BrokenStore(MemoryStore):
    def read(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire: /secret/path")


def test_unexpected_failure_is_a_500_problem_that_reveals_nothing(registry: Any) -> None:
    service = MatchService(BrokenStore(), registry)
    with TestClient(create_app(service)) as broken:
        response = broken.get("/matches/any")
    assert_problem(response, 500, "internal_error")
    assert "secret" not in response.text and "fire" not in response.text


def test_idle_stream_sends_keepalive_comments(service: MatchService) -> None:
    from api.sse import event_stream

    match = service.load(service.create_match("highcard", 2, seed="s1").match_id)

    async def first_two() -> list[Any]:
        stream = event_stream(service, match.match_id, None, match.version, keepalive=0.05)
        messages = [await anext(stream), await anext(stream)]
        await stream.aclose()
        return messages

    messages = anyio.run(first_two)
    assert [(m.comment, m.id) for m in messages] == [("keep-alive", None)] * 2


def test_stream_lets_the_loop_run_between_events_so_a_client_that_left_is_heard_of(
    service: MatchService,
) -> None:
    # Else the rest of a page goes to a closed socket, each write logging a warning.
    from api.sse import event_stream

    match = service.load(service.create_match("highcard", 2, seed="s1").match_id)
    assert match.version >= 2  # created and dealt: two events in one page

    async def other_task_ran_between_the_first_two_events() -> bool:
        ran = anyio.Event()

        async def other() -> None:
            ran.set()

        stream = event_stream(service, match.match_id, None, 0)
        async with anyio.create_task_group() as tasks:
            await anext(stream)
            tasks.start_soon(other)
            await anext(stream)
            seen = ran.is_set()
        await stream.aclose()
        return seen

    assert anyio.run(other_task_ran_between_the_first_two_events)


@pytest.mark.parametrize("change", ["reissue", "remove"])
def test_a_seats_open_stream_ends_once_its_token_stops_working(
    service: MatchService, change: str
) -> None:
    """The owner re-issues a lost (or stolen) token, or removes the player: a stream opened
    with the old token must not go on showing the seat's hand, which a new request with
    that token would be refused."""
    from api.sse import event_stream

    match_id = service.create_match("highcard", 2, seed="s1", owner_token="owner").match_id
    tokens = [service.claim_seat(match_id, seat) for seat in (0, 1)]
    match = service.load(match_id)
    holder = match.seats[1].token_hash

    async def stream_until_it_ends() -> list[Any]:
        stream = event_stream(service, match_id, 1, match.version, keepalive=0.05, holder=holder)
        got = [await anext(stream)]  # a keep-alive: the stream is open and waiting
        if change == "reissue":
            await anyio.to_thread.run_sync(service.reissue_token, match_id, 1, "owner")
        else:
            await anyio.to_thread.run_sync(service.remove_player, match_id, 1, "owner")
        with anyio.fail_after(30):  # a hang guard: the stream must end by itself
            got.extend([message async for message in stream])
        return got

    messages = anyio.run(stream_until_it_ends)
    assert messages[0].comment == "keep-alive"
    assert all(m.data is None for m in messages), "no event after the token stopped working"
    assert service.seat_for_token(service.load(match_id), tokens[0]) == 0


def highcard_position(**changes: Any) -> dict[str, Any]:
    position = {
        "players": 2, "rounds": 1, "hand_size": 1, "deck": [], "hands": [[1], [2]],
        "table": [None, None], "wins": [0, 0], "round": 1, "leader": 0, "to_act": 0,
    }  # fmt: skip
    return {**position, **changes}


def test_match_can_start_from_a_position_document(client: TestClient[Any]) -> None:
    match_id = new_match(client, position=highcard_position(to_act=1, leader=1))
    body = client.get(f"/matches/{match_id}").json()
    assert body["to_act"] == [1]
    assert body["view"]["hand_counts"] == [1, 1]


@pytest.mark.parametrize(
    ("position", "code"),
    [
        (highcard_position(hands=[[1], [1]]), "duplicate_card"),
        ({"players": 2}, "bad_position"),
        (highcard_position(to_act=5), "position_not_playable"),
    ],
)
def test_impossible_position_is_refused(
    client: TestClient[Any], position: dict[str, Any], code: str
) -> None:
    response = client.post(
        "/matches", json={"game": "highcard", "players": 2, "position": position}
    )
    assert_problem(response, 422, code)
    assert client.get("/matches").json()["total"] == 0
