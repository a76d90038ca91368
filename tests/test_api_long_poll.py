"""Long polling: ``GET /matches/{id}/events?after=N&wait=S`` answers as soon as an event
after N exists, parked in the store's wake-up meanwhile, and with an empty page after S."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore

HANG_GUARD = 30.0


class WatchedStore(MemoryStore):
    """A memory store that says when a reader starts waiting in it."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = threading.Event()

    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        self.waiting.set()
        return super().wait(stream_id, after_version, timeout)


@pytest.fixture
def api(registry: GameRegistry) -> Iterator[tuple[TestClient, MatchService]]:
    service = MatchService(WatchedStore(), registry)
    with TestClient(create_app(service)) as client:
        yield client, service


def new_match(client: TestClient) -> dict[str, Any]:
    return client.post("/matches", json={"game": "highcard", "players": 2}).json()


def test_a_long_poll_answers_with_the_event_that_arrives_while_it_waits(
    api: tuple[TestClient, MatchService],
) -> None:
    client, service = api
    match = new_match(client)
    answers: list[dict[str, Any]] = []
    poll = threading.Thread(
        target=lambda: answers.append(
            client.get(f"/matches/{match['id']}/events?after={match['version']}&wait=60").json()
        )
    )
    poll.start()
    assert service.store.waiting.wait(HANG_GUARD), "the poll never parked in the store"
    service.claim_seat(match["id"], 1)  # the event it waits for
    poll.join(HANG_GUARD)
    [page] = answers
    assert [e["type"] for e in page["events"]] == ["core.seat_claimed"]
    assert page["events"][0]["version"] == match["version"] + 1


def test_a_long_poll_with_events_already_there_answers_at_once(
    api: tuple[TestClient, MatchService],
) -> None:
    client, service = api
    match = new_match(client)
    page = client.get(f"/matches/{match['id']}/events?after=0&wait=60").json()
    assert len(page["events"]) == match["version"]
    assert not service.store.waiting.is_set()


def test_a_long_poll_that_sees_nothing_answers_an_empty_page_after_the_wait(
    api: tuple[TestClient, MatchService],
) -> None:
    client, service = api
    match = new_match(client)
    page = client.get(f"/matches/{match['id']}/events?after={match['version']}&wait=1").json()
    assert page["events"] == [] and page["version"] == match["version"]
    assert service.store.waiting.is_set()


def test_a_finished_match_is_answered_at_once(
    api: tuple[TestClient, MatchService],
) -> None:
    client, service = api
    from tests.test_webhooks import finish

    match = service.create_match("highcard", 2, options={"rounds": 1, "hand_size": 1})
    finish(service, match.match_id)
    version = service.store.version(match.match_id)
    page = client.get(f"/matches/{match.match_id}/events?after={version}&wait=60").json()
    assert page["events"] == []
    assert not service.store.waiting.is_set()


@pytest.mark.parametrize("wait", ["61", "-1", "soon"])
def test_a_wait_out_of_bounds_is_refused(api: tuple[TestClient, MatchService], wait: str) -> None:
    client, _ = api
    match = new_match(client)
    answer = client.get(f"/matches/{match['id']}/events?wait={wait}")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["key"] == "wait"


def test_a_wait_after_a_version_the_match_never_reached_is_a_409_not_a_wait(
    api: tuple[TestClient, MatchService],
) -> None:
    """The client's version comes from elsewhere: a wait would be spent on events it cannot
    place, and the event stream would hang until the match caught up. A plain read (no
    wait) stays an empty page, whose ``version`` tells the client where the log ends."""
    client, service = api
    match = new_match(client)
    past = match["version"] + 1
    base = f"/matches/{match['id']}"
    for method, url, headers in [
        ("GET", f"{base}/events?after={past}&wait=60", {}),
        ("HEAD", f"{base}/events?after={past}&wait=60", {}),
        ("GET", f"{base}/stream?after={past}", {}),
        ("GET", f"{base}/stream", {"Last-Event-ID": str(past)}),
        ("HEAD", f"{base}/stream", {"Last-Event-ID": str(past)}),
    ]:
        answer = client.request(method, url, headers=headers)
        assert answer.status_code == 409, (method, url, answer.text)
        if method == "GET":
            problem = answer.json()
            assert problem["code"] == "after_past_end"
            assert problem["current_version"] == match["version"]
    assert not service.store.waiting.is_set()
    page = client.get(f"{base}/events?after={past}").json()
    assert page["events"] == [] and page["version"] == match["version"]
    # After the newest version itself, a wait is a wait: an empty page once it is over
    at_end = client.get(f"{base}/events?after={match['version']}&wait=1")
    assert at_end.status_code == 200 and at_end.json()["events"] == []
    assert service.store.waiting.is_set()
