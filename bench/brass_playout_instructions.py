"""CPU instructions of the search bot's playout decisions in the Brass games, for a figure
the shared machine's load cannot move (CPU time moved ±25 % run to run).

``collect`` saves the states the playouts of ``bench_brass_playouts.py`` visit (the first
``LIMIT``, with the random state each decision started from); ``run`` lists the moves of
every saved state (``legal``), and also picks one as the playouts do (``policy``) and
decides it (``decide``: less ``policy``, the cost of ``decide``; ``decide 10`` decides
10 times, for a figure the process's noise moves less), or only loads them (``none``).
Games: ``bb``, ``bp``, ``bl`` (Lancashire). Run each mode under callgrind; the difference
of the instruction counts over the number of states is the part's cost per decision:

    python bench/brass_playout_instructions.py collect /tmp/bb2.pkl bb 2
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python bench/brass_playout_instructions.py run /tmp/bb2.pkl bb none   # then legal, policy

The saved states are plain game states: one file serves two checkouts being compared.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_brass_playouts import PLAYOUTS_PER_ROOT, roots

from core.game import SYSTEM
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_lancashire.game import BrassLancashire
from plugins.brass_pittsburgh.game import BrassPittsburgh
from worker.search import LEVELS

GAMES = {"bb": BrassBirmingham, "bp": BrassPittsburgh, "bl": BrassLancashire}
LIMIT = 300
HORIZON = LEVELS["hard"].horizon


def collect(game: Any, players: int) -> list[tuple[Any, int, Any]]:
    """(state, seat, random state) at each playout decision, in the order and with the
    determinizations and random draws of ``bench_brass_playouts.per_decision``."""
    rng = Random(0)
    found: list[tuple[Any, int, Any]] = []
    for n, (view, _seat) in enumerate(roots(game, players, 1)):
        dets = [game.determinize(view, Random(n * 2 + k)) for k in range(2)]
        for r in range(PLAYOUTS_PER_ROOT):
            state = game.clone(dets[r % 2])
            for _ in range(HORIZON):
                tasks = game.pending_tasks(state)
                if not tasks:
                    break
                task = tasks[0]
                if task.kind == "system":
                    events = game.decide(state, SYSTEM, task.move, rng)
                else:
                    found.append((game.clone(state), task.seat, rng.getstate()))
                    legal = game.legal_moves(state, task.seat)
                    move = game.playout_policy(state, task.seat, legal, rng)
                    events = game.decide(state, task.seat, move, rng)
                for event in events:
                    state = game.evolve(state, event)
                if len(found) >= LIMIT:
                    return found
    return found


def run(game: Any, states: list[tuple[Any, int, Any]], mode: str, repeat: int = 1) -> None:
    for state, seat, saved in states:
        if mode == "none":
            continue
        legal = game.legal_moves(state, seat)
        if mode in ("policy", "decide"):
            rng = Random()
            rng.setstate(saved)
            move = game.playout_policy(state, seat, legal, rng)
            if mode == "decide":
                for _ in range(repeat):
                    game.decide(state, seat, move, rng)


def main() -> None:
    command, path, which = sys.argv[1], sys.argv[2], sys.argv[3]
    game = GAMES[which]()
    if command == "collect":
        states = collect(game, int(sys.argv[4]))
        Path(path).write_bytes(pickle.dumps(states))
        print(f"{len(states)} states saved to {path}")
    else:
        repeat = int(sys.argv[5]) if len(sys.argv) > 5 else 1
        run(game, pickle.loads(Path(path).read_bytes()), sys.argv[4], repeat)


if __name__ == "__main__":
    main()
