"""Prometheus metrics at ``/metrics``.

Request counts and durations per route come from Litestar's Prometheus middleware (one
histogram, labelled by method, route template and status); what only the service knows —
moves, bot think time, jobs, store appends — is counted here from the hooks of
:mod:`core.observe` and :data:`worker.jobs.BOT_MOVE_OBSERVERS`, and open event streams by
:func:`counted_stream`.

With several API processes (``ironworks serve --workers N``) each process writes its
figures to files in ``PROMETHEUS_MULTIPROC_DIR`` and ``/metrics``, whichever process
answers it, adds them all up (prometheus_client's multiprocess mode). RQ workers are other
processes on other machines: their jobs' figures are not in the API's ``/metrics``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, TypeVar

from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from prometheus_client import Counter, Gauge, Histogram

from core.observe import APPEND_OBSERVERS, JOB_OBSERVERS, MOVE_OBSERVERS, JobEvent, MoveSeen
from worker.jobs import BOT_MOVE_OBSERVERS

METRICS_PATH = "/metrics"
PREFIX = "ironworks"

MOVES = Counter(
    f"{PREFIX}_moves_total",
    "Moves decided by the service (players', bots' and system steps), by game, outcome "
    "(accepted, replayed, refused) and code (the refusal's problem code)",
    ["game", "outcome", "code"],
)
BOT_MOVE_SECONDS = Histogram(
    f"{PREFIX}_bot_move_seconds",
    "Seconds a bot thought over one decision",
    ["game", "bot"],
    buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 5.0, 10.0),
)
JOBS = Counter(
    f"{PREFIX}_jobs_total",
    "Jobs (bot turns, system steps) by kind and event: queued by this process; started, "
    "done, stale or failed where they ran (this process, with the in-process runner)",
    ["kind", "event"],
)
STORE_APPEND_SECONDS = Histogram(
    f"{PREFIX}_store_append_seconds",
    "Seconds one append to the event store took, by store",
    ["store"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0),
)
OPEN_STREAMS = Gauge(
    f"{PREFIX}_open_streams",
    "Server-sent event streams open now",
    multiprocess_mode="livesum",
)


def prometheus_config() -> PrometheusConfig:
    """Litestar's request metrics: ``ironworks_request_duration_seconds`` and
    ``ironworks_requests_total`` by method, route template (``group_path``: one series per
    route, not per match id) and status."""
    return PrometheusConfig(
        app_name=PREFIX,
        prefix=PREFIX,
        group_path=True,
        exclude=[METRICS_PATH],
        buckets=[0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0],
    )


class MetricsController(PrometheusController):
    """``GET /metrics`` in Prometheus's text format; not part of the API's document."""

    path = METRICS_PATH
    include_in_schema = False


def _count_move(seen: MoveSeen) -> None:
    MOVES.labels(seen.game, seen.outcome, seen.code).inc()


def _time_bot_move(game: str, bot: str, _legal: int, seconds: float) -> None:
    BOT_MOVE_SECONDS.labels(game, bot).observe(seconds)


def _count_job(kind: str, event: JobEvent) -> None:
    JOBS.labels(kind, event).inc()


def _time_append(store: str, seconds: float) -> None:
    STORE_APPEND_SECONDS.labels(store).observe(seconds)


_OBSERVERS: list[tuple[list[Any], Any]] = [
    (MOVE_OBSERVERS, _count_move),
    (BOT_MOVE_OBSERVERS, _time_bot_move),
    (JOB_OBSERVERS, _count_job),
    (APPEND_OBSERVERS, _time_append),
]


def observe_service() -> None:
    """Count what the service does from now on (once per process, however many apps)."""
    for observers, observer in _OBSERVERS:
        if observer not in observers:
            observers.append(observer)


T = TypeVar("T")


async def counted_stream(stream: AsyncIterator[T]) -> AsyncIterator[T]:
    """``stream``, counted in :data:`OPEN_STREAMS` while it is open."""
    OPEN_STREAMS.inc()
    try:
        async for item in stream:
            yield item
    finally:
        OPEN_STREAMS.dec()
