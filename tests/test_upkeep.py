"""The in-process runner's upkeep with one or several API processes: lost jobs are found
again periodically, by one process at a time; a job is queued once per process however often
it is asked for; a job whose copy ran elsewhere first is stale, not failed."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from core.events import AppendResult, NewEvent
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from core.tasks import Job, NullRunner
from worker import inprocess
from worker.inprocess import InProcessRunner
from worker.jobs import execute
from worker.upkeep import Upkeep

JOIN_TIMEOUT = 20.0


def waiting_for_the_deal(registry: GameRegistry, jobs: NullRunner) -> MatchService:
    """A service whose one match waits for a dealer's job that nobody will run."""
    service = MatchService(MemoryStore(), registry, jobs)
    service.create_match("highcard", 2, match_id="m")
    jobs.jobs.clear()  # lost with the process that queued it
    return service


def test_the_upkeep_queues_lost_jobs_again_at_each_scan_while_they_stay_lost(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    """It used to scan once, at startup: a job lost later (a crashed job thread) was lost
    until the next restart."""
    upkeep = Upkeep(waiting_for_the_deal(registry, jobs), reconcile=True)
    assert upkeep.reconcile_once() == 1  # the first scan resumes what waits
    assert upkeep.reconcile_once() == 1  # still at the same version: lost again
    assert [(j.match_id, j.kind) for j in jobs.jobs] == [("m", "system")] * 2


def test_one_process_of_several_reconciles_and_another_takes_over_when_it_stops(
    registry: GameRegistry, tmp_path: Path
) -> None:
    lock = tmp_path / "reconciler.lock"
    first_jobs, second_jobs = NullRunner(), NullRunner()
    first = Upkeep(waiting_for_the_deal(registry, first_jobs), reconcile=True, lock_path=lock)
    second = Upkeep(waiting_for_the_deal(registry, second_jobs), reconcile=True, lock_path=lock)
    assert first.reconcile_once() == 1
    assert second.reconcile_once() == 0 and second_jobs.jobs == []
    first.stop()  # its process ended: the kernel drops its lock (here: closing it)
    assert second.reconcile_once() == 1 and len(second_jobs.jobs) == 1


def test_without_the_in_process_runner_the_upkeep_only_settles(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    upkeep = Upkeep(waiting_for_the_deal(registry, jobs), reconcile=False)
    assert upkeep.reconcile_once() == 0 and jobs.jobs == []


def test_a_job_queued_or_running_is_not_queued_again(
    svc: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[str] = []
    release = threading.Event()

    def execute(service: MatchService, job: Job, pool: object = None) -> str:
        runs.append(job.id)
        release.wait(JOIN_TIMEOUT)
        return "done"

    monkeypatch.setattr(inprocess, "execute", execute)
    runner = InProcessRunner(threads=1)
    runner.bind(svc)
    try:
        running, waiting = (Job(match_id=m, version=1, kind="system") for m in ("a", "b"))
        for job in (running, waiting, running, waiting):
            runner.enqueue(job)
        release.set()
        assert runner.join(JOIN_TIMEOUT)
        assert runs == [running.id, waiting.id]
        runner.enqueue(running)  # done: a new request for it runs it again
        assert runner.join(JOIN_TIMEOUT)
        assert runs == [running.id, waiting.id, running.id]
    finally:
        runner.close()


class _OtherCopyFirst(MemoryStore):
    """Lets another copy of a job append its own choice under the job's key just before
    this copy's append (a search bot's two copies may think of different moves)."""

    key: str | None = None

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        if idempotency_key is not None and idempotency_key == self.key:
            self.key = None
            super().append(stream_id, expected_version, events, idempotency_key, "other-copy")
        return super().append(stream_id, expected_version, events, idempotency_key,
                              request_digest, waiting)  # fmt: skip


def test_a_job_whose_other_copy_moved_first_is_stale_not_failed(
    registry: GameRegistry, jobs: NullRunner, caplog: Any
) -> None:
    store = _OtherCopyFirst()
    service = MatchService(store, registry, jobs)
    service.create_match("highcard", 2, match_id="m")
    (deal,) = jobs.jobs
    store.key = deal.id
    assert execute(service, deal) == "stale"
    assert "failed" not in caplog.text
    assert service.store.version("m") == deal.version + 1  # one deal, the other copy's
