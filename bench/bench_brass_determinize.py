"""Cost of one ``determinize`` call in both Brass games: prints ms per call.

The state is the middle decision of a seeded random game; the view is one seat's. Each
call rebuilds a full state from that view (hidden cards and tiles drawn anew).

    python3 bench/bench_brass_determinize.py [--players 4] [--calls 500] [--seed 7]
"""

from __future__ import annotations

import argparse
import time
from random import Random
from typing import Any

from core.playout import playout
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh


def mid_game_view(game: Any, players: int, seed: int) -> dict[str, Any]:
    states: list[Any] = []
    playout(game, game.Options(), players, Random(seed), observe=lambda s: states.append(s.clone()))
    return game.view(states[len(states) // 2], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for game in (BrassBirmingham(), BrassPittsburgh()):
        view = mid_game_view(game, args.players, args.seed)
        rng = Random(0)
        start = time.perf_counter()
        for _ in range(args.calls):
            game.determinize(view, rng)
        ms = (time.perf_counter() - start) * 1000 / args.calls
        print(f"{game.id}: {args.players} players, {ms:.3f} ms per determinize")


if __name__ == "__main__":
    main()
