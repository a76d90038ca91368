"""Assembling a service from configuration: store URL, optional Redis for queues."""

from __future__ import annotations

import os

from core.live import SNAPSHOT_EVERY
from core.registry import GameRegistry, default_registry
from core.service import MatchService
from core.store.base import open_store
from core.webhooks import open_webhooks

DEFAULT_STORE = "sqlite:///ironworks.sqlite3"
ALLOW_PRIVATE_ENV = "IRONWORKS_WEBHOOK_ALLOW_PRIVATE"
"""Set to 1 to let webhooks call loopback and private addresses (off: SSRF guard)."""


def store_url_from_env() -> str:
    return os.environ.get("IRONWORKS_STORE", DEFAULT_STORE)


def webhooks_allow_private() -> bool:
    return os.environ.get(ALLOW_PRIVATE_ENV, "").strip().lower() in ("1", "true", "yes")


def build_service(
    store_url: str | None = None,
    redis_url: str | None = None,
    registry: GameRegistry | None = None,
    runner: object | None = None,
    snapshot_every: int = SNAPSHOT_EVERY,
    client_seeds: bool = True,
    webhook_allow_private: bool | None = None,
) -> MatchService:
    """The service for a store URL. Jobs go to RQ when ``redis_url`` (or ``REDIS_URL``) is
    set, otherwise to an in-process thread; ``runner`` overrides both. ``client_seeds=False``
    refuses matches whose creator chooses the seed. Webhooks live in the store's sibling
    (:func:`core.webhooks.sibling_url`); ``webhook_allow_private`` (default:
    ``$IRONWORKS_WEBHOOK_ALLOW_PRIVATE``) lets them call private addresses."""
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
    if webhook_allow_private is None:
        webhook_allow_private = webhooks_allow_private()
    service.webhooks = open_webhooks(
        store_url, allow_private=webhook_allow_private, matches=service.store
    )
    bind = getattr(runner, "bind", None)
    if bind is not None:
        bind(service)
    return service
