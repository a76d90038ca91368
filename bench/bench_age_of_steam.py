"""Full Age of Steam games per second (Rust Belt, 3, 4 and 6 players, one core).

Two move policies pick among ``legal_moves`` (system steps run as the service runs them;
every decision is folded with ``evolve`` like a live match):

* ``uniform``: a uniformly random legal move. Such players bankrupt themselves in about
  three turns, so these games are short and nearly trackless.
* ``playout``: the search playouts' policy (:mod:`plugins.age_of_steam.playout_policy`):
  quick rules of thumb that build, deliver and mostly stay solvent, so games run their full
  length with a growing network: the realistic load for the engine.
* ``sensible``: :func:`plugins.age_of_steam.policy.sensible_move`, the greedy bot, which
  weighs every choice by a simulated final score (about 1 s a game of its own).

Rates are per CPU second of this process, so a busy machine does not skew them. ``engine``
counts the game's own work (setup, ``legal_moves``, ``decide``, ``evolve``); ``with policy``
adds the time the policy spends choosing. Run::

    python3 bench/bench_age_of_steam.py [seconds per player count and policy]
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from core.game import SYSTEM
from plugins.age_of_steam.game import AgeOfSteam, Options
from plugins.age_of_steam.playout_policy import playout_move
from plugins.age_of_steam.policy import sensible_move
from plugins.age_of_steam.state import State

GAME = AgeOfSteam()
Policy = Callable[[State, int, list[Any], random.Random], Any]
POLICIES: dict[str, Policy] = {
    "uniform": lambda _state, _seat, legal, rng: rng.choice(legal),
    "playout": playout_move,
    "sensible": sensible_move,
}


class Tally:
    def __init__(self) -> None:
        self.games = self.decisions = self.turns = self.full = self.survivors = 0
        self.engine = self.policy = 0.0
        self.legal_by_step: Counter[str] = Counter()


def one_game(players: int, seed: int, policy: Policy, tally: Tally) -> None:
    clock = time.process_time
    rng = random.Random(seed)
    t0 = clock()
    state = None
    for e in GAME.setup(Options(), players, rng):
        state = GAME.evolve(state, e)
    assert state is not None
    engine = clock() - t0
    spent_on_policy = 0.0
    decisions = 0
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        t0 = clock()
        if task.kind == "system":
            events = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            legal = GAME.legal_moves(state, task.seat)
            t1 = clock()
            tally.legal_by_step[state.phase] += t1 - t0
            move = policy(state, task.seat, legal, rng)
            t2 = clock()
            spent_on_policy += t2 - t1
            events = GAME.decide(state, task.seat, move, rng)
        for e in events:
            state = GAME.evolve(state, e)
        engine += clock() - t0
        decisions += 1
    engine -= spent_on_policy
    alive = sum(not p.eliminated for p in state.pl)
    tally.games += 1
    tally.decisions += decisions
    tally.turns += state.turn
    tally.full += state.turn == state.last_turn and alive > 0
    tally.survivors += alive
    tally.engine += engine
    tally.policy += spent_on_policy


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for name, policy in POLICIES.items():
        for players in (3, 4, 6):
            tally = Tally()
            start = time.perf_counter()
            while time.perf_counter() - start < budget:
                one_game(players, tally.games, policy, tally)
            g = tally.games
            top = ", ".join(
                f"{k} {v / tally.engine:.0%}" for k, v in tally.legal_by_step.most_common(2)
            )
            print(
                f"rust_belt {players}p {name:8}: {g / tally.engine:6.1f} games/s engine, "
                f"{g / (tally.engine + tally.policy):6.1f} with policy; "
                f"{tally.decisions / g:4.0f} decisions, {tally.turns / g:4.1f} turns, "
                f"{tally.full / g:4.0%} full length, {tally.survivors / g:3.1f} survivors "
                f"per game; legal_moves share of engine time: {top}"
            )


if __name__ == "__main__":
    main()
