"""Structured logs: one line per request (request id, route, status, latency, and for a move
the match, seat, move type and outcome), and every other log line of the process (the
service's, uvicorn's, Litestar's) in the same format — readable ``console`` lines by
default, one JSON object a line with ``--log-format json``.

structlog renders; Litestar's :class:`StructLoggingConfig` configures it, and its
``standard_lib_logging_config`` sends the standard library's loggers (which the rest of the
code base uses) through the same renderer, so nothing logs in a second format. The request
line comes from :class:`RequestLog`, not from Litestar's logging middleware, which logs a
request and its response as two lines and measures no latency.
"""

from __future__ import annotations

import atexit
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal

import structlog
from litestar.logging.config import LoggingConfig, StructlogEventFilter, StructLoggingConfig
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from core.game import SYSTEM
from core.observe import MOVE_OBSERVERS, MoveSeen

LogFormat = Literal["console", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = ("console", "json")
REQUEST_ID_HEADER = "x-request-id"
_REQUEST_ID_RAW = REQUEST_ID_HEADER.encode()

log = logging.getLogger("ironworks.requests")
moves_log = logging.getLogger("ironworks.moves")

_request: ContextVar[dict[str, Any] | None] = ContextVar("ironworks_request", default=None)
"""The fields of the request being served, filled in as it goes. A dict, not separate
variables: handlers run on worker threads with a copy of the context, and what they put in
the shared dict reaches the request line the middleware writes afterwards."""


def _add_pid(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    """Which process wrote the line: with ``--workers N`` there are N of them."""
    event["pid"] = os.getpid()
    return event


def _add_request_id(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    """The id of the request being served, on every line logged while it is."""
    current = _request.get()
    if current is not None:
        event.setdefault("request_id", current["request_id"])
    return event


def _shared_processors() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        _add_request_id,
        _add_pid,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def logging_config(log_format: LogFormat = "console", level: str = "info") -> StructLoggingConfig:
    """The whole process's logging: structlog and the standard library alike."""
    renderer: Any
    if log_format == "json":
        renderer = structlog.processors.JSONRenderer()
        exceptions: list[Any] = [structlog.processors.format_exc_info]
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=False)
        exceptions = []
    formatter = {
        "()": structlog.stdlib.ProcessorFormatter,
        "foreign_pre_chain": _shared_processors(),
        "processors": [
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            StructlogEventFilter(["color_message"]),  # uvicorn's copy with colour codes
            *exceptions,
            renderer,
        ],
    }
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "structured",
        "stream": "ext://sys.stderr",
        "filters": ["redact_secrets"],
    }
    stdlib = LoggingConfig(
        filters={"redact_secrets": {"()": "api.cli.RedactSecrets"}},
        formatters={"structured": formatter},
        handlers={"console": handler, "queue_listener": handler},
        loggers={
            "litestar": {"level": level.upper(), "handlers": [], "propagate": True},
            "uvicorn": {"level": level.upper(), "handlers": [], "propagate": True},
            # uvicorn's own access log is off: the request line says more
            "uvicorn.access": {"handlers": [], "propagate": False},
        },
        root={"handlers": ["console"], "level": level.upper()},
        disable_existing_loggers=False,
    )
    return StructLoggingConfig(
        processors=[
            *_shared_processors(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        standard_lib_logging_config=stdlib,
        # problems.py logs every unhandled error itself, once
        log_exceptions="never",
        cache_logger_on_first_use=False,
    )


def configure_logging(log_format: LogFormat = "console", level: str = "info") -> None:
    """Configure the process's logging without an app (``ironworks worker``)."""
    config = logging_config(log_format, level)
    config.configure()
    assert config.standard_lib_logging_config is not None
    config.standard_lib_logging_config.configure()
    observe_moves_in_logs()


def _queue_listeners() -> dict[int, Any]:
    """The log queues' listeners attached to a logger now, by the handler's id."""
    loggers = [logging.getLogger(), *logging.root.manager.loggerDict.values()]
    return {
        id(handler): handler.listener
        for logger in loggers
        for handler in getattr(logger, "handlers", ())
        if getattr(handler, "listener", None) is not None
    }


@contextmanager
def retiring_replaced_log_listeners() -> Iterator[None]:
    """Stop the listener thread of every log queue handler that the logging configured in
    the block replaced. Litestar configures logging anew for each app and starts a thread
    per queue handler, stopped only at exit: a process that builds many apps (the tests)
    kept one idle thread per app, and their ``atexit`` stops joined them all at the end."""
    before = _queue_listeners()
    yield
    after = _queue_listeners()
    for handler_id, listener in before.items():
        if handler_id not in after and getattr(listener, "_thread", None) is not None:
            atexit.unregister(listener.stop)
            listener.stop()


def observe_moves_in_logs() -> None:
    """Put each move on its request's line (a job's move on a line of its own)."""
    if _note_move not in MOVE_OBSERVERS:
        MOVE_OBSERVERS.append(_note_move)


def note(**fields: Any) -> None:
    """Add ``fields`` to the line of the request being served (if any)."""
    current = _request.get()
    if current is not None:
        current.update(fields)


def _note_move(seen: MoveSeen) -> None:
    current = _request.get()
    if current is not None:
        current[_MOVE] = seen  # its fields are made when the line is written, if it is
    else:  # a bot's or a system step's move, made by a job: a line of its own
        moves_log.info("move", extra=_move_fields(seen))


_MOVE = "ironworks_move"
"""A request's fields hold its move (a :class:`MoveSeen`) under this key."""


def _move_fields(seen: MoveSeen) -> dict[str, Any]:
    fields = {
        "match_id": seen.match_id, "game": seen.game,
        "seat": None if seen.actor == SYSTEM else seen.actor,
        "move_type": seen.move_type, "outcome": seen.outcome,
    }  # fmt: skip
    if seen.outcome == "refused":
        fields["code"] = seen.code
    return fields


class RequestLog(ASGIMiddleware):
    """Writes one line per request once it is answered (for an event stream: once it
    ends). The request id is the client's ``X-Request-ID`` when it sends one, and comes
    back in that header; it is also on every line logged while the request is served
    (:func:`_add_request_id`)."""

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        request_id = request_id_of(scope)
        fields: dict[str, Any] = {"request_id": request_id}
        token = _request.set(fields)
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (_REQUEST_ID_RAW, request_id.encode()),
                ]
            await send(message)

        try:
            await next_app(scope, receive, send_with_id)
        finally:
            _request.reset(token)
            if log.isEnabledFor(logging.INFO):  # else the line is not written: not built
                write_request_line(scope, fields, status, started)


def request_id_of(scope: Scope, given: bytes | None = None) -> str:
    """The request's id: the client's ``X-Request-ID`` (``given``, else the last one in
    ``scope``, as in a dict of the headers; at most 64 characters), or when it sent none,
    16 random hex digits (os.urandom is cheaper than a whole UUID cut down)."""
    if given is None:
        for name, value in scope.get("headers") or ():
            if name == _REQUEST_ID_RAW:
                given = value
    return (given and given.decode("latin-1")[:64]) or os.urandom(8).hex()


def write_request_line(scope: Scope, fields: dict[str, Any], status: int, started: float) -> None:
    """The request's line: ``fields`` (its id, what was noted, its move) and the request's
    method, path, route, status and latency since ``started`` (``time.perf_counter``)."""
    seen = fields.pop(_MOVE, None)
    if seen is not None:
        fields.update(_move_fields(seen))
    params = scope.get("path_params") or {}
    if "match_id" in params:
        fields.setdefault("match_id", params["match_id"])
    log.info(
        "request",
        extra={
            **fields,
            "method": scope.get("method"),
            "path": scope.get("path"),  # never the query: it may hold a ticket
            "route": scope.get("path_template"),
            "status": status,
            "latency_ms": round((time.perf_counter() - started) * 1000, 2),
        },
    )
