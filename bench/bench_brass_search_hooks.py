"""Speed of the Brass games' search hooks: microseconds per ``evaluate``, ``clone`` and
``playout_policy`` call, next to ``legal_moves`` (a playout step calls it too), over the
positions of a few greedy games; and how often ``evaluate`` names the eventual winner.

    python bench/bench_brass_search_hooks.py [--games 4] [--players 2 4]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.playout import playout
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh


def per_call(calls: list[Callable[[], Any]]) -> float:
    """Mean microseconds of one call, in CPU time (the machine may be shared)."""
    start = time.process_time()
    for call in calls:
        call()
    return (time.process_time() - start) / len(calls) * 1e6


def measure(game: Any, players: int, games: int) -> str:
    states: list[Any] = []
    right = positions = 0

    def greedy(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        return game.bot_policy(game.view(state, seat), legal, rng)

    for seed in range(games):
        seen: list[Any] = []
        final, _ = playout(
            game, game.Options(), players, Random(seed), greedy,
            observe=lambda s, seen=seen: seen.append(game.clone(s)),
        )  # fmt: skip
        scores = game.result(final).scores
        winner = max(range(players), key=scores.__getitem__)
        for share in (0.25, 0.5, 0.75, 0.9):
            value = game.evaluate(seen[int(share * len(seen))])
            right += max(range(players), key=value.__getitem__) == winner
            positions += 1
        states += seen[::3]
    turns = [
        (s, game.legal_moves(s, s.current))
        for s in states
        if (t := game.pending_tasks(s)) and t[0].kind == "turn"
    ]
    rng = Random(0)
    ev = per_call([lambda s=s: game.evaluate(s) for s in states])
    cl = per_call([lambda s=s: game.clone(s) for s in states])
    lm = per_call([lambda s=s: game.legal_moves(s, s.current) for s, _ in turns])
    pp = per_call([lambda s=s, m=m: game.playout_policy(s, s.current, m, rng) for s, m in turns])
    return (
        f"{game.title} {players}p: evaluate {ev:5.0f} us, clone {cl:4.0f} us, "
        f"playout_policy {pp:5.0f} us, legal_moves {lm:5.0f} us ({len(states)} positions); "
        f"evaluate names the winner in {right}/{positions} positions at 1/4..9/10 of the game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    for game in (BrassBirmingham(), BrassPittsburgh()):
        for players in args.players:
            print(measure(game, players, args.games))


if __name__ == "__main__":
    main()
