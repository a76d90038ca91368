"""Clocks: time controls checked at creation, deadlines folded from the events and shown in
the view and the lobby, and timeouts recorded once (``core.turn_timed_out``) by whichever
worker gets there first."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.clock import TimeControl
from core.errors import Conflict
from core.match import fold
from core.registry import GameRegistry
from core.seating import BotChoice, MatchRules
from core.service import MatchService
from core.store.base import open_store
from core.store.memory import MemoryStore
from core.tasks import Job, NullRunner
from tests.test_api import assert_problem
from worker.inprocess import InProcessRunner
from worker.jobs import execute

WAIT = 20.0
"""Seconds a test waits for a timeout past its deadline before it gives up."""


def clocked(
    service: MatchService, on_timeout: str = "bot", players: int = 2, **control: Any
) -> tuple[str, list[str]]:
    """A highcard match with a clock (an hour a turn unless said), every seat claimed."""
    control = control or {"turn_seconds": 3600}
    rules = MatchRules(
        clock=TimeControl(on_timeout=on_timeout, **control),  # type: ignore[arg-type]
        stand_in=BotChoice(bot="random"),
    )
    match = service.create_match("highcard", players, seed="clock", rules=rules)
    tokens = [service.claim_seat(match.match_id, seat) for seat in range(players)]
    return match.match_id, tokens


def deal(service: MatchService, jobs: NullRunner, match_id: str) -> None:
    """Run the dealer's job (a NullRunner only collects it)."""
    for job in [j for j in jobs.jobs if j.kind == "system"]:
        execute(service, job)


def timeout_jobs(jobs: NullRunner, match_id: str) -> list[Job]:
    version = max(j.version for j in jobs.jobs if j.match_id == match_id)
    return [j for j in jobs.jobs if j.kind == "timeout" and j.version == version]


def timeouts(service: MatchService, match_id: str) -> list[dict[str, Any]]:
    return [
        msgspec.json.decode(e.data) | {"at": e.timestamp}
        for e in service.store.read(match_id)
        if e.type == "core.turn_timed_out"
    ]


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("clock", "code"),
    [
        ({}, "bad_time_control"),
        ({"turn_seconds": 60, "bank_seconds": 600}, "bad_time_control"),
        ({"turn_seconds": 60, "increment_seconds": 5}, "bad_time_control"),
        ({"turn_seconds": 0}, "invalid_request"),
        ({"bank_seconds": 600, "increment_seconds": -1}, "invalid_request"),
        ({"turn_seconds": 60, "on_timeout": "pass"}, "invalid_request"),
        ({"turn_seconds": 60, "seconds": 60}, "invalid_request"),
        ({"turn_seconds": "60"}, "invalid_request"),
    ],
)
def test_a_time_control_that_is_not_one_is_a_400(
    client: TestClient[Any], clock: dict[str, Any], code: str
) -> None:
    body = {"game": "highcard", "players": 2, "rules": {"clock": clock}}
    assert_problem(client.post("/matches", json=body), 400, code)


def test_deadlines_show_in_the_view_and_lobby_once_every_seat_is_taken(
    client: TestClient[Any],
) -> None:
    rules = {"clock": {"turn_seconds": 3600}}
    created = client.post("/matches", json={"game": "highcard", "players": 2, "rules": rules})
    match_id = created.json()["id"]
    client.post(f"/matches/{match_id}/seats/0/claim")
    assert [s["deadline"] for s in client.get(f"/matches/{match_id}").json()["seats"]] == [
        None, None,
    ]  # fmt: skip
    client.post(f"/matches/{match_id}/seats/1/claim")
    view = client.get(f"/matches/{match_id}").json()
    last = client.get(f"/matches/{match_id}/events").json()["events"][-1]
    seat = view["to_act"][0]
    assert view["seats"][seat]["deadline"] == last["timestamp"] + 3600
    assert view["seats"][1 - seat]["deadline"] is None
    assert view["rules"]["clock"]["turn_seconds"] == 3600
    listed = client.get("/matches").json()["items"][0]
    assert listed["seats"][seat]["deadline"] == view["seats"][seat]["deadline"]


def test_a_bot_s_seat_is_never_timed(client: TestClient[Any]) -> None:
    rules = {"clock": {"turn_seconds": 3600}}
    match_id = client.post(
        "/matches", json={"game": "highcard", "players": 2, "rules": rules}
    ).json()["id"]
    client.post(f"/matches/{match_id}/seats/0/claim")
    client.post(f"/matches/{match_id}/seats/1/bot", json={"bot": "random"})
    view = client.get(f"/matches/{match_id}").json()
    assert view["to_act"] == [0]  # the bot played its card at once if it led
    assert [s["deadline"] is None for s in view["seats"]] == [False, True]


def test_a_late_turn_times_out_once_and_the_stand_in_bot_plays_it(
    svc: MatchService, jobs: NullRunner
) -> None:
    match_id, tokens = clocked(svc)
    deal(svc, jobs, match_id)
    [job] = timeout_jobs(jobs, match_id)
    assert svc.deadline(svc.load(match_id), job.seat) == job.due
    svc.now = lambda: job.due + 1  # type: ignore[operator]
    assert execute(svc, job) == "done"
    assert execute(svc, job) == "stale"
    assert timeouts(svc, match_id) == [
        {"type": "core.turn_timed_out", "seat": job.seat, "action": "bot", "deadline": job.due,
         "at": timeouts(svc, match_id)[0]["at"]},
    ]  # fmt: skip
    late = svc.load(match_id)
    with pytest.raises(Conflict) as refused:
        svc.submit(match_id, tokens[job.seat], b'{"type": "play", "card": 1}', late.version)
    assert refused.value.code == "turn_timed_out"
    [bot] = [j for j in jobs.jobs if j.kind == "bot" and j.version == late.version]
    assert bot.seat == job.seat
    assert execute(svc, bot) == "done"
    after = svc.load(match_id)
    assert after.bot_for(job.seat) is None  # the seat is the person's again
    assert [e.actor for e in svc.store.read(match_id) if e.type == "played"] == [job.seat]
    assert [j.seat for j in timeout_jobs(jobs, match_id)] == [1 - job.seat]


def test_a_timeout_that_resigns_ends_a_two_seat_match_with_the_late_seat_last(
    svc: MatchService, jobs: NullRunner
) -> None:
    match_id, _ = clocked(svc, on_timeout="resign")
    deal(svc, jobs, match_id)
    [job] = timeout_jobs(jobs, match_id)
    svc.now = lambda: job.due + 1  # type: ignore[operator]
    assert execute(svc, job) == "done"
    match = svc.load(match_id)
    types = [e.type for e in svc.store.read(match_id)][-2:]
    assert types == ["core.turn_timed_out", "core.seat_resigned"]
    result = svc.result(match)
    assert result is not None and result.ranking[job.seat] == 2
    assert result.details["resigned"] == [job.seat]
    assert svc.jobs_for(match) == []


def test_a_timeout_job_run_before_its_deadline_goes_back_to_wait(
    svc: MatchService, jobs: NullRunner
) -> None:
    match_id, _ = clocked(svc)
    deal(svc, jobs, match_id)
    [job] = timeout_jobs(jobs, match_id)
    queued = len(jobs.jobs)
    assert execute(svc, job) == "early"
    assert jobs.jobs[queued:] == [job]
    assert timeouts(svc, match_id) == []


def test_a_move_in_time_stops_the_clock_and_voids_its_timeout(
    svc: MatchService, jobs: NullRunner
) -> None:
    match_id, tokens = clocked(svc)
    deal(svc, jobs, match_id)
    [job] = timeout_jobs(jobs, match_id)
    match = svc.load(match_id)
    move = svc.legal_moves(match, job.seat)[0]
    svc.submit(match_id, tokens[job.seat], msgspec.json.encode(move), match.version)
    svc.now = lambda: job.due + 1  # type: ignore[operator]
    assert execute(svc, job) == "stale"
    assert timeouts(svc, match_id) == []
    assert svc.deadline(svc.load(match_id), job.seat) is None


def test_a_bank_clock_draws_on_the_bank_and_adds_the_increment(
    svc: MatchService, jobs: NullRunner, registry: GameRegistry
) -> None:
    match_id, tokens = clocked(svc, bank_seconds=60, increment_seconds=5)
    deal(svc, jobs, match_id)
    match = svc.load(match_id)
    seat = next(t.seat for t in svc.tasks(match) if t.kind == "turn")
    move = svc.legal_moves(match, seat)[0]
    svc.submit(match_id, tokens[seat], msgspec.json.encode(move), match.version)
    # The same stream as if the seat took 10 s: everything at t=1000, the move at t=1010.
    stored = svc.store.read(match_id)
    moved = match.version + 1
    timed = [
        msgspec.structs.replace(e, timestamp=1000.0 if e.version < moved else 1010.0)
        for e in stored
    ]
    folded = fold(registry, timed)
    assert folded.seats[seat].bank == 60 - 10 + 5
    assert folded.seats[seat].waiting_since is None
    other = 1 - seat
    assert svc.deadline(folded, other) == 1010.0 + 60


def test_the_clocks_a_move_leaves_on_the_live_state_are_those_the_stored_log_folds_to(
    svc: MatchService, jobs: NullRunner, registry: GameRegistry
) -> None:
    """A move's live state is its events folded onto the state before (``fold_append``),
    its clocks ticked once after them all: the mover's stops and draws on its bank, the
    next seat's starts, as a cold fold of the stored log has them (up to the moment the
    store stamped the events, a little after the service's own)."""
    match_id, tokens = clocked(svc, bank_seconds=60, increment_seconds=5)
    deal(svc, jobs, match_id)
    started = 0
    for _ in range(4):
        match = svc.load(match_id)
        seat = next(t.seat for t in svc.tasks(match) if t.kind == "turn")
        svc.submit(match_id, tokens[seat], svc.legal_moves(match, seat)[0], match.version)
        live = svc.live.get(match_id)
        folded = fold(registry, svc.store.read(match_id))
        assert live is not None and live.version == folded.version
        to_act = {t.seat for t in svc.tasks(live) if t.kind == "turn"}
        assert [s.waiting_since is not None for s in live.seats] == [0 in to_act, 1 in to_act]
        assert live.seats[seat].bank != 60.0  # drawn on, topped up
        started += bool(to_act)
        for mine, stored in zip(live.seats, folded.seats, strict=True):
            assert (mine.waiting_since is None) == (stored.waiting_since is None)
            assert mine.waiting_since == pytest.approx(stored.waiting_since, abs=1.0)
            assert mine.bank == pytest.approx(stored.bank, abs=1.0)
        deal(svc, jobs, match_id)
    assert started  # some move started the next seat's clock itself


def test_two_workers_racing_for_a_timeout_record_it_once(
    registry: GameRegistry, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    services = [MatchService(open_store(url), registry, NullRunner()) for _ in range(4)]
    first = services[0]
    match_id, _ = clocked(first)
    for job in first.runner.jobs:  # type: ignore[attr-defined]
        if job.kind == "system":
            execute(first, job)
    match = first.load(match_id)
    [job] = [j for j in first.jobs_for(match) if j.kind == "timeout"]
    start = threading.Barrier(len(services))
    outcomes: list[str] = []

    def race(service: MatchService) -> None:
        service.now = lambda: job.due + 1  # type: ignore[method-assign]
        start.wait()
        outcomes.append(execute(service, job))

    threads = [threading.Thread(target=race, args=(s,)) for s in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["done"] + ["stale"] * (len(services) - 1)
    assert len(timeouts(first, match_id)) == 1
    for service in services:
        service.store.close()


def test_the_in_process_runner_holds_a_timeout_until_its_deadline(registry: GameRegistry) -> None:
    runner = InProcessRunner(threads=2)
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    try:
        match_id, _ = clocked(service, turn_seconds=1)
        assert runner.join(timeout=WAIT)  # the deal
        match = service.load(match_id)
        seat = next(t.seat for t in service.tasks(match) if t.kind == "turn")
        due = service.deadline(match, seat)
        assert due is not None and [j.due for j in runner.scheduled] == [due]
        deadline = time.monotonic() + WAIT
        while not timeouts(service, match_id):
            assert time.monotonic() < deadline, "the timeout never happened"
            time.sleep(0.05)
        assert runner.join(timeout=WAIT)
        timed_out = timeouts(service, match_id)[0]  # the next turns time out too, later
        assert timed_out["seat"] == seat and timed_out["at"] >= due
        assert next(e.actor for e in service.store.read(match_id) if e.type == "played") == seat
    finally:
        runner.close()
