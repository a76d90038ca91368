"""The move lane (:mod:`api.move_lane`) answers every move request exactly as the Litestar
route behind it does, and leaves it every request it does not play itself."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.move_lane import MoveLane
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from worker.inprocess import InlineRunner


def _service(registry: GameRegistry) -> MatchService:
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner, snapshot_every=5)
    runner.bind(service)
    return service


class Routed:
    """Counts the requests the lane hands on to Litestar."""

    def __init__(self, lane: MoveLane) -> None:
        self.inner = lane.litestar
        self.count = 0
        lane.litestar = self

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            self.count += 1
        await self.inner(scope, receive, send)


@pytest.fixture
def clients(registry: GameRegistry) -> Iterator[tuple[TestClient[Any], TestClient[Any], Routed]]:
    """The app with its lane, the same app without it (Litestar alone), and the lane's
    count of what it handed on."""
    with_lane = create_app(_service(registry))
    lane = with_lane.asgi_handler
    assert isinstance(lane, MoveLane)
    routed = Routed(lane)
    route_only = create_app(_service(registry))
    route_only.asgi_handler = route_only.asgi_handler.litestar  # type: ignore[attr-defined]
    with TestClient(with_lane) as a, TestClient(route_only) as b:
        yield a, b, routed


def _setup(client: TestClient[Any]) -> tuple[str, list[str], dict[str, Any], int]:
    match_id = client.post("/matches", json={"game": "highcard", "players": 2, "seed": "s1"})
    match_id = match_id.json()["id"]
    tokens = [client.post(f"/matches/{match_id}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
    listed = client.get(
        f"/matches/{match_id}/moves", headers={"Authorization": f"Bearer {tokens[seat]}"}
    ).json()
    return match_id, tokens, listed["moves"][0], listed["version"]


def _answer(response: Any, match_id: str) -> tuple[int, str, str, bool]:
    return (
        response.status_code,
        response.headers["content-type"],
        response.text.replace(match_id, "MATCH"),
        "x-request-id" in response.headers,  # its value differs from request to request
    )


ROUTE, LANE = True, False
"""Who answers a request: the Litestar route (the lane hands it on) or the lane."""


def _requests(
    match_id: str, token: str, other: str, move: Any, version: int
) -> list[tuple[str, bytes, dict[str, str], bool]]:
    """(path, body, headers, answered by the route) of move requests, well-formed and not,
    in order."""
    path = f"/matches/{match_id}/moves"
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def body(move: Any = move, **fields: Any) -> bytes:
        return json.dumps({"move": move, "expected_version": version, **fields}).encode()

    deep: Any = move
    for _ in range(40):
        deep = [deep]
    bad_version = b'{"move": ' + json.dumps(move).encode() + b', "expected_version": "1"}'
    # A key named twice: decoders keep the last, the route refuses it (as on every route).
    twice = body()[:-1] + b', "expected_version": %d}' % (version + 7)
    moved_twice = body()[:-1].replace(b'{"move": {', b'{"move": {"type": "nope", ', 1) + b"}"
    return [
        (path, body(), {**auth, "Content-Type": "text/plain"}, ROUTE),
        (path + "?dry_run=1", body(), auth, ROUTE),  # an unknown query parameter
        (path, bad_version, auth, ROUTE),
        (path, body(extra=1), auth, ROUTE),  # an unknown field
        (path, body([move]), auth, ROUTE),  # a move that is no object
        (path, body({**move, "deep": deep}), auth, ROUTE),
        (path, b"", auth, ROUTE),
        (path, b"{not json", auth, ROUTE),
        (path, body(), {**auth, "Idempotency-Key": "k" * 129}, ROUTE),
        (path, body(), {**auth, "Idempotency-Key": ""}, ROUTE),
        (f"/matches/{'m' * 65}/moves", body(), auth, ROUTE),
        (path, twice, auth, ROUTE),
        (path, moved_twice, auth, ROUTE),
        (path, body(), {**auth, "Content-Encoding": "gzip"}, ROUTE),  # labelled, not so
        ("/matches/%00/moves", body(), auth, ROUTE),  # no match is named with a NUL
        ("/matches/a%1fb/moves", body(), auth, ROUTE),
        (path, body(), {**auth, "Authorization": "Token abc"}, LANE),
        (path, body(), {"Content-Type": "application/json"}, LANE),  # no token
        (path, body(), {**auth, "Authorization": f"Bearer {other}x"}, LANE),  # nobody's
        ("/matches/nosuchmatch/moves", body(), auth, LANE),
        (path, body({"type": "nope"}), auth, LANE),
        (path, body(), {**auth, "Idempotency-Key": "key-1"}, LANE),  # played
        (path, body(), {**auth, "Idempotency-Key": "key-1"}, LANE),  # replayed
        (path, body(), auth, LANE),  # stale now: a conflict
        (path, body(), {**auth, "Idempotency-Key": "key-1"}, LANE),  # still the replay
    ]


def test_every_move_request_is_answered_as_litestar_answers_it(
    clients: tuple[TestClient[Any], TestClient[Any], Routed],
) -> None:
    with_lane, route_only, _ = clients
    a, b = _setup(with_lane), _setup(route_only)
    assert (a[2], a[3]) == (b[2], b[3])  # the same seed, the same match
    answers = []
    for setup, client in ((a, with_lane), (b, route_only)):
        match_id, tokens, move, version = setup
        seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
        requests = _requests(match_id, tokens[seat], tokens[1 - seat], move, version)
        answers.append(
            [
                _answer(client.post(path, content=content, headers=headers), match_id)
                for path, content, headers, _ in requests
            ]
        )
    assert answers[0] == answers[1]
    statuses = [status for status, *_ in answers[0]]
    assert statuses == [
        415, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 415, 404, 404,
        401, 401, 403, 404, 400, 200, 200, 409, 200,
    ]  # fmt: skip


def test_the_lane_plays_well_formed_moves_and_hands_on_the_rest(
    clients: tuple[TestClient[Any], TestClient[Any], Routed],
) -> None:
    with_lane, _, routed = clients
    match_id, tokens, move, version = _setup(with_lane)
    seat = with_lane.get(f"/matches/{match_id}").json()["to_act"][0]
    requests = _requests(match_id, tokens[seat], tokens[1 - seat], move, version)
    for path, content, headers, by_route in requests:
        before = routed.count
        with_lane.post(path, content=content, headers=headers)
        assert routed.count - before == by_route, (path, content, headers)


def test_an_app_whose_move_route_has_guards_refuses_the_lane(service: MatchService) -> None:
    from litestar import Litestar
    from litestar.di import Provide

    from api.routes import submit_move

    guarded = Litestar(
        [submit_move],
        guards=[lambda connection, handler: None],
        dependencies={
            "service": Provide(lambda: service, sync_to_thread=False),
            "token": Provide(lambda: None, sync_to_thread=False),
        },
    )
    with pytest.raises(ValueError, match="guards"):
        MoveLane(guarded, service, [], 1024, 32)


def test_a_move_naming_a_key_twice_goes_to_the_route_however_it_is_written(
    clients: tuple[TestClient[Any], TestClient[Any], Routed],
) -> None:
    """The lane tells a body with a repeated key cheaply when it is written as msgspec or
    JSON.stringify write (compact), or as Python's json writes (blanks); written any other
    way it counts the keys. A repeated key goes to the route (400, nothing played) however
    it is written, and a body without one is played by the lane however it is written."""
    with_lane, _, routed = clients
    match_id, tokens, move, version = _setup(with_lane)
    seat = with_lane.get(f"/matches/{match_id}").json()["to_act"][0]
    headers = {"Authorization": f"Bearer {tokens[seat]}", "Content-Type": "application/json"}
    path = f"/matches/{match_id}/moves"
    compact = json.dumps(move, separators=(",", ":"))
    escaped = compact.replace('"type"', '"\\u0074ype"', 1)
    assert escaped != compact
    twice = [
        f'{{"move":{compact},"expected_version":{version},"expected_version":{version}}}',
        f'{{"move":{{"type":"nope",{compact[1:]},"expected_version":{version}}}',
        f'{{ "move" : {compact} ,\n "expected_version": {version}, "move": {compact} }}',
        f'{{"move":{escaped[:-1]},"type":"nope"}},"expected_version":{version}}}',
    ]
    for body in twice:
        before = routed.count
        answer = with_lane.post(path, content=body, headers=headers)
        assert answer.status_code == 400 and "twice" in answer.json()["detail"], body
        assert routed.count - before == 1
    assert with_lane.get(f"/matches/{match_id}").json()["version"] == version
    before = routed.count
    once = f'{{"move":{escaped},"expected_version":{version}}}'
    assert with_lane.post(path, content=once, headers=headers).status_code == 200
    assert routed.count == before  # played by the lane


def test_a_move_the_lane_plays_answers_with_the_request_id_the_request_log_gives_it(
    clients: tuple[TestClient[Any], TestClient[Any], Routed],
) -> None:
    """The lane writes the request log's part itself (:meth:`MoveLane._served`): the
    client's X-Request-ID comes back (its first 64 characters), else a new one."""
    with_lane, _, routed = clients
    match_id, tokens, move, version = _setup(with_lane)
    seat = with_lane.get(f"/matches/{match_id}").json()["to_act"][0]
    auth = ("authorization", f"Bearer {tokens[seat]}")
    auth = (auth, ("content-type", "application/json"), ("idempotency-key", "once-1234"))
    body = json.dumps({"move": move, "expected_version": version})
    path = f"/matches/{match_id}/moves"
    sent = [
        [*auth, ("x-request-id", "first-7")],
        [*auth, ("x-request-id", "x" * 80)],
        [*auth, ("x-request-id", "")],
        [*auth],
    ]
    before = routed.count
    answers = [with_lane.post(path, content=body, headers=headers) for headers in sent]
    assert routed.count == before, "the lane played each"
    assert [a.status_code for a in answers] == [200, 200, 200, 200]  # replays of the first
    ids = [a.headers["x-request-id"] for a in answers]
    assert ids[:2] == ["first-7", "x" * 64]
    assert all(len(made) == 16 and int(made, 16) >= 0 for made in ids[2:]) and ids[2] != ids[3]
