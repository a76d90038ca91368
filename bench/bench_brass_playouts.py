"""Speed of the search bot's playouts in the Brass games: CPU microseconds per playout
decision (split into listing the legal moves, the playout policy, and decide + evolve), and
how many playouts a hard think runs.

Roots are the positions of a few greedy games; from each, playouts run as the search bot
runs them: determinized from the seat's view, then the search level's horizon of decisions
by the game's ``playout_policy``. All figures are CPU time (the machine may be shared).

    python bench/bench_brass_playouts.py [--games 2] [--players 2 4] [--thinks 6]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.game import SYSTEM
from core.playout import playout
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh
from worker.search import LEVELS, SearchBot

ROOTS_EVERY = 9
"""Every n-th decision of the greedy games is a root."""
PLAYOUTS_PER_ROOT = 4
"""Playouts from each root, in two determinizations (a think runs hundreds)."""


def roots(game: Any, players: int, games: int) -> list[tuple[dict[str, Any], int]]:
    """(view, seat) at every :data:`ROOTS_EVERY`-th seat decision of ``games`` greedy games."""
    found: list[tuple[dict[str, Any], int]] = []

    def greedy(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        view = game.view(state, seat)
        if len(legal) > 1:
            found.append((view, seat))
        return game.bot_policy(view, legal, rng)

    for seed in range(games):
        playout(game, game.Options(), players, Random(seed), greedy)
    return found[::ROOTS_EVERY]


def per_decision(game: Any, found: list[tuple[dict[str, Any], int]], horizon: int) -> str:
    """Playouts of ``horizon`` decisions from a determinization of every root, timed part
    by part."""
    clock = time.process_time
    listing = policy = deciding = 0.0
    decisions = 0
    rng = Random(0)

    def playout_from(state: Any) -> None:
        nonlocal listing, policy, deciding, decisions
        for _ in range(horizon):
            tasks = game.pending_tasks(state)
            if not tasks:
                break
            task = tasks[0]
            a = clock()
            if task.kind == "system":
                events = game.decide(state, SYSTEM, task.move, rng)
                b = c = a
            else:
                legal = game.legal_moves(state, task.seat)
                b = clock()
                move = game.playout_policy(state, task.seat, legal, rng)
                c = clock()
                events = game.decide(state, task.seat, move, rng)
                decisions += 1
            for event in events:
                state = game.evolve(state, event)
            d = clock()
            listing, policy, deciding = listing + b - a, policy + c - b, deciding + d - c

    for n, (view, _seat) in enumerate(found):
        dets = [game.determinize(view, Random(n * 2 + k)) for k in range(2)]
        for r in range(PLAYOUTS_PER_ROOT):
            playout_from(game.clone(dets[r % 2]))
    us = 1e6 / max(1, decisions)
    total = (listing + policy + deciding) * us
    return (
        f"{total:5.0f} us a playout decision (legal_moves {listing * us:4.0f}, "
        f"playout_policy {policy * us:4.0f}, decide+evolve {deciding * us:4.0f}; "
        f"{decisions} decisions)"
    )


def thinks(game: Any, found: list[tuple[dict[str, Any], int]], count: int) -> str:
    """Playouts per hard think, on ``count`` roots with a real choice (CPU clock)."""
    bot = SearchBot(game, LEVELS["hard"], clock=time.process_time)
    runs = [0]
    inner = bot._playout

    def counted(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("horizon") is None:
            runs[0] += 1
        return inner(*args, **kwargs)

    bot._playout = counted  # type: ignore[method-assign]
    step = max(1, len(found) // count)
    picked = found[::step][:count]
    start = time.process_time()
    for n, (view, seat) in enumerate(picked):
        bot.choose(view, _legal_of(game, view, seat), Random(n))
    spent = time.process_time() - start
    return (
        f"{runs[0] / len(picked):5.0f} playouts a hard think "
        f"({spent / len(picked):.2f} s CPU a think, {len(picked)} thinks)"
    )


def _legal_of(game: Any, view: dict[str, Any], seat: int) -> list[Any]:
    # the view's own legal moves: those of any state consistent with it
    return list(game.legal_moves(game.determinize(view, Random(0)), seat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--thinks", type=int, default=6, help="hard thinks timed (0: none)")
    args = parser.parse_args()
    horizon = LEVELS["hard"].horizon
    for game in (BrassBirmingham(), BrassPittsburgh()):
        for players in args.players:
            found = roots(game, players, args.games)
            line = f"{game.title} {players}p: {per_decision(game, found, horizon)}"
            if args.thinks:
                line += f"; {thinks(game, found, args.thinks)}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
