"""Brass: Pittsburgh random games: invariants after every decision.

Default: a few seeds per player count (seconds). ``IRONWORKS_BP_GAMES=200`` plays more.
Checked after each decision: cards conserved (deck, hands, discards, face-down), link tiles
conserved per seat, tiles never more than the mat gave, money never negative, whiskey within
the cap, income marker on the track, market ladders and tile cubes within their bounds, oil
never negative; and the game always ends with a ranking.
"""

from __future__ import annotations

import os
from collections import Counter
from random import Random
from typing import Any

import pytest

from core.game import SYSTEM
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.state import State

GAMES = int(os.environ.get("IRONWORKS_BP_GAMES", "2"))


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


def check_invariants(game: BrassPittsburgh, s: State, where: str) -> None:
    rules, data = game.rules, game.rules.data
    n = s.players
    held = Counter(s.deck)
    for cards in (*s.hands, *s.discards, *s.facedown):
        held.update(cards)
    copies = rules.deck_copies(s.side, n)
    assert held == Counter({k: c for k, c in enumerate(copies) if c}), f"{where}: cards"
    for seat in range(n):
        on_board = sum(1 for o, link in zip(s.line_owner, s.line_link, strict=True)
                       if o == seat and link == LIGHT)  # fmt: skip
        assert s.light_trains[seat] + on_board == data.light_trains.count, f"{where}: light"
        heavy_pipes = [
            *(link for o, link in zip(s.line_owner, s.line_link, strict=True)
              if o == seat and link != LIGHT),
            *(p for o, p in zip(s.route_owner, s.route_pipeline, strict=True) if o == seat),
            *s.link_supply[seat],
        ]  # fmt: skip
        locked = [
            ls.link
            for ls in data.mat.link_spaces
            if s.mat[seat][rules.mat.index[ls.unlocked_by]] > 0
        ]
        assert sorted(heavy_pipes + locked) == sorted([*data.heavy_trains, *data.pipelines]), (
            f"{where}: heavy trains and pipelines of seat {seat}"
        )
        taken = sum(t.count for t in rules.mat.tiles) - sum(s.mat[seat])
        placed = s.slot_owner.count(seat) + s.oil_city_owner.count(seat)
        assert placed <= taken, f"{where}: seat {seat} has more tiles out than it took"
        assert s.money[seat] >= 0, f"{where}: seat {seat} money {s.money[seat]}"
        assert 0 <= s.whiskey[seat] <= data.constants.whiskey_max, f"{where}: whiskey"
        assert 0 <= s.income[seat] <= rules.income.last_space, f"{where}: income"
    ladders = rules.ladders[s.side]
    for m, cubes in enumerate(s.market_cubes):
        for res, k in cubes.items():
            assert 0 <= k <= ladders[m][res].capacity, f"{where}: market {m} {res} {k}"
    assert all(c >= 0 for c in s.slot_cubes), f"{where}: slot cubes"
    assert all(c >= 0 for c in s.line_cargo), f"{where}: train cargo"
    assert all(o >= 0 for o in s.oil) and all(o >= 0 for o in s.oil_pending), f"{where}: oil"


def pick(legal: list[Any], rng: Random) -> Any:
    """A random kind of move, then a random move of that kind: builds, sales and links
    come up far more often than with a uniform pick among hundreds of link placements."""
    kinds = sorted({type(m).__name__ for m in legal})
    kind = kinds[rng.randrange(len(kinds))]
    of_kind = [m for m in legal if type(m).__name__ == kind]
    return of_kind[rng.randrange(len(of_kind))]


@pytest.mark.parametrize("players", (2, 3, 4))
def test_random_games_keep_every_invariant_and_end_ranked(
    game: BrassPittsburgh, players: int
) -> None:
    for seed in range(GAMES):
        rng = Random(seed * 10 + players)
        (event,) = game.setup(Options(), players, rng)
        s = game.evolve(None, event)
        steps = 0
        while tasks := game.pending_tasks(s):
            task = tasks[0]
            if task.kind == "system":
                events = game.decide(s, SYSTEM, task.move, rng)
            else:
                events = game.decide(s, task.seat, pick(game.legal_moves(s, task.seat), rng), rng)
            for e in events:
                s = game.evolve(s, e)
            steps += 1
            check_invariants(game, s, f"players={players} seed={seed} step={steps}")
            assert steps < 5000, "the game does not end"
        result = game.result(s)
        assert result is not None and sorted(result.ranking)[0] == 1
