"""legal_moves is exact: over the whole move space, decide accepts a move if and only if
it is listed (sampled states of random games; BB_EXACT_STATES=N probes more)."""

from __future__ import annotations

import os
from random import Random

import pytest
from bb_helpers import GAME, act, load

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass_birmingham import moves as mv

STATES = int(os.environ.get("BB_EXACT_STATES", "6"))


def move_space(s) -> list:  # type: ignore[no-untyped-def]
    """Every move of every shape with known names (plus one unknown name of each kind)."""
    names = GAME.names
    cards = [*names.card, "location:atlantis"]
    spaces = [*names.space, "atlantis:0"]
    merchants = [*names.merchant, "atlantis:0"]
    links = [*names.link, "atlantis~birmingham"]
    inds = [*names.industry, "steel"]
    out: list = [mv.Loan(), mv.Scout(), mv.Pass(), mv.Done()]
    if s.pending:
        out += [mv.Discard(c) for c in cards]
        out += [m(sp) for m in (mv.PickCoal, mv.PickIron, mv.Liquidate) for sp in spaces]
        out += [mv.PickBeer(source) for source in [*spaces, *merchants]]
        out += [mv.SecondLink(li) for li in links]
        out += [mv.SellAlso(sp, m) for sp in spaces for m in merchants]
        out += [f(i) for f in (mv.DevelopAlso, mv.FreeDevelop) for i in inds]
    else:
        hand = {names.card[c] for c in s.hands[s.current]} | {cards[0], cards[-1]}
        out += [mv.Build(c, sp, i) for c in hand for sp in spaces for i in inds]
        out += [mv.Network(li) for li in links]
        out += [mv.Develop(i) for i in inds]
        out += [mv.Sell(sp, m) for sp in spaces for m in merchants]
    return out


def sampled_states(players: int, seed: int, count: int):  # type: ignore[no-untyped-def]
    rng = Random(seed)
    state = None
    for e in GAME.setup(GAME.Options(), players, rng):
        state = GAME.evolve(state, e)
    states = []
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            new = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            legal = GAME.legal_moves(state, task.seat)
            new = GAME.decide(state, task.seat, legal[rng.randrange(len(legal))], rng)
            states.append(state.clone())
        for e in new:
            state = GAME.evolve(state, e)
    pick = Random(seed + 1)
    pending = [x for x in states if x.pending]
    plain = [x for x in states if not x.pending]
    return pick.sample(pending, min(count, len(pending))) + pick.sample(
        plain, min(count, len(plain))
    )


def assert_exact(s) -> None:  # type: ignore[no-untyped-def]
    seat = s.current
    legal = GAME.legal_moves(s, seat)
    assert len(set(legal)) == len(legal), "no move is listed twice"
    for m in move_space(s):
        try:
            GAME.decide(s, seat, m, Random(0))
            accepted = True
        except IllegalMove as exc:
            accepted = False
            assert exc.code and exc.message
        assert accepted == (m in legal), f"{m!r}: accepted={accepted}, pending={s.pending}"
    for other in range(s.players):
        if other != seat:
            assert GAME.legal_moves(s, other) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_decide_accepts_exactly_the_listed_moves(players: int) -> None:
    for s in sampled_states(players, 77 + players, STATES):
        assert_exact(s)


def test_round_end_liquidation_lists_exactly_the_own_industries() -> None:
    tiles = [
        {"space": "dudley:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 1},
        {"space": "coventry:0", "owner": 0, "industry": "pottery", "level": 1},
        {"space": "redditch:1", "owner": 1, "industry": "iron", "level": 1, "cubes": 1},
    ]
    s = load(hands={0: ["coventry"] * 2, 1: ["dudley"] * 2}, turn=1, actions_left=1,
             income=[5, 10], money=[1, 17], tiles=tiles)  # fmt: skip
    s, _ = act(s, 1, mv.Pass())
    assert s.pending and s.current == 0
    assert_exact(s)
