"""The embedded runner: a background thread that plays bots' turns and system tasks.

Also home of the helpers the RQ tests share: a bot-vs-bot highcard match and a check that
a finished log was played by the rules.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from functools import partial

import pytest

from core import observe
from core.game import SYSTEM
from core.match import CORE_PREFIX, decoder_for
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from core.tasks import Job
from worker import inprocess, jobs
from worker.inprocess import InProcessRunner

JOIN_TIMEOUT = 20.0


def bot_match(service: MatchService, players: int, rounds: int) -> str:
    """A highcard match whose seats all belong to random bots."""
    match = service.create_match(
        "highcard", players, {"rounds": rounds, "hand_size": 2}, seed="worker-test"
    )
    for seat in range(players):
        service.hand_to_bot(match.match_id, seat, "random", None)
    return match.match_id


def assert_played_by_the_rules(service: MatchService, match_id: str) -> None:
    """Replays the log: versions gapless, every deal and card legal when it was made, one
    card per seat per round, and the match over after exactly ``rounds`` rounds."""
    stored = service.store.read(match_id)
    assert [e.version for e in stored] == list(range(1, len(stored) + 1))
    match = service.load(match_id)
    game = service.game_of(match)
    decoder = decoder_for(game)
    state = None
    rounds: list[list[int]] = []
    for event in stored:
        if event.type.startswith(CORE_PREFIX):
            continue
        payload = decoder.decode(event.data)
        if event.type == "dealt":
            assert event.actor == SYSTEM
            assert [t.kind for t in game.pending_tasks(state)] == ["system"], "dealt mid-round"
            rounds.append([])
        elif event.type == "played":
            assert event.actor == payload.seat
            legal = [m.card for m in game.legal_moves(state, payload.seat)]
            assert payload.card in legal, f"illegal card at version {event.version}"
            rounds[-1].append(payload.seat)
        state = game.evolve(state, payload)
    assert len(rounds) == match.options.rounds
    assert all(sorted(seats) == list(range(match.players)) for seats in rounds)
    # created, started, a hand-over per seat; then per round a deal, the plays, a winner
    assert len(stored) == 2 + match.players + len(rounds) * (match.players + 2)
    assert game.result(state) is not None


@pytest.fixture
def runner() -> Iterator[InProcessRunner]:
    runner = InProcessRunner()
    yield runner
    runner.close()


@pytest.fixture
def svc(registry: GameRegistry, runner: InProcessRunner) -> MatchService:
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    return service


def test_bots_play_a_match_to_the_end_on_the_background_thread(
    svc: MatchService, runner: InProcessRunner
) -> None:
    match_id = bot_match(svc, players=3, rounds=5)
    assert runner.join(JOIN_TIMEOUT)
    assert svc.result(svc.load(match_id)) is not None
    assert_played_by_the_rules(svc, match_id)


def test_join_waits_for_the_job_in_hand(
    svc: MatchService, runner: InProcessRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    monkeypatch.setattr(
        inprocess, "execute", lambda service, job, pool=None: release.wait(JOIN_TIMEOUT)
    )
    runner.enqueue(Job(match_id="m", version=1, kind="system"))
    assert not runner.join(0.1)
    release.set()
    assert runner.join(JOIN_TIMEOUT)


def test_a_crashing_job_does_not_stop_the_runner(
    svc: MatchService,
    runner: InProcessRunner,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = inprocess.execute

    def execute(service: MatchService, job: Job, pool: object = None) -> str:
        if job.match_id == "plugin-bug":
            raise RuntimeError("a game raised where it must not")
        return real(service, job)

    monkeypatch.setattr(inprocess, "execute", execute)
    with caplog.at_level(logging.ERROR, logger=inprocess.__name__):
        runner.enqueue(Job(match_id="plugin-bug", version=1, kind="system"))
        runner.enqueue(Job(match_id="no-such-match", version=1, kind="system"))
        assert runner.join(JOIN_TIMEOUT)
    assert "plugin-bug" in caplog.text and "no-such-match" in caplog.text
    match_id = bot_match(svc, players=2, rounds=2)
    assert runner.join(JOIN_TIMEOUT)
    assert_played_by_the_rules(svc, match_id)


def _where_jobs_run(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    """(kind, outcome, thread id) of each job's end, as the job observers hear it."""
    seen: list[tuple[str, str, int]] = []
    monkeypatch.setattr(observe, "JOB_OBSERVERS", [])
    observe.JOB_OBSERVERS.append(
        lambda kind, what: seen.append((kind, what, threading.get_ident()))
    )
    monkeypatch.setattr(jobs, "JOB_OBSERVERS", observe.JOB_OBSERVERS)
    return seen


def test_a_system_job_queued_on_the_served_loop_runs_on_it(
    svc: MatchService, runner: InProcessRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _where_jobs_run(monkeypatch)

    async def serve() -> tuple[str, int]:
        await svc.aopen()
        match = svc.create_match("highcard", 2, {"rounds": 1, "hand_size": 2}, seed="on-loop")
        await svc.aclose()  # once the jobs it runs on the loop are done
        return match.match_id, threading.get_ident()

    match_id, loop_thread = asyncio.run(serve())
    assert runner.join(JOIN_TIMEOUT)
    assert [e.type for e in svc.store.read(match_id)][-1] == "dealt"
    assert [(k, w, t) for k, w, t in seen if w != "queued"] == [
        ("system", "started", loop_thread),
        ("system", "done", loop_thread),
    ]


def test_a_system_job_queued_from_another_thread_runs_on_a_job_thread(
    svc: MatchService, runner: InProcessRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _where_jobs_run(monkeypatch)

    async def serve() -> str:
        await svc.aopen()
        create = partial(svc.create_match, "highcard", 2, {"rounds": 1, "hand_size": 2})
        match = await asyncio.to_thread(create, seed="off-loop")
        assert runner.join(JOIN_TIMEOUT)
        await svc.aclose()
        return match.match_id

    match_id = asyncio.run(serve())
    assert [e.type for e in svc.store.read(match_id)][-1] == "dealt"
    threads = {t for k, w, t in seen if w != "queued"}
    assert len(threads) == 1 and threads != {threading.get_ident()}
    assert threads <= {t.ident for t in threading.enumerate() if t.name.startswith("ironworks-")}


def test_closing_the_runner_ends_its_thread(registry: GameRegistry) -> None:
    runner = InProcessRunner()
    runner.bind(MatchService(MemoryStore(), registry, runner))
    assert runner.running
    runner.close()
    assert not runner.running


def test_a_store_outage_postpones_the_webhook_sweep_in_one_line_not_a_traceback(
    registry: GameRegistry, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An outage is expected and the sweep retries every second: a traceback each time
    would bury the log (the reconciler says the same in one line)."""
    from core.errors import ServiceUnavailable
    from worker import deliveries

    def sweep(self: object) -> int:
        raise ServiceUnavailable("store_unavailable", "the event store did not answer")

    monkeypatch.setattr(deliveries.DeliverySweeper, "sweep", sweep)
    runner = InProcessRunner(sweep_every=0.01)
    service = MatchService(MemoryStore(), registry, runner)
    service.webhooks = object()  # type: ignore[assignment]  # any: the sweep is stubbed
    with caplog.at_level(logging.WARNING, logger=inprocess.__name__):
        runner.bind(service)
        deadline = time.monotonic() + JOIN_TIMEOUT
        while not caplog.records and time.monotonic() < deadline:
            time.sleep(0.01)
        runner.close()
    assert caplog.records, "the sweep never ran"
    assert all(r.exc_info is None and r.levelno == logging.WARNING for r in caplog.records)
    assert "webhook sweep postponed: the event store did not answer" in caplog.text
