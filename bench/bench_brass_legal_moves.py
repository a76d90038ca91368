"""Microseconds per ``legal_moves`` call for the Brass games, over the decision states of
seeded random games (the listing the search bot's playouts ask for at every decision).

Every state where a seat decides, along ``--games`` seeded random games per player count,
is listed ``--repeat`` times; the figure is CPU time per call (the machine may be shared),
the best of the repeats. Pittsburgh remembered recent listings by state content until
``bplist8`` (session 13): where a checkout has that memory, it is emptied before every call,
so each figure is a listing worked out afresh.

``--baseline DIR`` runs the same measurement on another checkout (e.g. a copy of the code
before a change) in a subprocess, alternated with this one ``--rounds`` times, and prints
the ratio.

``--passes N`` times nothing: it plays the games and lists every state N times, for a
figure the machine's load cannot move. CPU instructions per call are the difference of
two callgrind runs (``PYTHONHASHSEED=0``), ``--passes 3`` less ``--passes 0``, over three times
the states; for another checkout run this file with ``PYTHONPATH=DIR`` from ``DIR``:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python bench/bench_brass_legal_moves.py --game birmingham --players 4 --passes 3

Figures (2026-12-02, branch ``bblist``; before the listing work is ``d59404c^``):
Birmingham 4p 868k -> 189k instructions a call (4.58x), 2p 879k -> 145k (6.09x); timed at
load average 5-8, 4p 3.25-3.80x, 2p 4.34-4.82x. Lancashire 4p, main at ``a515454`` -> then:
286k -> 206k (1.39x), timed 1.30-1.50x. The README's "Performance" table keeps the history.

    python3 bench/bench_brass_legal_moves.py [--games N] [--players 2 4] [--repeat N]
        [--game birmingham pittsburgh lancashire] [--baseline DIR [--rounds N]] [--json]
        [--passes N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from random import Random
from typing import Any

from core.game import SYSTEM


def make_game(name: str) -> Any:
    if name == "lancashire":
        from plugins.brass_lancashire.game import BrassLancashire

        return BrassLancashire()
    if name == "birmingham":
        from plugins.brass_birmingham.game import BrassBirmingham

        return BrassBirmingham()
    from plugins.brass_pittsburgh.game import BrassPittsburgh

    return BrassPittsburgh()


def decision_states(
    game: Any, players: int, seed: int, playouts: bool = False
) -> list[tuple[Any, int]]:
    """(state, seat) at every decision of one seeded random game (states are copied:
    ``evolve`` may update a state in place); with ``playouts`` the moves are the search
    bot's playout policy's (``game.playout_policy``), so the states are those its playouts
    visit."""
    rng = Random(seed)
    state = None
    for event in game.setup(game.Options(), players, rng):
        state = game.evolve(state, event)
    out = []
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            out.append((state.clone(), task.seat))
            legal = game.legal_moves(state, task.seat)
            if playouts:
                move = game.playout_policy(state, task.seat, legal, rng)
            else:
                move = legal[rng.randrange(len(legal))]
            events = game.decide(state, task.seat, move, rng)
        for event in events:
            state = game.evolve(state, event)
    return out


def us_per_call(game: Any, states: list[tuple[Any, int]], repeat: int) -> float:
    memory = getattr(getattr(game, "rules", None), "listings", None)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for state, seat in states:
            if memory is not None:
                memory.clear()
            game.legal_moves(state, seat)
        best = min(best, time.process_time() - start)
    return best / len(states) * 1e6


def legal_moves_us(
    game: Any, players: int, games: int, repeat: int, playouts: bool = False
) -> float:
    """CPU microseconds per ``legal_moves`` call over the decision states of ``games``
    seeded random games of ``players`` (best of ``repeat`` passes); ``playouts``: games
    played by the playout policy (see :func:`decision_states`)."""
    states = [x for seed in range(games) for x in decision_states(game, players, seed, playouts)]
    return us_per_call(game, states, repeat)


def measure(games: list[str], players: list[int], count: int, repeat: int) -> dict[str, float]:
    out = {}
    for name in games:
        game = make_game(name)
        for n in players:
            out[f"{name} {n}p"] = legal_moves_us(game, n, count, repeat)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="random games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--repeat", type=int, default=3, help="timings per state; best kept")
    parser.add_argument(
        "--rounds", type=int, default=2,
        help="with --baseline: measurements of each side, alternated; best kept",
    )  # fmt: skip
    parser.add_argument(
        "--game", nargs="+", default=["birmingham", "pittsburgh"],
        choices=["birmingham", "pittsburgh", "lancashire"],
    )  # fmt: skip
    parser.add_argument("--baseline", help="another checkout to measure the same way")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--passes", type=int,
        help="untimed: list every state this many times (0: only play the games), for "
        "callgrind; the first --game and --players",
    )  # fmt: skip
    args = parser.parse_args()
    if args.passes is not None:
        game = make_game(args.game[0])
        states = [
            x for seed in range(args.games) for x in decision_states(game, args.players[0], seed)
        ]
        for _ in range(args.passes):
            for state, seat in states:
                game.legal_moves(state, seat)
        print(f"{len(states)} states listed {args.passes} times")
        return
    if args.json:
        print(json.dumps(measure(args.game, args.players, args.games, args.repeat)))
        return
    for name in args.game:
        for n in args.players:
            key = f"{name} {n}p"
            us = base = float("inf")
            # alternated, so that both sides see the same load on a shared machine
            for _ in range(args.rounds if args.baseline else 1):
                if args.baseline:
                    base = min(base, baseline(args.baseline, name, n, args)[key])
                us = min(us, measure([name], [n], args.games, args.repeat)[key])
            line = f"{key:<15} {us:8.1f} us per legal_moves call"
            if args.baseline:
                line += f"   baseline {base:8.1f} us   {base / us:5.2f}x faster"
            print(line, flush=True)


def baseline(checkout: str, name: str, players: int, args: argparse.Namespace) -> dict[str, float]:
    command = [
        sys.executable, os.path.abspath(__file__), "--json", "--game", name,
        "--players", str(players), "--games", str(args.games), "--repeat", str(args.repeat),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.path.abspath(checkout)}
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    done.check_returncode()
    return json.loads(done.stdout)


if __name__ == "__main__":
    main()
