"""A digest of both Brass games' legal-move lists over many seeded random games, to check
that a change to listing keeps every list (content and order) as it was.

Along each game, every seat's listing is taken at every decision, and the deciding seat's
also with its money set to several amounts (the listings' pruning bounds are about money).
One line per game: game, players, seed, decisions, digest. Run it in two checkouts and diff:

    (cd OLD && PYTHONPATH=$PWD python3 /path/to/bench/brass_listing_digest.py 25) > old.txt
    PYTHONPATH=$PWD python3 bench/brass_listing_digest.py 25 > new.txt && diff old.txt new.txt
"""

from __future__ import annotations

import hashlib
import sys
from random import Random
from typing import Any

from core.game import SYSTEM
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh

MONEY = (0, 3, 5, 8, 12, 16, 25, 40)


def digest(game: Any, players: int, seed: int) -> tuple[int, str]:
    memory = getattr(getattr(game, "rules", None), "listings", None)
    h = hashlib.sha256()
    rng = Random(1000 * players + seed)
    state = None
    for e in game.setup(game.Options(), players, rng):
        state = game.evolve(state, e)
    decisions = 0
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            for seat in range(players):
                varied = seat == task.seat and decisions % 2 == 0
                for money in (None, *MONEY) if varied else (None,):
                    t = state.clone()
                    if money is not None:
                        t.money[seat] = money
                    if memory is not None:
                        memory.clear()  # every listing worked out afresh
                    h.update(repr(game.legal_moves(t, seat)).encode())
            legal = game.legal_moves(state, task.seat)
            events = game.decide(state, task.seat, legal[rng.randrange(len(legal))], rng)
            decisions += 1
        for e in events:
            state = game.evolve(state, e)
    return decisions, h.hexdigest()[:16]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for game in (BrassBirmingham(), BrassPittsburgh()):
        for players in (2, 3, 4):
            for seed in range(games):
                decisions, found = digest(game, players, seed)
                print(game.id, players, seed, decisions, found, flush=True)


if __name__ == "__main__":
    main()
