"""How strong the Brass games' playout policy is on its own: whole games, seat-rotated,
of ``playout_policy`` against the greedy bot (``bot_policy`` on the seat's full view, every
legal move weighed), in memory. The search bot's playouts are only as good as this policy.

    python bench/bench_brass_playout_strength.py [--games 20] [--players 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.playout import playout
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh


def duel(game: Any, players: int, games: int) -> str:
    """``games`` games with one playout-policy seat (rotating) and greedy seats."""
    wins = 0
    mine = others = 0.0
    start = time.process_time()
    for n in range(games):
        seat_of_policy = n % players

        def choose(
            state: Any, seat: int, legal: list[Any], rng: Random, policy_seat: int = seat_of_policy
        ) -> Any:
            if seat == policy_seat:
                return game.playout_policy(state, seat, legal, rng)
            return game.bot_policy(game.view(state, seat), legal, rng)

        final, _ = playout(game, game.Options(), players, Random(n), choose)
        scores = game.result(final).scores
        best_other = max(s for i, s in enumerate(scores) if i != seat_of_policy)
        wins += scores[seat_of_policy] > best_other
        mine += scores[seat_of_policy]
        others += sum(s for i, s in enumerate(scores) if i != seat_of_policy) / (players - 1)
    spent = time.process_time() - start
    return (
        f"playout_policy wins {wins}/{games} against greedy, {mine / games:.1f} VP a game "
        f"(greedy seats {others / games:.1f}); {spent:.0f} s CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    args = parser.parse_args()
    for game in (BrassBirmingham(), BrassPittsburgh()):
        for players in args.players:
            print(f"{game.title} {players}p: {duel(game, players, args.games)}", flush=True)


if __name__ == "__main__":
    main()
