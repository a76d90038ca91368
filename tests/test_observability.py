"""Metrics at /metrics and the request log: what an operator sees of the service at work."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient
from test_serve_workers import metric

from api.app import create_app
from api.logging_setup import observe_moves_in_logs
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from tests.faults import served
from worker.inprocess import InlineRunner


@pytest.fixture
def client(registry: GameRegistry) -> Iterator[TestClient[Any]]:
    runner = InlineRunner()  # the dealer deals, the bot plays, at once
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    with TestClient(create_app(service)) as client:
        yield client


def seated_match(client: Any) -> tuple[str, dict[str, str]]:
    """A highcard match, seat 0 ours, seat 1 a random bot's; the authorization of seat 0."""
    match_id = client.post("/matches", json={"game": "highcard", "players": 2}).json()["id"]
    token = client.post(f"/matches/{match_id}/seats/0/claim").json()["token"]
    assert client.post(f"/matches/{match_id}/seats/1/bot", json={"bot": "random"}).is_success
    return match_id, {"Authorization": f"Bearer {token}"}


def play_once(client: Any, match_id: str, auth: dict[str, str]) -> Any:
    """Seat 0 plays its first listed card, then the same move again (now stale)."""
    legal = client.get(f"/matches/{match_id}/moves", headers=auth).json()
    body = {"move": legal["moves"][0], "expected_version": legal["version"]}
    played = client.post(f"/matches/{match_id}/moves", headers=auth, json=body)
    stale = client.post(f"/matches/{match_id}/moves", headers=auth, json=body)
    return played, stale


def test_metrics_count_moves_jobs_bot_thinking_appends_and_request_durations(
    client: TestClient[Any],
) -> None:
    before = client.get("/metrics").text
    match_id, auth = seated_match(client)
    played, stale = play_once(client, match_id, auth)
    assert played.status_code == 200 and stale.status_code == 409
    after = client.get("/metrics")
    assert after.status_code == 200 and after.headers["content-type"].startswith("text/plain")

    def grew(name: str, **labels: str) -> float:
        return metric(after.text, name, **labels) - metric(before, name, **labels)

    log = client.get(f"/matches/{match_id}/events").json()["events"]
    deals = sum(e["type"] == "dealt" for e in log)
    bot_cards = sum(e["type"] == "played" and e["payload"]["seat"] == 1 for e in log)
    # every deal and card, ours and the bot's (who may have led the next round too)
    assert grew("ironworks_moves_total", game="highcard", outcome="accepted") == (
        deals + 1 + bot_cards
    )
    assert grew("ironworks_moves_total", game="highcard", code="version_conflict") == 1
    assert grew("ironworks_jobs_total", kind="system", event="queued") == deals
    assert grew("ironworks_jobs_total", kind="bot", event="done") >= 1
    assert grew("ironworks_bot_move_seconds_count", game="highcard", bot="random") == bot_cards
    assert grew("ironworks_store_append_seconds_count", store="memory") >= 5
    moves_route = {"path": "/matches/{match_id}/moves", "method": "POST"}
    assert grew("ironworks_request_duration_seconds_count", **moves_route, status_code="200") == 1
    assert grew("ironworks_request_duration_seconds_count", **moves_route, status_code="409") == 1
    assert match_id not in after.text, "one series per route, not per match"


def test_open_streams_are_counted_while_open(registry: GameRegistry) -> None:
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    with served(create_app(service)) as base, httpx.Client(base_url=base, timeout=20) as http:
        match_id, auth = seated_match(http)
        version = http.get(f"/matches/{match_id}").json()["version"]
        before = metric(http.get("/metrics").text, "ironworks_open_streams")
        with httpx.stream(
            "GET", f"{base}/matches/{match_id}/stream", timeout=20,
            params={"after": version, "until_version": version + 1},
        ) as stream:  # fmt: skip
            while_open = settled(http, before + 1)
            play_once(http, match_id, auth)  # the stream's last version: it ends
            for _ in stream.iter_lines():
                pass
        after = metric(http.get("/metrics").text, "ironworks_open_streams")
        left = httpx.stream("GET", f"{base}/matches/{match_id}/stream", timeout=20)
        with left:  # a client that leaves before the stream ends
            pass
        gone = settled(http, before)
    assert (while_open, after, gone) == (before + 1, before, before)


def settled(http: httpx.Client, expected: float) -> float:
    """The open-stream gauge once it reads ``expected`` (a stream is counted from its
    first step on the server, and uncounted once the server saw the client go), or after
    a bounded wait, whatever it then reads."""
    for _ in range(200):
        now = metric(http.get("/metrics").text, "ironworks_open_streams")
        if now == expected:
            break
        time.sleep(0.05)
    return now


def test_metrics_are_not_part_of_the_api_document(client: TestClient[Any]) -> None:
    document = client.get("/docs/openapi.json").json()
    assert "/metrics" not in document["paths"]


def test_each_request_has_an_id_on_its_answer_and_its_log_line(
    client: TestClient[Any], caplog: pytest.LogCaptureFixture
) -> None:
    observe_moves_in_logs()
    match_id, auth = seated_match(client)
    with caplog.at_level(logging.INFO, logger="ironworks.requests"):
        played, stale = play_once(client, match_id, auth)
        mine = client.get("/health/live", headers={"X-Request-ID": "trace-me-7"})
    assert mine.headers["x-request-id"] == "trace-me-7"
    assert played.headers["x-request-id"] != stale.headers["x-request-id"]
    lines = {r.request_id: r for r in caplog.records if r.name == "ironworks.requests"}
    accepted, refused = lines[played.headers["x-request-id"]], lines[stale.headers["x-request-id"]]
    for line, status in ((accepted, 200), (refused, 409)):
        assert (line.match_id, line.seat, line.move_type, line.game) == (
            match_id, 0, "play", "highcard"
        )  # fmt: skip
        assert line.status == status and line.latency_ms >= 0
        assert line.route == "/matches/{match_id}/moves"
    assert (accepted.outcome, refused.outcome, refused.code) == (
        "accepted", "refused", "version_conflict"
    )  # fmt: skip
    assert lines["trace-me-7"].path == "/health/live"


def test_request_lines_leave_out_the_query_string(
    client: TestClient[Any], caplog: pytest.LogCaptureFixture
) -> None:
    """A stream ticket travels in the query: it must not reach the logs."""
    with caplog.at_level(logging.INFO, logger="ironworks.requests"):
        client.get("/matches/m1/stream", params={"ticket": "secret-ticket-value"})
    ours = [r for r in caplog.records if r.name.startswith("ironworks")]
    assert ours and all("secret-ticket-value" not in str(vars(r)) for r in ours)


def test_a_line_logged_while_a_request_is_served_carries_its_request_id() -> None:
    import json

    import structlog

    from api import logging_setup

    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=logging_setup._shared_processors(),
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.JSONRenderer(),
        ],
    )
    record = logging.LogRecord("core.service", logging.WARNING, __file__, 1, "queue down", (), None)
    token = logging_setup._request.set({"request_id": "served-now"})
    try:
        during = json.loads(formatter.format(record))
    finally:
        logging_setup._request.reset(token)
    after = json.loads(formatter.format(record))
    assert during["request_id"] == "served-now" and "request_id" not in after


def test_building_apps_again_and_again_leaves_no_log_listener_thread_behind(
    registry: GameRegistry,
) -> None:
    """Each app configures logging anew; the log queue listener threads of the logging it
    replaced stop, so a process building many apps (the test suite) does not pile them up."""
    import threading

    def listeners() -> int:
        return sum(1 for thread in threading.enumerate() if thread.name.endswith("(_monitor)"))

    service = MatchService(MemoryStore(), registry, InlineRunner())
    create_app(service)
    before = listeners()
    for _ in range(5):
        create_app(service)
    assert listeners() <= before


def _samples(text: str, *names: str) -> dict[str, float]:
    """The samples of the ``names`` families, line by line (name and labels -> value)."""
    found = {}
    for line in text.splitlines():
        if line.startswith(names):
            key, _, value = line.rpartition(" ")
            found[key] = float(value)
    return found


def test_moves_the_lane_measures_itself_show_at_metrics_as_the_middleware_shows_them(
    client: TestClient[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lane adds to the request metrics' figures itself (:mod:`api.move_lane`): a
    scrape after N moves shows, for the move route, N answers with status 200 in the
    families, series, buckets and types the Prometheus middleware writes, each move's
    duration in the bucket Prometheus puts it in."""
    import api.move_lane

    lane = client.app.asgi_handler
    assert isinstance(lane, api.move_lane.MoveLane) and lane.tallies is not None
    ticks = iter(range(10**6))
    # every reading of the lane's clock 0.03 s after the last: each move takes 0.03 s
    monkeypatch.setattr(api.move_lane, "perf_counter", lambda: next(ticks) * 0.03)
    match_id = client.post("/matches", json={"game": "highcard", "players": 2}).json()["id"]
    tokens = [client.post(f"/matches/{match_id}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    families = ("ironworks_request",)
    before = client.get("/metrics").text
    moves = 3
    for _ in range(moves):
        seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        listed = client.get(f"/matches/{match_id}/moves", headers=auth).json()
        body = {"move": listed["moves"][0], "expected_version": listed["version"]}
        assert client.post(f"/matches/{match_id}/moves", headers=auth, json=body).is_success
    after = client.get("/metrics").text
    was, now = _samples(before, *families), _samples(after, *families)
    grown = {key: value - was.get(key, 0.0) for key, value in now.items()}
    route = {"app_name": "ironworks", "method": "POST", "path": "/matches/{match_id}/moves"}
    grown = {
        key: value for key, value in grown.items()
        if value and all(f'{k}="{v}"' in key for k, v in route.items())
    }  # fmt: skip

    def series(name: str, **labels: str) -> str:
        named = {**route, "status_code": "200", **labels}
        return name + "{" + ",".join(f'{k}="{named[k]}"' for k in sorted(named)) + "}"

    bounds = ("0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "+Inf")
    duration = "ironworks_request_duration_seconds"
    expected = {
        series("ironworks_requests_total"): moves,
        **{series(f"{duration}_bucket", le=le): moves for le in bounds},
        series(f"{duration}_count"): moves,
        series(f"{duration}_sum"): moves * 0.03,
    }
    created = {key for key in grown if "_created{" in key}  # when a series was first made
    assert {key: grown[key] for key in grown if key not in created} == pytest.approx(expected)
    assert now[series("ironworks_requests_in_progress")] == 0
    assert series(f"{duration}_bucket", le="0.025") in now
    kinds = {line for line in after.splitlines() if line.startswith("# TYPE ")}
    assert {
        f"# TYPE {duration} histogram",
        "# TYPE ironworks_requests_in_progress gauge",
        "# TYPE ironworks_requests_total counter",
    } <= kinds


def test_a_duration_added_to_plain_figures_lands_in_the_bucket_prometheus_puts_it_in() -> None:
    """:func:`api.metrics.observe` (the lane's and the store timer's) against
    ``Histogram.observe``: a value on a bucket's bound counts in that bucket."""
    from prometheus_client import CollectorRegistry, Histogram

    from api.metrics import PLAIN, observe, tally

    assert PLAIN, "the tests run in one process"
    bounds = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
    histogram = Histogram("h", "h", ["kind"], buckets=bounds, registry=CollectorRegistry())
    theirs, ours = histogram.labels("theirs"), histogram.labels("ours")
    figures = tally(ours)
    for seconds in (0.0, 0.004999, *bounds, 0.0050001, 0.07, 29.9, 30.0001, 1e9):
        theirs.observe(seconds)
        observe(figures, seconds)
    by_kind: dict[str, dict[tuple[str, str | None], float]] = {"theirs": {}, "ours": {}}
    for family in histogram.collect():
        for sample in family.samples:
            if not sample.name.endswith("_created"):
                key = (sample.name, sample.labels.get("le"))
                by_kind[sample.labels["kind"]][key] = sample.value
    assert len(by_kind["ours"]) == len(bounds) + 3  # the buckets, +Inf, count and sum
    assert by_kind["ours"] == by_kind["theirs"]


def test_the_lanes_plain_figures_are_used_only_where_prometheus_client_keeps_them(monkeypatch):
    """The move lane adds to prometheus_client's private figures itself; a release that
    keeps them elsewhere must turn that off, not break every move."""
    from api import metrics

    assert metrics._figures_are_plain()  # the installed client: the fast path is taken

    class Moved(metrics.Histogram):
        def __getattribute__(self, name: str):
            if name == "_sum":
                raise AttributeError(name)
            return super().__getattribute__(name)

    monkeypatch.setattr(metrics, "Histogram", Moved)
    assert not metrics._figures_are_plain()
