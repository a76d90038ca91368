"""Random full Age of Steam games per second (Rust Belt, 3, 4 and 6 players, one core).

Each decision is a uniformly random pick from ``legal_moves`` (system steps run as the
service runs them), folded with ``evolve`` like a live match. Rates are per CPU second of
this process (one core), so a busy machine does not skew them. Run::

    python3 bench/bench_age_of_steam.py [seconds per player count]
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

from core.game import SYSTEM
from plugins.age_of_steam.game import AgeOfSteam, Options

GAME = AgeOfSteam()


def one_game(players: int, seed: int, timing: Counter[str]) -> tuple[int, int]:
    """Decisions taken and turns reached in one random game."""
    rng = random.Random(seed)
    state = None
    for e in GAME.setup(Options(), players, rng):
        state = GAME.evolve(state, e)
    decisions = 0
    while True:
        tasks = GAME.pending_tasks(state)
        if not tasks:
            return decisions, state.turn
        task = tasks[0]
        if task.kind == "system":
            events = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            t0 = time.process_time()
            legal = GAME.legal_moves(state, task.seat)
            timing[state.phase] += time.process_time() - t0
            events = GAME.decide(state, task.seat, rng.choice(legal), rng)
        for e in events:
            state = GAME.evolve(state, e)
        decisions += 1


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for players in (3, 4, 6):
        timing: Counter[str] = Counter()
        games = decisions = turns = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < budget:
            d, t = one_game(players, games, timing)
            decisions, turns = decisions + d, turns + t
            games += 1
        spent = time.process_time() - cpu
        top = ", ".join(f"{k} {v / spent:.0%}" for k, v in timing.most_common(3))
        print(
            f"rust_belt {players}p: {games / spent:6.1f} games/s, "
            f"{decisions / games:5.0f} decisions and {turns / games:4.1f} turns/game; "
            f"legal_moves share of time by step: {top}"
        )


if __name__ == "__main__":
    main()
