"""The app that ``ironworks serve`` runs, in one process or in each of N.

With ``--workers N`` uvicorn starts N processes that share the listening socket; each calls
:func:`app_from_environment`, which reads the serve options the parent left in
:data:`CONFIG_ENV`, and builds its own service: its own store connections, its own job
runner, its own upkeep (:mod:`worker.upkeep`). They share the store, which is what makes
them one service: optimistic appends keep their moves apart, and each process's event
streams see the others' appends (SQLite: polling the file; Redis and PostgreSQL: pub/sub
and NOTIFY).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
from litestar import Litestar

from api.app import create_app
from api.logging_setup import LogFormat
from core.service import MatchService

CONFIG_ENV = "IRONWORKS_SERVE_CONFIG"
APP_FACTORY = "api.serving:app_from_environment"


class ServeConfig(msgspec.Struct, frozen=True, kw_only=True):
    store_url: str
    redis_url: str | None = None
    client_seeds: bool = True
    cors_origins: list[str] = []
    log_format: LogFormat = "console"
    log_level: str = "info"
    webhook_allow_private: bool | None = None
    """Let webhooks reach loopback and private addresses (``None``: as the environment
    says, see :mod:`worker.bootstrap`)."""
    run_dir: str | None = None
    """A folder shared by the processes of one ``serve --workers N`` (the reconciler's
    lock); ``None`` for a single process."""


def build(config: ServeConfig) -> tuple[Litestar, MatchService]:
    """The app and its service; the service's upkeep runs while the app is up, and its
    runner and store are closed when it shuts down."""
    from worker.bootstrap import build_service
    from worker.inprocess import InProcessRunner
    from worker.upkeep import Upkeep

    service = build_service(
        store_url=config.store_url, redis_url=config.redis_url, client_seeds=config.client_seeds,
        webhook_allow_private=config.webhook_allow_private,
    )  # fmt: skip
    lock = None if config.run_dir is None else Path(config.run_dir) / "reconciler.lock"
    # Jobs queued in a thread die with their process: the in-process runner has only us to
    # find them again. RQ workers reconcile by themselves.
    upkeep = Upkeep(service, reconcile=isinstance(service.runner, InProcessRunner), lock_path=lock)
    app = create_app(
        service, cors_origins=config.cors_origins, log_format=config.log_format,
        log_level=config.log_level,
    )  # fmt: skip

    def close() -> None:
        upkeep.stop()
        service.runner.close()
        service.store.close()
        if service.webhooks is not None:
            service.webhooks.store.close()

    app.on_startup.append(upkeep.start)
    app.on_shutdown.append(close)
    return app, service


def app_from_environment() -> Litestar:
    """uvicorn's app factory in each process of ``ironworks serve --workers N``."""
    config = msgspec.json.decode(os.environ[CONFIG_ENV], type=ServeConfig)
    return build(config)[0]
