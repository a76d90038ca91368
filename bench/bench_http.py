"""Moves per second through HTTP: the real ``ironworks serve`` against a bare Litestar app on
the same server stack, driven by the same asyncio client in the same run.

    python3 bench/bench_http.py [--store sqlite|memory|redis|postgres|URL] [--workers N]
                                [--matches 16] [--seconds 15] [--game brass-birmingham]
                                [--players 2] [--reads turn|none]

Random games are recorded first, in process (the match seed makes the deal, so each recorded
game replays exactly over HTTP). Then ``ironworks serve`` is started on a fresh store and
``--matches`` client tasks each play one match at a time on a keep-alive connection of their
own: every move is a ``POST /matches/{id}/moves`` with ``expected_version`` and an
``Idempotency-Key``; with ``--reads turn`` (the default) each seat also reads its view
(``GET /matches/{id}``) and its legal moves (``GET /matches/{id}/moves``) when its turn
begins, as a client does. A match played to its end is replaced by a new one. Then a bare
Litestar app on the same uvicorn, whose one endpoint decodes a small msgspec body and returns
JSON, is driven by the same number of tasks POSTing in a loop.

``--instructions`` measures without a server, a client or the machine's load: it replays
the recorded moves through the app's ASGI handler in process (the move lane, the request
log and metrics, the service, a fresh SQLite store; system steps run inline) under
callgrind and prints the user-space CPU instructions of one move POST. The replay first
plays 50 moves and runs a job in a worker thread, as a served process long has, so first
folds, caches and imports are behind it; it calls ``os.sched_yield`` (which nothing else
here calls) before and after the moves it measures, and callgrind (``--dump-before``) counts
those moves alone. uvicorn and h11, which both apps share, are not in it. With ``--profile
FILE`` the count of those moves is kept for ``callgrind_annotate --inclusive=yes FILE``
(C functions: the interpreter, SQLite, msgspec); ``--profile FILE.pstats`` instead writes a
cProfile of the same moves without callgrind (Python functions, by the thread's CPU time;
``python -m pstats FILE.pstats``).

Printed: accepted moves/s, p50/p95/p99 of each request kind, the bare app's requests/s and
latencies, and the ratios. ``--workers N`` starts both servers with N processes. Everything
binds to 127.0.0.1, is bounded by ``--seconds`` per server, and removes its store afterwards
(a Redis prefix or PostgreSQL schema of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import msgspec

REDIS = "redis://127.0.0.1:6379/0"
PG = "postgresql://postgres@127.0.0.1:5432/test"
STARTUP_SECONDS = 30.0
ROOT = Path(__file__).resolve().parent.parent

BARE_APP = """
import msgspec
from litestar import Litestar, post


class Body(msgspec.Struct, forbid_unknown_fields=True):
    move: dict
    expected_version: int


class Answer(msgspec.Struct):
    match_id: str
    version: int


@post("/echo/{match_id:str}", status_code=200)
async def echo(match_id: str, data: Body) -> Answer:
    return Answer(match_id=match_id, version=data.expected_version + 1)


app = Litestar([echo])
"""


# --- recording games in process --------------------------------------------------------------


class Recorded(msgspec.Struct):
    seed: str
    moves: list[tuple[int, bytes]]
    """(seat, move JSON) in order; system steps are left to the server."""


def record_games(game: str, players: int, count: int) -> list[Recorded]:
    from core.registry import default_registry
    from core.service import MatchService
    from core.store.memory import MemoryStore
    from worker.inprocess import InlineRunner

    runner = InlineRunner()
    service = MatchService(MemoryStore(), default_registry(), runner)
    runner.bind(service)
    games = []
    for n in range(count):
        seed = f"bench-http-{n}"
        match = service.create_match(game, players, seed=seed)
        for seat in range(players):  # as the client does: the versions must match
            service.claim_seat(match.match_id, seat)
        rng = random.Random(n)
        moves: list[tuple[int, bytes]] = []
        while service.result(match := service.load(match.match_id)) is None:
            seat = next(t.seat for t in service.tasks(match) if t.kind == "turn")
            move = rng.choice(service.legal_moves(match, seat))
            moves.append((seat, msgspec.json.encode(move)))
            service.apply(match, seat, move, match.version)
        games.append(Recorded(seed, moves))
    return games


# --- a small keep-alive HTTP/1.1 client ------------------------------------------------------


class Connection:
    """One keep-alive connection; the same code drives both servers."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", "host: 127.0.0.1"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body or method == "POST":
            lines += ["content-type: application/json", f"content-length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        assert self.reader is not None
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Stats:
    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.moves = 0
        self.conflicts = 0
        self.finished = 0
        self.elapsed = 0.0
        self.cpu = 0.0
        """Server CPU seconds (all its processes) while measured."""

    def timed(self, kind: str, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def percentiles(values: list[float]) -> str:
    if not values:
        return "no requests"
    p50, p95, p99 = (percentile(values, q) * 1e3 for q in (0.5, 0.95, 0.99))
    return f"p50 {p50:6.2f}  p95 {p95:6.2f}  p99 {p99:6.2f} ms  (n={len(values)})"


# --- driving ironworks -----------------------------------------------------------------------


async def timed(
    stats: Stats, kind: str, conn: Connection, *args: Any, **kwargs: Any
) -> tuple[int, bytes]:
    start = time.perf_counter()
    status, body = await conn.request(*args, **kwargs)
    stats.timed(kind, time.perf_counter() - start)
    return status, body


async def new_match(conn: Connection, args: argparse.Namespace, game: Recorded) -> tuple:
    body = msgspec.json.encode({"game": args.game, "players": args.players, "seed": game.seed})
    status, answer = await conn.request("POST", "/matches", body)
    if status != 201:
        raise RuntimeError(f"POST /matches: {status} {answer[:200]!r}")
    created = msgspec.json.decode(answer)
    tokens = []
    for seat in range(args.players):
        status, answer = await conn.request("POST", f"/matches/{created['id']}/seats/{seat}/claim")
        if status != 201:
            raise RuntimeError(f"claim: {status} {answer[:200]!r}")
        tokens.append(msgspec.json.decode(answer)["token"])
    return created["id"], created["version"], tokens


async def play_matches(
    n: int, port: int, args: argparse.Namespace, games: list[Recorded], stats: Stats,
    stop_at: float,
) -> None:  # fmt: skip
    conn = Connection(port)
    try:
        round_ = 0
        while time.monotonic() < stop_at:
            game = games[(n + round_) % len(games)]
            round_ += 1
            match_id, version, tokens = await new_match(conn, args, game)
            last_seat = None
            for seat, move in game.moves:
                if time.monotonic() >= stop_at:
                    return
                auth = {"authorization": f"Bearer {tokens[seat]}"}
                if args.reads == "turn" and seat != last_seat:
                    status, _ = await timed(stats, "GET view", conn, "GET",
                                            f"/matches/{match_id}", headers=auth)  # fmt: skip
                    if status != 200:
                        stats.error(f"GET view {status}")
                    status, _ = await timed(stats, "GET moves", conn, "GET",
                                            f"/matches/{match_id}/moves", headers=auth)  # fmt: skip
                    if status != 200:
                        stats.error(f"GET moves {status}")
                last_seat = seat
                for _attempt in range(50):
                    body = b'{"move":%s,"expected_version":%d}' % (move, version)
                    headers = {**auth, "idempotency-key": uuid.uuid4().hex}
                    status, answer = await timed(
                        stats, "POST move", conn, "POST", f"/matches/{match_id}/moves", body,
                        headers,
                    )  # fmt: skip
                    if status == 200:
                        version = msgspec.json.decode(answer)["version"]
                        stats.moves += 1
                        break
                    if status == 409 or b"not_playing" in answer:
                        # A system step (era scoring) ran on the server meanwhile (409), or
                        # is still to run (422 not_playing): go on from the version it leaves.
                        stats.conflicts += 1
                        if status != 409:
                            await asyncio.sleep(0.005)
                        _, view = await conn.request("GET", f"/matches/{match_id}", headers=auth)
                        version = msgspec.json.decode(view)["version"]
                        continue
                    stats.error(f"POST move {status} {answer[:120]!r}")
                    break
                else:
                    stats.error("POST move: conflicts kept coming")
            else:
                # The final scoring is a system step of its own, run on the server.
                for _ in range(200):
                    _, view = await conn.request("GET", f"/matches/{match_id}")
                    if msgspec.json.decode(view)["finished"]:
                        stats.finished += 1
                        break
                    await asyncio.sleep(0.01)
                else:
                    stats.error("a replayed match did not finish")
    finally:
        conn.close()


async def drive_ironworks(
    port: int, session: int, args: argparse.Namespace, games: list[Recorded]
) -> Stats:
    stats = Stats()
    # Warm up (imports, first folds, connection pools) before the clock starts.
    await play_warmup(port, args, games)
    start, cpu = time.monotonic(), cpu_seconds(session)
    stop_at = start + args.seconds
    await asyncio.gather(
        *(play_matches(n, port, args, games, stats, stop_at) for n in range(args.matches))
    )
    stats.elapsed = time.monotonic() - start
    stats.cpu = cpu_seconds(session) - cpu
    return stats


async def play_warmup(port: int, args: argparse.Namespace, games: list[Recorded]) -> None:
    warm = Stats()
    await asyncio.gather(
        *(play_matches(n, port, args, games, warm, time.monotonic() + 2.0) for n in range(4))
    )


async def drive_bare(port: int, session: int, args: argparse.Namespace) -> Stats:
    stats = Stats()
    body = b'{"move":{"type":"pass","card":"brewery_1"},"expected_version":17}'

    async def loop(stop_at: float, record: bool) -> None:
        conn = Connection(port)
        try:
            while time.monotonic() < stop_at:
                start = time.perf_counter()
                status, _ = await conn.request("POST", "/echo/abc", body)
                if record:
                    stats.timed("POST", time.perf_counter() - start)
                    if status != 200:
                        stats.error(f"POST {status}")
        finally:
            conn.close()

    await asyncio.gather(*(loop(time.monotonic() + 1.0, False) for _ in range(4)))
    start, cpu = time.monotonic(), cpu_seconds(session)
    await asyncio.gather(*(loop(start + args.seconds, True) for _ in range(args.matches)))
    stats.elapsed = time.monotonic() - start
    stats.cpu = cpu_seconds(session) - cpu
    return stats


# --- instructions through the ASGI handler --------------------------------------------------


def asgi_moves(count: int, args: argparse.Namespace, mark_after: int = 0) -> None:
    """Play ``count`` recorded moves as POSTs through the app's ASGI handler, no server;
    with ``mark_after``, mark the moves after that many (see ``--profile``)."""
    import logging

    import anyio.to_thread

    from api.app import create_app
    from worker.bootstrap import build_service
    from worker.inprocess import InlineRunner

    logging.disable(logging.INFO)  # as served with --log-level warning
    games = record_games(args.game, args.players, args.games)
    tmp = Path(tempfile.mkdtemp(prefix="iwbench-asgi-"))
    service = build_service(store_url=f"sqlite:///{tmp / 'asgi.sqlite3'}", runner=InlineRunner())
    app = create_app(service, log_level="warning")
    # The client's keys, made before: a served process does not pay for them.
    keys = iter([uuid.uuid4().hex.encode() for _ in range(2 * count + 2)])

    async def post(match_id: str, token: str, move: bytes, version: int) -> tuple[int, bytes]:
        body = b'{"move":%s,"expected_version":%d}' % (move, version)
        path = f"/matches/{match_id}/moves"
        headers = [
            (b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode()),
            (b"idempotency-key", next(keys)),
            (b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)),
        ]  # fmt: skip
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
            "root_path": "", "headers": headers, "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 2), "state": {},
        }  # fmt: skip
        sent: list[Any] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Any) -> None:
            sent.append(message)

        await app.asgi_handler(scope, receive, send)  # type: ignore[arg-type]
        return sent[0]["status"], sent[-1]["body"]

    async def play() -> None:
        # A served process has run a job in a worker thread long before (anyio's first
        # thread imports its backend): so has this one, before it counts.
        await anyio.to_thread.run_sync(int)
        played = 0
        for game in games * (1 + count // sum(len(g.moves) for g in games)):
            match = service.create_match(args.game, args.players, seed=game.seed)
            tokens = [service.claim_seat(match.match_id, seat) for seat in range(args.players)]
            version = service.load(match.match_id).version
            for seat, move in game.moves:
                if mark_after and played in (mark_after, count):
                    mark()
                if played == count:
                    return
                status, answer = await post(match.match_id, tokens[seat], move, version)
                if status != 200:  # a system step ran meanwhile: go on from its version
                    version = service.load(match.match_id).version
                    status, answer = await post(match.match_id, tokens[seat], move, version)
                if status != 200:
                    raise RuntimeError(f"POST move: {status} {answer[:200]!r}")
                version = msgspec.json.decode(answer)["version"]
                played += 1

    profiler: Any = None
    if args.profile.endswith(".pstats"):
        import cProfile

        # this thread's CPU time: the inline runner's thread and the machine's load aside
        profiler = cProfile.Profile(time.thread_time_ns, 1e-9)

    marks = [0]

    def mark() -> None:
        marks[0] += 1
        if profiler is None:
            os.sched_yield()  # callgrind dumps its counts here (--dump-before)
        elif marks[0] == 1:
            profiler.enable()
        else:
            profiler.disable()
            profiler.dump_stats(args.profile)

    try:
        asyncio.run(play())
    finally:
        service.runner.close()
        shutil.rmtree(tmp, ignore_errors=True)


WARM_MOVES = 50
"""Moves a replay plays before its measured ones (first folds, caches, imports)."""


def instructions(args: argparse.Namespace) -> None:
    """Instructions a move POST costs the app: callgrind's count of the measured moves
    alone (see above); with ``--profile``, where they go."""
    own = [
        "--asgi-moves", str(WARM_MOVES + args.instructions), "--asgi-mark", str(WARM_MOVES),
        "--game", args.game, "--players", str(args.players), "--games", str(args.games),
        "--profile", args.profile,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    if args.profile.endswith(".pstats"):
        subprocess.run([sys.executable, __file__, *own], env=env, check=True)
        print(f"cProfile of {args.instructions} move POSTs: python -m pstats {args.profile}")
        return
    with tempfile.TemporaryDirectory(prefix="iwbench-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            "--dump-before=sched_yield", sys.executable, __file__, *own,
        ]  # fmt: skip
        subprocess.run(cmd, env=env, capture_output=True, check=True)
        # Dumped: .1 at the first mark (setup and warm-up), .2 at the second (the moves).
        dumped = Path(f"{out}.2").read_text()
        total = int(dumped.split("\ntotals: ", 1)[1].split()[0])
        if args.profile:
            shutil.copy(f"{out}.2", args.profile)
    print(
        f"{args.game} {args.players}p through the app's ASGI handler (SQLite, no server): "
        f"{total / args.instructions / 1e3:.0f}k CPU instructions per move POST "
        f"({args.instructions} moves)"
    )
    if args.profile:
        print(f"where they go: callgrind_annotate --inclusive=yes {args.profile}")


# --- servers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_listening(proc: subprocess.Popen, port: int, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"server did not start: {log.read_text()[-2000:]}")


def start(cmd: list[str], port: int, log: Path, env: dict[str, str]) -> subprocess.Popen:
    out = log.open("wb")
    proc = subprocess.Popen(cmd, stdout=out, stderr=out, env=env, start_new_session=True)
    wait_listening(proc, port, log)
    return proc


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def cpu_seconds(session: int) -> float:
    """User + system CPU used so far by every process of the server's session (Linux)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # the session id
            total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def store_url(kind: str, tmp: Path) -> str:
    tag = uuid.uuid4().hex[:8]
    if kind == "sqlite":
        return f"sqlite:///{tmp / 'bench.sqlite3'}"
    if kind == "memory":
        return "memory://"
    if kind == "redis":
        return f"{REDIS}?prefix=iwbench-{tag}"
    if kind == "postgres":
        return f"{PG}?schema=iwbench_{tag}"
    return kind


def clean_store(url: str) -> None:
    if url.startswith("redis"):
        import redis

        from core.store.redis import split_prefix

        base, prefix = split_prefix(url)
        client = redis.Redis.from_url(base)
        for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            client.delete(key)
    elif url.startswith("postgresql"):
        import psycopg

        from core.store.postgres import parse_url

        base, schema, _ = parse_url(url)
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def worker_args(workers: int) -> list[str]:
    return [] if workers == 1 else ["--workers", str(workers)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--store", default="sqlite", help="sqlite, memory, redis, postgres or a store URL"
    )
    parser.add_argument("--workers", type=int, default=1, help="server processes, for both apps")
    parser.add_argument("--matches", type=int, default=16, help="matches (client tasks) at once")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per server")
    parser.add_argument("--game", default="brass-birmingham")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=8, help="distinct recorded games")
    parser.add_argument(
        "--reads", choices=["turn", "none"], default="turn",
        help="turn: GET the view and the legal moves when a seat's turn begins; none: POSTs only",
    )  # fmt: skip
    parser.add_argument(
        "--instructions", type=int, metavar="MOVES", default=0,
        help="count the CPU instructions of MOVES move POSTs through the app, without a "
        "server (callgrind; see above)",
    )  # fmt: skip
    parser.add_argument(
        "--profile", metavar="FILE", default="",
        help="with --instructions: write where those moves go, a callgrind file (or a "
        "cProfile when FILE ends in .pstats; see above)",
    )  # fmt: skip
    parser.add_argument("--asgi-moves", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--asgi-mark", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.asgi_moves:
        asgi_moves(args.asgi_moves, args, args.asgi_mark)
        return
    if args.instructions:
        instructions(args)
        return

    games = record_games(args.game, args.players, args.games)
    tmp = Path(tempfile.mkdtemp(prefix="iwbench-http-"))
    url = store_url(args.store, tmp)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("REDIS_URL", None)
    try:
        port = free_port()
        cmd = [
            sys.executable, "-m", "api.cli", "serve", "--store", url, "--port", str(port),
            "--log-level", "warning", *worker_args(args.workers),
        ]  # fmt: skip
        proc = start(cmd, port, tmp / "ironworks.log", env)
        try:
            iw = asyncio.run(drive_ironworks(port, proc.pid, args, games))
        finally:
            stop(proc)
        (tmp / "bare_app.py").write_text(BARE_APP)
        port = free_port()
        if args.workers == 1:
            cmd = [
                sys.executable, "-m", "uvicorn", "bare_app:app", "--port", str(port),
                "--log-level", "warning", "--app-dir", str(tmp),
            ]  # fmt: skip
        else:  # the processes started as ironworks serve starts them (api.serving.TcpConfig)
            launch = (
                f"import sys; sys.path.insert(0, {str(tmp)!r}); "
                "from api.serving import run_processes; "
                f"run_processes('bare_app:app', {args.workers}, port={port}, log_level='warning')"
            )
            cmd = [sys.executable, "-c", launch]
        proc = start(cmd, port, tmp / "bare.log", env)
        try:
            bare = asyncio.run(drive_bare(port, proc.pid, args))
        finally:
            stop(proc)
    finally:
        clean_store(url)
        shutil.rmtree(tmp, ignore_errors=True)

    moves_per_s = iw.moves / iw.elapsed
    requests = sum(len(v) for v in iw.latencies.values())
    bare_requests = len(bare.latencies.get("POST", []))
    bare_rps = bare_requests / bare.elapsed
    kind = url.split(":", 1)[0]
    errors = f"errors {sum(iw.errors.values())} {iw.errors or ''}"
    print(
        f"{args.matches} x {args.game} {args.players}p, store {kind}, {args.workers} server "
        f"process(es), reads: {args.reads}, {args.seconds:.0f} s each"
    )
    print(
        f"ironworks  {moves_per_s:7.0f} accepted moves/s  {requests / iw.elapsed:6.0f} "
        f"requests/s  {iw.cpu / max(iw.moves, 1) * 1e3:5.2f} server CPU ms/move   "
        f"matches finished {iw.finished}, retried {iw.conflicts}, {errors}"
    )
    for name in ("POST move", "GET view", "GET moves"):
        if name in iw.latencies:
            print(f"  {name:10} {percentiles(iw.latencies[name])}")
    print(
        f"bare app   {bare_rps:7.0f} requests/s        {'':18}"
        f"{bare.cpu / max(bare_requests, 1) * 1e3:5.2f} server CPU ms/request   "
        f"errors {sum(bare.errors.values())}"
    )
    print(f"  {'POST':10} {percentiles(bare.latencies.get('POST', []))}")
    p99 = percentile(iw.latencies["POST move"], 0.99)
    bare_p99 = percentile(bare.latencies["POST"], 0.99)
    by_cpu = (bare.cpu / max(bare_requests, 1)) / (iw.cpu / max(iw.moves, 1))
    print(
        f"ratio      moves/s : bare requests/s = {moves_per_s / bare_rps:.2f} "
        f"(by server CPU {by_cpu:.2f}; target >= 0.5)   "
        f"move POST p99 : bare p99 = {p99 / bare_p99:.1f} (target <= 4)"
    )


if __name__ == "__main__":
    main()
