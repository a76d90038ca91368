"""Fault drill: the server is SIGKILLed while clients post keyed moves.

A real ``ironworks serve`` (SQLite, Redis or PostgreSQL store, the in-process runner) is
killed with the whole of its process group while several copies of a keyed move are in
flight, then started again on the same store. The clients retry what was not answered with
the same ``Idempotency-Key``, as the README tells them to. Afterwards every acknowledged
move is in the log exactly once, retried keys made one move, the versions are gapless, and
the dealer's job that died with the server was queued again by the new one. Loopback only;
every wait is bounded.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.faults import ServedProcess, Table
from tests.store_backends import DURABLE_BACKENDS

ROUNDS = 6
"""Highcard rounds: a card from each of the two seats, then the dealer's job."""
KILLS = ((2, 0.0), (5, 0.02), (7, 0.1), (10, 0.3))
"""(acknowledged moves, seconds): after that many moves the server is killed that long
after the copies of the next one were sent. Spread, so that some kills come before the move
reached the store and some after some copies were answered (a kill between the commit and
the answer is a matter of luck here; tests/test_outages.py loses that answer on purpose)."""
COPIES = 4
"""Identical keyed requests in flight when the server dies: a client and its retries."""


@pytest.fixture(params=DURABLE_BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'events.sqlite3'}"
    return request.getfixturevalue(f"{request.param}_url")


def send_while_killed(
    table: Table, server: ServedProcess, move: dict[str, Any], after: float
) -> None:
    """Post ``COPIES`` copies of ``move`` at once and SIGKILL the server while they are in
    flight; whatever answers came back before it died are the clients' to keep."""
    with ThreadPoolExecutor(COPIES) as pool:
        copies = [pool.submit(_try_send, table, move) for _ in range(COPIES)]
        time.sleep(after)
        server.kill()
        answers = [c.result() for c in copies]
    for answer in answers:
        if answer is not None and answer.status_code == 200:
            table.acknowledge(move, answer)
            return


def _try_send(table: Table, move: dict[str, Any]) -> httpx.Response | None:
    try:
        return table.send(move)
    except httpx.TransportError:  # the server died before answering
        return None


@pytest.mark.slow
def test_a_server_killed_mid_move_loses_and_duplicates_no_acknowledged_move(
    store_url: str, tmp_path: Path
) -> None:
    server = ServedProcess(store_url, tmp_path / "serve.log", "--log-level", "warning")
    table = Table(server.start(), ROUNDS)
    try:
        kills = list(KILLS)
        while (move := table.next_move()) is not None:
            if kills and len(table.acknowledged) == kills[0][0]:
                send_while_killed(table, server, move, kills.pop(0)[1])
                table.base = server.start()
                if table.acknowledged and table.acknowledged[-1][2] == move["key"]:
                    retried = table.send(move)  # a client that missed the answer retries
                    assert retried.status_code == 200, retried.text
                    assert retried.json()["replayed"] is True
                    continue
                # unanswered: retried with its key, it is either replayed or made now
                retried = table.send(move)
                table.acknowledge(move, retried)
                continue
            table.acknowledge(move, table.send(move))
        assert not kills, "the match ended before every kill"
        events = table.events()
    finally:
        server.stop()
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    played = [(e["payload"]["seat"], e["payload"]["card"]) for e in events
              if e["type"] == "played"]  # fmt: skip
    assert played == [(seat, card) for seat, card, _ in table.acknowledged]
    assert len(played) == 2 * ROUNDS  # a card a seat each round: the match was played out
    keys = [key for _, _, key in table.acknowledged]
    assert len(keys) == len(set(keys))
