"""The embedded default runner: one background thread executing jobs in order."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import queue
import threading
import time
import zlib
from typing import Any

from core.errors import ServiceUnavailable
from core.service import MatchService
from core.tasks import Job
from worker.jobs import aexecute, execute
from worker.think import ThinkPool

log = logging.getLogger(__name__)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class InProcessRunner:
    """Jobs on a few background threads of this process.

    Several threads, so a bot's long turn never holds up another match's dealing or scoring;
    with a :class:`~worker.think.ThinkPool`, search bots think in other processes, so they
    hold neither this process's interpreter lock (the API's requests) nor more cores than
    the pool has. Jobs of one match never run at once: each waits for the one before, and a
    job already queued or running here is not queued a second time (the reconciler may ask).

    Webhook jobs (``kind="hooks"``) run on threads of their own, outside the match's lock,
    so a slow receiver never holds up a match's bots; a sweeper thread wakes their retries
    every ``sweep_every`` seconds (:class:`worker.deliveries.DeliverySweeper`).

    A job with a ``due`` time (a clock's timeout) waits on a timer thread until then; a job
    enqueued again while it waits is kept once. Timers live in this process: after a
    restart, the reconciler's first scan schedules them again from the store.

    Served by an event loop (:meth:`serve_on`, the API's startup), a system job queued from
    that loop runs on it as a task (:func:`worker.jobs.aexecute`): a step of the game's own
    (era scoring, the deal) is as quick as a move, and run there its append is the loop's
    like every move's, with no thread hop, no interpreter lock handed between threads, and
    no write from another connection meeting the loop's writes (SQLite). It does not take
    the match's lock: a system job is the only job valid at its version, and its append
    checks that version.
    """

    enqueue_blocks = False
    """:meth:`enqueue` only hands the job on (:func:`core.tasks.enqueue_blocks`)."""

    def __init__(
        self,
        threads: int = 4,
        pool: ThinkPool | None = None,
        hook_threads: int = 2,
        sweep_every: float = 1.0,
    ) -> None:
        self.service: MatchService | None = None
        self.pool = pool
        self.sweep_every = sweep_every
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._hook_queue: queue.Queue[Job | None] = queue.Queue()
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._busy = 0
        self._pending: set[str] = set()
        # Striped rather than one lock per match, so the set stays bounded.
        self._stripes = [threading.Lock() for _ in range(64)]
        self._threads = [
            threading.Thread(
                target=self._loop, args=(self._queue, True), name=f"ironworks-worker-{i}",
                daemon=True,
            )
            for i in range(max(1, threads))
        ]  # fmt: skip
        self._hook_threads = [
            threading.Thread(
                target=self._loop, args=(self._hook_queue, False), name=f"ironworks-hooks-{i}",
                daemon=True,
            )
            for i in range(max(1, hook_threads))
        ]  # fmt: skip
        self._sweeper = threading.Thread(target=self._sweep, name="ironworks-sweep", daemon=True)
        self._timers: list[tuple[float, str, Job]] = []
        self._timer_ids: set[str] = set()
        self._timer_wake = threading.Condition()
        self._closing = False
        self._timer_thread = threading.Thread(
            target=self._release_due, name="ironworks-timers", daemon=True
        )
        self._event_loop: asyncio.AbstractEventLoop | None = None
        self._on_loop: set[asyncio.Task[Any]] = set()
        for thread in [*self._threads, *self._hook_threads, self._sweeper, self._timer_thread]:
            thread.start()

    def bind(self, service: MatchService) -> None:
        self.service = service

    def serve_on(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run the system jobs queued from ``loop``'s thread on ``loop`` (see the class)."""
        self._event_loop = loop

    async def leave_loop(self) -> None:
        """Stop running jobs on the loop, once those it runs are done."""
        self._event_loop = None
        if self._on_loop:
            await asyncio.gather(*self._on_loop, return_exceptions=True)

    def enqueue(self, job: Job) -> None:
        if job.due is not None and job.due > time.time():
            with self._timer_wake:
                if job.id not in self._timer_ids:
                    self._timer_ids.add(job.id)
                    heapq.heappush(self._timers, (job.due, job.id, job))
                    self._timer_wake.notify()
            return
        with self._idle:
            if job.id in self._pending:
                return
            self._pending.add(job.id)
            self._busy += 1
        if (
            job.kind == "system"
            and self._event_loop is not None
            and _running_loop() is self._event_loop
        ):
            task = self._event_loop.create_task(self._run_on_loop(job))
            self._on_loop.add(task)
            task.add_done_callback(self._on_loop.discard)
            return
        (self._hook_queue if job.kind == "hooks" else self._queue).put(job)

    @property
    def scheduled(self) -> list[Job]:
        """Jobs waiting for their time, soonest first."""
        with self._timer_wake:
            return [job for _, _, job in sorted(self._timers)]

    def _release_due(self) -> None:
        """Hands each timed job to the job threads once its time has come."""
        with self._timer_wake:
            while not self._closing:
                now = time.time()
                while self._timers and self._timers[0][0] <= now:
                    _, job_id, job = heapq.heappop(self._timers)
                    self._timer_ids.discard(job_id)
                    with self._idle:
                        self._busy += 1
                    self._queue.put(job)
                wait = self._timers[0][0] - now if self._timers else None
                self._timer_wake.wait(wait)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until every queued job (and what it enqueued) has run."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    @property
    def running(self) -> bool:
        """Whether the threads still serve jobs (until :meth:`close`)."""
        return any(thread.is_alive() for thread in self._threads)

    def close(self) -> None:
        """Stop after the jobs queued so far; waits a few seconds for the ones in hand."""
        self._stop.set()
        with self._timer_wake:
            self._closing = True
            self._timer_wake.notify()
        for _ in self._threads:
            self._queue.put(None)
        for _ in self._hook_threads:
            self._hook_queue.put(None)
        for thread in [*self._threads, *self._hook_threads, self._sweeper, self._timer_thread]:
            thread.join(timeout=5)
        if self.pool is not None:
            self.pool.close()

    def _lock_for(self, match_id: str) -> threading.Lock:
        return self._stripes[zlib.crc32(match_id.encode()) % len(self._stripes)]

    def _sweep(self) -> None:
        from worker.deliveries import DeliverySweeper

        sweeper: DeliverySweeper | None = None
        while not self._stop.wait(self.sweep_every):
            if self.service is None or self.service.webhooks is None:
                continue
            sweeper = sweeper or DeliverySweeper(self.service)
            try:
                sweeper.sweep()
            except ServiceUnavailable as exc:  # an outage: one line, as the reconciler says it
                log.warning("webhook sweep postponed: %s", exc.message)
            except Exception:  # the sweeper must outlive a bad hook stream
                log.exception("webhook sweep failed; retrying")

    def _loop(self, jobs: queue.Queue[Job | None], locked: bool) -> None:
        while (job := jobs.get()) is not None:
            try:
                assert self.service is not None, "runner not bound to a service"
                with self._lock_for(job.match_id) if locked else contextlib.nullcontext():
                    execute(self.service, job, self.pool)
            except Exception:  # the thread must outlive any one bad job
                log.exception("job %s crashed", job.id)
            finally:
                self._done(job)

    async def _run_on_loop(self, job: Job) -> None:
        try:
            assert self.service is not None, "runner not bound to a service"
            await aexecute(self.service, job)
        except Exception:  # as a job thread: logged, never the loop's problem
            log.exception("job %s crashed", job.id)
        finally:
            self._done(job)

    def _done(self, job: Job) -> None:
        with self._idle:
            self._pending.discard(job.id)
            self._busy -= 1
            self._idle.notify_all()


class InlineRunner:
    """Runs each job right away in the caller's thread, queueing nested ones: for tests
    and bots' playouts where determinism matters more than latency. Timed jobs (clocks)
    are only kept in :attr:`scheduled`, for a test to run by hand."""

    def __init__(self) -> None:
        self.service: MatchService | None = None
        self._pending: list[Job] = []
        self._running = False
        self.scheduled: list[Job] = []

    def bind(self, service: MatchService) -> None:
        self.service = service

    def enqueue(self, job: Job) -> None:
        if job.due is not None:
            if job not in self.scheduled:
                self.scheduled.append(job)
            return
        self._pending.append(job)
        if self._running:
            return
        self._running = True
        try:
            while self._pending:
                assert self.service is not None, "runner not bound to a service"
                execute(self.service, self._pending.pop(0))
        finally:
            self._running = False

    def close(self) -> None:
        pass
