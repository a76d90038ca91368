"""The public HTTP API as an outside client meets it, over the real games.

Each test pins a behaviour a client relies on, or a defect found by attacking a live
server (wrong JSON types coerced, misspelt move fields dropped, an empty body answered
with a cryptic sentence).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import store_backends
from litestar.testing import TestClient

from api.app import create_app
from core.service import MatchService
from core.store.memory import MemoryStore

PROBLEM = "application/problem+json"
SEED = "blackbox-secret-seed-4711"

SETUPS = [
    pytest.param("brass-birmingham", 2, None, id="brass-birmingham"),
    pytest.param("brass-pittsburgh", 2, None, id="brass-pittsburgh"),
    pytest.param("age-of-steam", 3, None, id="age-of-steam-rust-belt"),
    pytest.param("age-of-steam", 1, {"map": "barbados"}, id="age-of-steam-barbados"),
    pytest.param("age-of-steam", 2, {"map": "st_lucia"}, id="age-of-steam-st-lucia"),
]
HIDDEN_HANDS = ["brass-birmingham", "brass-pittsburgh"]


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code and body["status"] == status
    assert body["title"] and body["detail"] and body["type"].endswith(code)
    return body


def create(
    client: TestClient[Any], game: str, players: int, options: dict[str, Any] | None = None
) -> str:
    body: dict[str, Any] = {"game": game, "players": players, "seed": SEED}
    if options:
        body["options"] = options
    response = client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def claim(client: TestClient[Any], match_id: str, seats: range) -> list[str]:
    tokens = []
    for seat in seats:
        response = client.post(f"/matches/{match_id}/seats/{seat}/claim")
        assert response.status_code == 201, response.text
        tokens.append(response.json()["token"])
    return tokens


def version(client: TestClient[Any], match_id: str) -> int:
    return client.get(f"/matches/{match_id}").json()["version"]


def seat_to_act(client: TestClient[Any], match_id: str, tokens: list[str]) -> tuple[int, Any]:
    """The seat the match waits for and its listed moves."""
    seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
    listed = client.get(f"/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()
    return seat, listed


# --- match creation ------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["brass-birmingham", "brass-pittsburgh", "age-of-steam"])
def test_every_advertised_player_count_starts_and_the_others_are_refused(
    client: TestClient[Any], game: str
) -> None:
    info = {g["id"]: g for g in client.get("/games").json()}[game]
    maps = info["metadata"].get("board", {}).get("maps")
    ranges = (
        {name: (m["min_players"], m["max_players"]) for name, m in maps.items()}
        if maps
        else {None: (info["min_players"], info["max_players"])}
    )
    for map_id, (low, high) in ranges.items():
        options = {"map": map_id} if map_id else None
        for players in range(1, info["max_players"] + 2):
            body: dict[str, Any] = {"game": game, "players": players}
            if options:
                body["options"] = options
            response = client.post("/matches", json=body)
            if low <= players <= high:
                assert response.status_code == 201, (map_id, players, response.text)
                assert len(response.json()["seats"]) == players
            else:
                assert_problem(response, 400, "bad_player_count")


@pytest.mark.parametrize(
    "body",
    [
        {"game": "age-of-steam", "players": "3"},
        {"game": "age-of-steam", "players": 3.5},
        {"game": "age-of-steam", "players": True},
        {"game": "age-of-steam", "players": 3, "seed": 42},
    ],
    ids=["players-as-string", "players-as-fraction", "players-as-bool", "seed-as-number"],
)
def test_body_field_of_the_wrong_json_type_is_refused_not_coerced(
    client: TestClient[Any], body: dict[str, Any]
) -> None:
    problem = assert_problem(client.post("/matches", json=body), 400, "invalid_request")
    assert problem["errors"][0]["key"] in ("players", "seed")
    assert client.get("/matches").json()["total"] == 0


def test_integral_number_written_with_a_fraction_is_an_integer_as_json_schema_says(
    client: TestClient[Any],
) -> None:
    response = client.post("/matches", json={"game": "age-of-steam", "players": 3.0})
    assert response.status_code == 201, response.text
    assert response.json()["players"] == 3


def test_expected_version_sent_as_a_string_is_refused_and_nothing_moves(
    client: TestClient[Any],
) -> None:
    match_id = create(client, "age-of-steam", 3)
    tokens = claim(client, match_id, range(3))
    seat, listed = seat_to_act(client, match_id, tokens)
    before = version(client, match_id)
    response = client.post(
        f"/matches/{match_id}/moves",
        json={"move": listed["moves"][0], "expected_version": str(listed["version"])},
        headers=bearer(tokens[seat]),
    )
    problem = assert_problem(response, 400, "invalid_request")
    assert problem["errors"][0]["key"] == "expected_version"
    assert version(client, match_id) == before


def test_request_without_a_body_is_told_to_send_one(client: TestClient[Any]) -> None:
    match_id = create(client, "brass-birmingham", 2)
    response = client.post(f"/matches/{match_id}/seats/0/bot")
    problem = assert_problem(response, 400, "invalid_request")
    assert "JSON body" in problem["detail"]
    assert client.get(f"/matches/{match_id}").json()["seats"][0]["bot"] is None


@pytest.mark.parametrize(
    ("name", "content_type", "body", "status"),
    [
        ("too_large", "application/json", b'{"a": "' + b"x" * 70_000 + b'"}', 413),
        ("not_json", "text/plain", b"resign, please", 415),
    ],
    ids=["too_large", "not_json"],
)
def test_a_write_without_a_body_answers_a_huge_or_foreign_body_as_its_document_says(
    client: TestClient[Any], name: str, content_type: str, body: bytes, status: int
) -> None:
    """Invite, re-issue, remove, resign, the stream ticket, taking a seat back and deleting
    a hook read no body, yet refuse one over the size limit (413) or, for a POST, not JSON
    (415): their operations in the document did not list either."""
    document = client.get("/docs/openapi.json").json()
    match_id = create(client, "brass-birmingham", 2)
    checked = 0
    for template, operations in document["paths"].items():
        path = template.replace("{match_id}", match_id).replace("{seat}", "0")
        path = path.replace("{hook_id}", "h")
        for method, operation in operations.items():
            if method not in ("post", "delete") or "requestBody" in operation:
                continue
            if method == "delete" and status == 415:
                continue  # a DELETE's body is read as JSON whatever its type: a 400
            headers = {"content-type": content_type}
            answer = client.request(method.upper(), path, content=body, headers=headers)
            assert answer.status_code == status, (method, path, answer.text)
            assert str(status) in operation["responses"], (method, template, name)
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize(
    ("path", "body", "key"),
    [
        ("/matches", '{"game": "brass-birmingham", "players": 2, "players": 3}', "players"),
        ("/matches", '{"game": "brass-birmingham", "players": 2, "rules": '
                     '{"invite_only": true, "invite_only": false}}', "invite_only"),
        ("/matches/{id}/seats/1/bot", '{"bot": "random", "bot": "greedy"}', "bot"),
        ("/matches/{id}/hooks", '{"url": "https://93.184.216.34/a", '
                                '"url": "https://93.184.216.34/b"}', "url"),
    ],
    ids=["create", "create_rules", "bot", "hook"],
)  # fmt: skip
def test_a_body_naming_a_key_twice_is_refused_not_half_read(
    client: TestClient[Any], path: str, body: str, key: str
) -> None:
    """JSON decoders keep the last of two same-named keys: {"players": 2, "players": 3}
    made a three-player match, the 2 dropped unread."""
    match_id = create(client, "brass-birmingham", 2)
    (token,) = claim(client, match_id, range(1))
    headers = {"content-type": "application/json", **bearer(token)}
    answer = client.post(path.replace("{id}", match_id), content=body, headers=headers)
    problem = assert_problem(answer, 400, "invalid_request")
    assert problem["errors"][0]["key"] == key and "twice" in problem["detail"]
    assert client.get("/matches").json()["total"] == 1
    assert client.get(f"/matches/{match_id}").json()["seats"][1]["bot"] is None


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("brass-lancashire", 2, None), ("age-of-steam", 1, {"map": "barbados"})],
    ids=["brass-lancashire", "age-of-steam-barbados"],
)
def test_a_move_whose_json_is_not_utf8_is_refused_as_400_not_answered_500(
    client: TestClient[Any], game: str, players: int, options: dict[str, Any] | None
) -> None:
    """The move lane reads the move's JSON raw (its strings unchecked) and then decoded the
    whole body again to look for repeated keys: a byte that is no UTF-8 in a move's string
    was a 500 there, where every route answers such a body with a 400."""
    match_id = create(client, game, players, options)
    tokens = claim(client, match_id, range(players))
    seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
    at = version(client, match_id)
    body = b'{"move": {"type": "\xff"}, "expected_version": %d}' % at
    headers = {"content-type": "application/json", **bearer(tokens[seat])}
    answer = client.post(f"/matches/{match_id}/moves", content=body, headers=headers)
    problem = assert_problem(answer, 400, "invalid_request")
    assert "UTF-8" in problem["detail"]
    assert version(client, match_id) == at


def test_a_body_starting_with_a_byte_order_mark_is_refused_saying_so(
    client: TestClient[Any],
) -> None:
    """RFC 8259 (8.1) forbids a sender to add a BOM and lets a parser skip one; this API
    reads bodies exactly (it refuses a key named twice), so it refuses one, but it answered
    "invalid character (byte 0)", which sends a client looking at its JSON, not its bytes.
    A move (answered in front of the router when well formed) is refused alike."""
    bom = b"\xef\xbb\xbf"
    headers = {"content-type": "application/json"}
    body = json.dumps({"game": "brass-birmingham", "players": 2}).encode()
    problem = assert_problem(client.post("/matches", content=bom + body, headers=headers),
                             400, "invalid_request")  # fmt: skip
    assert "byte order mark" in problem["detail"]
    match_id = create(client, "brass-birmingham", 2)
    tokens = claim(client, match_id, range(2))
    seat, listed = seat_to_act(client, match_id, tokens)
    move = json.dumps({"move": listed["moves"][0], "expected_version": listed["version"]})
    answer = client.post(f"/matches/{match_id}/moves", content=bom + move.encode(),
                         headers={**headers, **bearer(tokens[seat])})  # fmt: skip
    assert "byte order mark" in assert_problem(answer, 400, "invalid_request")["detail"]
    resign = client.post(f"/matches/{match_id}/seats/{seat}/resign", content=bom + b"{}",
                         headers={**headers, **bearer(tokens[seat])})  # fmt: skip
    assert "byte order mark" in assert_problem(resign, 400, "invalid_request")["detail"]
    assert version(client, match_id) == listed["version"]


def test_a_body_in_a_charset_other_than_utf8_is_refused_naming_it(
    client: TestClient[Any],
) -> None:
    """A UTF-16 body labelled so was "invalid character (byte 0)"; JSON between systems is
    UTF-8 (RFC 8259), and the answer says that and names the charset sent."""
    body = json.dumps({"game": "brass-birmingham", "players": 2})
    headers = {"content-type": "application/json; charset=UTF-16"}
    answer = client.post("/matches", content=body.encode("utf-16"), headers=headers)
    problem = assert_problem(answer, 400, "invalid_request")
    assert "UTF-8" in problem["detail"] and "utf-16" in problem["detail"]
    assert client.get("/matches").json()["total"] == 0


@pytest.mark.parametrize("compressed", [True, False], ids=["gzip", "labelled_gzip"])
def test_a_body_with_a_content_coding_is_refused_as_415_not_misread(
    client: TestClient[Any], compressed: bool
) -> None:
    """A gzip body was "not valid JSON" (400), and a plain body labelled gzip was created
    from: the Content-Encoding header was never read."""
    body = json.dumps({"game": "brass-birmingham", "players": 2}).encode()
    headers = {"content-type": "application/json", "content-encoding": "gzip"}
    answer = client.post("/matches", content=gzip.compress(body) if compressed else body,
                         headers=headers)  # fmt: skip
    problem = assert_problem(answer, 415, "unsupported_media_type")
    assert "Content-Encoding gzip" in problem["detail"]
    assert answer.headers["accept-encoding"] == "identity"
    assert client.get("/matches").json()["total"] == 0
    plain = client.post(
        "/matches", content=body, headers={**headers, "content-encoding": "identity"}
    )
    assert plain.status_code == 201, plain.text


backend = store_backends.backend_fixture(store_backends.BACKENDS)


def test_a_path_with_a_control_character_is_a_404_on_every_store(
    backend: store_backends.Backend, registry: Any
) -> None:
    """``/matches/%00`` was a 500 on PostgreSQL (its text holds no NUL), and a static
    file's path with one a 500 on every store."""
    service = MatchService(backend.store, registry)
    with TestClient(create_app(service)) as client:
        for method, path in [
            ("GET", "/matches/%00"),
            ("GET", "/matches/a%00b/events"),
            ("GET", "/matches/%1f/moves"),
            ("POST", "/matches/%00/seats/0/claim"),
            ("GET", "/matches/%00/hooks"),
            ("GET", "/games/%00"),
            ("GET", "/static/api.js%00.png"),
        ]:
            answer = client.request(method, path)
            assert_problem(answer, 404, "not_found")
        # A well-formed move is answered in front of the router (api.move_lane): the same.
        match_id = create(client, "brass-birmingham", 2)
        tokens = claim(client, match_id, range(2))
        seat, listed = seat_to_act(client, match_id, tokens)
        move = {"move": listed["moves"][0], "expected_version": listed["version"]}
        for path in ("/matches/%00/moves", "/matches/a%00b/moves", "/matches/%7f/moves"):
            answer = client.post(path, json=move, headers=bearer(tokens[seat]))
            assert_problem(answer, 404, "not_found")


def nested(depth: int) -> str:
    """A JSON value ``depth`` arrays deep, under 2 KB even at a thousand levels."""
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [33, 978])
def test_a_deeply_nested_body_is_refused_as_a_bad_request(
    client: TestClient[Any], depth: int
) -> None:
    """978 levels made the JSON decoder raise RecursionError: a 500."""
    match_id = create(client, "brass-birmingham", 2)
    (token,) = claim(client, match_id, range(1))
    for path, body in [
        ("/matches", f'{{"game": "brass-birmingham", "players": 2, "options": {nested(depth)}}}'),
        (f"/matches/{match_id}/moves", f'{{"move": {nested(depth)}, "expected_version": 1}}'),
        (f"/matches/{match_id}/seats/1/bot", f'{{"bot": {nested(depth)}}}'),
    ]:
        response = client.post(
            path, content=body, headers={"content-type": "application/json", **bearer(token)}
        )
        problem = assert_problem(response, 400, "invalid_request")
        assert "nest" in problem["detail"]
    assert client.get("/matches").json()["total"] == 1


# --- moves -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game, players, options", SETUPS[:3])
def test_misspelt_field_in_a_move_is_refused_and_nothing_is_played(
    client: TestClient[Any], game: str, players: int, options: Any
) -> None:
    match_id = create(client, game, players, options)
    tokens = claim(client, match_id, range(players))
    seat, listed = seat_to_act(client, match_id, tokens)
    move = {**listed["moves"][0], "spaec": "birmingham:0"}
    response = client.post(
        f"/matches/{match_id}/moves",
        json={"move": move, "expected_version": listed["version"]},
        headers=bearer(tokens[seat]),
    )
    assert "spaec" in assert_problem(response, 400, "bad_move")["detail"]
    assert version(client, match_id) == listed["version"]


@pytest.mark.parametrize("game, players, options", SETUPS[:3])
def test_move_errors_name_the_problem_for_each_game(
    client: TestClient[Any], game: str, players: int, options: Any
) -> None:
    match_id = create(client, game, players, options)
    tokens = claim(client, match_id, range(players))
    seat, listed = seat_to_act(client, match_id, tokens)
    url = f"/matches/{match_id}/moves"
    body = {"move": listed["moves"][0], "expected_version": listed["version"]}
    other = (seat + 1) % players
    assert_problem(client.post(url, json=body), 401, "token_required")
    assert_problem(client.post(url, json=body, headers=bearer("garbage")), 403, "bad_token")
    assert_problem(client.post(url, json=body, headers=bearer(tokens[other])), 422, "not_your_turn")
    stale = {**body, "expected_version": body["expected_version"] - 1}
    conflict = assert_problem(
        client.post(url, json=stale, headers=bearer(tokens[seat])), 409, "version_conflict"
    )
    assert conflict["current_version"] == listed["version"]
    foreign = {"type": "loan"} if game == "age-of-steam" else {"type": "issue_shares", "count": 1}
    assert_problem(
        client.post(url, json={**body, "move": foreign}, headers=bearer(tokens[seat])),
        400,
        "bad_move",
    )
    assert (
        client.get(f"/matches/{match_id}/moves", headers=bearer(tokens[other])).json()["moves"]
        == []
    )
    assert version(client, match_id) == listed["version"]


@pytest.mark.parametrize("game, players, options", SETUPS[:3])
def test_idempotency_key_replays_the_first_answer_and_guards_against_reuse(
    client: TestClient[Any], game: str, players: int, options: Any
) -> None:
    match_id = create(client, game, players, options)
    tokens = claim(client, match_id, range(players))
    seat, listed = seat_to_act(client, match_id, tokens)
    url = f"/matches/{match_id}/moves"
    body = {"move": listed["moves"][0], "expected_version": listed["version"]}
    key = {"Idempotency-Key": "blackbox-1"}
    first = client.post(url, json=body, headers={**bearer(tokens[seat]), **key})
    assert first.status_code == 200, first.text
    again = client.post(url, json=body, headers={**bearer(tokens[seat]), **key})
    assert again.json() == {**first.json(), "replayed": True}
    changed = {**body, "move": listed["moves"][1]}
    assert_problem(
        client.post(url, json=changed, headers={**bearer(tokens[seat]), **key}),
        422,
        "idempotency_key_reused",
    )
    other = (seat + 1) % players
    assert_problem(
        client.post(url, json=body, headers={**bearer(tokens[other]), **key}),
        422,
        "idempotency_key_reused",
    )
    assert version(client, match_id) == first.json()["version"]


def test_an_idempotency_key_on_a_write_that_cannot_honour_it_is_refused_not_ignored(
    client: TestClient[Any],
) -> None:
    """An invite retried with a key made a second code, the first one dead: the key was
    dropped unread while the client took its retry as safe."""
    created = client.post("/matches", json={"game": "brass-birmingham", "players": 2}).json()
    match_id, owner = created["id"], created["owner_token"]
    (token,) = claim(client, match_id, range(1))
    key = {"Idempotency-Key": "blackbox-2"}
    seat_paths = f"/matches/{match_id}/seats"
    refused = [
        client.post(f"{seat_paths}/1/invite", headers={**bearer(owner), **key}),
        client.post(f"{seat_paths}/0/reissue", headers={**bearer(owner), **key}),
        client.post(f"{seat_paths}/1/bot", json={"bot": "random"}, headers=key),
        client.delete(f"{seat_paths}/1/bot", headers={**bearer(owner), **key}),
        client.post(f"/matches/{match_id}/stream-ticket", headers={**bearer(token), **key}),
        client.post(f"{seat_paths}/0/resign", headers={**bearer(token), **key}),
    ]
    for answer in refused:
        problem = assert_problem(answer, 400, "idempotency_key_unsupported")
        assert "Idempotency-Key" in problem["detail"]
    view = client.get(f"/matches/{match_id}").json()
    assert not view["seats"][1]["invited"] and view["seats"][1]["bot"] is None
    assert not view["seats"][0]["resigned"]
    # Where a key is honoured, and on reads, it is taken as before.
    assert client.post(f"{seat_paths}/1/claim", headers=key).status_code == 201
    assert client.get(f"/matches/{match_id}", headers=key).status_code == 200


def raw_requests(app: Any, *requests: tuple[str, str, list[tuple[str, str]], bytes]) -> list[Any]:
    """Answers to requests whose headers reach the app as sent, repeated ones included
    (the test client joins a repeated header into one)."""

    async def send_all() -> list[Any]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as raw:
            return [
                await raw.request(method, path, headers=headers, content=body)
                for method, path, headers, body in requests
            ]

    return asyncio.run(send_all())


@pytest.mark.parametrize(
    "header", ["Authorization", "Idempotency-Key", "Content-Type", "Last-Event-ID"]
)
def test_a_header_read_once_sent_twice_is_refused_not_half_read(
    client: TestClient[Any], header: str
) -> None:
    """Two Authorization headers were served as the first one's seat, two keys as the
    first key: whichever the server (or a proxy) reads, the other is dropped unread."""
    match_id = create(client, "brass-birmingham", 2)
    tokens = claim(client, match_id, range(2))
    seat, listed = seat_to_act(client, match_id, tokens)
    values = {
        "Authorization": [f"Bearer {tokens[seat]}", f"Bearer {tokens[1 - seat]}"],
        "Idempotency-Key": ["key-a", "key-b"],
        "Content-Type": ["application/json", "application/json"],
        "Last-Event-ID": ["1", "2"],  # read by no move, yet refused on every route
    }[header]
    headers = [(header, value) for value in values]
    if header != "Authorization":
        headers.append(("Authorization", f"Bearer {tokens[seat]}"))
    if header != "Content-Type":
        headers.append(("Content-Type", "application/json"))
    body = json.dumps({"move": listed["moves"][0], "expected_version": listed["version"]})
    path = f"/matches/{match_id}"
    moved, read, probe = raw_requests(
        client.app,
        ("POST", f"{path}/moves", headers, body.encode()),
        ("GET", path, headers[:2], b""),
        ("GET", "/health/live", headers[:2], b""),
    )
    assert_problem(moved, 400, "repeated_header")
    assert version(client, match_id) == listed["version"]
    if header != "Content-Type":  # (a read takes no content type)
        assert_problem(read, 400, "repeated_header")
    # The health probes read no header: a proxy's credentials beside the client's pass.
    assert probe.status_code == 200


# --- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", HIDDEN_HANDS)
def test_hands_seed_and_tokens_are_seen_only_by_whom_they_belong(
    client: TestClient[Any], game: str
) -> None:
    match_id = create(client, game, 2)
    tokens = claim(client, match_id, range(2))
    seat, listed = seat_to_act(client, match_id, tokens)
    client.post(
        f"/matches/{match_id}/moves",
        json={"move": listed["moves"][0], "expected_version": listed["version"]},
        headers=bearer(tokens[seat]),
    )
    spectator = client.get(f"/matches/{match_id}").json()
    assert spectator["you"] is None and spectator["view"]["hand"] is None
    hands = []
    for own in (0, 1):
        view = client.get(f"/matches/{match_id}", headers=bearer(tokens[own])).json()
        assert view["you"] == own and view["view"]["seat"] == own
        hands.append(view["view"]["hand"])
        assert view["view"]["players"][own]["hand_count"] == len(view["view"]["hand"])
    assert hands[0] != hands[1]
    readers: list[dict[str, str]] = [{}, bearer(tokens[0]), bearer(tokens[1])]
    for headers in readers:
        text = json.dumps(
            [
                client.get(f"/matches/{match_id}", headers=headers).json(),
                client.get(f"/matches/{match_id}/events", headers=headers).json(),
                client.get(f"/matches/{match_id}/stream?until_version=8", headers=headers).text,
                client.get("/matches").json(),
            ]
        )
        assert SEED not in text and "token_hash" not in text and '"seed"' not in text
        assert not any(token in text for token in tokens)


@pytest.mark.parametrize("game, players, options", SETUPS[:3])
def test_event_paging_and_stream_resume_agree_on_versions(
    client: TestClient[Any], game: str, players: int, options: Any
) -> None:
    match_id = create(client, game, players, options)
    claim(client, match_id, range(players))
    now = version(client, match_id)
    events = client.get(f"/matches/{match_id}/events", params={"limit": 500}).json()["events"]
    assert [e["version"] for e in events] == list(range(1, now + 1))
    page = client.get(f"/matches/{match_id}/events", params={"after": 2, "limit": 1}).json()
    assert [e["version"] for e in page["events"]] == [3]
    beyond = client.get(f"/matches/{match_id}/events", params={"after": now + 100}).json()
    assert beyond == {"match_id": match_id, "version": now, "events": []}
    for limit in (0, -1, 501):
        response = client.get(f"/matches/{match_id}/events", params={"limit": limit})
        assert_problem(response, 400, "invalid_request")
    stream = client.get(
        f"/matches/{match_id}/stream",
        params={"until_version": now},
        headers={"Last-Event-ID": str(now - 1)},
    ).text
    assert f"id: {now}\r\n" in stream and f"id: {now - 1}\r\n" not in stream
    # An empty Last-Event-ID is no resume point: ?after= applies
    resumed = client.get(
        f"/matches/{match_id}/stream",
        params={"after": now - 1, "until_version": now},
        headers={"Last-Event-ID": ""},
    )
    assert resumed.status_code == 200 and f"id: {now}\r\n" in resumed.text
    for garbage in ("abc", "-1", "2.5"):
        response = client.get(f"/matches/{match_id}/stream", headers={"Last-Event-ID": garbage})
        assert_problem(response, 400, "bad_last_event_id")


# --- seats and bots --------------------------------------------------------------------------


def test_seat_handover_to_bots_follows_the_seat_rules(client: TestClient[Any]) -> None:
    match_id = create(client, "brass-birmingham", 2)
    (token,) = claim(client, match_id, range(1))
    url = f"/matches/{match_id}/seats/{{}}/bot"
    assert_problem(client.post(url.format(0), json={"bot": "random"}), 403, "not_your_seat")
    assert_problem(client.post(url.format(0), json={"bot": "alphazero"}), 400, "unknown_bot")
    assert_problem(client.post(url.format(5), json={"bot": "random"}), 404, "seat_not_found")
    assert client.post(url.format(1), json={}).json()["bot"] == "random"
    assert_problem(client.post(url.format(1), json={"bot": "random"}), 409, "seat_taken")
    assert_problem(client.post(f"/matches/{match_id}/seats/1/claim"), 409, "seat_taken")
    handed = client.post(url.format(0), json={"bot": "random"}, headers=bearer(token))
    assert handed.status_code == 200, handed.text
    state = client.get(f"/matches/{match_id}").json()
    assert [s["bot"] for s in state["seats"]] == ["random", "random"]


@pytest.mark.parametrize("game, players, options", SETUPS)
def test_match_of_bots_only_plays_to_the_end_by_itself(
    client: TestClient[Any], game: str, players: int, options: Any
) -> None:
    match_id = create(client, game, players, options)
    for seat in range(players):
        response = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
        assert response.status_code == 200, response.text
    state = client.get(f"/matches/{match_id}").json()
    assert state["finished"], (state["version"], state["to_act"], state["view"].get("phase"))
    assert state["to_act"] == [] and sorted(state["result"]["ranking"])[0] == 1
    listed = client.get("/matches").json()["items"]
    assert {"id": match_id, "finished": True}.items() <= listed[0].items()


@pytest.mark.parametrize("game, players, options", SETUPS)
def test_every_listed_move_is_accepted_when_a_seat_is_played_by_hand(
    client: TestClient[Any], game: str, players: int, options: Any
) -> None:
    """Seat 0 picks from ``GET /moves`` until the end while bots play the other seats."""
    match_id = create(client, game, players, options)
    (token,) = claim(client, match_id, range(1))
    for seat in range(1, players):
        client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
    pick = random.Random(11)
    for _ in range(2000):
        state = client.get(f"/matches/{match_id}", headers=bearer(token)).json()
        if state["finished"]:
            break
        # Bots and system steps run inline, so the match waits for seat 0 whenever it waits
        assert state["to_act"] == [0], (state["version"], state["to_act"])
        listed = client.get(f"/matches/{match_id}/moves", headers=bearer(token)).json()
        assert listed["version"] == state["version"] and listed["moves"]
        response = client.post(
            f"/matches/{match_id}/moves",
            json={"move": pick.choice(listed["moves"]), "expected_version": listed["version"]},
            headers=bearer(token),
        )
        assert response.status_code == 200, response.text
        assert response.json()["first_version"] == listed["version"] + 1
    else:
        pytest.fail("the match did not end")
    assert state["result"] is not None and len(state["result"]["ranking"]) == players


def test_a_seat_handed_to_a_bot_lists_no_moves_its_holder_could_not_play(registry: Any) -> None:
    # No runner: the bot never gets to move, as while its job waits in a queue
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as idle:
        match_id = create(idle, "age-of-steam", 3)
        tokens = claim(idle, match_id, range(3))
        seat, listed = seat_to_act(idle, match_id, tokens)
        assert listed["moves"]
        handed = idle.post(
            f"/matches/{match_id}/seats/{seat}/bot", json={}, headers=bearer(tokens[seat])
        )
        assert handed.status_code == 200, handed.text
        moves = idle.get(f"/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()
        assert moves["moves"] == []
        response = idle.post(
            f"/matches/{match_id}/moves",
            json={"move": listed["moves"][0], "expected_version": moves["version"]},
            headers=bearer(tokens[seat]),
        )
        assert_problem(response, 409, "seat_is_bot")


def test_options_beside_a_position_are_refused_not_logged_as_if_they_applied(
    client: TestClient[Any], service: MatchService
) -> None:
    started = service.load(create(client, "age-of-steam", 3))
    position = service.game_of(started).export_position(started.game_state)
    body = {"game": "age-of-steam", "players": 3, "position": position}
    refused = client.post("/matches", json={**body, "options": {"map": "barbados"}})
    assert_problem(refused, 400, "options_with_position")
    assert client.get("/matches").json()["total"] == 1
    accepted = client.post("/matches", json={**body, "options": {}})
    assert accepted.status_code == 201, accepted.text
    view = client.get(f"/matches/{accepted.json()['id']}").json()["view"]
    assert view["map"] == "rust_belt"
