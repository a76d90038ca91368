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
    PYTHONPATH=$PWD python3 bench/bench_age_of_steam.py --listing [--baseline DIR] [--opcodes]
        [--cold]

``--opcodes`` counts instead the Python bytecodes a ``legal_moves`` call executes (traced,
so slow; CPython 3.11): a figure the load on the machine does not move, for comparing two
checkouts. ``--choices`` measures the playout policy's choices instead of the listing
(playout games only). ``--cold`` forgets, before every game, what the listing keeps across
games by content (verdicts per neighbourhood and per hex of the printed map, the rings per
set of New Cities with their runs, New City placements), on both sides: every game is then
the first a fresh process lists.

Listing figures (us per call, 2 games per table, best of 3, 3 alternated rounds; measured
2026-12-02 on the shared 2-core machine at load average ~5, two runs, the baseline 875dc39,
before the listing work; "after" the branch aosuni)::

                               after    before (875dc39)
    rust_belt 3p uniform   13.9-14.6   74.7-76.0   5.1-5.5x
    rust_belt 3p playout   13.7-13.9   73.7-74.6   5.3-5.5x
    rust_belt 4p uniform   13.7-14.3   68.9-69.4   4.8-5.1x
    rust_belt 4p playout        15.0   80.1-82.4   5.3-5.5x
    rust_belt 6p uniform   15.9-16.0        68.0   4.3x
    rust_belt 6p playout   17.4-18.0   92.9-99.1   5.3-5.5x
    barbados 1p uniform          8.8   31.4-31.7   3.6x
    barbados 1p playout      9.5-9.9   33.8-34.6   3.5-3.6x
    st_lucia 2p uniform      3.4-3.5   14.0-14.1   4.0-4.1x
    st_lucia 2p playout     10.4-11.1  45.5-46.1   4.1-4.4x

    The small maps move most with the load: at load ~2 Barbados was 3.6x (uniform) and
    3.7x (playout), at load ~10 3.6x and 3.2x (the baseline's calls, longer, move less);
    Rust Belt 5.0-6.0x and 4.4x (6p uniform) at load ~2.
    Load-free, the same tables (after / before): Python bytecodes a call (``--opcodes
    --repeat 2``) Rust Belt 1,455-2,128 / 12,523-17,914 (7.0-10.0x fewer), Barbados
    852 / 5,453 (6.4x, uniform) and 775 / 5,226 (6.7x, playout), St. Lucia 394 / 1,873
    (4.75x) and 1,066 / 6,686 (6.3x); CPU instructions a call (ad hoc: callgrind counting
    only inside ``legal_moves``, the second pass, ``PYTHONHASHSEED=0``) Rust Belt 98k-138k
    / 704k-1,038k (5.9-8.4x), Barbados 64k / 311k (4.9x) and 53k / 304k (5.7x), St. Lucia
    26k / 158k (6.1x) and 69k / 432k (6.3x). Time gains less than instructions: what is
    left of a call is short, branchy code over kept tables, where the baseline ran long
    loops.

    Cold (``--cold --rounds 2``, load ~5): Rust Belt uniform 68-80 / 98-115 us (1.3-1.45x),
    playout 34-42 / 88-117 us (2.6-2.8x); Barbados 53 / 64 (1.2x) and 31.5 / 49 (1.5x); St.
    Lucia 5.4 / 15.2 (2.8x) and 30 / 60 (2.0x). A short game in a fresh process pays for
    the verdicts of every hex beside a city (per set of New Cities, and per whether the
    builder has built) and of every neighbourhood it meets. Bytecodes of one build listing
    (12 Rust Belt 4p playout states with New Cities, ad hoc): warm 2,570 (baseline 34,726);
    its set of New Cities new, the neighbourhoods' verdicts kept, 14,868 (0.43 of an old
    listing); nothing kept 162,502 (the baseline with its own kept verdicts forgotten:
    105,079).

    What a call keeps and reuses: the network extended after a plain or town tile on a hex
    with no track, kept with its routes made ownerless when track is abandoned or its owner
    goes out, and keeping its deliveries when no link was added; the verdicts of a hex by
    what it sees (neighbourhood), the runs of builds of the hexes beside cities per set of
    New Cities, money and tiles out of the supply, and per verdict its lists filtered by
    money and supply; a hex's view beside open track ends patched from the ring's view in
    the one pass over the ends; the step's listing looked up by the phase, its kinds asked
    once, moves without fields or of few values made once. ``decide`` and ``legal_moves``
    still share each rule (``_actor_refusal``, ``_kind_refusal``, ``_step_refusal``,
    ``track.evaluate``, ``goods.walk_good``); bench/aos_listing_digest.py is unchanged.
    The figures of the earlier branches (aoslist, aoslist2) are in the README's Performance
    table.

    The playout policy's choices (``--choices``, 2 alternated rounds, load ~9; the policy is
    unchanged, the network and deliveries it reads are not), 875dc39 -> now: Rust Belt 3p 86
    -> 67 us, 4p 99 -> 74, 6p 87 -> 60, Barbados 60 -> 46, St. Lucia 47 -> 40 (1.2-1.45x).
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


class _Opcodes:
    """Python bytecodes executed while tracing: a count no load on the machine changes."""

    def __init__(self) -> None:
        self.count = 0

    def trace(self, frame: Any, event: str, _arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            self.count += 1
        return self.trace

    def __call__(self) -> float:
        return self.count

    def traced(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            sys.settrace(self.trace)
            try:
                return fn(*args)
            finally:
                sys.settrace(None)

        return run


# What the listing keeps across games, by content (verdicts per neighbourhood, the rings
# per set of New Cities and their runs, New City placements), per module: --cold forgets
# it before every game. A checkout without some of them (the baseline) skips those.
KEPT_ACROSS_GAMES = {
    "plugins.age_of_steam.track": ("_RINGS", "_PLACEMENTS", "_PLAIN_PLACEMENTS", "_PLAIN_VERDICTS"),
    "plugins.age_of_steam.game": ("_URBANIZE",),
}


def forget_kept() -> None:
    for module, names in KEPT_ACROSS_GAMES.items():
        found = sys.modules.get(module)
        for name in names:
            kept = getattr(found, name, None)
            if isinstance(kept, dict):
                kept.clear()


def listing_seconds(
    map_id: str, players: int, seed: int, policy: Policy, opcodes: bool = False,
    choices: bool = False, cold: bool = False,
) -> tuple[float, int]:  # fmt: skip
    """CPU seconds (or with ``opcodes`` Python bytecodes) spent in ``legal_moves`` (with
    ``choices``: in the policy's choices) along one seeded game, and the calls made (with
    ``cold``: the listing's facts kept across games forgotten first)."""
    if cold:
        forget_kept()
    counter = _Opcodes() if opcodes else None
    clock: Callable[[], float] = counter or time.process_time
    legal_moves: Callable[[State, int], list[Any]] = GAME.legal_moves
    choose = policy
    if counter and choices:
        choose = counter.traced(policy)
    elif counter:
        legal_moves = counter.traced(GAME.legal_moves)
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
            legal = legal_moves(state, task.seat)
            t1 = clock()
            move = choose(state, task.seat, legal, rng)
            spent += clock() - t1 if choices else t1 - t0
            calls += 1
            events = GAME.decide(state, task.seat, move, rng)
        for e in events:
            state = GAME.evolve(state, e)
    return spent, calls


def listing_us(
    games: int, repeat: int, opcodes: bool = False, choices: bool = False, cold: bool = False
) -> dict[str, float]:
    """Per map, player count and policy: CPU us (or bytecodes) per ``legal_moves`` call
    (with ``choices``: per choice of the playout policy), best pass."""
    out = {}
    scale = 1 if opcodes else 1e6
    for map_id, players in LISTING_TABLES:
        for name in ("playout",) if choices else ("uniform", "playout"):
            best = float("inf")
            for _ in range(repeat):
                spent = calls = 0
                for seed in range(games):
                    s, c = listing_seconds(
                        map_id, players, seed, POLICIES[name], opcodes, choices, cold
                    )
                    spent, calls = spent + s, calls + c
                best = min(best, spent / calls * scale)
            out[f"{map_id} {players}p {name}"] = best
    return out


def listing(args: argparse.Namespace) -> None:
    if args.json:
        print(
            json.dumps(listing_us(args.games, args.repeat, args.opcodes, args.choices, args.cold))
        )
        return
    ours: dict[str, float] = {}
    base: dict[str, float] = {}
    unit = "opcodes" if args.opcodes else "us"
    for _ in range(args.rounds if args.baseline and not args.opcodes else 1):
        if args.baseline:  # alternated, so that both sides see the same load
            command = [sys.executable, os.path.abspath(__file__), "--listing", "--json",
                       "--games", str(args.games), "--repeat", str(args.repeat),
                       *(["--opcodes"] if args.opcodes else []),
                       *(["--choices"] if args.choices else []),
                       *(["--cold"] if args.cold else [])]  # fmt: skip
            env = {**os.environ, "PYTHONPATH": os.path.abspath(args.baseline)}
            done = subprocess.run(
                command, cwd=args.baseline, env=env, capture_output=True, text=True, check=True
            )
            for k, v in json.loads(done.stdout).items():
                base[k] = min(base.get(k, v), v)
        ours_now = listing_us(args.games, args.repeat, args.opcodes, args.choices, args.cold)
        for k, v in ours_now.items():
            ours[k] = min(ours.get(k, v), v)
    for key, us in ours.items():
        what = "playout choice" if args.choices else "legal_moves call"
        line = f"{key:<26} {us:8.1f} {unit} per {what}"
        if base:
            ratio = f"{base[key] / us:5.2f}x " + ("fewer" if args.opcodes else "faster")
            line += f"   baseline {base[key]:8.1f} {unit}   {ratio}"
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
    parser.add_argument("--opcodes", action="store_true",
                        help="--listing: Python bytecodes a call, not CPU time")  # fmt: skip
    parser.add_argument("--choices", action="store_true",
                        help="--listing: the playout policy's choices instead")  # fmt: skip
    parser.add_argument("--cold", action="store_true",
                        help="--listing: forget what the listing keeps across games "
                             "before each game")  # fmt: skip
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
