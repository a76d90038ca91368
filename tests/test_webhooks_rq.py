"""Webhooks delivered by RQ worker processes (``ironworks worker``), retries included."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.registry import GameRegistry
from core.service import MatchService
from tests.test_worker_rq import StartWorker, start_worker  # noqa: F401 - a fixture
from tests.webhook_receiver import HANG_GUARD, Receiver, receiver
from worker.bootstrap import ALLOW_PRIVATE_ENV, build_service

pytestmark = pytest.mark.redis


@pytest.fixture
def hook_target() -> Iterator[Receiver]:
    with receiver() as target:
        yield target


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'matches.sqlite3'}"


@pytest.fixture
def rq_service(
    store_url: str, redis_url: str, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> Iterator[MatchService]:
    monkeypatch.setenv(ALLOW_PRIVATE_ENV, "1")  # here and in the workers started after
    service = build_service(store_url, redis_url=redis_url, registry=registry)
    yield service
    service.runner.close()
    service.store.close()


def test_an_rq_worker_delivers_your_turn_and_retries_a_failed_attempt(
    rq_service: MatchService,
    store_url: str,
    start_worker: StartWorker,  # noqa: F811
    hook_target: Receiver,
) -> None:
    service = rq_service
    start_worker(store_url)
    match = service.create_match("highcard", 2, options={"rounds": 1, "hand_size": 1})
    tokens = [service.claim_seat(match.match_id, s) for s in (0, 1)]
    while not (to_act := [t.seat for t in service.tasks(service.load(match.match_id))
                          if t.kind == "turn"]):  # fmt: skip
        # the worker deals (a system job)
        assert service.store.wait(match.match_id, service.store.version(match.match_id), 25)
    first = to_act[0]
    assert service.webhooks is not None
    hook, secret = service.webhooks.register(
        match.match_id, hook_target.url, ["your_turn"], 1 - first, 1 - first,
        service.store.version(match.match_id),
    )  # fmt: skip
    hook_target.statuses = [500]
    legal = service.legal_moves(service.load(match.match_id), first)
    service.submit(match.match_id, tokens[first], legal[0], service.store.version(match.match_id))
    first_try, retry = hook_target.wait_for(2, event="your_turn")
    assert first_try.headers["x-ironworks-delivery"] == retry.headers["x-ironworks-delivery"]
    assert [first_try.body["attempt"], retry.body["attempt"]] == [1, 2]
    expected = "sha256=" + hmac.new(secret.encode(), retry.raw, hashlib.sha256).hexdigest()
    assert retry.headers["x-ironworks-signature"] == expected
    [delivery] = service.webhooks.deliveries_of(match.match_id, hook.hook_id, 1 - first)
    for _ in range(int(HANG_GUARD / 0.05)):
        if delivery.state == "delivered":
            break
        service.store.wait(match.match_id, 10**9, 0.05)  # a short pause
        [delivery] = service.webhooks.deliveries_of(match.match_id, hook.hook_id, 1 - first)
    assert [a.status_code for a in delivery.attempts] == [500, 200]
