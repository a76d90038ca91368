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

import contextlib
import os
import socket
from pathlib import Path
from typing import Any

import msgspec
import uvicorn
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


class TcpConfig(uvicorn.Config):
    """uvicorn's configuration, whose shared listening socket says it speaks TCP.

    For ``--workers N`` uvicorn binds the socket itself (``Config.bind_socket``) and leaves
    its ``proto`` at 0 (uvicorn 0.54; its issue 3149). Accepted connections inherit that,
    and asyncio sets ``TCP_NODELAY`` only on sockets whose ``proto`` is TCP, so Nagle's
    algorithm stayed on: a response written in two parts waited for the client's delayed
    ACK, ~40 ms on every keep-alive request after the first. The single-process path binds
    through asyncio, which asks ``getaddrinfo`` and gets the protocol right.
    """

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family not in (socket.AF_INET, socket.AF_INET6):
            return sock  # a Unix socket: no Nagle, nothing to set
        # The same descriptor, rewrapped: Linux reports its protocol when asked.
        tcp = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
        tcp.set_inheritable(True)
        return tcp


def run_processes(app: str, workers: int, **options: Any) -> None:
    """``uvicorn.run(app, workers=N, factory=…, …)`` with :class:`TcpConfig`'s socket:
    N processes sharing one listening socket, each answering without Nagle's delay."""
    from uvicorn.supervisors import Multiprocess

    config = TcpConfig(app, workers=workers, **options)
    with contextlib.suppress(KeyboardInterrupt):
        Multiprocess(config, sockets=[config.bind_socket()]).run()
