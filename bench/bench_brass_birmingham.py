"""Random full games of Brass: Birmingham, single process: prints games/s and moves/s.

Each game is driven like the service drives a match, without the store: system tasks
with the SYSTEM actor, otherwise the seat to act picks a uniformly random legal move;
every decision costs one ``legal_moves`` + ``decide`` + ``evolve`` of its events. Then the
CPU microseconds of one ``legal_moves`` call, over every decision state of
``--legal-games`` seeded random games (see ``bench_brass_legal_moves.py``; 0 skips it).

``--instructions`` times nothing: it plays the ``--games`` seeded random games per player
count under callgrind (``PYTHONHASHSEED=0``) and prints the CPU instructions a game and a
decision, less a run that only imports the game (a figure the machine's load cannot move).
With ``--baseline OLD_CHECKOUT`` it plays the same games (same seeds, the same game loop,
this file's) on that checkout too and prints its counts and the ratio; it first checks,
without callgrind, that both checkouts play the same moves from each seed (else it says
so: a game's figure then compares different games, a decision's still compares). For an
old checkout, ``git worktree add --detach /tmp/base-SHA SHA``.

``--cpu`` plays the same games timed instead (CPU time, warm, each side in its own process,
alternated ``--rounds`` times, best kept): on a loaded machine the ratio comes out lower
than the instruction counts' (per instruction, the newer code misses the data cache more
often: cachegrind, 4p, 1.29% against 0.77%).

Figures (2026-12-03, ``qa7``, 5 games each, against ``d59404c^``: the code before the
listing work of issue 12, the engine the issue describes (its side-by-side figures against
the public TypeScript engine predate that work; the engine's play code is the same from
``4e89651``, the last commit before the sessions that took the issue up, to ``d59404c^``);
both play the same moves from the same seeds):
2p 1,088k -> 317k instructions a decision (3.43x), 3p 1,091k -> 370k (2.95x), 4p 1,082k ->
362-363k (2.98-2.99x), two runs; CPU time at load average ~9.5: 2.26-2.52x, 2.15-2.72x,
2.24-2.30x. Times the issue's 2.2-2.8x (2p) and 3.8-5.0x (4p) over the TypeScript engine,
an inference, not a measurement: 2p ~7.5-9.6x by instructions (5.0-7.1x by CPU time), 4p ~11.4-15.0x
(8.5-11.5x). The README's "Performance" table keeps the history.

    python3 bench/bench_brass_birmingham.py [--games N] [--players 2 3 4] [--profile]
        [--legal-games N]
    python3 bench/bench_brass_birmingham.py --instructions [--baseline OLD_CHECKOUT]
        [--games N] [--players 2 3 4]
    python3 bench/bench_brass_birmingham.py --cpu [--baseline OLD_CHECKOUT] [--rounds N]
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import os
import pstats
import re
import subprocess
import sys
import time
from random import Random
from typing import Any


def play(game: Any, players: int, seed: int, digest: Any = None) -> int:
    """One random game to the end; returns the number of decisions taken. The loop is this
    file's own (not ``core.playout``'s), so that two checkouts run the same driver;
    ``digest`` (a hashlib object) is fed each chosen move."""
    from core.game import SYSTEM

    rng = Random(seed)
    state = None
    for event in game.setup(game.Options(), players, rng):
        state = game.evolve(state, event)
    decisions = 0
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            legal = game.legal_moves(state, task.seat)
            move = legal[rng.randrange(len(legal))]
            if digest is not None:
                digest.update(repr(move).encode())
            events = game.decide(state, task.seat, move, rng)
        decisions += 1
        for event in events:
            state = game.evolve(state, event)
    return decisions


def make_game() -> Any:
    from plugins.brass_birmingham.game import BrassBirmingham

    return BrassBirmingham()


def child(games: int, players: int, digest: bool, warm: bool) -> None:
    """What a measured process does: import the game, play ``games`` seeded games (0: none),
    print the decisions taken, the CPU seconds the games took (with ``warm``, after one
    game not counted, so that both checkouts are timed warm) and with ``digest`` a digest
    of the moves."""
    game = make_game()
    hashed = hashlib.sha1() if digest else None
    if warm:
        play(game, players, games)  # the next seed: warms both sides alike
    start = time.process_time()
    decisions = sum(play(game, players, seed, hashed) for seed in range(games))
    cpu = time.process_time() - start
    print(decisions, cpu, hashed.hexdigest() if hashed else "-")


def run_child(
    checkout: str, games: int, players: int, callgrind: bool, digest: bool = False
) -> tuple[int, str, int, float]:
    """(decisions, digest, instructions or 0, CPU seconds) of ``child`` run on
    ``checkout``."""
    command = [sys.executable, os.path.abspath(__file__), "--child", str(games), str(players)]
    if digest:
        command.append("--digest")
    elif not callgrind:
        command.append("--warm")
    if callgrind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    env = {**os.environ, "PYTHONPATH": os.path.abspath(checkout), "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{checkout}: {done.stderr.strip()[-2000:]}")
    decisions, cpu, moves = done.stdout.split()
    found = re.search(r"Collected : (\d+)", done.stderr)
    if callgrind and not found:
        sys.exit(f"{checkout}: no instruction count in callgrind's output")
    return int(decisions), moves, int(found.group(1)) if found else 0, float(cpu)


def sides_of(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(name, checkout) of this checkout and the baseline's; with a baseline, first says
    whether both play the same moves from each seed."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sides = [("this", here)] + ([("baseline", args.baseline)] if args.baseline else [])
    if args.baseline:
        for n in args.players:
            ours, theirs = (run_child(d, args.games, n, False, True)[:2] for _, d in sides)
            if ours != theirs:
                print(f"{n}p: the checkouts play different games from the same seeds "
                      f"({ours[0]} and {theirs[0]} decisions); compare per decision")  # fmt: skip
    return sides


def cpu_times(args: argparse.Namespace) -> None:
    """CPU microseconds a decision, each side in a process of its own, alternated
    ``--rounds`` times (best kept): for comparing with the instruction counts."""
    sides = sides_of(args)
    for n in args.players:
        best = {name: float("inf") for name, _ in sides}
        for _ in range(args.rounds):
            for name, checkout in sides:
                decisions, _, _, cpu = run_child(checkout, args.games, n, False)
                best[name] = min(best[name], cpu / decisions * 1e6)
        line = f"{n}p: {best['this']:7.1f} us CPU a decision"
        if args.baseline:
            line += (
                f"   baseline {best['baseline']:7.1f} us"
                f"   {best['baseline'] / best['this']:5.2f}x faster"
            )
        print(line, flush=True)


def instructions(args: argparse.Namespace) -> None:
    sides = sides_of(args)
    imports = {name: run_child(d, 0, 2, True)[2] for name, d in sides}
    for n in args.players:
        counts = {}
        for name, checkout in sides:
            decisions, _, total, _ = run_child(checkout, args.games, n, True)
            counts[name] = (total - imports[name]) / args.games, decisions / args.games
        game, decisions = counts["this"]
        line = (
            f"{n}p: {game / 1e6:8.1f}M instructions a game, {game / decisions / 1e3:7.0f}k a "
            f"decision ({decisions:.0f} decisions a game)"
        )
        if args.baseline:
            base, base_decisions = counts["baseline"]
            line += (
                f"   baseline {base / 1e6:8.1f}M, {base / base_decisions / 1e3:7.0f}k a decision"
                f"   {base / base_decisions / (game / decisions):5.2f}x fewer a decision"
            )
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games per player count (20; --instructions 5)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--profile", action="store_true", help="print the top functions")
    parser.add_argument("--legal-games", type=int, default=2, help="games for us per listing")
    parser.add_argument(
        "--instructions", action="store_true",
        help="callgrind instructions of --games seeded games (default 5) instead of timings",
    )  # fmt: skip
    parser.add_argument(
        "--cpu", action="store_true",
        help="CPU time a decision of --games seeded games (default 5), each side in its own "
        "process, alternated --rounds times",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=3, help="--cpu: alternations; best kept")
    parser.add_argument(
        "--baseline", help="--instructions or --cpu: another checkout, measured alike"
    )
    parser.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--digest", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child, args.digest, args.warm)
        return
    if args.instructions or args.cpu:
        args.games = args.games or 5
        (instructions if args.instructions else cpu_times)(args)
        return
    if args.baseline:
        parser.error("--baseline goes with --instructions or --cpu")
    from bench_brass_legal_moves import legal_moves_us

    args.games = args.games or 20
    game = make_game()
    for players in args.players:
        profiler = cProfile.Profile() if args.profile else None
        start = time.perf_counter()
        if profiler:
            profiler.enable()
        decisions = sum(play(game, players, seed) for seed in range(args.games))
        if profiler:
            profiler.disable()
        elapsed = time.perf_counter() - start
        print(
            f"{players} players: {args.games / elapsed:6.2f} games/s "
            f"{decisions / elapsed:8.0f} moves/s ({decisions / args.games:.0f} moves/game)"
        )
        if profiler:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        if args.legal_games:
            us = legal_moves_us(game, players, args.legal_games, repeat=3)
            print(f"{players} players: {us:6.1f} us per legal_moves call")


if __name__ == "__main__":
    main()
