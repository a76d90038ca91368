"""The bot ladder of every game, and search-bot move times through the service's own path.

    python3 bench/bench_bots.py [--games 20] [--processes 2] [--only brass-birmingham]
                                [--players 2 3] [--clock cpu|wall]
                                [--pairs search:hard/greedy,greedy/random] [--service-moves 40]

Ladder: for each game and player count (Brass: Birmingham and Pittsburgh at 2 and 4, Age
of Steam's Rust Belt at 3 and 4), seat-rotated tournaments (``ironworks tournament``) for
each pair of bots, printing win rates with Wilson 95 % intervals, mean scores and margins,
eliminations, negative final income and move times. The issue's targets: search:hard beats
greedy in >= 70 % of 2-player Brass and 3-player Age of Steam games (>= 55 % at 4), with
>= 100 games each (``--games 100``; expect hours on two cores).

Service path: a match of search bots at the default level on the memory store, played by the
in-process runner with its think pool exactly as ``ironworks serve`` plays it; prints the
p50/p95/max of the time each decision with a real choice took (target: p95 <= 2 s).
Ladder budgets count CPU seconds by default (``--clock cpu``), so the strength figures do
not depend on what else the machine runs; the service path is wall-clock, as users see it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from core.bots import DEFAULT_LEVEL
from worker import jobs
from worker.tournament import format_table, parse_entrants, run, summarize

LADDER = [
    ("brass-birmingham", 2, None),
    ("brass-birmingham", 4, None),
    ("brass-pittsburgh", 2, None),
    ("brass-pittsburgh", 4, None),
    ("age-of-steam", 3, {"map": "rust_belt"}),
    ("age-of-steam", 4, {"map": "rust_belt"}),
]
PAIRS = "search:hard/greedy,search:easy/greedy,greedy/random"


def ladder(args: argparse.Namespace) -> None:
    for game, players, options in LADDER:
        if args.only and game not in args.only.split(","):
            continue
        if args.players and players not in args.players:
            continue
        for pair in args.pairs.split(","):
            entrants = parse_entrants(pair.replace("/", ","))
            started = time.perf_counter()
            records = run(game, players, entrants, args.games, f"ladder/{pair}",
                          args.processes, options, clock=args.clock)  # fmt: skip
            summary = summarize(records, entrants)
            print(format_table(summary, f"\n{game} {players}p: {pair.replace('/', ' vs ')}"))
            print(f"({time.perf_counter() - started:.0f} s)")
            sys.stdout.flush()


def service_path(args: argparse.Namespace) -> None:
    from core.registry import default_registry
    from core.service import MatchService
    from core.store.memory import MemoryStore
    from worker.inprocess import InProcessRunner
    from worker.think import ThinkPool

    for game, players, options in LADDER[::2]:
        if args.only and game not in args.only.split(","):
            continue
        if args.players and players not in args.players:
            continue
        times: list[float] = []

        def observe(
            game_id: str, bot: str, legal: int, seconds: float, times: list[float] = times
        ) -> None:
            if bot == "search" and legal > 1:
                times.append(seconds)

        runner = InProcessRunner(pool=ThinkPool())
        service = MatchService(MemoryStore(), default_registry(), runner)
        runner.bind(service)
        jobs.BOT_MOVE_OBSERVERS.append(observe)
        try:
            match = service.create_match(game, players, options or {}, seed="bench")
            for seat in range(players):
                service.hand_to_bot(match.match_id, seat, "search", None, DEFAULT_LEVEL)
            deadline = time.monotonic() + args.service_seconds
            while len(times) < args.service_moves and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            jobs.BOT_MOVE_OBSERVERS.remove(observe)
            runner.close()
        if not times:
            print(f"{game}: no timed decision")
            continue
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"service path, {game} {players}p, search:{DEFAULT_LEVEL}: {len(times)} decisions"
              f", p50 {statistics.median(times):.3f} s, p95 {p95:.3f} s, max {ordered[-1]:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="matches per pair (default: 20)")
    parser.add_argument("--processes", type=int, default=2, help="tournament processes")
    parser.add_argument("--only", default="", help="comma-separated game ids")
    parser.add_argument("--players", type=int, nargs="*", default=[],
                        help="only these player counts")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                        help="what think budgets count in the ladder (default: cpu time)")
    parser.add_argument("--pairs", default=PAIRS, help=f"bot pairs (default: {PAIRS})")
    parser.add_argument("--service-moves", type=int, default=40,
                        help="decisions to time on the service path per game (0: skip)")
    parser.add_argument("--service-seconds", type=float, default=120.0,
                        help="at most this long per game on the service path")
    parser.add_argument("--no-ladder", action="store_true", help="only the service path")
    args = parser.parse_args()
    if args.service_moves:
        service_path(args)
    if not args.no_ladder:
        ladder(args)


if __name__ == "__main__":
    main()
