"""How well Age of Steam's bots play: whole games in memory (``core.playout``), per map.

Each seat plays the "greedy" bot (``bot_policy``: the seat's view and its legal moves, as
the service's bot gets them) or, with ``--policy playout``, the search playouts' fast
heuristic on the full state (``playout_policy``). Printed per map and player count, over
``--games`` games (seeds 0..N-1):

* score: mean final score per seat, and the share of seats that end above 0;
* tiles, shares, deliveries: track tiles laid, shares issued and goods delivered per seat
  per game; engine: mean final engine; paid for order: money paid in turn-order auctions
  (St. Lucia: for the first place) per seat per game;
* out: seats eliminated (bankrupt); ties: games whose winner place is shared;
* s/game: CPU seconds per game (this process's, so a busy machine does not skew it).

    python3 bench/bench_aos_bots.py [--games 20] [--maps rust_belt:3 barbados:1 ...]
                                    [--policy greedy|playout|random]
"""

from __future__ import annotations

import argparse
import time
from random import Random
from typing import Any

from core.playout import playout
from plugins.age_of_steam import events as ev
from plugins.age_of_steam.game import AgeOfSteam, Options
from plugins.age_of_steam.rules import FIRST_PLACE_FEE

TABLES = ("rust_belt:3", "rust_belt:4", "rust_belt:5", "rust_belt:6", "barbados:1",
          "st_lucia:2")  # fmt: skip


class Counting(AgeOfSteam):
    """The game, counting per seat the events a bot's strength shows in."""

    def __init__(self, players: int) -> None:
        self.tiles = [0] * players
        self.shares = [0] * players
        self.deliveries = [0] * players
        self.paid = [0] * players

    def evolve(self, state: Any, event: Any) -> Any:
        if isinstance(event, ev.TrackBuilt):
            self.tiles[event.seat] += 1
        elif isinstance(event, ev.SharesIssued):
            self.shares[event.seat] += event.count
        elif isinstance(event, ev.GoodMoved):
            self.deliveries[event.seat] += 1
        elif isinstance(event, ev.OrderDecided):
            self.paid = [a + b for a, b in zip(self.paid, event.paid, strict=True)]
        elif isinstance(event, ev.FirstBought):
            self.paid[event.seat] += FIRST_PLACE_FEE
        return super().evolve(state, event)


def chooser(game: AgeOfSteam, policy: str) -> Any:
    if policy == "greedy":
        return lambda state, seat, legal, rng: game.bot_policy(game.view(state, seat), legal, rng)
    if policy == "playout":
        return game.playout_policy
    return lambda _state, _seat, legal, rng: legal[rng.randrange(len(legal))]


def bench(map_id: str, players: int, games: int, policy: str) -> str:
    scores: list[int] = []
    tiles = shares = deliveries = engine = out = ties = paid = 0
    start = time.process_time()
    for seed in range(games):
        game = Counting(players)
        state, _ = playout(game, Options(map=map_id), players, Random(seed), chooser(game, policy))
        result = game.result(state)
        assert result is not None
        scores += result.scores
        tiles += sum(game.tiles)
        shares += sum(game.shares)
        deliveries += sum(game.deliveries)
        paid += sum(game.paid)
        engine += sum(p.engine for p in state.pl)
        out += sum(p.eliminated for p in state.pl)
        ties += players > 1 and result.ranking.count(1) > 1
    elapsed = time.process_time() - start
    seats = games * players
    return (
        f"{map_id:9} {players}p {policy}: score {sum(scores) / seats:6.1f} "
        f"({sum(s > 0 for s in scores) / seats:4.0%} > 0), tiles {tiles / seats:4.1f}, "
        f"shares {shares / seats:4.1f}, deliveries {deliveries / seats:4.1f}, "
        f"engine {engine / seats:3.1f}, paid for order {paid / seats:3.1f}, "
        f"out {out}/{seats}, ties {ties}/{games}, "
        f"{elapsed / games:5.2f} s/game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--maps", nargs="+", default=list(TABLES), help="map:players ...")
    parser.add_argument("--policy", choices=("greedy", "playout", "random"), default="greedy")
    args = parser.parse_args()
    for table in args.maps:
        map_id, players = table.split(":")
        print(bench(map_id, int(players), args.games, args.policy), flush=True)


if __name__ == "__main__":
    main()
