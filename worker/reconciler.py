"""Finding matches whose pending work was lost, and enqueueing it again.

A job is lost when the process that held it dies: an RQ worker killed mid-job, or an API
process whose in-process queue went down with it, or when it could not be queued at all (the
queue, or the store, was down just after a change was stored). Enqueueing again is always
safe, since a job that did run meanwhile is stale by the time its copy runs.
"""

from __future__ import annotations

import contextlib
import logging
import time

from core.errors import ServiceUnavailable, VersionConflict
from core.observe import JOB_OBSERVERS, notify
from core.service import MatchService

log = logging.getLogger(__name__)


class Reconciler:
    """Finds matches whose pending work was lost and enqueues it again.

    A scan looks only at the matches the store marks as waiting for a job (each append
    sets the mark, see :meth:`core.store.base.EventStore.waiting_streams`), so it costs the
    same however many matches are stored. The first scan resumes every one of them that has
    pending work. After that a match is reloaded only when it looks stuck: its version is
    the same as at the last scan. A marked match found waiting for a person (or over) has
    its mark cleared; one whose game cannot be loaded is remembered as idle at its version
    and skipped until it changes.

    A match resumed again and again at the same version has a job that keeps failing (a
    plugin bug): it is retried after 1, 2, 4 … up to ``MAX_BACKOFF`` scans, not at every one.

    A clock's timeout job is enqueued like any other (its runner holds it until it is due,
    and keeps it once however often it comes), but a match waiting only for a timeout that
    is not due yet does not count as resumed.

    A store or queue that is unavailable ends the scan with
    :class:`core.errors.ServiceUnavailable` and counts against no match: the next scan tries
    again as if this one had not happened.
    """

    PAGE = 500
    MAX_BACKOFF = 64

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self._last: dict[str, int] = {}
        self._idle: dict[str, int] = {}
        self._scans = 0
        self._retries: dict[str, tuple[int, int, int]] = {}
        """match -> (version resumed at, times resumed there, first scan allowed to retry)"""

    def scan(self) -> int:
        """Enqueue the jobs of every stuck match; returns how many matches that was."""
        store = self.service.store
        self._scans += 1
        current: dict[str, int] = {}
        resumed = 0
        marked = []
        # Listed in full before any mark is cleared, which would shift the pages.
        while page := store.waiting_streams(len(marked), self.PAGE):
            marked += page
        for info in marked:
            current[info.stream_id] = info.version
            if self._idle.get(info.stream_id) == info.version:
                continue
            last = self._last.get(info.stream_id)
            if last is not None and last != info.version:
                continue  # moving along by itself
            if not self._due(info.stream_id, info.version):
                continue
            resumed += self._resume(info.stream_id)
        self._last = current
        self._idle = {m: v for m, v in self._idle.items() if m in current}
        self._retries = {m: r for m, r in self._retries.items() if current.get(m) == r[0]}
        return resumed

    def _due(self, match_id: str, version: int) -> bool:
        """Whether a stuck match may be resumed in this scan; counts the attempt if so."""
        at, times, next_scan = self._retries.get(match_id, (version, 0, 0))
        if at != version:
            times, next_scan = 0, 0
        if self._scans < next_scan:
            return False
        wait = min(2**times, self.MAX_BACKOFF) if times else 1
        self._retries[match_id] = (version, times + 1, self._scans + wait)
        return True

    def _resume(self, match_id: str) -> int:
        try:
            return self._enqueue_jobs_of(match_id)
        except ServiceUnavailable:
            # An outage says nothing about the match: no backoff for it.
            self._retries.pop(match_id, None)
            raise

    def _enqueue_jobs_of(self, match_id: str) -> int:
        try:
            match = self.service.load(match_id)
            # jobs_for rather than service.resume: the same load tells us if the match is idle.
            jobs = self.service.jobs_for(match)
        except ServiceUnavailable:
            raise
        except Exception:  # a plugin bug or uninstalled game must not stop the other matches
            log.exception("cannot resume match %s", match_id)
            self._idle[match_id] = self.service.store.version(match_id)
            return 0
        if not jobs:
            # Marked waiting by an older version, or by a store call that did not say.
            with contextlib.suppress(VersionConflict):  # it moved on: its new mark stands
                self.service.store.append(match_id, match.version, [], waiting=False)
            return 0
        for job in jobs:
            self.service.runner.enqueue(job)
            notify(JOB_OBSERVERS, job.kind, "queued")
        now = time.time()
        return int(any(job.due is None or job.due <= now for job in jobs))
