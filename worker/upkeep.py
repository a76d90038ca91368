"""The in-process runner's upkeep, on one thread of each API process: queue what outages
kept this process from queuing (:meth:`core.service.MatchService.settle`), and reconcile:
find matches whose jobs were lost (queued in a process that died, or in a job thread that
crashed) and queue them again (:class:`worker.reconciler.Reconciler`).

RQ workers reconcile by themselves (``worker.rq_runner``); an API process on RQ only
settles. With several API processes on one machine (``ironworks serve --workers N``) one
reconciler is enough: the process holding an exclusive lock on ``lock_path`` reconciles,
and when it dies the kernel drops its lock and another process takes over at its next
turn. A second reconciler would only be wasted work: a job that two processes run appends
once (its version and idempotency key see to that), the other copy finds it stale.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from pathlib import Path

from core.errors import ServiceUnavailable
from core.service import MatchService
from worker.reconciler import Reconciler

log = logging.getLogger(__name__)

SETTLE_EVERY = 2.0
"""Seconds between two attempts to queue the jobs an outage kept this process from queuing."""
RECONCILE_EVERY = 10.0
"""Seconds between two scans for lost jobs. A scan re-queues only a match that stood still
for a whole interval with jobs pending, so this must be longer than any job waits in a
healthy queue."""


class Upkeep:
    def __init__(
        self,
        service: MatchService,
        *,
        reconcile: bool,
        lock_path: str | os.PathLike[str] | None = None,
        settle_every: float = SETTLE_EVERY,
        reconcile_every: float = RECONCILE_EVERY,
    ) -> None:
        self.service = service
        self.reconciler = Reconciler(service) if reconcile else None
        self.lock_path = None if lock_path is None else Path(lock_path)
        self.settle_every = settle_every
        self.reconcile_every = reconcile_every
        self._lock_file: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ironworks-upkeep", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join(timeout=10)
        if self._lock_file is not None:
            os.close(self._lock_file)
            self._lock_file = None

    def reconciling(self) -> bool:
        """Whether this process is the one that reconciles (taking the lock if it is free)."""
        if self.reconciler is None:
            return False
        if self.lock_path is None or self._lock_file is not None:
            return True
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._lock_file = fd
        return True

    def reconcile_once(self) -> int:
        """One scan, if this process reconciles; how many matches it queued jobs for."""
        if not self.reconciling():
            return 0
        assert self.reconciler is not None
        try:
            resumed = self.reconciler.scan()
        except ServiceUnavailable as exc:
            log.warning("reconciling postponed: %s", exc.message)
            return 0
        if resumed:
            log.info("queued again the jobs of %d match(es) that waited for them", resumed)
        return resumed

    def settle_once(self) -> int:
        try:
            settled = self.service.settle()
        except Exception:  # the loop must outlive any one bad match
            log.exception("settling matches failed; retrying")
            return 0
        if settled:
            log.warning("queued the jobs of %d match(es) left behind by an outage", settled)
        return settled

    def _run(self) -> None:
        # The first scan resumes whatever the last run of the service left waiting.
        try:
            self.reconcile_once()
        except Exception:
            log.exception("reconciling failed; retrying")
        waited = 0.0
        while not self._stop.wait(self.settle_every):
            self.settle_once()
            waited += self.settle_every
            if waited >= self.reconcile_every:
                waited = 0.0
                try:
                    self.reconcile_once()
                except Exception:
                    log.exception("reconciling failed; retrying")
