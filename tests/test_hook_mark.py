"""The hooks mark: a move on an SQLite store learns from its own append whether the match
may have webhooks, instead of reading the hooks' store. Two services on one pair of files
stand for two processes (each store its own connections)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from core.registry import GameRegistry
from core.service import MatchService
from core.store.sqlite import SQLiteStore
from core.tasks import NullRunner
from core.webhooks import Webhooks
from tests.test_service import _dealt, _hand, _play


class _CountedVersions:
    """Counts the hooks' store's version reads (the check a move used to make every time)."""

    def __init__(self, store: SQLiteStore) -> None:
        self.reads = 0
        version = store.version

        def counted(stream_id: str) -> int:
            self.reads += 1
            return version(stream_id)

        store.version = counted  # type: ignore[method-assign]


def _process(registry: GameRegistry, tmp_path: Path) -> tuple[MatchService, NullRunner, Any]:
    jobs = NullRunner()
    service = MatchService(SQLiteStore(tmp_path / "m.db"), registry, jobs)
    hooks = SQLiteStore(tmp_path / "m-webhooks.db")
    service.webhooks = Webhooks(hooks, allow_private=True, matches=service.store)
    return service, jobs, _CountedVersions(hooks)


def _hook_jobs(jobs: NullRunner) -> list[Any]:
    return [job for job in jobs.jobs if job.kind == "hooks"]


def test_a_move_on_a_match_without_hooks_queues_no_hooks_job_and_reads_no_hooks_store(
    registry: GameRegistry, tmp_path: Path
) -> None:
    service, jobs, counted = _process(registry, tmp_path)
    match, tokens = _dealt(service, jobs)
    counted.reads = 0  # a match's creation and claims still ask; the move is the point
    service.submit(match.match_id, tokens[0], _play(_hand(service, match, 0)[0]), match.version)
    assert _hook_jobs(jobs) == []
    assert counted.reads == 0


def test_a_hook_registered_by_another_process_is_heard_by_the_next_move(
    registry: GameRegistry, tmp_path: Path
) -> None:
    mover, jobs, _ = _process(registry, tmp_path)
    other, _, _ = _process(registry, tmp_path)
    match, tokens = _dealt(mover, jobs)
    other.webhooks.register(  # type: ignore[union-attr]
        match.match_id, "http://127.0.0.1:9/hook", ["your_turn"], 1, 1, match.version
    )
    mover.submit(match.match_id, tokens[0], _play(_hand(mover, match, 0)[0]), match.version)
    assert [job.version for job in _hook_jobs(jobs)] == [match.version + 1]


def test_a_match_from_before_the_mark_still_reads_the_hooks_store(
    registry: GameRegistry, tmp_path: Path
) -> None:
    service, jobs, counted = _process(registry, tmp_path)
    match, tokens = _dealt(service, jobs)
    with sqlite3.connect(tmp_path / "m.db") as conn:  # as a file made before the column
        conn.execute("UPDATE streams SET hooked = NULL")
    counted.reads = 0
    service.submit(match.match_id, tokens[0], _play(_hand(service, match, 0)[0]), match.version)
    assert counted.reads == 1
    assert _hook_jobs(jobs) == []


@pytest.mark.parametrize("marks", [False, True])
def test_webhooks_that_do_not_mark_this_store_are_always_asked(
    registry: GameRegistry, tmp_path: Path, marks: bool
) -> None:
    service, jobs, counted = _process(registry, tmp_path)
    if not marks:  # registrations through these would not mark the match store
        service.webhooks.matches = None  # type: ignore[union-attr]
    match, tokens = _dealt(service, jobs)
    counted.reads = 0  # a match's creation and claims still ask; the move is the point
    service.submit(match.match_id, tokens[0], _play(_hand(service, match, 0)[0]), match.version)
    assert counted.reads == (0 if marks else 1)
