"""A create (``POST /matches``, ``POST /matches/import``) retried with its Idempotency-Key
answers the first match again, owner token included, instead of making a second one; the
same key with another body is refused; with no key every create is a new match."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import store_backends
from litestar.testing import TestClient
from store_backends import Backend

from api.app import create_app
from core.errors import ServiceUnavailable
from core.events import AppendResult
from core.registry import GameRegistry
from core.service import MatchService
from core.store.base import Seen
from core.store.memory import MemoryStore
from core.tasks import NullRunner
from tests.test_api import assert_problem, bearer

backend = store_backends.backend_fixture(store_backends.BACKENDS)

BODY = {"game": "highcard", "players": 2}


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def keyed(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def match_count(client: TestClient[Any]) -> int:
    return int(client.get("/matches").json()["total"])


def bot_played(client: TestClient[Any]) -> str:
    """A highcard match its bots played to the end: its position and record are open."""
    played = client.post("/matches", json={**BODY, "seed": "rec"}).json()["id"]
    for seat in (0, 1):
        client.post(f"/matches/{played}/seats/{seat}/bot", json={"bot": "random"})
    assert client.get(f"/matches/{played}").json()["finished"]
    return str(played)


def test_a_keyed_create_retried_answers_the_first_match_and_owner_token_and_stores_nothing(
    client: TestClient[Any],
) -> None:
    key = keyed(str(uuid.uuid4()))
    first = client.post("/matches", json=BODY, headers=key)
    again = client.post("/matches", json=BODY, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert match_count(client) == 1
    # The token given twice is the owner's, not merely the same string.
    invited = client.post(
        f"/matches/{first.json()['id']}/seats/0/invite", headers=bearer(first.json()["owner_token"])
    )
    assert invited.status_code == 201, invited.text


def test_a_keyed_create_retried_after_play_began_still_answers_as_it_first_did(
    client: TestClient[Any],
) -> None:
    key = keyed(str(uuid.uuid4()))
    first = client.post("/matches", json=BODY, headers=key).json()
    claimed = client.post(f"/matches/{first['id']}/seats/0/claim")
    assert claimed.status_code == 201, claimed.text
    assert client.post("/matches", json=BODY, headers=key).json() == first


def test_a_create_key_reused_with_another_body_is_refused_and_creates_nothing(
    client: TestClient[Any],
) -> None:
    key = keyed(str(uuid.uuid4()))
    first = client.post("/matches", json=BODY, headers=key).json()
    other = client.post("/matches", json={**BODY, "players": 3}, headers=key)
    assert_problem(other, 422, "idempotency_key_reused")
    seeded = client.post("/matches", json={**BODY, "seed": "s"}, headers=key)
    assert_problem(seeded, 422, "idempotency_key_reused")
    assert match_count(client) == 1
    assert client.post("/matches", json=BODY, headers=key).json() == first


def test_a_create_retried_with_its_defaults_spelt_out_is_the_same_request(
    client: TestClient[Any],
) -> None:
    """``"options": {}`` or ``"rules": {}`` beside a first body without them was refused as
    another request (422), though the server makes the same match of both."""
    key = keyed(str(uuid.uuid4()))
    first = client.post("/matches", json=BODY, headers=key).json()
    for spelt in ({"options": {}}, {"options": None, "rules": {}}, {"rules": {"absent": "bot"}}):
        again = client.post("/matches", json={**BODY, **spelt}, headers=key)
        assert again.status_code == 201 and again.json() == first, (spelt, again.text)
    other_rules = client.post(
        "/matches", json={**BODY, "rules": {"absent": "abandon"}}, headers=key
    )
    assert_problem(other_rules, 422, "idempotency_key_reused")
    assert match_count(client) == 1


def test_two_keys_make_two_matches_with_unrelated_owner_tokens(client: TestClient[Any]) -> None:
    one = client.post("/matches", json=BODY, headers=keyed(str(uuid.uuid4()))).json()
    two = client.post("/matches", json=BODY, headers=keyed(str(uuid.uuid4()))).json()
    assert one["id"] != two["id"] and one["owner_token"] != two["owner_token"]
    refused = client.post(
        f"/matches/{two['id']}/seats/0/invite", headers=bearer(one["owner_token"])
    )
    assert refused.status_code == 403, refused.text


def test_creates_without_a_key_make_a_new_match_each(client: TestClient[Any]) -> None:
    one = client.post("/matches", json=BODY).json()
    two = client.post("/matches", json=BODY).json()
    assert one["id"] != two["id"] and one["owner_token"] != two["owner_token"]
    assert match_count(client) == 2


def test_a_keyed_create_from_a_position_retried_answers_the_first_match(
    client: TestClient[Any],
) -> None:
    position = client.get(f"/matches/{bot_played(client)}/position").json()["position"]
    body = {**BODY, "position": position}
    key = keyed(str(uuid.uuid4()))
    first = client.post("/matches", json=body, headers=key)
    assert first.status_code == 201, first.text
    assert client.post("/matches", json=body, headers=key).json() == first.json()
    assert match_count(client) == 2


def test_a_keyed_import_retried_answers_the_first_match_and_another_record_is_refused(
    client: TestClient[Any],
) -> None:
    record = client.get(f"/matches/{bot_played(client)}/record").json()
    key = keyed(str(uuid.uuid4()))
    first = client.post("/matches/import", json=record, headers=key)
    assert first.status_code == 201, first.text
    assert client.post("/matches/import", json=record, headers=key).json() == first.json()
    cut = {**record, "moves": record["moves"][:-1]}
    assert_problem(client.post("/matches/import", json=cut, headers=key), 422,
                   "idempotency_key_reused")  # fmt: skip
    assert match_count(client) == 2


class _AnswerLostStore(MemoryStore):
    """Stores the next append and then fails as if its answer never came back."""

    lose_next = True

    def append(self, *args: Any, **kwargs: Any) -> AppendResult:
        result = super().append(*args, **kwargs)
        if self.lose_next:
            self.lose_next = False
            raise ServiceUnavailable("store_unavailable", "the event store did not answer")
        return result


def test_a_keyed_create_answered_503_but_stored_is_answered_by_its_retry(
    registry: GameRegistry,
) -> None:
    with TestClient(create_app(MatchService(_AnswerLostStore(), registry, NullRunner()))) as web:
        key = keyed(str(uuid.uuid4()))
        assert_problem(web.post("/matches", json=BODY, headers=key), 503, "store_unavailable")
        again = web.post("/matches", json=BODY, headers=key)
        assert again.status_code == 201, again.text
        listed = web.get("/matches").json()
        assert listed["total"] == 1 and listed["items"][0]["id"] == again.json()["id"]
        owner = bearer(again.json()["owner_token"])
        invited = web.post(f"/matches/{again.json()['id']}/seats/0/invite", headers=owner)
        assert invited.status_code == 201, invited.text


class _LookupBlindStore(MemoryStore):
    """Misses every key lookup, as a create does whose copy lands right after it looked:
    only the append's own key check then stands between the two copies."""

    def lookup(self, stream_id: str, idempotency_key: str) -> Seen | None:
        return None


def test_a_keyed_create_whose_copy_won_the_append_answers_the_copys_match(
    registry: GameRegistry,
) -> None:
    svc = MatchService(_LookupBlindStore(), registry, NullRunner())
    first = svc.create_match("highcard", 2, idempotency_key="race-1")
    again = svc.create_match("highcard", 2, idempotency_key="race-1")
    assert (again.match_id, again.seed, again.version) == (first.match_id, first.seed,
                                                           first.version)  # fmt: skip
    assert svc.store.count_streams() == 1


def test_racing_keyed_creates_make_one_match_on_every_backend(
    backend: Backend, registry: GameRegistry
) -> None:
    svc = MatchService(backend.store, registry, NullRunner())
    start = threading.Barrier(4)
    made: list[tuple[str, str, int]] = []
    failed: list[BaseException] = []

    def create() -> None:
        start.wait()
        try:
            match = svc.create_match("highcard", 2, {"rounds": 2}, idempotency_key="race-2")
            made.append((match.match_id, match.seed, match.version))
        except BaseException as exc:  # reported by the assertion below, not lost in a thread
            failed.append(exc)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed and len(set(made)) == 1 and len(made) == 4
    assert [s.stream_id for s in backend.store.list_streams()] == [made[0][0]]
