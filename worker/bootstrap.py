"""Assembling a service from configuration: store URL, optional Redis for queues."""

from __future__ import annotations

import os

from core.registry import GameRegistry, default_registry
from core.service import MatchService
from core.store.base import open_store

DEFAULT_STORE = "sqlite:///ironworks.sqlite3"


def store_url_from_env() -> str:
    return os.environ.get("IRONWORKS_STORE", DEFAULT_STORE)


def build_service(
    store_url: str | None = None,
    redis_url: str | None = None,
    registry: GameRegistry | None = None,
    runner: object | None = None,
    snapshot_every: int = 50,
    client_seeds: bool = True,
) -> MatchService:
    """The service for a store URL. Jobs go to RQ when ``redis_url`` (or ``REDIS_URL``) is
    set, otherwise to an in-process thread; ``runner`` overrides both. ``client_seeds=False``
    refuses matches whose creator chooses the seed."""
    store_url = store_url or store_url_from_env()
    store = open_store(store_url)
    registry = registry or default_registry()
    if runner is None:
        redis_url = redis_url or os.environ.get("REDIS_URL")
        if redis_url:
            from worker.rq_runner import RQRunner

            runner = RQRunner(redis_url, store_url)
        else:
            from worker.inprocess import InProcessRunner
            from worker.think import ThinkPool

            runner = InProcessRunner(pool=ThinkPool())
    service = MatchService(
        store,
        registry,
        runner,  # type: ignore[arg-type]
        snapshot_every=snapshot_every,
        client_seeds=client_seeds,
    )
    bind = getattr(runner, "bind", None)
    if bind is not None:
        bind(service)
    return service
