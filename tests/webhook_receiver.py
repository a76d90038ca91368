"""A real HTTP server on 127.0.0.1 that records the webhook deliveries it receives."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import msgspec

HANG_GUARD = 30.0
"""Seconds a test waits for deliveries before it fails (never a speed target)."""


class Received(msgspec.Struct, kw_only=True):
    path: str
    headers: dict[str, str]
    """Header names lower-cased."""
    raw: bytes

    @property
    def body(self) -> dict[str, Any]:
        return json.loads(self.raw)


class Receiver:
    """Answers each POST with the next of ``statuses`` (then 200) and keeps what came."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.statuses: list[int] = []
        self._changed = threading.Condition()
        self.url = ""

    def record(self, request: Received) -> int:
        with self._changed:
            self.received.append(request)
            self._changed.notify_all()
            return self.statuses.pop(0) if self.statuses else 200

    def wait_for(self, count: int, **match: str) -> list[Received]:
        """The first ``count`` requests whose body has the ``match`` fields, once they came."""

        def matching() -> list[Received]:
            return [r for r in self.received if all(r.body.get(k) == v for k, v in match.items())]

        with self._changed:
            done = self._changed.wait_for(lambda: len(matching()) >= count, HANG_GUARD)
            assert done, f"wanted {count} deliveries like {match}, got {self.received}"
            return matching()[:count]


@contextmanager
def receiver() -> Iterator[Receiver]:
    target = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            status = target.record(Received(path=self.path, headers=headers, raw=raw))
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, name="hook-receiver", daemon=True)
    thread.start()
    target.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield target
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
