"""Bot decisions per second through RQ, with 1 and 2 worker processes, on the SQLite and
the Redis event store, and how long a bot takes to answer a human's move.

    python3 bench/bench_workers.py [--game brass-birmingham] [--players 4] [--matches 8]
                                   [--seconds 60] [--stores sqlite,redis] [--workers 1,2]
                                   [--human-moves 100] [--redis redis://127.0.0.1:6379/0]

For each store and worker count: start ``python -m worker`` processes on a fresh queue,
create ``--matches`` matches, hand every seat to the random bot and time until all are
over; a decision is one bot move or system step (each appended with its own key), a job is
one bot turn (all that seat's consecutive decisions) or one system step. Then one 2-player
match, seat 0 played by this script at random and seat 1 by the random bot: after each of
its moves, the time until the bot's whole turn is stored and the match waits for seat 0
again. Printed besides: the worker processes' CPU time per decision and per job, against
the same decisions run in this process without a queue: the difference is RQ's own cost.

Needs Redis (the queue is always on Redis); only keys under a fresh ``?prefix=`` of the
``--redis`` URL (database included) are made and removed, and RQ's keys naming it. Every
configuration is bounded by ``--seconds`` and removes its workers and SQLite file afterwards.
Wall-clock figures vary with what else runs on the machine; CPU per decision is steadier.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import msgspec
import redis
from rq import Queue, Worker

from core.game import SYSTEM
from core.match import MatchState
from core.registry import default_registry
from core.service import MatchService
from core.store.memory import MemoryStore
from core.store.redis import split_prefix
from worker.bootstrap import build_service
from worker.inprocess import InlineRunner

REDIS = "redis://127.0.0.1:6379/0"
ROOT = Path(__file__).resolve().parent.parent
STARTUP_SECONDS = 20.0
OPTIONS = {"age-of-steam": {"map": "rust_belt"}}


def start_workers(count: int, redis_url: str, store_url: str, logs: Path) -> list[subprocess.Popen]:
    procs = []
    for n in range(count):
        log = (logs / f"worker{n}.log").open("wb")
        cmd = [sys.executable, "-m", "worker", "--redis", redis_url, "--store", store_url]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's code, wherever run
        procs.append(subprocess.Popen(cmd, stdout=log, stderr=log, env=env, cwd=ROOT))
    url, prefix = split_prefix(redis_url)
    queue = Queue(prefix, connection=redis.Redis.from_url(url))
    deadline = time.monotonic() + STARTUP_SECONDS
    while Worker.count(queue=queue) < count:
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise RuntimeError(f"workers did not start; see {logs}")
        time.sleep(0.05)
    return procs


def cpu_seconds(procs: list[subprocess.Popen]) -> float | None:
    """User + system CPU the workers used so far (Linux /proc; None elsewhere)."""
    try:
        total = 0
        for proc in procs:
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def stop_workers(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def delete_keys(redis_url: str) -> None:
    """Our keys start with the prefix; RQ's start with ``rq:`` and contain it."""
    url, prefix = split_prefix(redis_url)
    client = redis.Redis.from_url(url)
    for pattern in (f"{prefix}*", f"rq:*{prefix}*"):
        for key in client.scan_iter(match=pattern, count=1000):
            client.delete(key)
    for registry in ("rq:queues", "rq:workers"):
        ours = [m for m in client.smembers(registry) if prefix.encode() in m]
        if ours:
            client.srem(registry, *ours)


class Played(msgspec.Struct):
    decisions: int
    jobs: int
    seconds: float
    finished: int


def create(service: MatchService, args: argparse.Namespace, tag: str, players: int) -> list[str]:
    return [
        service.create_match(
            args.game, players, OPTIONS.get(args.game), seed=f"bench-{tag}-{n}"
        ).match_id
        for n in range(args.matches)
    ]


def count(service: MatchService, ids: list[str]) -> tuple[int, int]:
    """(decisions, jobs) stored: each decision has its own key; a job's decisions are the
    run of one actor's keyed events (a system step is a job of its own)."""
    decisions = jobs = 0
    for match_id in ids:
        keyed = [e for e in service.store.read(match_id) if e.idempotency_key is not None]
        last_key = last_actor = None
        for event in keyed:
            if event.idempotency_key != last_key:
                decisions += 1
                if event.actor != last_actor or event.actor == SYSTEM:
                    jobs += 1
            last_key, last_actor = event.idempotency_key, event.actor
    return decisions, jobs


def play(service: MatchService, args: argparse.Namespace, ids: list[str]) -> Played:
    start = time.perf_counter()
    for seat in range(args.players):
        for match_id in ids:
            service.hand_to_bot(match_id, seat, "random", None)
    deadline = time.monotonic() + args.seconds
    running = set(ids)
    while running and time.monotonic() < deadline:
        time.sleep(0.02)
        running = {m for m in running if service.result(service.load(m)) is None}
    elapsed = time.perf_counter() - start
    decisions, jobs = count(service, ids)
    return Played(decisions, jobs, elapsed, len(ids) - len(running))


def in_process_cpu_ms(args: argparse.Namespace) -> float:
    """CPU ms per decision of the same all-bot matches run in this process, no queue."""
    runner = InlineRunner()
    service = MatchService(MemoryStore(), default_registry(), runner)
    runner.bind(service)
    ids = create(service, args, "inline", args.players)
    start = time.process_time()
    for seat in range(args.players):
        for match_id in ids:
            service.hand_to_bot(match_id, seat, "random", None)
    used = time.process_time() - start
    return used / max(count(service, ids)[0], 1) * 1e3


def human_turns(service: MatchService, args: argparse.Namespace) -> list[float]:
    """Seconds from each human move being stored to the bot's whole turn being stored."""
    options = OPTIONS.get(args.game)
    match_id = service.create_match(args.game, 2, options, seed="bench-human").match_id
    token = service.claim_seat(match_id, 0)
    service.hand_to_bot(match_id, 1, "random", None)
    rng = random.Random(0)
    waits: list[float] = []
    deadline = time.monotonic() + args.seconds
    match = wait_for_seat0(service, match_id, deadline)
    while match is not None and len(waits) < args.human_moves:
        move = rng.choice(service.legal_moves(match, 0))
        done = service.submit(match_id, token, move, match.version)
        start = time.perf_counter()
        after = service.load_for_write(match_id, done.version)
        if any(t.kind == "turn" and t.seat == 0 for t in service.tasks(after)):
            match = after  # seat 0 goes on (a second action, a decision): nothing to time
            continue
        match = wait_for_seat0(service, match_id, deadline)
        if match is None:
            break
        waits.append(time.perf_counter() - start)
    return waits


def wait_for_seat0(service: MatchService, match_id: str, deadline: float) -> MatchState | None:
    """The match once it waits for seat 0 (polling the store's version); None once over."""
    seen = -1
    while time.monotonic() < deadline:
        version = service.store.version(match_id)
        if version != seen:
            seen = version
            match = service.load(match_id)
            if service.result(match) is not None:
                return None
            if any(t.kind == "turn" and t.seat == 0 for t in service.tasks(match)):
                return match
        time.sleep(0.0005)
    return None


def measure(store: str, workers: int, args: argparse.Namespace) -> str:
    url, _ = split_prefix(args.redis)
    redis_url = f"{url}{'&' if '?' in url else '?'}prefix=iwbench-{uuid.uuid4().hex[:8]}"
    tmp = Path(tempfile.mkdtemp(prefix="iwbench-"))
    store_url = f"sqlite:///{tmp / 'bench.sqlite3'}" if store == "sqlite" else redis_url
    service = build_service(store_url, redis_url=redis_url)
    procs: list[subprocess.Popen] = []
    try:
        procs = start_workers(workers, redis_url, store_url, tmp)
        ids = create(service, args, "bots", args.players)
        idle_cpu = cpu_seconds(procs)
        played = play(service, args, ids)
        busy_cpu = cpu_seconds(procs)
        waits = sorted(human_turns(service, args))
    finally:
        stop_workers(procs)
        service.runner.close()
        service.store.close()
        delete_keys(redis_url)
        shutil.rmtree(tmp, ignore_errors=True)
    unfinished = "" if played.finished == args.matches else (
        f"  ({args.matches - played.finished} unfinished)"
    )  # fmt: skip
    cpu = ""
    if idle_cpu is not None and busy_cpu is not None:
        used = (busy_cpu - idle_cpu) * 1e3
        cpu = (
            f"  worker CPU {used / max(played.decisions, 1):5.2f} ms/decision "
            f"{used / max(played.jobs, 1):5.2f} ms/job"
        )
    turn = "no human turns" if not waits else (
        f"human move -> bot's whole turn: median {waits[len(waits) // 2] * 1e3:5.1f} ms, "
        f"p95 {waits[int(len(waits) * 0.95)] * 1e3:5.1f} ms (n={len(waits)})"
    )  # fmt: skip
    return (
        f"{store:6} store  {workers} worker(s)  {played.decisions:5} decisions in "
        f"{played.jobs:5} jobs  {played.seconds:5.1f} s  "
        f"{played.decisions / played.seconds:6.0f} decisions/s{cpu}{unfinished}\n"
        f"{'':30}{turn}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="brass-birmingham")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=8, help="matches played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per configuration")
    parser.add_argument("--stores", default="sqlite,redis", help="comma-separated")
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--human-moves", type=int, default=100, help="human moves timed")
    parser.add_argument("--redis", default=REDIS, help="Redis URL; only a fresh prefix is used")
    args = parser.parse_args()
    redis.Redis.from_url(split_prefix(args.redis)[0], socket_timeout=1).ping()
    print(
        f"{args.matches} x {args.game}, {args.players} random bots each; in this process, "
        f"no queue: {in_process_cpu_ms(args):.2f} CPU ms/decision"
    )
    for store in args.stores.split(","):
        for workers in map(int, args.workers.split(",")):
            print(measure(store, workers, args), flush=True)


if __name__ == "__main__":
    main()
