"""The Brass games' hooks for the search bot (:mod:`core.game`): ``evaluate`` is each seat's
expected final VP (exact once the game is over or its last era is being scored, and
ranking the greedy bot above a random one from early on), ``clone`` copies everything
``evolve`` changes, and ``playout_policy`` picks listed moves and plays whole games."""

from __future__ import annotations

import math
from random import Random
from typing import Any, NamedTuple

import pytest

from core.playout import playout
from plugins.brass.state import SCORING
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh

GAMES = {"brass-birmingham": BrassBirmingham(), "brass-pittsburgh": BrassPittsburgh()}
SEEDS = range(6)


class Played(NamedTuple):
    """A two-player game of the greedy bot against a random one: the state after every
    decision, the greedy seat and the final scores."""

    states: list[Any]
    greedy: int
    scores: list[int]


@pytest.fixture(params=sorted(GAMES), scope="module")
def game(request: pytest.FixtureRequest) -> Any:
    return GAMES[request.param]


@pytest.fixture(scope="module")
def played(game: Any) -> list[Played]:
    return [_greedy_against_random(game, seed) for seed in SEEDS]


def _greedy_against_random(game: Any, seed: int) -> Played:
    greedy = seed % 2

    def choose(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        if seat == greedy:
            return game.bot_policy(game.view(state, seat), legal, rng)
        return legal[rng.randrange(len(legal))]

    states: list[Any] = []
    final, _ = playout(
        game, game.Options(), 2, Random(seed), choose,
        observe=lambda s: states.append(game.clone(s)),
    )  # fmt: skip
    return Played(states, greedy, game.result(final).scores)


def test_a_finished_game_is_worth_its_final_scores(game: Any, played: list[Played]) -> None:
    for p in played:
        assert game.evaluate(p.states[-1]) == [float(s) for s in p.scores]


def test_the_last_era_being_scored_is_worth_the_final_scores(
    game: Any, played: list[Played]
) -> None:
    # nothing is left to play: the era's scoring decides the score exactly
    for p in played:
        last = [s for s in p.states if s.phase == SCORING and s.era == 1]
        assert last, "the game reached its last era's scoring"
        assert game.evaluate(last[-1]) == [float(s) for s in p.scores]


def test_every_position_is_worth_a_finite_score_per_seat(game: Any, played: list[Played]) -> None:
    for state in played[0].states[::5]:
        value = game.evaluate(state)
        assert len(value) == 2 and all(math.isfinite(v) for v in value)


@pytest.mark.parametrize("share", [0.1, 0.25, 0.5])
def test_the_greedy_seat_is_worth_more_than_the_random_one_early_on(
    game: Any, played: list[Played], share: float
) -> None:
    # a tenth in, Birmingham's track still shows 0-0: the board and the income tell
    right = 0
    for p in played:
        assert p.scores[p.greedy] > p.scores[1 - p.greedy], "greedy won"
        value = game.evaluate(p.states[int(share * len(p.states))])
        right += value[p.greedy] > value[1 - p.greedy]
    assert right >= len(played) - 1, f"{right} of {len(played)}"


def test_evolving_a_clone_leaves_the_original_as_it_was(game: Any, played: list[Played]) -> None:
    rng = Random(0)
    for state in played[0].states[:: len(played[0].states) // 6]:
        before = game.export_position(state)
        copy = game.clone(state)
        for _ in range(40):  # a random continuation on the copy
            tasks = game.pending_tasks(copy)
            if not tasks:
                break
            task = tasks[0]
            if task.kind == "system":
                events = game.decide(copy, -1, task.move, rng)
            else:
                legal = game.legal_moves(copy, task.seat)
                events = game.decide(copy, task.seat, legal[rng.randrange(len(legal))], rng)
            for e in events:
                copy = game.evolve(copy, e)
        assert game.export_position(state) == before


@pytest.mark.parametrize("players", [2, 4])
def test_playout_policy_picks_listed_moves_through_a_whole_game(game: Any, players: int) -> None:
    def policy(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        move = game.playout_policy(state, seat, legal, rng)
        assert move in legal
        return move

    final, _ = playout(game, game.Options(), players, Random(players), policy)
    result = game.result(final)
    assert result is not None and max(result.scores) > 0
