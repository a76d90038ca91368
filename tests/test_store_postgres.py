"""The PostgreSQL store's own behaviour: its URL, its schema, and its failures answered as
503s within bounded time (the shared contract is in tests/test_store_contract.py)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import anyio
import psycopg
import pytest
from litestar.testing import TestClient
from store_backends import tick

import core.store.postgres
import core.store.wakeup
from api.app import create_app
from api.sse import event_stream
from core.errors import BadRequest, ServiceUnavailable
from core.registry import GameRegistry
from core.service import MatchService
from core.store.base import open_store
from core.store.postgres import PostgresStore, parse_url
from core.tasks import NullRunner
from tests.faults import Proxy, free_port, stalled_server
from tests.test_api import claim_all, new_match, play_one
from tests.test_outages import assert_ready, assert_unavailable, store_routes
from worker.inprocess import InlineRunner

FAST = "timeout=0.2"
BOUND = 5.0
"""Seconds within which a failing call must have been answered; the drills' timeouts are a
fraction of it."""


SETTLE = 30.0
"""Seconds a step that is not the drill may take to find the store answering: generous, as
a loaded machine makes a fresh pool connection (or the schema's first statements) overrun
the drills' short timeouts."""


def settled(call: Any, *args: Any) -> Any:
    """``call(*args)`` once the store answers, its 503s retried until :data:`SETTLE` (a pool
    still connecting, a breaker cooling down). Only keyed appends or reads go through here,
    so a retry never makes a second event."""
    deadline = time.monotonic() + SETTLE
    while True:
        try:
            return call(*args)
        except ServiceUnavailable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def elapsed(call: Any, *args: Any) -> tuple[float, BaseException | None]:
    started = time.monotonic()
    try:
        call(*args)
    except BaseException as exc:
        return time.monotonic() - started, exc
    return time.monotonic() - started, None


def test_schema_and_timeout_are_taken_out_of_the_url_for_libpq() -> None:
    url, schema, timeout = parse_url("postgresql://u@h:5/db?schema=games&sslmode=disable&timeout=3")
    assert (url, schema, timeout) == ("postgresql://u@h:5/db?sslmode=disable", "games", 3.0)
    assert parse_url("postgres://h/db")[1:] == ("ironworks", 2.0)


@pytest.mark.parametrize("query", ["schema=Robert');DROP", "timeout=-1", "timeout=soon"])
def test_a_bad_schema_or_timeout_is_refused_with_a_code(query: str) -> None:
    with pytest.raises(BadRequest) as refused:
        open_store(f"postgresql://127.0.0.1/test?{query}")
    assert refused.value.code == "unknown_store"


@pytest.mark.postgres
def test_tables_live_in_the_schema_the_url_names(postgres_url: str) -> None:
    store = open_store(postgres_url)
    try:
        store.append("m1", 0, [tick(0, 0)])
    finally:
        store.close()
    schema = parse_url(postgres_url)[1]
    with psycopg.connect(parse_url(postgres_url)[0]) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
            "ORDER BY table_name",
            (schema,),
        ).fetchall()
    assert [t for (t,) in tables] == ["events", "idempotency_keys", "snapshots", "streams"]


def test_a_postgres_store_that_is_down_is_a_503_and_not_ready(registry: GameRegistry) -> None:
    store = open_store(f"postgresql://127.0.0.1:{free_port()}/test?{FAST}")
    try:
        with TestClient(create_app(MatchService(store, registry, NullRunner()))) as client:
            for response in store_routes(client):
                assert_unavailable(response, "store_unavailable")
            assert_ready(client, store=False, queue=True)
    finally:
        store.close()


def test_a_postgres_that_accepts_connections_and_never_answers_is_a_prompt_503() -> None:
    with stalled_server() as port:
        store = open_store(f"postgresql://127.0.0.1:{port}/test?{FAST}")
        try:
            took, error = elapsed(store.append, "m1", 0, [tick(0, 0)])
        finally:
            store.close()
    assert isinstance(error, ServiceUnavailable) and error.code == "store_unavailable"
    assert took < BOUND


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("deafen_after", "stored"),
    [(None, False), (b"COMMIT", True)],
    ids=["before-the-append", "after-its-commit"],
)
def test_a_postgres_that_stops_answering_mid_session_is_a_503_and_a_keyed_retry_tells(
    postgres_url: str, deafen_after: bytes | None, stored: bool
) -> None:
    """The answers stop on a connection already open, where no server-side timeout helps:
    the watchdog cuts the connection. Once the server answers again, the retry with the same
    key appends the event if the first try was lost, and replays it if it was committed.
    Only the deafened call is held to the short timeout; the steps around it are settled."""
    real, schema, _ = parse_url(postgres_url)
    port = psycopg.conninfo.conninfo_to_dict(real).get("port") or 5432
    with Proxy(int(port)) as proxy:
        store = PostgresStore(
            f"postgresql://postgres@127.0.0.1:{proxy.port}/test?schema={schema}&{FAST}"
        )
        try:
            settled(store.append, "m1", 0, [tick(0, 0)], "k0", "d0")
            if deafen_after is None:
                proxy.set("deaf")
            else:
                proxy.deafen_after(deafen_after)
            took, error = elapsed(store.append, "m1", 1, [tick(0, 1)], "k", "d")
            assert isinstance(error, ServiceUnavailable) and error.code == "store_unavailable"
            assert took < BOUND

            proxy.set("up")
            # Through the breaker's cooldown and the pool's new connection; each try's key
            # is the one the lost call carried.
            again = settled(store.append, "m1", 1, [tick(0, 1)], "k", "d")
        finally:
            store.close()
    assert (again.last_version, again.replayed) == (2, stored)
    reread = open_store(postgres_url)
    try:
        assert [e.version for e in reread.read("m1")] == [1, 2]
    finally:
        reread.close()


@pytest.mark.postgres
def test_a_row_locked_past_the_timeout_is_a_503_and_changes_nothing(postgres_url: str) -> None:
    store = open_store(f"{postgres_url}&{FAST}")
    settled(store.append, "m1", 0, [tick(0, 0)], "k0", "d0")
    real, schema, _ = parse_url(postgres_url)
    locker = psycopg.connect(real)
    try:
        locker.execute(f"SELECT 1 FROM {schema}.streams WHERE stream_id = 'm1' FOR UPDATE")
        took, error = elapsed(store.append, "m1", 1, [tick(0, 1)])
        assert isinstance(error, ServiceUnavailable) and error.code == "store_unavailable"
        assert took < BOUND
    finally:
        locker.rollback()
        locker.close()
    try:
        assert settled(store.version, "m1") == 1  # once the breaker's cooldown is over
    finally:
        store.close()


@pytest.mark.postgres
def test_a_move_through_one_api_process_wakes_the_streams_of_another(
    postgres_url: str, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two services on two store objects (two processes' pools and LISTEN connections): the
    stream open on one is woken by NOTIFY, not by its safety poll, when the other moves."""
    monkeypatch.setattr(core.store.wakeup, "SAFETY_POLL_SECONDS", 60.0)
    watcher = MatchService(open_store(postgres_url), registry, NullRunner())
    runner = InlineRunner()
    mover = MatchService(open_store(postgres_url), registry, runner)
    runner.bind(mover)
    try:
        with TestClient(create_app(mover)) as client:
            match_id = new_match(client)
            tokens = claim_all(client, match_id)
            version = client.get(f"/matches/{match_id}").json()["version"]

            async def next_event() -> list[Any]:
                stream = event_stream(watcher, match_id, None, version, version + 1, 60.0)
                return [message async for message in stream]

            streamed: list[Any] = []
            listener = threading.Thread(target=lambda: streamed.extend(anyio.run(next_event)))
            listener.start()
            time.sleep(0.3)  # the watcher is waiting in store.wait
            started = time.monotonic()
            play_one(client, match_id, tokens)
            listener.join(BOUND)
            woke_after = time.monotonic() - started
    finally:
        watcher.store.close()
        mover.store.close()
    assert not listener.is_alive() and woke_after < BOUND
    assert [m.id for m in streamed] == [version + 1]
    assert json.loads(streamed[0].data)["version"] == version + 1
