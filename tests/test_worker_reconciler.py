"""The reconciler that redoes work lost with a dead worker, without reloading every match."""

from __future__ import annotations

import pytest

from core.errors import ServiceUnavailable
from core.match import MatchState
from core.service import MatchService
from core.tasks import Job, NullRunner
from tests.test_worker_inprocess import bot_match
from worker.jobs import execute
from worker.reconciler import Reconciler


def _waiting_for_people(svc: MatchService, jobs: NullRunner) -> str:
    match = svc.create_match("highcard", 2, seed="people")
    for seat in range(2):
        svc.claim_seat(match.match_id, seat)
    assert execute(svc, jobs.jobs[-1]) == "done"  # dealt; seat 0 must play now
    return match.match_id


def _count_loads(svc: MatchService, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    loaded: list[str] = []
    real = svc.load

    def load(match_id: str) -> MatchState:
        loaded.append(match_id)
        return real(match_id)

    monkeypatch.setattr(svc, "load", load)
    return loaded


def test_a_scan_enqueues_the_lost_work_of_matches_that_have_some(
    svc: MatchService, jobs: NullRunner
) -> None:
    _waiting_for_people(svc, jobs)
    bots = bot_match(svc, players=2, rounds=2)
    jobs.jobs.clear()
    assert Reconciler(svc).scan() == 1
    assert jobs.jobs == svc.jobs_for(svc.load(bots))


def test_a_match_that_moved_since_the_last_scan_is_left_alone(
    svc: MatchService, jobs: NullRunner
) -> None:
    bots = bot_match(svc, players=2, rounds=2)
    reconciler = Reconciler(svc)
    reconciler.scan()
    assert execute(svc, jobs.jobs[-1]) == "done"
    jobs.jobs.clear()
    assert reconciler.scan() == 0, "a match on the move needs no help"
    assert reconciler.scan() == 1, "the same match stuck at one version does"
    assert jobs.jobs == svc.jobs_for(svc.load(bots))


def test_a_scan_loads_only_the_matches_marked_waiting_however_many_are_stored(
    svc: MatchService, jobs: NullRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a restarted server's first scan costs: nothing for matches waiting for people
    or over, so it does not grow with the matches stored."""
    for _ in range(5):
        _waiting_for_people(svc, jobs)
    finished = bot_match(svc, players=2, rounds=1)
    while svc.result(svc.load(finished)) is None:
        execute(svc, jobs.jobs[-1])
    bots = bot_match(svc, players=2, rounds=2)
    jobs.jobs.clear()
    loaded = _count_loads(svc, monkeypatch)

    assert Reconciler(svc).scan() == 1

    assert loaded == [bots]
    assert jobs.jobs == svc.jobs_for(svc.load(bots))


def test_a_match_marked_waiting_with_nothing_to_do_is_loaded_once_and_unmarked(
    svc: MatchService, jobs: NullRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a match stored before the waiting mark existed (every one counts as waiting)."""
    waiting = _waiting_for_people(svc, jobs)
    svc.store.append(waiting, svc.store.version(waiting), [], waiting=True)
    reconciler = Reconciler(svc)
    loaded = _count_loads(svc, monkeypatch)
    enqueued = len(jobs.jobs)
    for _ in range(3):
        assert reconciler.scan() == 0
    assert loaded == [waiting]
    assert svc.store.waiting_streams() == []
    assert len(jobs.jobs) == enqueued


def test_a_match_that_cannot_be_resumed_does_not_stop_the_others(
    svc: MatchService, jobs: NullRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = bot_match(svc, players=2, rounds=2)
    fine = bot_match(svc, players=2, rounds=2)
    jobs.jobs.clear()
    real = svc.jobs_for

    def jobs_for(match: MatchState) -> list[Job]:
        if match.match_id == broken:
            raise RuntimeError("a plugin bug")
        return real(match)

    monkeypatch.setattr(svc, "jobs_for", jobs_for)
    assert Reconciler(svc).scan() == 1
    assert {job.match_id for job in jobs.jobs} == {fine}


def test_a_job_that_keeps_failing_is_retried_ever_more_rarely(
    svc: MatchService, jobs: NullRunner
) -> None:
    bots = bot_match(svc, players=2, rounds=2)
    reconciler = Reconciler(svc)
    resumed_at = []
    for scan in range(1, 20):
        jobs.jobs.clear()  # the job "fails": it never moves the match
        if reconciler.scan():
            resumed_at.append(scan)
    assert resumed_at == [1, 2, 4, 8, 16]
    assert all(job.match_id == bots for job in jobs.jobs)


def test_a_store_outage_during_a_scan_leaves_the_match_to_the_next_scan(
    svc: MatchService, jobs: NullRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An outage is no verdict on the match: marking it idle would leave its lost job lost."""
    bots = bot_match(svc, players=2, rounds=2)
    jobs.jobs.clear()
    reconciler = Reconciler(svc)
    real = svc.load

    def load_once_down(match_id: str) -> MatchState:
        monkeypatch.setattr(svc, "load", real)
        raise ServiceUnavailable("store_unavailable", "the event store did not answer")

    monkeypatch.setattr(svc, "load", load_once_down)
    with pytest.raises(ServiceUnavailable):
        reconciler.scan()
    assert reconciler.scan() == 1
    assert jobs.jobs == svc.jobs_for(svc.load(bots))


def test_scans_during_a_queue_outage_do_not_put_the_match_off_afterwards(
    svc: MatchService, jobs: NullRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    bots = bot_match(svc, players=2, rounds=2)
    jobs.jobs.clear()
    reconciler = Reconciler(svc)
    real = jobs.enqueue

    def refuse(job: Job) -> None:
        raise ServiceUnavailable("queue_unavailable", "the job queue did not answer")

    monkeypatch.setattr(jobs, "enqueue", refuse)
    for _ in range(4):
        with pytest.raises(ServiceUnavailable):
            reconciler.scan()
    monkeypatch.setattr(jobs, "enqueue", real)
    assert reconciler.scan() == 1, "the queue is back: the next scan resumes the match"
    assert jobs.jobs == svc.jobs_for(svc.load(bots))
