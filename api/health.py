"""Health routes: liveness for process supervisors, readiness for load balancers.

``/health/live`` touches nothing and needs no worker thread, so it answers while the
store hangs and every thread waits on it. ``/health/ready`` asks the store and the queue,
each on threads of its own and within :data:`CHECK_SECONDS`, and answers 503 when either
is down. ``/health``, older than both, answers what ``/health/ready`` does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread
from litestar import Response
from litestar.openapi.datastructures import ResponseSpec

from api import package_version
from api.bodies import Health, HealthCheck, Liveness, PluginProblem
from api.problems import problem_responses
from api.reads import get
from api.routes import Service
from core.errors import ServiceUnavailable
from core.service import MatchService

log = logging.getLogger(__name__)

CHECK_SECONDS = 3.0
"""A check that takes longer counts as failed (the backends' own timeouts are shorter)."""
RETRY_AFTER = "1"
_checkers = anyio.CapacityLimiter(4)
"""Threads for the checks, apart from those serving requests: a full pool must not make a
server that is otherwise ready look down, nor a stalled store stop the checks."""

_NOT_READY = {
    503: ResponseSpec(
        data_container=Health,
        description="The store or the queue is down: `checks` says which.",
        generate_examples=False,
    )
}


@get(
    "/health/live",
    operation_id="healthLive",
    summary="Liveness probe",
    tags=["service"],
    responses=problem_responses(),
)
async def live() -> Liveness:
    """Whether this process serves requests at all; asks no backend."""
    return Liveness(ok=True, version=package_version())


@get(
    "/health/ready",
    operation_id="healthReady",
    summary="Readiness probe",
    tags=["service"],
    responses={**problem_responses(), **_NOT_READY},
)
async def ready(service: Service) -> Response[Health]:
    """Whether requests can be served: the store and the queue answer (503 if not)."""
    return await readiness(service)


@get(
    "/health",
    operation_id="health",
    summary="Service health",
    tags=["service"],
    responses={**problem_responses(), **_NOT_READY},
)
async def health(service: Service) -> Response[Health]:
    """Same as ``/health/ready``, kept for clients older than it; also names the store in
    use, the installed games and plugins that were skipped."""
    return await readiness(service)


async def readiness(service: MatchService) -> Response[Health]:
    checks = {
        "store": await _check("store_unavailable", service.store.ping),
        "queue": await _check("queue_unavailable", lambda: ping_queue(service.runner)),
    }
    ok = all(check.ok for check in checks.values())
    body = Health(
        ok=ok,
        store=type(service.store).__name__.removesuffix("Store").lower(),
        games=[game.id for game in service.games.games()],
        plugin_problems=[
            PluginProblem(plugin=p.plugin, error=p.error) for p in service.games.problems
        ],
        checks=checks,
    )
    if ok:
        return Response(body)
    return Response(body, status_code=503, headers={"Retry-After": RETRY_AFTER})


def ping_queue(runner: Any) -> None:
    """Raise :class:`ServiceUnavailable` unless the job runner can take jobs now."""
    ping = getattr(runner, "ping", None)
    if ping is not None:
        ping()
    elif getattr(runner, "running", True) is False:
        raise ServiceUnavailable("queue_unavailable", "the job threads have stopped")


async def _check(code: str, ping: Callable[[], None]) -> HealthCheck:
    with anyio.move_on_after(CHECK_SECONDS):
        try:
            await anyio.to_thread.run_sync(ping, abandon_on_cancel=True, limiter=_checkers)
        except ServiceUnavailable as exc:
            return HealthCheck(ok=False, code=exc.code, detail=exc.message)
        except Exception as exc:  # a check must report, not fail the readiness answer
            log.exception("readiness check %s failed", code)
            return HealthCheck(
                ok=False, code=code, detail=f"the check failed: {type(exc).__name__}"
            )
        return HealthCheck(ok=True)
    return HealthCheck(ok=False, code=code, detail=f"no answer within {CHECK_SECONDS:g} s")


ROUTES = [live, ready, health]
