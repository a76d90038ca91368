"""Finding matches whose pending work was lost, and enqueueing it again.

A job is lost when the process that held it dies: an RQ worker killed mid-job, or an API
process whose in-process queue went down with it. Enqueueing again is always safe, since a
job that did run meanwhile is stale by the time its copy runs.
"""

from __future__ import annotations

import logging

from core.service import MatchService

log = logging.getLogger(__name__)


class Reconciler:
    """Finds matches whose pending work was lost and enqueues it again.

    The first scan resumes every match that has pending work. After that a match is
    reloaded only when it looks stuck: its version is the same as at the last scan. Matches
    waiting for a person (or over) are remembered as idle at their version and skipped until
    it changes, so a quiet scan costs one listing of the streams.
    """

    PAGE = 500

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self._last: dict[str, int] = {}
        self._idle: dict[str, int] = {}

    def scan(self) -> int:
        """Enqueue the jobs of every stuck match; returns how many matches that was."""
        store = self.service.store
        current: dict[str, int] = {}
        resumed = 0
        offset = 0
        while page := store.list_streams(offset, self.PAGE):
            offset += len(page)
            for info in page:
                current[info.stream_id] = info.version
                if self._idle.get(info.stream_id) == info.version:
                    continue
                last = self._last.get(info.stream_id)
                if last is not None and last != info.version:
                    continue  # moving along by itself
                resumed += self._resume(info.stream_id)
        self._last = current
        self._idle = {m: v for m, v in self._idle.items() if m in current}
        return resumed

    def _resume(self, match_id: str) -> int:
        try:
            match = self.service.load(match_id)
            # jobs_for rather than service.resume: the same load tells us if the match is idle.
            jobs = self.service.jobs_for(match)
        except Exception:  # a plugin bug or uninstalled game must not stop the other matches
            log.exception("cannot resume match %s", match_id)
            self._idle[match_id] = self.service.store.version(match_id)
            return 0
        if not jobs:
            self._idle[match_id] = match.version
            return 0
        for job in jobs:
            self.service.runner.enqueue(job)
        return 1
