"""A digest of Age of Steam's legal-move lists and playout-policy choices over many seeded
games, to check that a change to listing or to the playout policy keeps every list
(content and order) and every choice as it was.

Each game is played by the search playouts' policy (:mod:`plugins.age_of_steam.playout_policy`)
as the bench plays it (``legal_moves``, the policy's choice, ``decide``, ``evolve``). At
every decision the digest takes the seat's listing and the policy's choice; on every other
build or move decision also the listing with the seat's money set to several amounts (the
build listing prunes by money). One line per game: map, players, seed, decisions, digest.
Run it in two checkouts and diff:

    (cd OLD && PYTHONPATH=$PWD python3 /path/to/bench/aos_listing_digest.py 20) > old.txt
    PYTHONPATH=$PWD python3 bench/aos_listing_digest.py 20 > new.txt && diff old.txt new.txt
"""

from __future__ import annotations

import hashlib
import sys
from random import Random

from core.game import SYSTEM
from plugins.age_of_steam.game import AgeOfSteam, Options
from plugins.age_of_steam.lookahead import clone
from plugins.age_of_steam.playout_policy import playout_move

GAME = AgeOfSteam()
TABLES = [("rust_belt", 3), ("rust_belt", 4), ("rust_belt", 6), ("barbados", 1),
          ("st_lucia", 2)]  # fmt: skip
MONEY = (0, 2, 4, 7, 12, 30)


def digest(map_id: str, players: int, seed: int) -> tuple[int, str]:
    h = hashlib.sha256()
    rng = Random(1000 * players + seed)
    state = None
    for e in GAME.setup(Options(map=map_id), players, rng):
        state = GAME.evolve(state, e)
    assert state is not None
    decisions = 0
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            seat = task.seat
            if state.phase in ("build", "move") and decisions % 2 == 0:
                for money in MONEY:
                    t = clone(state)
                    t.pl[seat].money = money
                    h.update(repr(GAME.legal_moves(t, seat)).encode())
            legal = GAME.legal_moves(state, seat)
            h.update(repr(legal).encode())
            move = playout_move(state, seat, legal, rng)
            h.update(repr(move).encode())
            events = GAME.decide(state, seat, move, rng)
            decisions += 1
        for e in events:
            state = GAME.evolve(state, e)
    h.update(repr(state.final_scores).encode())
    return decisions, h.hexdigest()[:16]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for map_id, players in TABLES:
        for seed in range(games):
            decisions, found = digest(map_id, players, seed)
            print(map_id, players, seed, decisions, found, flush=True)


if __name__ == "__main__":
    main()
