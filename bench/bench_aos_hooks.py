"""Microseconds per call of Age of Steam's search hooks (``clone``, ``determinize``,
``evaluate``, ``playout_policy``), and of ``copy.deepcopy`` and ``legal_moves`` for scale,
over the states of playout-policy games (every decision of ``--games`` games per map).

``determinize`` is timed on the view of the seat to act (the view itself is made outside
the clock); ``playout_policy`` on that seat's legal moves, per step of the turn too;
``evaluate`` with the state's track network already derived (as a playout leaves it) and
derived again (as right after a build).

    python3 bench/bench_aos_hooks.py [--games 3] [--maps rust_belt:4 st_lucia:2 ...]
"""

from __future__ import annotations

import argparse
import copy
import time
from collections import defaultdict
from collections.abc import Callable
from random import Random
from typing import Any

from core.playout import playout
from plugins.age_of_steam.game import AgeOfSteam, Options

GAME = AgeOfSteam()
TABLES = ("rust_belt:3", "rust_belt:4", "rust_belt:6", "barbados:1", "st_lucia:2")


Sample = tuple[Any, int, dict[str, Any], list[Any]]


def samples(map_id: str, players: int, games: int) -> list[Sample]:
    """(state copy, seat to act, its view, its legal moves) at every player decision."""
    out = []

    def choose(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        out.append((copy.deepcopy(state), seat, GAME.view(state, seat), legal))
        return GAME.playout_policy(state, seat, legal, rng)

    for seed in range(games):
        playout(GAME, Options(map=map_id), players, Random(seed), choose)
    return out


def per_call(fn: Callable[[Any], Any], args: list[Any]) -> float:
    start = time.process_time()
    for a in args:
        fn(a)
    return (time.process_time() - start) / len(args) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--maps", nargs="+", default=list(TABLES), help="map:players ...")
    args = parser.parse_args()
    rng = Random(0)

    def determinize(x: Sample) -> Any:
        return GAME.determinize(x[2], rng)

    def policy(x: Sample) -> Any:
        return GAME.playout_policy(x[0], x[1], x[3], rng)

    def evaluate_fresh(state: Any) -> Any:
        state.net = None  # as after a build: the network is derived again
        return GAME.evaluate(state)

    for table in args.maps:
        map_id, players = table.split(":")
        found = samples(map_id, int(players), args.games)
        states = [s for s, *_ in found]
        timings = {
            "clone": per_call(GAME.clone, states),
            "deepcopy": per_call(copy.deepcopy, states[::4]),
            "determinize": per_call(determinize, found),
            "evaluate": per_call(GAME.evaluate, states),
            "legal_moves": per_call(lambda x: GAME.legal_moves(x[0], x[1]), found),
            "playout_policy": per_call(policy, found),
        }
        by_step: dict[str, list[Any]] = defaultdict(list)
        for x in found:
            by_step[x[0].phase].append(x)
        steps = ", ".join(
            f"{phase} {per_call(policy, xs):.0f}" for phase, xs in sorted(by_step.items())
        )
        # last: it drops every state's derived network
        timings["evaluate (network derived again)"] = per_call(evaluate_fresh, states)
        print(f"{map_id} {players}p, {len(found)} states: "
              + ", ".join(f"{k} {v:.0f}" for k, v in timings.items())
              + f" µs/call; playout_policy by step: {steps}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
