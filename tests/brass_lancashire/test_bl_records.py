"""Lancashire records: the demand tiles drawn are chance moves whose outcome the record
keeps, so an exported match imports to the same game; an impossible draw is refused."""

from __future__ import annotations

import copy
from typing import Any

from litestar.testing import TestClient

from api.app import create_app
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from plugins.brass_lancashire import game as plugin
from worker.inprocess import InlineRunner


def test_a_match_with_distant_market_sales_exports_and_imports_to_the_same_game() -> None:
    registry = GameRegistry()
    registry.register(plugin, name="brass-lancashire")
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    with TestClient(create_app(service)) as client:
        created = client.post(
            "/matches", json={"game": "brass-lancashire", "players": 2, "seed": "bl-rec"}
        ).json()
        for seat in (0, 1):
            client.post(f"/matches/{created['id']}/seats/{seat}/bot", json={"bot": "greedy"})
        played = client.get(f"/matches/{created['id']}").json()
        assert played["finished"]
        record: dict[str, Any] = client.get(f"/matches/{created['id']}/record").json()
        draws = [(i, m) for i, m in enumerate(record["moves"])
                 if m["move"]["type"] == "draw_demand"]  # fmt: skip
        assert draws and all(m["move"]["tile"] in range(5) for _, m in draws)
        again = client.post("/matches/import", json=record).json()
        assert client.get(f"/matches/{again['id']}").json()["result"] == played["result"]
        assert client.get(f"/matches/{again['id']}/record").json() == record
        bad = copy.deepcopy(record)
        index = draws[0][0]
        bad["moves"][index]["move"]["tile"] = 9
        problem = client.post("/matches/import", json=bad).json()
        assert (problem["index"], problem["refusal"]) == (index, "demand_tile_gone")
