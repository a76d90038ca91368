"""Fault drills: a store or a queue that is down or stalled is answered truthfully.

A request the backend cannot serve gets a 503 problem with ``Retry-After`` within the
backend's timeout, never a 500 or a hang; a change that was stored is answered as a
success even when its follow-up jobs could not be queued (the reconciler queues them
later); ``/health/live`` answers whatever the backends do, ``/health/ready`` says which one
is down. Everything runs on loopback (see :mod:`tests.faults`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.registry import GameRegistry
from core.service import MatchService
from core.store.base import open_store
from core.store.redis import split_prefix
from core.store.sqlite import SQLiteStore
from core.tasks import NullRunner
from tests.faults import Proxy, answered_within, free_port, served, stalled_server
from worker.inprocess import InlineRunner
from worker.jobs import execute
from worker.reconciler import Reconciler
from worker.rq_runner import Keys, RQRunner

PROBLEM = "application/problem+json"
FAST = "socket_timeout=0.2&socket_connect_timeout=0.2"
"""Redis client timeouts for the drills, so a stalled server costs a fifth of a second."""
LIMITS = httpx.Limits(max_connections=100)
GUARD = 10.0
"""Seconds after which a drill request counts as hung; far above any timeout in play."""


def assert_unavailable(response: Any, code: str) -> dict[str, Any]:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    assert int(response.headers["retry-after"]) >= 1
    problem = response.json()
    assert problem["code"] == code and problem["status"] == 503
    assert problem["title"] and problem["detail"] and problem["type"].endswith(code)
    return problem


def assert_ready(client: Any, store: bool, queue: bool) -> None:
    """``/health/ready`` and the older ``/health`` name what is down; ``/health/live`` is up."""
    live = client.get("/health/live")
    assert live.status_code == 200 and live.json()["ok"] is True
    for path in ("/health/ready", "/health"):
        response = client.get(path)
        body = response.json()
        checks = {name: check["ok"] for name, check in body["checks"].items()}
        assert checks == {"store": store, "queue": queue}, body
        assert body["ok"] is (store and queue)
        if store and queue:
            assert response.status_code == 200
        else:
            assert response.status_code == 503 and int(response.headers["retry-after"]) >= 1


def store_routes(client: Any) -> Iterator[Any]:
    """One request to each kind of store route: list, create, read, write."""
    yield client.get("/matches")
    yield client.post("/matches", json={"game": "highcard", "players": 2})
    yield client.get("/matches/m1")
    yield client.get("/matches/m1/events")
    yield client.post("/matches/m1/seats/0/claim")


# --- the store ------------------------------------------------------------------------------


def test_a_redis_store_that_is_down_is_a_503_and_not_ready(registry: GameRegistry) -> None:
    """It was a 500 internal_error on every store route, with /health saying ok: true."""
    store = open_store(f"redis://127.0.0.1:{free_port()}/0?{FAST}")
    with TestClient(create_app(MatchService(store, registry, NullRunner()))) as client:
        for response in store_routes(client):
            assert_unavailable(response, "store_unavailable")
        assert_ready(client, store=False, queue=True)


def test_a_stalled_redis_store_is_a_503_and_leaves_the_server_answering(
    registry: GameRegistry,
) -> None:
    """A Redis that accepts connections and never answers held each request ~5 s, and
    about 40 of them took every thread, /health included."""
    with stalled_server() as port:
        store = open_store(f"redis://127.0.0.1:{port}/0?{FAST}")
        app = create_app(MatchService(store, registry, NullRunner()))
        with served(app) as base, httpx.Client(base_url=base, limits=LIMITS) as http:
            with ThreadPoolExecutor(60) as pool:
                pending = [
                    pool.submit(answered_within, GUARD, http.get, f"/matches/m{i}")
                    for i in range(60)
                ]
                live = answered_within(GUARD, http.get, "/health/live")
                answers = [p.result() for p in pending]
            assert live.status_code == 200
            for response in answers:
                assert_unavailable(response, "store_unavailable")
            ready = answered_within(GUARD, http.get, "/health/ready")
            assert ready.status_code == 503 and ready.json()["checks"]["store"]["ok"] is False
        store.close()


def test_a_locked_sqlite_store_refuses_writes_with_a_503_and_still_reads(
    registry: GameRegistry, tmp_path: Path
) -> None:
    path = tmp_path / "events.sqlite3"
    service = MatchService(SQLiteStore(path, busy_timeout=0.1), registry, NullRunner())
    match = service.create_match("highcard", 2)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock and hangs
    try:
        with TestClient(create_app(service)) as client:
            claim = client.post(f"/matches/{match.match_id}/seats/0/claim")
            assert_unavailable(claim, "store_unavailable")
            assert client.get(f"/matches/{match.match_id}").json()["seats"][0]["claimed"] is False
    finally:
        locker.execute("ROLLBACK")
        locker.close()
        service.store.close()


# --- the queue ------------------------------------------------------------------------------


def test_changes_stored_while_the_queue_is_down_succeed_and_are_reconciled(
    registry: GameRegistry, tmp_path: Path
) -> None:
    """With the SQLite store and RQ on a Redis that is down, a seat handed to a bot (or a
    move passing the turn to one) was stored and then answered 500."""
    store_url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    queue = RQRunner(f"redis://127.0.0.1:{free_port()}/0?{FAST}", store_url)
    service = MatchService(open_store(store_url), registry, queue)
    worker_jobs = NullRunner()
    worker = MatchService(open_store(store_url), registry, worker_jobs)
    reconciler = Reconciler(worker)
    with TestClient(create_app(service)) as client:
        created = client.post("/matches", json={"game": "highcard", "players": 2})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        token = client.post(f"/matches/{match_id}/seats/0/claim").json()["token"]
        handed = client.post(f"/matches/{match_id}/seats/1/bot", json={"bot": "random"})
        assert handed.status_code == 200, handed.text
        assert_ready(client, store=True, queue=False)

        assert reconciler.scan() == 1  # the dealer's job, lost with the queue
        (deal,) = worker_jobs.jobs
        assert execute(worker, deal) == "done"
        auth = {"Authorization": f"Bearer {token}"}
        moves = client.get(f"/matches/{match_id}/moves", headers=auth).json()
        played = client.post(
            f"/matches/{match_id}/moves", headers=auth,
            json={"move": moves["moves"][0], "expected_version": moves["version"]},
        )  # fmt: skip
        assert played.status_code == 200, played.text
        assert client.get(f"/matches/{match_id}").json()["to_act"] == [1]

    worker_jobs.jobs.clear()
    reconciler.scan()  # the match moved since the last scan: it may be on its way
    assert reconciler.scan() == 1  # still at that version: the bot's job was lost
    assert [(j.kind, j.seat, j.version) for j in worker_jobs.jobs] == [
        ("bot", 1, played.json()["version"])
    ]
    for svc in (service, worker):
        svc.store.close()


# --- drills on a real Redis behind a proxy that fails on cue -----------------------------------


def proxied(redis_url: str, proxy: Proxy) -> str:
    """``redis_url`` (the test's own key prefix) reached through ``proxy``."""
    _, prefix = split_prefix(redis_url)
    return f"redis://127.0.0.1:{proxy.port}/0?prefix={prefix}&{FAST}"


def wait_out(response: Any) -> None:
    """Do as the 503 says: wait ``Retry-After`` seconds."""
    time.sleep(int(response.headers["retry-after"]))


@pytest.mark.redis
def test_drill_a_redis_store_that_fails_loses_and_duplicates_no_move(
    registry: GameRegistry, redis_url: str
) -> None:
    """Moves are sent while the store loses an answer, hangs and goes down; the client
    retries each with its Idempotency-Key once told to, and the log ends up holding every
    accepted move exactly once."""
    port = int(split_prefix(redis_url)[0].rsplit(":", 1)[1].split("/")[0])
    with Proxy(port) as proxy:
        runner = InlineRunner()  # the dealer deals at once, through the same proxy
        service = MatchService(open_store(proxied(redis_url, proxy)), registry, runner)
        runner.bind(service)
        with TestClient(create_app(service)) as client:
            match_id = client.post("/matches", json={"game": "highcard", "players": 2}).json()
            match_id = match_id["id"]
            tokens = [
                client.post(f"/matches/{match_id}/seats/{seat}/claim").json()["token"]
                for seat in (0, 1)
            ]
            accepted: list[tuple[int, int]] = []

            def next_move() -> tuple[str, dict[str, Any]]:
                """The request the seat to act sends next (while the store answers)."""
                state = client.get(f"/matches/{match_id}").json()
                seat = state["to_act"][0]
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                moves = client.get(f"/matches/{match_id}/moves", headers=auth).json()
                body = {"move": moves["moves"][0], "expected_version": moves["version"]}
                return f"{match_id}-v{moves['version']}", {"json": body, "headers": auth}

            def send(key: str, request: dict[str, Any]) -> Any:
                headers = {**request["headers"], "Idempotency-Key": key}
                return client.post(f"/matches/{match_id}/moves", json=request["json"],
                                   headers=headers)  # fmt: skip

            def accept(response: Any, request: dict[str, Any]) -> None:
                assert response.status_code == 200, response.text
                seat = tokens.index(request["headers"]["Authorization"].split()[1])
                accepted.append((seat, request["json"]["move"]["card"]))

            key, request = next_move()
            accept(send(key, request), request)

            # The append is carried out, its answer lost: the retry finds it by its key.
            key, request = next_move()
            proxy.deafen_after(b"EVAL")
            lost = send(key, request)
            assert_unavailable(lost, "store_unavailable")
            proxy.set("up")
            wait_out(lost)
            retried = send(key, request)
            assert retried.json()["replayed"] is True
            accept(retried, request)
            assert service.settle() == 1  # as `ironworks serve` does: its deal is queued

            # The store hangs: nothing is appended; the retry appends once.
            key, request = next_move()
            proxy.set("stalled")
            hung = send(key, request)
            assert_unavailable(hung, "store_unavailable")
            assert_ready(client, store=False, queue=True)
            proxy.set("up")
            wait_out(hung)
            retried = send(key, request)
            assert retried.json()["replayed"] is False
            accept(retried, request)

            # The store is down: reads are 503 too, and come back with it.
            proxy.set("down")
            down = client.get(f"/matches/{match_id}")
            assert_unavailable(down, "store_unavailable")
            proxy.set("up")
            wait_out(down)
            assert_ready(client, store=True, queue=True)
            events = client.get(f"/matches/{match_id}/events", params={"limit": 500}).json()
        service.store.close()
    versions = [e["version"] for e in events["events"]]
    assert versions == list(range(1, events["version"] + 1))
    played = [(e["payload"]["seat"], e["payload"]["card"]) for e in events["events"]
              if e["type"] == "played"]  # fmt: skip
    assert played == accepted


@pytest.mark.redis
def test_drill_jobs_lost_while_the_queue_was_down_are_queued_once_when_it_is_back(
    registry: GameRegistry, redis_url: str, tmp_path: Path
) -> None:
    from tests.test_worker_rq import _delete_rq_keys

    store_url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    port = int(split_prefix(redis_url)[0].rsplit(":", 1)[1].split("/")[0])
    with Proxy(port) as proxy:
        queue = RQRunner(proxied(redis_url, proxy), store_url)
        service = MatchService(open_store(store_url), registry, queue)
        try:
            with TestClient(create_app(service)) as client:
                proxy.set("down")
                created = client.post("/matches", json={"game": "highcard", "players": 2})
                assert created.status_code == 201, created.text
                match_id = created.json()["id"]
                for seat in (0, 1):
                    handed = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={})
                    assert handed.status_code == 200, handed.text
                not_ready = client.get("/health/ready")
                assert not_ready.json()["checks"]["queue"]["ok"] is False
                proxy.set("up")
                wait_out(not_ready)
                assert_ready(client, store=True, queue=True)
            reconciler = Reconciler(service)
            assert reconciler.scan() == 1
            reconciler.scan()  # stuck at the same version: enqueued again, and refused as queued
            (job,) = service.jobs_for(service.load(match_id))
            keys = Keys.of_url(redis_url)[1]
            assert queue.queue.job_ids == [keys.job_id(job)]
            assert service.store.version(match_id) == created.json()["version"] + 2  # two seats
        finally:
            queue.close()
            service.store.close()
            _delete_rq_keys(redis_url)
