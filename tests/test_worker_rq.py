"""The RQ runner with a real Redis and real worker processes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import msgspec
import pytest
import redis

from core.registry import GameRegistry
from core.service import MatchService
from core.store.redis import split_prefix
from core.tasks import Job
from tests.conftest import highcard_path_env
from tests.test_worker_inprocess import assert_played_by_the_rules, bot_match
from worker.bootstrap import build_service
from worker.rq_runner import ALIVE_TTL, RQRunner, run_job

pytestmark = pytest.mark.redis

DEADLINE = 25.0
"""Seconds a match may take through the workers before a test gives up."""

StartWorker = Callable[..., subprocess.Popen[bytes]]


@pytest.fixture
def start_worker(redis_url: str, tmp_path: Path) -> Iterator[StartWorker]:
    """Starts `python -m worker` processes (output in tmp_path/worker<n>.log); every one is
    killed and reaped at the end."""
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[IO[bytes]] = []

    def start(store_url: str, *options: str) -> subprocess.Popen[bytes]:
        logs.append(log := (tmp_path / f"worker{len(procs)}.log").open("wb"))
        cmd = [sys.executable, "-m", "worker", "--redis", redis_url, "--store", store_url]
        proc = subprocess.Popen([*cmd, *options], env=highcard_path_env(), stdout=log, stderr=log)
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        proc.terminate()  # a warm shutdown: RQ signs the worker off
    for proc in procs:
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    for log in logs:
        log.close()
    _delete_rq_keys(redis_url)


def _delete_rq_keys(redis_url: str) -> None:
    """RQ keeps its bookkeeping under ``rq:``; ours carry the test's prefix in their names."""
    url, prefix = split_prefix(redis_url)
    client = redis.Redis.from_url(url)
    for key in client.scan_iter(match=f"rq:*{prefix}*", count=1000):
        client.delete(key)
    for registry in ("rq:queues", "rq:workers"):
        ours = [m for m in client.smembers(registry) if prefix.encode() in m]
        if ours:
            client.srem(registry, *ours)


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request: pytest.FixtureRequest, redis_url: str, tmp_path: Path) -> str:
    """A store both this process and the worker processes reach."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'matches.sqlite3'}"
    return redis_url


@pytest.fixture
def rq_service(store_url: str, redis_url: str, registry: GameRegistry) -> Iterator[MatchService]:
    service = build_service(store_url, redis_url=redis_url, registry=registry)
    yield service
    service.runner.close()
    service.store.close()


@pytest.fixture
def runner(redis_url: str) -> Iterator[RQRunner]:
    runner = RQRunner(redis_url, "memory://")
    yield runner
    runner.close()
    _delete_rq_keys(redis_url)


JOB = Job(match_id="m1", version=7, kind="bot", seat=1)


def _status(runner: RQRunner, job: Job) -> str:
    return runner.connection.hget(f"rq:job:{runner.keys.job_id(job)}", "status").decode()


def _hold(runner: RQRunner, job: Job, worker_name: str) -> None:
    """Leave ``job`` as a worker leaves the job it is running: out of the queue, started."""
    rq_id = runner.keys.job_id(job)
    runner.queue.remove(rq_id)
    runner.connection.hset(
        f"rq:job:{rq_id}", mapping={"status": "started", "worker_name": worker_name}
    )


def test_queue_and_job_ids_carry_the_url_prefix(runner: RQRunner, redis_url: str) -> None:
    _, prefix = split_prefix(redis_url)
    runner.enqueue(JOB)
    assert runner.queue.name == prefix
    assert runner.queue.get_job_ids() == [f"{prefix}-m1_7_bot_seat1"]


def test_a_queued_job_names_the_job_function_and_the_store(runner: RQRunner) -> None:
    runner.enqueue(JOB)
    queued = runner.queue.jobs[0]
    assert queued.func is run_job
    assert queued.args == (msgspec.json.encode(JOB), "memory://")


def test_enqueuing_the_same_job_twice_queues_it_once(runner: RQRunner) -> None:
    runner.enqueue(JOB)
    runner.enqueue(JOB)
    assert runner.queue.count == 1


def test_a_job_held_by_a_dead_worker_is_queued_again(runner: RQRunner) -> None:
    runner.enqueue(JOB)
    _hold(runner, JOB, "gone")
    runner.enqueue(JOB)
    assert runner.queue.get_job_ids() == [runner.keys.job_id(JOB)]
    assert _status(runner, JOB) == "queued"


def test_a_job_held_by_a_live_worker_is_not_queued_again(runner: RQRunner) -> None:
    runner.enqueue(JOB)
    _hold(runner, JOB, "busy")
    runner.connection.set(runner.keys.alive("busy"), 1, ex=ALIVE_TTL)
    runner.enqueue(JOB)
    assert runner.queue.count == 0
    assert _status(runner, JOB) == "started"


def test_a_job_taken_off_the_queue_but_never_started_is_queued_again(runner: RQRunner) -> None:
    runner.enqueue(JOB)
    runner.queue.remove(runner.keys.job_id(JOB))  # a worker died between popping and starting
    runner.enqueue(JOB)
    assert runner.queue.count == 1


def test_a_job_a_worker_is_taking_off_the_queue_is_not_queued_again(runner: RQRunner) -> None:
    """Deleting it there pulled it from under the worker about to run it."""
    runner.enqueue(JOB)
    rq_id = runner.keys.job_id(JOB)
    runner.connection.lmove(runner.queue.key, runner.queue.intermediate_queue_key)  # popped
    runner.enqueue(JOB)
    assert runner.queue.count == 0
    assert runner.queue.intermediate_queue.get_job_ids() == [rq_id]
    assert _status(runner, JOB) == "queued"


def test_a_finished_job_that_a_worker_is_still_closing_is_queued_again(runner: RQRunner) -> None:
    """RQ deleting its execution at the same moment made the enqueue raise: a 500."""
    runner.enqueue(JOB)
    rq_id = runner.keys.job_id(JOB)
    runner.queue.remove(rq_id)
    runner.connection.hset(f"rq:job:{rq_id}", "status", "finished")
    # an execution the worker has just deleted, still listed for the job
    runner.connection.zadd(f"rq:executions:{rq_id}", {"gone": time.time() + 600})
    runner.enqueue(JOB)
    assert runner.queue.get_job_ids() == [rq_id]
    assert _status(runner, JOB) == "queued"


def _wait_until_over(service: MatchService, match_id: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while service.result(match := service.load(match_id)) is None:
        assert time.monotonic() < deadline, f"match stuck at version {match.version}"
        time.sleep(0.05)


def test_bots_finish_a_match_through_a_worker_process(
    rq_service: MatchService, store_url: str, start_worker: StartWorker
) -> None:
    match_id = bot_match(rq_service, players=3, rounds=4)
    start_worker(store_url)
    _wait_until_over(rq_service, match_id)
    assert_played_by_the_rules(rq_service, match_id)


def test_a_burst_worker_plays_while_there_is_work_and_then_exits(
    rq_service: MatchService, store_url: str, start_worker: StartWorker
) -> None:
    match_id = bot_match(rq_service, players=2, rounds=3)
    worker = start_worker(store_url, "--burst")
    assert worker.wait(timeout=DEADLINE) == 0
    assert_played_by_the_rules(rq_service, match_id)


def _started_jobs(redis_url: str) -> list[str]:
    """RQ ids of this test's jobs that a worker has started and not finished."""
    url, prefix = split_prefix(redis_url)
    client = redis.Redis.from_url(url)
    keys = client.scan_iter(match=f"rq:job:{prefix}-*", count=1000)
    return [
        k.decode().removeprefix("rq:job:") for k in keys if client.hget(k, "status") == b"started"
    ]


def _version_of(rq_id: str) -> int:
    match = re.search(r"_(\d+)_(?:bot|system)_", rq_id)
    assert match, rq_id
    return int(match[1])


def _kill_mid_job(
    proc: subprocess.Popen[bytes], redis_url: str, ready: Callable[[int], bool]
) -> str:
    """SIGKILL ``proc`` inside a job: freeze it, look whether the job it holds (computed for
    version v) passes ``ready(v)``, and let it run a moment longer if not. Returns the RQ id
    of the job it died with."""
    for _ in range(2000):
        os.kill(proc.pid, signal.SIGSTOP)
        held = _started_jobs(redis_url)
        if held and ready(_version_of(held[0])):
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
            return held[0]
        os.kill(proc.pid, signal.SIGCONT)
        time.sleep(0.0005)
    raise AssertionError("never caught the worker at the wanted point of a job")


@pytest.mark.parametrize("moment", ["before_its_append", "after_its_append"])
def test_a_new_worker_finishes_the_match_of_a_worker_killed_mid_job(
    rq_service: MatchService,
    store_url: str,
    redis_url: str,
    start_worker: StartWorker,
    moment: str,
) -> None:
    match_id = bot_match(rq_service, players=4, rounds=10)
    start = rq_service.store.version(match_id)
    total = start + 10 * (4 + 2)
    first = start_worker(store_url)
    deadline = time.monotonic() + DEADLINE
    while rq_service.store.version(match_id) < start + 10:
        assert time.monotonic() < deadline, "the first worker never got going"
        time.sleep(0.002)

    def ready(job_version: int) -> bool:
        now = rq_service.store.version(match_id)
        return now < total and (now > job_version) == (moment == "after_its_append")

    lost = _kill_mid_job(first, redis_url, ready)
    assert rq_service.store.version(match_id) < total, "the match ended before the kill"
    assert _started_jobs(redis_url) == [lost], "the dead worker should leave its job behind"
    start_worker(store_url)
    _wait_until_over(rq_service, match_id)
    assert_played_by_the_rules(rq_service, match_id)


def test_a_worker_redoes_the_work_of_a_match_whose_jobs_were_lost(
    rq_service: MatchService, store_url: str, start_worker: StartWorker
) -> None:
    match_id = bot_match(rq_service, players=2, rounds=3)
    assert isinstance(rq_service.runner, RQRunner)
    rq_service.runner.queue.empty()  # as if Redis lost them, or a worker died holding them
    start_worker(store_url)
    _wait_until_over(rq_service, match_id)
    assert_played_by_the_rules(rq_service, match_id)


def test_a_worker_with_a_metrics_port_counts_the_jobs_it_ran(
    rq_service: MatchService, store_url: str, start_worker: StartWorker
) -> None:
    import socket
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    match_id = bot_match(rq_service, players=2, rounds=3)
    start_worker(store_url, "--metrics-port", str(port))
    _wait_until_over(rq_service, match_id)
    deadline = time.monotonic() + DEADLINE
    done = 0
    text = ""
    # The last job counts itself done a moment after its move is stored: read until it has.
    while done < 6:  # a bot turn per seat and round
        assert time.monotonic() < deadline, f"jobs counted done: {done}\n{text[-2000:]}"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as answer:
                text = answer.read().decode()
        except OSError:  # not listening yet
            time.sleep(0.1)
            continue
        found = re.search(r'ironworks_jobs_total\{event="done",kind="bot"\} ([\d.]+)', text)
        done = int(float(found.group(1))) if found else 0
        time.sleep(0.05)
    assert re.search(r'ironworks_moves_total\{code="accepted",game="highcard",outcome="accepted"\}'
                     r" [1-9]", text), text[-2000:]  # fmt: skip
