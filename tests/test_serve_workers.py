"""``ironworks serve --workers N``: N API processes on one port, one store between them.

Moves of one match sent to whichever process the kernel hands each connection to interleave
without loss or duplicate; the logs say which process served each request (JSON lines, every
line of them), and ``/metrics``, whichever process answers it, counts the moves of all.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.faults import ServedProcess, Table

MOVES_PER_MATCH = 40  # highcard, 20 rounds, two seats


@pytest.mark.slow
def test_two_api_processes_interleave_the_moves_of_one_match_without_loss(
    tmp_path: Path,
) -> None:
    store = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    server = ServedProcess(store, tmp_path / "serve.log", "--workers", "2", "--log-format", "json")
    with server:
        table = Table(server.base, rounds=20)
        served_by: dict[str, int] = {}
        while (move := table.next_move()) is not None:
            move["headers"]["X-Request-ID"] = move["key"]
            answer = table.send(move)  # a connection of its own: either process may take it
            assert answer.headers["x-request-id"] == move["key"]
            table.acknowledge(move, answer)
        events = table.events()
        metrics = httpx.get(f"{server.base}/metrics").text
    lines = [json.loads(line) for line in server.log_lines()]  # every line is JSON
    for line in lines:
        if line.get("event") == "request" and line["request_id"].startswith(table.match_id):
            served_by[line["request_id"]] = line["pid"]
            assert line["match_id"] == table.match_id and line["move_type"] == "play"
            assert line["status"] == 200 and line["latency_ms"] >= 0
            assert line["route"] == "/matches/{match_id}/moves"
    assert len(served_by) == MOVES_PER_MATCH
    assert len(set(served_by.values())) == 2, "one process served every move"

    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    played = [(e["payload"]["seat"], e["payload"]["card"]) for e in events
              if e["type"] == "played"]  # fmt: skip
    assert played == [(seat, card) for seat, card, _ in table.acknowledged]
    assert len(played) == MOVES_PER_MATCH
    # 40 cards and 20 deals, counted in whichever process decided them, added up
    assert metric(metrics, "ironworks_moves_total", outcome="accepted", game="highcard") == 60


def metric(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels``."""
    total = 0.0
    for line in text.splitlines():
        found = re.fullmatch(rf"{name}(?:\{{(.*)\}})? (\S+)", line)
        if found is None:
            continue
        have = dict(re.findall(r'(\w+)="([^"]*)"', found.group(1) or ""))
        if all(have.get(k) == v for k, v in labels.items()):
            total += float(found.group(2))
    return total


def test_serve_refuses_several_processes_on_the_memory_store(capsys: Any) -> None:
    from api.cli import main

    assert main(["serve", "--workers", "2", "--store", "memory://"]) == 2
    assert "memory://" in capsys.readouterr().err


def test_the_socket_the_processes_share_gives_every_connection_tcp_nodelay() -> None:
    """Nagle's algorithm off on each accepted connection, as with one process: else each
    keep-alive response written in two parts waits ~40 ms for the client's delayed ACK."""
    import asyncio
    import socket

    from api.serving import TcpConfig

    listening = TcpConfig("bare_app:app", host="127.0.0.1", port=0, workers=2).bind_socket()
    accepted: list[int] = []

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            sock = transport.get_extra_info("socket")
            accepted.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def connect_once() -> None:
        server = await asyncio.get_running_loop().create_server(Probe, sock=listening)
        async with server:
            _, writer = await asyncio.open_connection(*listening.getsockname()[:2])
            while not accepted:
                await asyncio.sleep(0.01)
            writer.close()

    asyncio.run(asyncio.wait_for(connect_once(), 10))
    assert listening.proto == socket.IPPROTO_TCP
    assert accepted == [1]
