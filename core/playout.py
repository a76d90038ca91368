"""Playing a whole game in memory through the decider contract: for benchmarks, tests and
bots' look-ahead. No store, no service: setup, then decide and evolve until no task is left.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from core.game import SYSTEM

Chooser = Callable[[Any, int, list[Any], Random], Any]
"""Picks one of the legal moves of a seat: ``(state, seat, legal, rng) -> move``."""


def uniform(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
    return legal[rng.randrange(len(legal))]


def advance(
    game: Any, state: Any, rng: Random, decisions: int | None = None, choose: Chooser = uniform
) -> tuple[Any, int]:
    """Play on from ``state`` for at most ``decisions`` decisions (``None``: to the end);
    returns the state reached and the decisions taken.

    System tasks are decided with the SYSTEM actor; the first task is always served first,
    as the service would. ``state`` may be changed in place (``evolve``'s contract): hand in
    a copy to keep the original.
    """
    taken = 0
    while (decisions is None or taken < decisions) and (tasks := game.pending_tasks(state)):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            move = choose(state, task.seat, game.legal_moves(state, task.seat), rng)
            events = game.decide(state, task.seat, move, rng)
        taken += 1
        for event in events:
            state = game.evolve(state, event)
    return state, taken


def playout(
    game: Any,
    options: Any,
    players: int,
    rng: Random,
    choose: Chooser = uniform,
    observe: Callable[[Any], None] | None = None,
) -> tuple[Any, int]:
    """Play one game to the end; returns the final state and the number of decisions taken.
    ``observe`` sees the state after every decision."""
    state = None
    for event in game.setup(options, players, rng):
        state = game.evolve(state, event)
    if observe is None:
        return advance(game, state, rng, None, choose)
    decisions = 0
    while game.pending_tasks(state):
        state, _ = advance(game, state, rng, 1, choose)
        decisions += 1
        observe(state)
    return state, decisions
