"""Job safety: a job runs against the version it was computed for, or not at all."""

from __future__ import annotations

import threading

import pytest

from core.match import MatchState
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from core.tasks import Job, NullRunner
from worker.jobs import execute

SEED = "job-safety"


def _bots_to_move(svc: MatchService, jobs: NullRunner) -> tuple[MatchState, Job]:
    """A two-bot highcard match, dealt, with the first bot's turn job pending."""
    match = svc.create_match("highcard", 2, seed=SEED)
    for seat in range(2):
        svc.hand_to_bot(match.match_id, seat, "random", None)
    assert execute(svc, jobs.jobs[-1]) == "done"  # the deal
    turn = jobs.jobs[-1]
    assert turn.kind == "bot"
    return svc.load(match.match_id), turn


def _plays(svc: MatchService, match_id: str) -> int:
    return sum(e.type == "played" for e in svc.store.read(match_id))


def test_running_a_bot_job_twice_makes_one_move(svc: MatchService, jobs: NullRunner) -> None:
    match, turn = _bots_to_move(svc, jobs)
    assert execute(svc, turn) == "done"
    moved_to = svc.store.version(match.match_id)
    assert execute(svc, turn) == "stale"
    assert svc.store.version(match.match_id) == moved_to == match.version + 1
    assert _plays(svc, match.match_id) == 1


def test_a_bot_job_that_passed_its_check_before_the_stream_moved_is_not_doubled(
    svc: MatchService, jobs: NullRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    match, turn = _bots_to_move(svc, jobs)
    assert execute(svc, turn) == "done"
    # A second worker that loaded the match before the first one appended: its version
    # check passes, so only the idempotency key stands between it and a second move.
    monkeypatch.setattr(svc, "load", lambda match_id: match)
    assert execute(svc, turn) == "done"
    assert svc.store.version(match.match_id) == match.version + 1
    assert _plays(svc, match.match_id) == 1


def test_a_job_computed_for_an_older_version_is_dropped(
    svc: MatchService, jobs: NullRunner
) -> None:
    match, turn = _bots_to_move(svc, jobs)
    older = Job(match_id=match.match_id, version=match.version - 1, kind="bot", seat=turn.seat)
    assert execute(svc, older) == "stale"
    assert svc.store.version(match.match_id) == match.version


def test_a_bot_job_for_a_seat_no_bot_plays_is_dropped(svc: MatchService, jobs: NullRunner) -> None:
    match = svc.create_match("highcard", 2, seed=SEED)
    svc.claim_seat(match.match_id, 0)
    execute(svc, jobs.jobs[-1])  # the deal; seat 0 (a person) leads
    now = svc.load(match.match_id)
    forged = Job(match_id=now.match_id, version=now.version, kind="bot", seat=0)
    assert execute(svc, forged) == "stale"
    assert svc.store.version(now.match_id) == now.version


def test_a_bot_job_for_a_seat_whose_turn_it_is_not_is_dropped(
    svc: MatchService, jobs: NullRunner
) -> None:
    match, turn = _bots_to_move(svc, jobs)
    assert turn.seat is not None
    other = Job(match_id=match.match_id, version=match.version, kind="bot", seat=1 - turn.seat)
    assert execute(svc, other) == "stale"
    assert svc.store.version(match.match_id) == match.version


def test_workers_racing_on_the_same_job_make_one_move(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    store = MemoryStore()
    first = MatchService(store, registry, jobs)
    match, turn = _bots_to_move(first, jobs)
    workers = [MatchService(store, registry, NullRunner()) for _ in range(12)]
    start = threading.Barrier(len(workers))
    outcomes: list[str] = []

    def run(service: MatchService) -> None:
        start.wait()
        outcomes.append(execute(service, turn))

    threads = [threading.Thread(target=run, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert len(outcomes) == len(workers)
    assert store.version(match.match_id) == match.version + 1
    assert _plays(first, match.match_id) == 1


def test_a_job_for_a_match_that_does_not_exist_fails_without_raising(svc: MatchService) -> None:
    assert execute(svc, Job(match_id="nowhere", version=1, kind="bot", seat=0)) == "failed"
