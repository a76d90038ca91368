"""Jobs through RQ on Redis: the runner the service enqueues to, the job function that RQ
workers import, and the worker loop behind ``ironworks worker``.

Safety does not depend on RQ delivering a job exactly once. Every job is checked against
the stream version it was computed for and appended with its id as idempotency key
(``worker.jobs``), so a duplicate only costs a wasted load. RQ's job id is the
:attr:`core.tasks.Job.id`, which keeps the queue free of duplicates in the common case, and
a reconciler in every worker re-enqueues work that a dead worker took down with it.

Timed jobs (a clock's timeouts) wait in a sorted set in Redis, scored by their due time,
until a worker's watch thread moves them to the queue: whichever worker removes one from
the set first queues it, so it is queued once, and it waits in Redis, so it outlives every
worker. (RQ's own scheduler runs in a process it forks, under a lock a killed worker keeps
for a minute, which would make every timeout that late.)
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
import uuid

import msgspec
from redis import Redis
from rq import Queue, SimpleWorker, get_current_job
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job as RQJob
from rq.job import JobStatus

from core.breaker import Breaker
from core.service import MatchService
from core.store.redis import DEFAULT_PREFIX, connect, is_outage, split_prefix
from core.tasks import Job
from worker.bootstrap import build_service, store_url_from_env
from worker.jobs import Outcome, execute
from worker.reconciler import Reconciler

log = logging.getLogger(__name__)

JOB_FUNCTION = "worker.rq_runner.run_job"
JOB_TIMEOUT = 120
"""Seconds one job may run; generous because search bots think inside a job."""
FAILURE_TTL = 24 * 3600
"""How long a crashed job's traceback stays in RQ's failed registry."""
ALIVE_TTL = 3
"""A worker that has not beaten for this many seconds counts as dead; its jobs are redone."""
BEAT_EVERY = 1.0
TIMERS_EVERY = 0.25
"""Seconds between two looks for timed jobs that are due."""
RECONCILE_EVERY = 2.0
"""Seconds between the reconciler's scans for matches whose jobs were lost."""

_job_decoder = msgspec.json.Decoder(Job)
_RQ_ID_CHARS = re.compile(r"[^A-Za-z0-9_-]")


class Keys(msgspec.Struct, frozen=True):
    """Names in Redis for one deployment, all derived from the ``?prefix=`` of the Redis URL
    (the event store's prefix, ``ironworks`` by default), which keeps deployments and tests
    apart. RQ's own bookkeeping keys start with ``rq:`` whatever we do; they contain the
    queue name or the job id, and both carry the prefix."""

    prefix: str = DEFAULT_PREFIX

    @classmethod
    def of_url(cls, redis_url: str) -> tuple[str, Keys]:
        """(the URL for redis-py, the keys)."""
        url, prefix = split_prefix(redis_url)
        return url, cls(prefix)

    @property
    def queue(self) -> str:
        return self.prefix

    def job_id(self, job: Job) -> str:
        """RQ ids allow only letters, digits, ``_`` and ``-``. Replacing the dots of a job id
        stays one-to-one: everything after the match id has a fixed form."""
        return _RQ_ID_CHARS.sub("_", f"{self.prefix}-{job.id}")

    def alive(self, worker_name: str) -> str:
        return f"{self.prefix}:worker-alive:{worker_name}"

    @property
    def reconcile_lock(self) -> str:
        return f"{self.prefix}:reconciling"

    @property
    def timers(self) -> str:
        return f"{self.prefix}:timers"


class RQRunner:
    """Sends jobs to the ironworks RQ queue. ``store_url`` travels with each job so a worker
    acts on the store the job came from; without it, workers use their own ``--store``.

    A Redis that is down or stalled makes :meth:`enqueue` raise
    :class:`core.errors.ServiceUnavailable` (code ``queue_unavailable``) within the
    timeouts of :func:`core.store.redis.connect`; the service leaves those jobs to the
    reconciler."""

    def __init__(self, redis_url: str, store_url: str | None = None) -> None:
        url, keys = Keys.of_url(redis_url)
        self._attach(connect(url), keys, store_url)

    @classmethod
    def attached(cls, connection: Redis, keys: Keys, store_url: str | None) -> RQRunner:
        """A runner on an existing connection (inside a worker, for follow-up jobs)."""
        runner = cls.__new__(cls)
        runner._attach(connection, keys, store_url)
        return runner

    def _attach(self, connection: Redis, keys: Keys, store_url: str | None) -> None:
        self.connection = connection
        self.keys = keys
        self.store_url = store_url
        self.queue = Queue(keys.queue, connection=connection)
        self.breaker = Breaker("queue_unavailable", "the job queue", is_outage)

    def enqueue(self, job: Job) -> None:
        with self.breaker:
            if job.due is not None and job.due > time.time():
                # The same job (same JSON) is one member: enqueued twice, it waits once.
                self.connection.zadd(self.keys.timers, {msgspec.json.encode(job): job.due})
                return
            self._enqueue(job)

    def release_due(self) -> int:
        """Queue the timed jobs whose time has come; returns how many this call queued."""
        released = 0
        with self.breaker:
            due = self.connection.zrangebyscore(self.keys.timers, "-inf", time.time(), 0, 100)
            for member in due:
                if self.connection.zrem(self.keys.timers, member):  # ours, not another's
                    self._enqueue(_job_decoder.decode(member))
                    released += 1
        return released

    def scheduled(self) -> list[Job]:
        """Timed jobs waiting for their time, soonest first."""
        with self.breaker:
            members = self.connection.zrange(self.keys.timers, 0, -1)
        return [_job_decoder.decode(m) for m in members]

    def ping(self) -> None:
        """Raise :class:`core.errors.ServiceUnavailable` unless the queue answers now."""
        with self.breaker:
            self.connection.ping()

    def live_workers(self) -> int:
        """How many ``ironworks worker`` processes on this queue have beaten lately."""
        with self.breaker:
            return sum(1 for _ in self.connection.scan_iter(self.keys.alive("*"), count=1000))

    def _enqueue(self, job: Job) -> None:
        rq_id = self.keys.job_id(job)
        try:
            self._push(job, rq_id)
            return
        except DuplicateJobError:
            pass
        existing = RQJob.fetch_many([rq_id], connection=self.connection)[0]
        if existing is not None:
            if self._in_hand(existing):
                return
            # The earlier copy died with its worker, or already ran: run it again. Harmless
            # if it did run, since the job is then stale.
            # A job that keeps failing is retried ever more rarely (worker.reconciler).
            try:
                existing.delete()
            except (NoSuchJobError, ValueError):
                # The worker that ran it is deleting it too (RQ's ValueError: an execution
                # of the job is already gone): finish the deletion.
                self.connection.delete(existing.key)
        with contextlib.suppress(DuplicateJobError):  # someone re-enqueued it meanwhile
            self._push(job, rq_id)

    def close(self) -> None:
        self.connection.close()

    def _push(self, job: Job, rq_id: str) -> None:
        self.queue.enqueue_call(
            JOB_FUNCTION,
            args=(msgspec.json.encode(job), self.store_url),
            job_id=rq_id,
            unique=True,
            timeout=JOB_TIMEOUT,
            result_ttl=0,
            failure_ttl=FAILURE_TTL,
            description=job.id,
        )

    def _in_hand(self, existing: RQJob) -> bool:
        """Whether an earlier copy will still run: waiting in the queue, or being run by a
        worker that is alive."""
        status = existing.get_status(refresh=False)
        if status == JobStatus.QUEUED:
            if self.queue.get_job_position(existing.id) is not None:
                return True
            # A worker pops a job into RQ's intermediate queue and starts it a moment later
            # (RQ fails it there if that worker died); taken off both, it was lost.
            parked = self.connection.lpos(self.queue.intermediate_queue_key, existing.id)
            return parked is not None
        if status == JobStatus.STARTED:
            worker = existing.worker_name
            return bool(worker) and bool(self.connection.exists(self.keys.alive(worker)))
        return False


# --- inside a worker process ---------------------------------------------------------------

_services: dict[tuple[str, str], MatchService] = {}
_worker_store_url: str | None = None
"""The ``--store`` of the worker running in this process (set by :func:`run_worker`)."""


def run_job(job_json: bytes, store_url: str | None = None) -> Outcome:
    """The RQ job function: one bot move or system task (see :func:`worker.jobs.execute`)."""
    job = _job_decoder.decode(job_json)
    current = get_current_job()
    if current is None:
        raise RuntimeError("run_job is an RQ job function; it runs inside an RQ worker")
    service = _service(store_url or _worker_store_url or store_url_from_env(), current)
    outcome = execute(service, job)
    log.debug("job %s: %s", job.id, outcome)
    return outcome


def _service(store_url: str, current: RQJob) -> MatchService:
    """One service per store and queue for the life of the process: it keeps the store's
    connection and the snapshot cache warm across jobs."""
    key = (store_url, current.origin)
    service = _services.get(key)
    if service is None:
        runner = RQRunner.attached(current.connection, Keys(current.origin), store_url)
        service = _services[key] = build_service(store_url, runner=runner)
    return service


def _watch(
    connection: Redis,
    keys: Keys,
    worker_name: str,
    reconciler: Reconciler,
    stop: threading.Event,
    reconcile_every: float,
) -> None:
    """Beat for the worker, queue the timed jobs that are due and, when no other worker has
    just done it, reconcile."""
    next_scan = time.monotonic() + reconcile_every
    next_beat = time.monotonic()
    timers = reconciler.service.runner
    while not stop.wait(TIMERS_EVERY):
        try:
            if isinstance(timers, RQRunner):
                timers.release_due()
            now = time.monotonic()
            if now < next_beat:
                continue
            next_beat = now + BEAT_EVERY
            connection.set(keys.alive(worker_name), 1, ex=ALIVE_TTL)
            if now < next_scan:
                continue
            next_scan = now + reconcile_every
            lock_ms = max(1, int(reconcile_every * 900))
            if not connection.set(keys.reconcile_lock, worker_name, nx=True, px=lock_ms):
                continue  # another worker has just scanned
            if resumed := reconciler.scan():
                log.info("re-enqueued the work of %d stuck match(es)", resumed)
        except Exception:  # the beat must outlive a Redis blip or a bad match
            log.exception("worker watch loop failed; retrying")


def run_worker(
    redis_url: str,
    store_url: str,
    burst: bool = False,
    *,
    reconcile_every: float = RECONCILE_EVERY,
    logging_level: str = "INFO",
) -> None:
    """Serve the ironworks queue until stopped (or, with ``burst``, until it is empty).

    On start, and every ``reconcile_every`` seconds, the pending work of unfinished
    matches is enqueued again so that jobs lost with a dead worker are redone.
    """
    global _worker_store_url
    _worker_store_url = store_url
    url, keys = Keys.of_url(redis_url)
    connection = Redis.from_url(url)
    # The prefix in the name tells deployments apart in `rq info` (and lets tests clean up).
    name = f"{keys.prefix}-{uuid.uuid4().hex}"
    # No fork per job (RQ's default): a job takes milliseconds, less than a fork, and the
    # cached service (store connection, snapshots) only lives on in a process that stays.
    worker = SimpleWorker(
        [Queue(keys.queue, connection=connection)], name=name, connection=connection
    )
    connection.set(keys.alive(worker.name), 1, ex=ALIVE_TTL)
    # The reconciler gets a service of its own: after this first scan it runs on the watch
    # thread, while jobs run on this one.
    watch_connection = Redis.from_url(url)
    runner = RQRunner.attached(watch_connection, keys, store_url)
    reconciler = Reconciler(build_service(store_url, runner=runner))
    reconciler.scan()
    stop = threading.Event()
    watcher = threading.Thread(
        target=_watch,
        args=(watch_connection, keys, worker.name, reconciler, stop, reconcile_every),
        name="ironworks-watch",
        daemon=True,
    )
    watcher.start()
    try:
        worker.work(burst=burst, logging_level=logging_level)
    finally:
        stop.set()
        watcher.join(timeout=BEAT_EVERY + 5)
        connection.delete(keys.alive(worker.name))
        reconciler.service.store.close()
