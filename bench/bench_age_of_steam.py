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
adds the time the policy spends choosing.

``--listing`` prints instead the CPU microseconds of one ``legal_moves`` call on every map,
over the decision states of ``--games`` seeded games per policy (``uniform``, ``playout``:
the states the search bot's playouts visit), replayed ``--repeat`` times, best kept; with
``--baseline DIR`` the same on another checkout (e.g. a copy of main), alternated with this
one, and the ratio. Each pass plays the games afresh, so what a state or its network keeps
is worked out again; what the listing keeps across games (verdicts on empty hexes) is warm
after the first pass, as in a long-running server. Run from the repository root::

    PYTHONPATH=$PWD python3 bench/bench_age_of_steam.py [seconds per player count and policy]
    PYTHONPATH=$PWD python3 bench/bench_age_of_steam.py --listing [--baseline DIR]

Listing figures (us per call, 2 games per table, best of 3; measured 2026-12-01 on the
shared 2-core machine, main at 875dc39 as the baseline, alternated in one run)::

                               after    before (main)
    rust_belt 3p uniform       147.3    151.4   1.03x
    rust_belt 3p playout        80.8    131.4   1.63x
    rust_belt 4p uniform       110.6    135.9   1.23x
    rust_belt 4p playout        94.4    166.4   1.76x
    rust_belt 6p uniform       107.8    138.3   1.28x
    rust_belt 6p playout       126.9    211.1   1.66x
    barbados 1p uniform         46.9     60.8   1.30x
    barbados 1p playout         65.2     71.4   1.09x
    st_lucia 2p uniform         31.1     35.2   1.13x
    st_lucia 2p playout         75.5     89.8   1.19x

    By step (Rust Belt 4p playout, one pass): build 513 -> 235 us, move 284 -> 134 us.
    Load from other sessions (load average ~6 on 2 cores) makes single figures vary by
    20-30%; the target of 3x is not reached: what is left is mostly the network rebuilt
    after every build, HexContexts of touched hexes and the uncached upgrade/redirect
    candidates on the seat's own track
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
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


LISTING_TABLES = [("rust_belt", 3), ("rust_belt", 4), ("rust_belt", 6), ("barbados", 1),
                  ("st_lucia", 2)]  # fmt: skip


def listing_seconds(map_id: str, players: int, seed: int, policy: Policy) -> tuple[float, int]:
    """CPU seconds spent in ``legal_moves`` along one seeded game, and the calls made."""
    clock = time.process_time
    rng = random.Random(seed)
    state = None
    for e in GAME.setup(Options(map=map_id), players, rng):
        state = GAME.evolve(state, e)
    assert state is not None
    spent, calls = 0.0, 0
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            t0 = clock()
            legal = GAME.legal_moves(state, task.seat)
            spent += clock() - t0
            calls += 1
            events = GAME.decide(state, task.seat, policy(state, task.seat, legal, rng), rng)
        for e in events:
            state = GAME.evolve(state, e)
    return spent, calls


def listing_us(games: int, repeat: int) -> dict[str, float]:
    """Per map, player count and policy: CPU us per ``legal_moves`` call (best pass)."""
    out = {}
    for map_id, players in LISTING_TABLES:
        for name in ("uniform", "playout"):
            best = float("inf")
            for _ in range(repeat):
                spent = calls = 0
                for seed in range(games):
                    s, c = listing_seconds(map_id, players, seed, POLICIES[name])
                    spent, calls = spent + s, calls + c
                best = min(best, spent / calls * 1e6)
            out[f"{map_id} {players}p {name}"] = best
    return out


def listing(args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps(listing_us(args.games, args.repeat)))
        return
    ours: dict[str, float] = {}
    base: dict[str, float] = {}
    for _ in range(args.rounds if args.baseline else 1):
        if args.baseline:  # alternated, so that both sides see the same load
            command = [sys.executable, os.path.abspath(__file__), "--listing", "--json",
                       "--games", str(args.games), "--repeat", str(args.repeat)]  # fmt: skip
            env = {**os.environ, "PYTHONPATH": os.path.abspath(args.baseline)}
            done = subprocess.run(
                command, cwd=args.baseline, env=env, capture_output=True, text=True, check=True
            )
            for k, v in json.loads(done.stdout).items():
                base[k] = min(base.get(k, v), v)
        for k, v in listing_us(args.games, args.repeat).items():
            ours[k] = min(ours.get(k, v), v)
    for key, us in ours.items():
        line = f"{key:<26} {us:8.1f} us per legal_moves call"
        if base:
            line += f"   baseline {base[key]:8.1f} us   {base[key] / us:5.2f}x faster"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=3.0,
                        help="seconds per player count and policy")  # fmt: skip
    parser.add_argument("--listing", action="store_true", help="us per legal_moves call")
    parser.add_argument("--games", type=int, default=2, help="--listing: games per table")
    parser.add_argument("--repeat", type=int, default=3, help="--listing: passes, best kept")
    parser.add_argument("--baseline", help="--listing: another checkout, measured alike")
    parser.add_argument("--rounds", type=int, default=2, help="--baseline: alternations")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.listing:
        listing(args)
        return
    budget = args.seconds
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
