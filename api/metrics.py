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

import time
from bisect import bisect_left
from collections.abc import AsyncIterator
from typing import Any, NamedTuple, TypeVar

from litestar import Response, route
from litestar.enums import HttpMethod
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from litestar.plugins.prometheus.middleware import PrometheusMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import Counter, Gauge, Histogram, values

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
        middleware_class=RequestMetrics,
    )


def _figures_are_plain() -> bool:
    """Whether prometheus_client keeps this process's figures as :func:`tally` reads them:
    its ``MutexValue`` (a float behind a lock), a histogram's sum, buckets and bounds. Those
    are its private parts, so they are checked on a probe (never registered) rather than
    trusted: a release that moves them turns the fast path off, not every move into a 500."""
    if values.ValueClass is not values.MutexValue:
        return False
    try:
        probe = Histogram("ironworks_probe", "", registry=None, buckets=[1.0])
        figures = [Gauge("ironworks_probe", "", registry=None)._value, probe._sum,
                   *probe._buckets]  # fmt: skip
        return probe._upper_bounds[-1] == float("inf") and all(
            isinstance(v._value, float) and hasattr(v._lock, "__enter__") for v in figures
        )
    except (AttributeError, TypeError, IndexError):
        return False


PLAIN = _figures_are_plain()
"""Whether a series' figures are plain floats in this process, each behind a lock (one
process; with ``PROMETHEUS_MULTIPROC_DIR`` they are in shared files instead), kept where
:func:`tally` reads them. The busiest code then adds to them itself, under the same lock:
prometheus_client's own ``inc`` and ``observe`` are three or four Python calls each, and a
move made about eight of them."""


class Tally(NamedTuple):
    """One series' figures to add to, taken from its prometheus_client child: for a
    counter or gauge ``value``; for a histogram ``value`` is its sum, ``buckets`` the
    values of its buckets (each counts what landed in it alone) and ``bounds`` their
    upper bounds, the last infinite. Each value is a :class:`values.MutexValue`; add to
    one with :func:`add`."""

    value: Any
    buckets: list[Any] | None = None
    bounds: list[float] | None = None


def tally(child: Any) -> Tally:
    """The figures of ``child`` (a ``metric.labels(...)``) to add to; only when
    :data:`PLAIN`."""
    if hasattr(child, "_buckets"):
        return Tally(child._sum, child._buckets, child._upper_bounds)
    return Tally(child._value)


def add(value: Any, amount: float = 1.0) -> None:
    """``value.inc(amount)`` on one of :func:`tally`'s values, under its own lock (the one
    place outside this module's probe that writes prometheus_client's private parts)."""
    with value._lock:
        value._value += amount


def observe(figures: Tally, seconds: float) -> None:
    """``Histogram.observe(seconds)`` on :func:`tally`'s figures: the sum, and the first
    bucket whose bound is at least ``seconds``."""
    total = figures.value
    bucket = figures.buckets[bisect_left(figures.bounds, seconds)]  # type: ignore[index,arg-type]
    add(total, seconds)
    add(bucket)


_series: dict[tuple[Any, ...], Any] = {}


def series(metric: Any, *values: Any) -> Any:
    """``metric.labels(*values)``, looked up once per process: ``labels`` checks and
    converts the values and takes a lock on every call, several times a request."""
    key = (metric, *values)
    child = _series.get(key)
    if child is None:
        child = _series[key] = metric.labels(*values)
    return child


class RequestMetrics(PrometheusMiddleware):
    """Litestar's Prometheus middleware for the configuration above, the same series and
    figures, without its per-request label dicts, ``labels`` calls and ``Request``."""

    def __init__(self, app: ASGIApp, config: PrometheusConfig) -> None:
        super().__init__(app, config)
        assert config.group_path and not (config.labels or config.exemplars)
        assert not config.excluded_http_methods
        names: dict[str, Any] = dict.fromkeys(("method", "path", "status_code", "app_name"))
        self._in_progress = self.requests_in_progress(names)
        self._count = self.request_count(names)
        self._time = self.request_time(names)
        self._errors = self.requests_error_count(names)
        self._running: dict[tuple[str, str], Any] = {}
        """(method, route) -> its in-progress gauge."""
        self._answered: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}
        """(method, route, status) -> its count, duration and (5xx only) error series."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.measured(scope, receive, send)

    async def measured(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The request, measured; ``__call__`` without Litestar's check, wrapped around it,
        of whether the middleware applies (the move lane checks that once)."""
        kind = scope["type"]
        method = scope["method"] if kind == "http" else kind  # type: ignore[typeddict-item]
        path = scope["path_template"]  # type: ignore[typeddict-item]
        started = time.perf_counter()
        span = [200, 0.0]  # status, seconds to the last body message

        async def timed_send(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                span[0] = message["status"]  # type: ignore[typeddict-item]
            elif kind == "http.response.body":
                span[1] = time.perf_counter() - started
            await send(message)

        in_progress = self._running.get((method, path)) or self.running(method, path)
        in_progress.inc()
        try:
            await self.app(scope, receive, timed_send)
        finally:
            in_progress.dec()
            status, seconds = span
            answered = self._answered.get((method, path, status))
            if answered is None:
                answered = self.answered(method, path, status)
            count, duration, errors = answered
            if errors is not None:
                errors.inc()
            count.inc()
            duration.observe(seconds)

    def running(self, method: str, path: str) -> Any:
        """The in-progress gauge of a route."""
        found = self._running.get((method, path))
        if found is None:
            found = self._running[method, path] = series(
                self._in_progress, method, path, 200, self._config.app_name
            )
        return found

    def answered(self, method: str, path: str, status: int) -> tuple[Any, Any, Any]:
        """The count, duration and (5xx only) error series of a route's answers with
        ``status``."""
        found = self._answered.get((method, path, status))
        if found is None:
            labels = (method, path, status, self._config.app_name)
            found = self._answered[method, path, status] = (
                series(self._count, *labels), series(self._time, *labels),
                series(self._errors, *labels) if status >= 500 else None,
            )  # fmt: skip
        return found

    def route_tallies(self, method: str, path: str) -> RouteTallies:
        """A route's figures for code that adds to them itself (only when :data:`PLAIN`)."""
        return RouteTallies(self, method, path)


class RouteTallies:
    """The request metrics of one route as :class:`Tally` figures, for the move lane,
    which measures its moves itself: ``running`` the value of its in-progress gauge, and
    :meth:`answered` those of its answers by status. They are the very figures
    :class:`RequestMetrics` adds to (one series each, whoever counts)."""

    def __init__(self, metrics: RequestMetrics, method: str, path: str) -> None:
        self._metrics = metrics
        self._route = (method, path)
        self.running: Any = tally(metrics.running(method, path)).value
        self.by_status: dict[int, tuple[Any, Tally, Any]] = {}
        """What :meth:`answered` found, by status."""

    def answered(self, status: int) -> tuple[Any, Tally, Any]:
        """The count's value, the duration's figures and (5xx only) the errors' value."""
        found = self.by_status.get(status)
        if found is None:
            count, duration, errors = self._metrics.answered(*self._route, status)
            found = self.by_status[status] = (
                tally(count).value, tally(duration),
                None if errors is None else tally(errors).value,
            )  # fmt: skip
        return found


class MetricsController(PrometheusController):
    """``GET /metrics`` in Prometheus's text format; not part of the API's document."""

    path = METRICS_PATH
    include_in_schema = False

    # Litestar's controller answers GET only; a scraper or probe may send HEAD, which RFC
    # 9110 (and the README) expects wherever GET works.
    @route(http_method=[HttpMethod.GET, HttpMethod.HEAD])
    async def get(self) -> Response:  # type: ignore[override]
        return await PrometheusController.get.fn(self)  # type: ignore[no-any-return]


_move_counts: dict[tuple[str, str, str], Any] = {}
"""(game, outcome, code) -> the value of its :data:`MOVES` series (when :data:`PLAIN`)."""


def _count_move_plain(seen: MoveSeen) -> None:
    key = (seen.game, seen.outcome, seen.code)
    value = _move_counts.get(key)
    if value is None:
        value = _move_counts[key] = tally(series(MOVES, *key)).value
    add(value)


def _count_move_calls(seen: MoveSeen) -> None:
    series(MOVES, seen.game, seen.outcome, seen.code).inc()


_count_move = _count_move_plain if PLAIN else _count_move_calls


def _time_bot_move(game: str, bot: str, _legal: int, seconds: float) -> None:
    series(BOT_MOVE_SECONDS, game, bot).observe(seconds)


def _count_job(kind: str, event: JobEvent) -> None:
    series(JOBS, kind, event).inc()


_append_times: dict[str, Tally] = {}
"""store -> the figures of its :data:`STORE_APPEND_SECONDS` series (when :data:`PLAIN`)."""


def _time_append_plain(store: str, seconds: float) -> None:
    figures = _append_times.get(store)
    if figures is None:
        figures = _append_times[store] = tally(series(STORE_APPEND_SECONDS, store))
    observe(figures, seconds)


def _time_append_calls(store: str, seconds: float) -> None:
    series(STORE_APPEND_SECONDS, store).observe(seconds)


_time_append = _time_append_plain if PLAIN else _time_append_calls


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
