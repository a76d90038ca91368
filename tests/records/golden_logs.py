"""Golden logs of both Brass games: what a seeded game stores and shows, byte for byte.

The family engine is to be rebuilt under both games (``plugins/brass/ENGINE_PLAN.md``) with
no change of behaviour. These files pin that behaviour: for each game and player count, one
seeded game played by picking uniformly among the listed moves (so the order of the listing
is pinned too) — every event as stored (type and JSON), the views of seat 0 and of a
spectator every :data:`VIEW_EVERY` decisions, and the final position document.

    PYTHONPATH=. python3 tests/records/golden_logs.py     # writes tests/records/golden/

Write them again only for a change of behaviour that is meant, and say so in its commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from random import Random
from typing import Any

import msgspec

from core.game import SYSTEM

HERE = Path(__file__).resolve().parent / "golden"
TABLES = [("brass-birmingham", 2), ("brass-birmingham", 4), ("brass-pittsburgh", 2),
          ("brass-pittsburgh", 4)]  # fmt: skip
SEED = 2026
VIEW_EVERY = 40


def _game(game_id: str) -> Any:
    from core.registry import default_registry

    return default_registry().get(game_id)


def golden(game_id: str, players: int, seed: int = SEED) -> dict[str, Any]:
    """The record of one seeded game, as the golden file holds it."""
    game = _game(game_id)
    rng = Random(seed)
    events: list[list[str]] = []
    state = None

    def keep(new: list[Any]) -> None:
        nonlocal state
        for event in new:
            events.append([event.__struct_config__.tag, msgspec.json.encode(event).decode()])
            state = game.evolve(state, event)

    keep(game.setup(msgspec.convert({}, game.Options), players, rng))
    views: dict[str, Any] = {}
    decisions = 0
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        if decisions % VIEW_EVERY == 0:
            views[str(decisions)] = {
                "seat0": game.view(state, 0),
                "spectator": game.view(state, None),
            }
        if task.kind == "system":
            keep(game.decide(state, SYSTEM, task.move, rng))
        else:
            legal = game.legal_moves(state, task.seat)
            keep(game.decide(state, task.seat, legal[rng.randrange(len(legal))], rng))
        decisions += 1
    result = game.result(state)
    return {
        "game": game_id, "players": players, "seed": seed, "decisions": decisions,
        "events": events, "views": views, "position": game.export_position(state),
        "scores": None if result is None else result.scores,
    }  # fmt: skip


def path_of(game_id: str, players: int) -> Path:
    return HERE / f"{game_id}-{players}p.json"


def main() -> int:
    HERE.mkdir(exist_ok=True)
    for game_id, players in TABLES:
        doc = golden(game_id, players)
        path_of(game_id, players).write_text(json.dumps(doc, sort_keys=True) + "\n")
        print(f"{path_of(game_id, players)}: {len(doc['events'])} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
