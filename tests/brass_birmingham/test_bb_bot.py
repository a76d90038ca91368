"""The greedy bot of Brass: Birmingham (``bot_policy``): it beats random play, picks only
listed moves from the view alone, leaves its arguments alone and plays whole matches."""

from __future__ import annotations

import copy
from random import Random
from typing import Any

import pytest
from bb_helpers import GAME

from core.game import SYSTEM
from core.service import MatchService
from core.store.memory import MemoryStore
from plugins.brass_birmingham import moves as mv
from worker.inprocess import InlineRunner

GAME_ID = "brass-birmingham"
SEEDS = range(6)
MARGIN = 20
"""Points per match by which greedy must beat random on average; random vs random: ~0."""


def played(registry: Any, seats: list[str], seed: str) -> list[int]:
    """Final scores of a match whose seats are all bots, played through the service."""
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    match = service.create_match(GAME_ID, len(seats), seed=seed)
    for seat, bot in enumerate(seats):
        service.hand_to_bot(match.match_id, seat, bot, None)
    result = service.result(service.load(match.match_id))
    assert result is not None, "the bots played the match to its end"
    return result.scores


def greedy_against_random(registry: Any, players: int, greedy_seat: int) -> tuple[int, float]:
    """Over ``SEEDS``: matches where the greedy seat outscores every random seat, and by how
    much its score beats the random seats' average, on average over the matches."""
    wins, margin = 0, 0.0
    for seed in SEEDS:
        seats = ["random"] * players
        seats[greedy_seat] = "greedy"
        scores = played(registry, seats, f"{GAME_ID}-bot-{players}-{seed}")
        others = [s for i, s in enumerate(scores) if i != greedy_seat]
        wins += scores[greedy_seat] > max(others)
        margin += scores[greedy_seat] - sum(others) / len(others)
    return wins, margin / len(SEEDS)


def test_greedy_beats_random_in_most_two_player_matches(registry: Any) -> None:
    # Between two random seats each outscores the other about half the time (less with
    # ties at zero) and the margin averages out near zero.
    wins, margin = greedy_against_random(registry, 2, greedy_seat=1)
    assert wins >= 5 and margin >= MARGIN, (wins, margin)


def test_greedy_tops_three_random_seats_in_most_four_player_matches(registry: Any) -> None:
    # A random seat among four tops the table about one match in four.
    wins, margin = greedy_against_random(registry, 4, greedy_seat=2)
    assert wins >= 5 and margin >= MARGIN, (wins, margin)


def test_an_all_greedy_four_player_match_finishes(registry: Any) -> None:
    scores = played(registry, ["greedy"] * 4, "bb-bot-all-greedy")
    assert len(scores) == 4 and max(scores) > 0


def decisions(players: int, seed: int) -> list[tuple[dict[str, Any], list[Any]]]:
    """(view, legal moves) at every decision of one greedy game, played on the game alone."""
    rng = Random(seed)
    state = None
    for event in GAME.setup(GAME.Options(), players, rng):
        state = GAME.evolve(state, event)
    out = []
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            new = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            legal = GAME.legal_moves(state, task.seat)
            view = GAME.view(state, task.seat)
            out.append((view, legal))
            new = GAME.decide(state, task.seat, GAME.bot_policy(view, legal, rng), rng)
        for event in new:
            state = GAME.evolve(state, event)
    return out


@pytest.fixture(scope="module")
def greedy_decisions() -> list[tuple[dict[str, Any], list[Any]]]:
    return decisions(3, 11)


def test_the_bot_returns_one_of_the_listed_moves(greedy_decisions: list[Any]) -> None:
    for i, (view, legal) in enumerate(greedy_decisions):
        assert GAME.bot_policy(view, legal, Random(i)) in legal


def test_the_bot_answers_every_kind_of_decision_it_met(greedy_decisions: list[Any]) -> None:
    kinds = {view["decision"]["kind"] for view, _legal in greedy_decisions}
    assert {"action", "discard"} <= kinds


def test_the_bot_leaves_view_and_legal_moves_unchanged(greedy_decisions: list[Any]) -> None:
    for i, (view, legal) in enumerate(greedy_decisions[::3]):
        before = copy.deepcopy((view, legal))
        GAME.bot_policy(view, legal, Random(i))
        assert (view, legal) == before


def test_the_bot_sells_when_a_sale_is_listed(greedy_decisions: list[Any]) -> None:
    offered = [
        (v, m) for v, m in greedy_decisions if any(x.__struct_config__.tag == "sell" for x in m)
    ]
    assert offered, "the greedy game offered a sale at some point"
    for i, (view, legal) in enumerate(offered):
        assert GAME.bot_policy(view, legal, Random(i)).__struct_config__.tag == "sell"


def test_the_bot_never_passes_while_it_can_build(greedy_decisions: list[Any]) -> None:
    for i, (view, legal) in enumerate(greedy_decisions):
        if any(x.__struct_config__.tag == "build" for x in legal):
            assert GAME.bot_policy(view, legal, Random(i)).__struct_config__.tag != "pass"


def test_a_spectators_view_cannot_drive_the_bot(greedy_decisions: list[Any]) -> None:
    view, legal = greedy_decisions[0]
    with pytest.raises(ValueError, match="spectator"):
        GAME.bot_policy({**view, "seat": None}, legal, Random(0))


def test_the_bot_keeps_a_wild_card_while_another_card_can_pay(
    greedy_decisions: list[Any],
) -> None:
    choices = [(v, m) for v, m in greedy_decisions if v["decision"]["kind"] == "discard"]
    assert choices
    for i, (view, legal) in enumerate(choices):
        # The same decision with a wild card in hand as well.
        wild = mv.Discard(card="wild:industry")
        hand = [*view["hand"], wild.card]
        assert GAME.bot_policy({**view, "hand": hand}, [wild, *legal], Random(i)) in legal
