"""Clocks across crashes: a real ``ironworks serve`` killed mid-clock, and RQ workers killed
mid-clock, and the timeout still happens once, no earlier than its deadline."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from core.clock import TimeControl
from core.seating import BotChoice, MatchRules
from core.service import MatchService
from tests.test_api_cli import serving
from tests.test_worker_rq import StartWorker, rq_service, start_worker, store_url  # noqa: F401

TURN_SECONDS = 10
"""Long enough for a server or worker to be killed and started again before it runs out."""
WAIT = 30.0
"""Seconds past a deadline a test waits for its timeout before giving up."""


def _until(what: str, check: Any, limit: float) -> Any:
    while not (found := check()):
        assert time.monotonic() < limit, f"{what} never happened"
        time.sleep(0.1)
    return found


def _served_deadline(base: str, match_id: str) -> tuple[int, float]:
    """The seat to act and its deadline, once the server has dealt."""

    def running() -> tuple[int, float] | None:
        view = httpx.get(f"{base}/matches/{match_id}").json()
        timed = [(s["seat"], s["deadline"]) for s in view["seats"] if s["deadline"]]
        return timed[0] if timed else None

    return _until("a running clock", running, time.monotonic() + WAIT)  # type: ignore[no-any-return]


def _served_timeouts(base: str, match_id: str) -> list[dict[str, Any]]:
    log = httpx.get(f"{base}/matches/{match_id}/events", params={"limit": 500}).json()
    return [e for e in log["events"] if e["type"] == "core.turn_timed_out"]


def test_a_timeout_survives_a_killed_server_and_happens_once_on_time(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'clock.sqlite3'}"
    rules = {"clock": {"turn_seconds": TURN_SECONDS}, "stand_in": {"bot": "random"}}
    with serving(db) as (base, proc):
        body = {"game": "highcard", "players": 2, "rules": rules}
        match_id = httpx.post(f"{base}/matches", json=body).json()["id"]
        for seat in (0, 1):
            httpx.post(f"{base}/matches/{match_id}/seats/{seat}/claim").raise_for_status()
        seat, deadline = _served_deadline(base, match_id)
        proc.send_signal(signal.SIGKILL)  # no shutdown: its timer dies with it
        proc.wait(timeout=10)
    assert time.time() < deadline, "the server took the whole clock to start"
    with serving(db) as (base, _):
        timed_out = _until(
            "the timeout",
            lambda: _served_timeouts(base, match_id),
            time.monotonic() + (deadline - time.time()) + WAIT,
        )
        view = httpx.get(f"{base}/matches/{match_id}").json()
        assert _served_timeouts(base, match_id)[0] == timed_out[0]
    [first] = timed_out[:1]
    assert first["payload"] == {
        "type": "core.turn_timed_out",
        "seat": seat,
        "action": "bot",
        "deadline": deadline,
    }
    assert first["timestamp"] >= deadline
    assert [e for e in timed_out if e["payload"]["deadline"] == deadline] == [first]
    assert view["seats"][seat]["deadline"] is None or view["seats"][seat]["deadline"] > deadline


@pytest.mark.redis
def test_rq_workers_killed_mid_clock_still_time_out_once_on_time(
    rq_service: MatchService,  # noqa: F811
    store_url: str,  # noqa: F811
    start_worker: StartWorker,  # noqa: F811
) -> None:
    rules = MatchRules(
        clock=TimeControl(turn_seconds=TURN_SECONDS), stand_in=BotChoice(bot="random")
    )
    match = rq_service.create_match("highcard", 2, seed="rq-clock", rules=rules)
    for seat in (0, 1):
        rq_service.claim_seat(match.match_id, seat)
    first = start_worker(store_url)

    def running() -> tuple[int, float] | None:
        loaded = rq_service.load(match.match_id)
        timed = [(s, rq_service.deadline(loaded, s)) for s in range(2)]
        return next(((s, d) for s, d in timed if d is not None), None)

    seat, deadline = _until("a running clock", running, time.monotonic() + WAIT)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    for _ in range(2):  # two workers race for the timeout
        start_worker(store_url)

    def timed_out() -> list[Any]:
        return [e for e in rq_service.store.read(match.match_id) if e.type == "core.turn_timed_out"]

    _until("the timeout", timed_out, time.monotonic() + (deadline - time.time()) + WAIT)
    late = [e for e in timed_out() if msgspec.json.decode(e.data)["deadline"] == deadline]
    assert len(late) == 1 and late[0].timestamp >= deadline
    assert msgspec.json.decode(late[0].data)["seat"] == seat
