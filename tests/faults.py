"""Loopback stand-ins for a backend that is down or stalled, for the fault drills.

Nothing here leaves 127.0.0.1: a closed port is a server that is down, a listener that
accepts and never answers is a hung one, and :class:`Proxy` sits in front of a real server
so a drill can take it down, stall it or lose its answers, and then bring it back.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Literal

import httpx
import uvicorn

POLL = 0.02
"""Seconds the proxy's threads wait between looks at their sockets and mode."""


def free_port() -> int:
    """A loopback port nothing listens on (connecting to it is refused at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def stalled_server() -> Iterator[int]:
    """The port of a server that accepts every connection and never answers."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=256)
    listener.settimeout(POLL)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, name="stalled-server", daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()
        for conn in held:
            conn.close()


Mode = Literal["up", "down", "stalled", "deaf"]


class Proxy:
    """A loopback TCP proxy to ``127.0.0.1:target_port`` whose behaviour a drill switches:

    - ``up``: bytes pass both ways;
    - ``down``: open connections are cut and new ones closed at once;
    - ``stalled``: connections are accepted, nothing is read or answered; when the proxy
      leaves this mode those connections are cut, so a stalled request never arrives late;
    - ``deaf``: requests reach the server, its answers are dropped (the change is made, the
      client never hears of it); :meth:`deafen_after` turns deaf right after a chosen
      request, so that exactly that one is carried out unanswered.

    Leaving ``stalled`` or ``deaf`` cuts the connections, as a restarted server would.
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.mode: Mode = "up"
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=256)
        self._listener.settimeout(POLL)
        self.port: int = self._listener.getsockname()[1]
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._deafen_on: bytes | None = None
        self._links: list[_Link] = []
        self._threads = [threading.Thread(target=self._accept, name="proxy", daemon=True)]
        self._threads[0].start()

    def set(self, mode: Mode) -> None:
        with self._lock:
            was, self.mode = self.mode, mode
            self._deafen_on = None
            links = list(self._links)
        if mode == "down" or (was in ("stalled", "deaf") and mode != was):
            for link in links:
                link.cut()

    def deafen_after(self, marker: bytes) -> None:
        """Pass everything until a request containing ``marker`` went through, then be deaf."""
        with self._lock:
            self._deafen_on = marker

    def close(self) -> None:
        self._stop.set()
        self.set("down")
        for thread in self._threads:
            thread.join(timeout=5)
        self._listener.close()

    def __enter__(self) -> Proxy:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client = self._listener.accept()[0]
            except TimeoutError:
                continue
            if self.mode == "down":
                client.close()
                continue
            link = _Link(client, socket.create_connection(("127.0.0.1", self.target_port)))
            with self._lock:
                self._links.append(link)
            for upstream in (True, False):
                thread = threading.Thread(target=self._pump, args=(link, upstream), daemon=True)
                thread.start()

    def _pump(self, link: _Link, upstream: bool) -> None:
        """Carries one direction of ``link``: client to server if ``upstream``, else back."""
        source, sink = (link.client, link.server) if upstream else (link.server, link.client)
        try:
            while not link.closed and not self._stop.is_set():
                if self.mode == "stalled":
                    time.sleep(POLL)
                    continue
                readable, _, _ = select.select([source], [], [], POLL)
                if not readable:
                    continue
                data = source.recv(65536)
                if not data:
                    break
                with self._lock:
                    # Checked under the lock that set() takes: once a drill stalls the proxy,
                    # no byte read before it noticed goes through (the link is cut later).
                    if self.mode == "stalled":
                        continue
                    marker = self._deafen_on
                    if upstream and marker is not None and marker in data:
                        # deaf before the request leaves: its answer is lost
                        self.mode, self._deafen_on = "deaf", None
                    if self.mode == "deaf" and not upstream:
                        continue
                    sink.sendall(data)
        except (OSError, ValueError):  # the other direction cut the link meanwhile
            pass
        link.cut()
        with self._lock:
            if link in self._links:
                self._links.remove(link)


class _Link:
    def __init__(self, client: socket.socket, server: socket.socket) -> None:
        self.client, self.server = client, server
        self.closed = False

    def cut(self) -> None:
        self.closed = True
        for sock in (self.client, self.server):
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` on a real uvicorn server in a thread of this process; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("the server did not start")
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def answered_within(seconds: float, call: Any, *args: Any, **kwargs: Any) -> httpx.Response:
    """``call(*args, **kwargs)``, failing (not hanging) the test if it takes longer than
    ``seconds``: a guard that the drill ends, set far above what the service needs."""
    kwargs.setdefault("timeout", seconds)
    try:
        return call(*args, **kwargs)
    except httpx.TimeoutException as exc:
        raise AssertionError(f"no answer within {seconds} s: {exc}") from None


class ServedProcess:
    """``ironworks serve`` in a process group of its own on a loopback port, the highcard
    plugin installed; :meth:`kill` SIGKILLs the whole group (API processes and their think
    processes) as a crash or an OOM kill would. stderr (the logs) goes to ``log_path``."""

    def __init__(self, store_url: str, log_path: Path, *options: str) -> None:
        self.store_url, self.log_path, self.options = store_url, log_path, options
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""

    def start(self, ready_within: float = 60.0) -> str:
        # By its package name: a test may run when ``conftest`` names tests/web's
        from tests.conftest import highcard_path_env

        env = highcard_path_env()
        for name in ("REDIS_URL", "IRONWORKS_STORE", "PROMETHEUS_MULTIPROC_DIR"):
            env.pop(name, None)
        port = free_port()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "api.cli", "serve", "--port", str(port),
                 "--store", self.store_url, *self.options],
                env=env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
            )  # fmt: skip
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + ready_within
        while True:
            try:
                if httpx.get(f"{self.base}/health/ready", timeout=2).status_code == 200:
                    return self.base
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                tail = self.log_path.read_text(errors="replace")[-3000:]
                self.kill()
                raise RuntimeError(f"ironworks serve did not get ready:\n{tail}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL, no goodbye: nothing the processes hold is flushed or closed."""
        if self.proc is None:
            return
        with suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL for whatever is left of the group."""
        if self.proc is None:
            return
        with suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=15)
        self.kill()

    def log_lines(self) -> list[str]:
        return self.log_path.read_text(errors="replace").splitlines()

    def __enter__(self) -> ServedProcess:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


PATIENCE = 30.0
"""Seconds a drill waits for a turn or an answer before it counts as hung."""


class Table:
    """The two seats of one highcard match, played through whichever server is up, each
    request on a connection of its own."""

    def __init__(self, base: str, rounds: int = 3) -> None:
        self.base = base
        created = httpx.post(
            f"{base}/matches",
            json={"game": "highcard", "players": 2, "options": {"rounds": rounds}},
        )
        assert created.status_code == 201, created.text
        self.match_id = created.json()["id"]
        self.tokens = [self._claim(seat) for seat in (0, 1)]
        self.acknowledged: list[tuple[int, int, str]] = []
        """(seat, card, key) of every move the server answered 200."""

    def _claim(self, seat: int) -> str:
        claimed = httpx.post(f"{self.base}/matches/{self.match_id}/seats/{seat}/claim")
        assert claimed.status_code == 201, claimed.text
        return claimed.json()["token"]

    def next_move(self) -> dict[str, Any] | None:
        """The request the seat to act sends next; ``None`` once the match is over. Waits
        (bounded) while the dealer's job runs."""
        deadline = time.monotonic() + PATIENCE
        while True:
            state = httpx.get(f"{self.base}/matches/{self.match_id}", timeout=5).json()
            if state["result"] is not None:
                return None
            if state["to_act"]:
                break
            assert time.monotonic() < deadline, f"nobody is to act: {state}"
            time.sleep(0.05)
        seat = state["to_act"][0]
        auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
        legal = httpx.get(f"{self.base}/matches/{self.match_id}/moves", headers=auth).json()
        key = f"{self.match_id}-v{legal['version']}"
        return {
            "seat": seat, "key": key,
            "headers": {**auth, "Idempotency-Key": key},
            "json": {"move": legal["moves"][0], "expected_version": legal["version"]},
        }  # fmt: skip

    def send(self, move: dict[str, Any]) -> httpx.Response:
        return httpx.post(
            f"{self.base}/matches/{self.match_id}/moves", headers=move["headers"],
            json=move["json"], timeout=PATIENCE,
        )  # fmt: skip

    def acknowledge(self, move: dict[str, Any], answer: httpx.Response) -> None:
        assert answer.status_code == 200, answer.text
        self.acknowledged.append((move["seat"], move["json"]["move"]["card"], move["key"]))

    def events(self) -> list[dict[str, Any]]:
        page = httpx.get(f"{self.base}/matches/{self.match_id}/events", params={"limit": 500})
        return page.json()["events"]
