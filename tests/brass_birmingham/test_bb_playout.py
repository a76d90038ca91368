"""Random legal games checked after every move; BB_PLAYOUTS=N plays N games per player
count (default 2: the suite stays fast)."""

from __future__ import annotations

import os
from collections import Counter
from random import Random

import pytest
from bb_helpers import GAME, D

from core.game import SYSTEM
from plugins.brass_birmingham.state import State

GAMES = int(os.environ.get("BB_PLAYOUTS", "2"))


def check_invariants(s: State) -> None:
    n = s.players
    assert all(m >= 0 for m in s.money), "money is never negative"
    assert all(v >= 0 for v in s.vp), "VP never drop below zero"
    assert all(0 <= x <= D.income.last_space for x in s.income)
    # the position validator checks tile, card and cube conservation in full
    GAME.load_position(GAME.export_position(s))
    held = Counter(c for h in s.hands for c in h)
    wl, wi = D.cards.wild_location, D.cards.wild_industry
    assert [s.wild_supply[0] + held[wl], s.wild_supply[1] + held[wi]] == [4, 4]
    regular = Counter(s.deck)
    for i in range(n):
        regular.update(c for c in s.hands[i] if c not in (wl, wi))
        regular.update(s.discards[i] + s.facedown[i])
    assert sum(regular.values()) == sum(D.deck_copies[n])
    assert 0 <= s.coal_market <= 14 and 0 <= s.iron_market <= 10
    if s.phase == "play":
        assert GAME.legal_moves(s, s.current), "the seat to act always has a move"
        assert all(not GAME.legal_moves(s, i) for i in range(n) if i != s.current)


def playout(players: int, seed: int) -> tuple[list, State]:
    rng = Random(seed)
    events = list(GAME.setup(GAME.Options(), players, rng))
    state = None
    for e in events:
        state = GAME.evolve(state, e)
    assert state is not None
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            new = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            legal = GAME.legal_moves(state, task.seat)
            new = GAME.decide(state, task.seat, legal[rng.randrange(len(legal))], rng)
        for e in new:
            state = GAME.evolve(state, e)
        events += new
        check_invariants(state)
    return events, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant_and_replay_to_the_same_result(players: int) -> None:
    for seed in range(GAMES):
        events, live = playout(players, 1000 * players + seed)
        replayed = None
        for e in events:
            replayed = GAME.evolve(replayed, e)
        assert GAME.export_position(replayed) == GAME.export_position(live)
        result = GAME.result(live)
        assert result is not None and result == GAME.result(replayed)
        assert live.era == 1 and not live.deck and not any(live.hands)
