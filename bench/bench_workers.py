"""Bot jobs per second through RQ, with 1 and 2 worker processes, on the SQLite and the
Redis event store.

    python3 bench/bench_workers.py [--game brass-birmingham] [--players 4] [--matches 4]
                                   [--seconds 60] [--stores sqlite,redis] [--workers 1,2]

For each store and worker count: start ``python -m worker`` processes on a fresh queue,
create ``--matches`` matches, hand every seat to the random bot and time until all are
over. A "job" here is one that moved a match (a bot's move or a system task); stale copies
that workers drop are not counted. Needs Redis on 127.0.0.1:6379 (the queue is always on
Redis), and the worker processes' CPU time per job (steadier than wall clock on a busy
machine). Every configuration is bounded by ``--seconds`` and removes its Redis keys, its
workers and its SQLite file afterwards. Wall-clock figures: on a shared machine they vary
with what else runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import redis
from rq import Queue, Worker

from core.service import MatchService
from core.store.redis import split_prefix
from worker.bootstrap import build_service

REDIS = "redis://127.0.0.1:6379/0"
STARTUP_SECONDS = 20.0
OPTIONS = {"age-of-steam": {"map": "rust_belt"}}


def start_workers(count: int, redis_url: str, store_url: str, logs: Path) -> list[subprocess.Popen]:
    procs = []
    for n in range(count):
        log = (logs / f"worker{n}.log").open("wb")
        cmd = [sys.executable, "-m", "worker", "--redis", redis_url, "--store", store_url]
        procs.append(subprocess.Popen(cmd, stdout=log, stderr=log))
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


def play(service: MatchService, args: argparse.Namespace) -> tuple[int, int, float, int]:
    """(jobs that moved a match, events they wrote, seconds, matches finished)."""
    ids = [
        service.create_match(
            args.game, args.players, OPTIONS.get(args.game), seed=f"bench-{n}"
        ).match_id
        for n in range(args.matches)
    ]
    start = time.perf_counter()
    for seat in range(args.players):
        for match_id in ids:
            service.hand_to_bot(match_id, seat, "random", None)
    deadline = time.monotonic() + args.seconds
    running = set(ids)
    while running and time.monotonic() < deadline:
        time.sleep(0.1)
        running = {m for m in running if service.result(service.load(m)) is None}
    elapsed = time.perf_counter() - start
    jobs = events = 0
    for match_id in ids:
        # Only jobs append with an idempotency key here (no player moves): one key per job.
        keyed = [e for e in service.store.read(match_id) if e.idempotency_key is not None]
        jobs += len({e.idempotency_key for e in keyed})
        events += len(keyed)
    return jobs, events, elapsed, len(ids) - len(running)


def measure(store: str, workers: int, args: argparse.Namespace) -> str:
    redis_url = f"{REDIS}?prefix=iwbench-{uuid.uuid4().hex[:8]}"
    tmp = Path(tempfile.mkdtemp(prefix="iwbench-"))
    store_url = f"sqlite:///{tmp / 'bench.sqlite3'}" if store == "sqlite" else redis_url
    service = build_service(store_url, redis_url=redis_url)
    procs: list[subprocess.Popen] = []
    try:
        procs = start_workers(workers, redis_url, store_url, tmp)
        idle_cpu = cpu_seconds(procs)
        jobs, events, elapsed, done = play(service, args)
        busy_cpu = cpu_seconds(procs)
    finally:
        stop_workers(procs)
        service.runner.close()
        service.store.close()
        delete_keys(redis_url)
        shutil.rmtree(tmp, ignore_errors=True)
    unfinished = "" if done == args.matches else f"  ({args.matches - done} unfinished)"
    cpu = (
        "" if idle_cpu is None or busy_cpu is None
        else f"  {(busy_cpu - idle_cpu) / max(jobs, 1) * 1e3:5.2f} worker CPU ms/job"
    )  # fmt: skip
    return (
        f"{store:6} store  {workers} worker(s)  {jobs:6} jobs  {events:6} events  "
        f"{elapsed:6.1f} s  {jobs / elapsed:7.0f} jobs/s{cpu}{unfinished}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="brass-birmingham")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=4, help="matches played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per configuration")
    parser.add_argument("--stores", default="sqlite,redis", help="comma-separated")
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    args = parser.parse_args()
    redis.Redis.from_url(REDIS, socket_timeout=1).ping()
    print(f"{args.matches} x {args.game}, {args.players} random bots each")
    for store in args.stores.split(","):
        for workers in map(int, args.workers.split(",")):
            print(measure(store, workers, args), flush=True)


if __name__ == "__main__":
    main()
