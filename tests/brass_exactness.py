"""The exactness check every Brass game's tests share: over a game's whole move space,
``decide`` accepts a move if and only if ``legal_moves`` lists it, at states sampled from
random games (each game supplies its own move space)."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from core.errors import IllegalMove
from core.game import SYSTEM


def sampled_states(game: Any, players: int, seed: int, count: int) -> list[Any]:
    """Up to ``count`` states with a pending decision and ``count`` without, from one
    random game of ``players`` seats."""
    rng = Random(seed)
    state = None
    for e in game.setup(game.Options(), players, rng):
        state = game.evolve(state, e)
    states = []
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            new = game.decide(state, SYSTEM, task.move, rng)
        else:
            legal = game.legal_moves(state, task.seat)
            new = game.decide(state, task.seat, legal[rng.randrange(len(legal))], rng)
            states.append(state.clone())
        for e in new:
            state = game.evolve(state, e)
    pick = Random(seed + 1)
    pending = [x for x in states if x.pending]
    plain = [x for x in states if not x.pending]
    return pick.sample(pending, min(count, len(pending))) + pick.sample(
        plain, min(count, len(plain))
    )


def assert_exact(game: Any, s: Any, move_space: Callable[[Any], list[Any]]) -> None:
    """Every move of ``move_space(s)`` is accepted exactly when listed (refusals carry a
    code and a message), nothing is listed twice, and other seats have nothing listed."""
    seat = s.current
    legal = game.legal_moves(s, seat)
    assert len(set(legal)) == len(legal), "no move is listed twice"
    for m in move_space(s):
        try:
            game.decide(s, seat, m, Random(0))
            accepted = True
        except IllegalMove as exc:
            accepted = False
            assert exc.code and exc.message
        assert accepted == (m in legal), f"{m!r}: accepted={accepted}, pending={s.pending}"
    for other in range(s.players):
        if other != seat:
            assert game.legal_moves(s, other) == []
