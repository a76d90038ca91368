"""Random full games of Brass: Birmingham, single process: prints games/s and moves/s.

Each game is driven like the service drives a match, without the store: system tasks
with the SYSTEM actor, otherwise the seat to act picks a uniformly random legal move;
every decision costs one ``legal_moves`` + ``decide`` + ``evolve`` of its events. Then the
CPU microseconds of one ``legal_moves`` call, over every decision state of
``--legal-games`` seeded random games (see ``bench_brass_legal_moves.py``; 0 skips it).

    python3 bench/bench_brass_birmingham.py [--games N] [--players 2 3 4] [--profile]
        [--legal-games N]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from random import Random

from bench_brass_legal_moves import legal_moves_us

from core.playout import playout
from plugins.brass_birmingham.game import BrassBirmingham


def play(game: BrassBirmingham, players: int, seed: int) -> int:
    """One random game to the end; returns the number of decisions taken."""
    return playout(game, game.Options(), players, Random(seed))[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--profile", action="store_true", help="print the top functions")
    parser.add_argument("--legal-games", type=int, default=2, help="games for us per listing")
    args = parser.parse_args()
    game = BrassBirmingham()
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
