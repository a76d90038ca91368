"""The embedded default runner: one background thread executing jobs in order."""

from __future__ import annotations

import logging
import queue
import threading

from core.service import MatchService
from core.tasks import Job
from worker.jobs import execute

log = logging.getLogger(__name__)


class InProcessRunner:
    def __init__(self) -> None:
        self.service: MatchService | None = None
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._idle = threading.Condition()
        self._busy = 0
        self._thread = threading.Thread(target=self._loop, name="ironworks-worker", daemon=True)
        self._thread.start()

    def bind(self, service: MatchService) -> None:
        self.service = service

    def enqueue(self, job: Job) -> None:
        with self._idle:
            self._busy += 1
        self._queue.put(job)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until every queued job (and what it enqueued) has run."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    @property
    def running(self) -> bool:
        """Whether the thread still serves jobs (until :meth:`close`)."""
        return self._thread.is_alive()

    def close(self) -> None:
        """Stop after the jobs queued so far; waits a few seconds for the one in hand."""
        self._queue.put(None)
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                assert self.service is not None, "runner not bound to a service"
                execute(self.service, job)
            except Exception:  # the thread must outlive any one bad job
                log.exception("job %s crashed", job.id)
            finally:
                with self._idle:
                    self._busy -= 1
                    self._idle.notify_all()


class InlineRunner:
    """Runs each job right away in the caller's thread, queueing nested ones: for tests
    and bots' playouts where determinism matters more than latency."""

    def __init__(self) -> None:
        self.service: MatchService | None = None
        self._pending: list[Job] = []
        self._running = False

    def bind(self, service: MatchService) -> None:
        self.service = service

    def enqueue(self, job: Job) -> None:
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
