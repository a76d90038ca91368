"""Helpers shared by both Brass games' greedy-bot tests."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any, NamedTuple

from core.playout import playout
from core.service import MatchService
from core.store.memory import MemoryStore
from worker.inprocess import InlineRunner

SEEDS = range(6)


def played(registry: Any, game_id: str, seats: list[str], seed: str) -> list[int]:
    """Final scores of a match whose seats are all bots, played through the service."""
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    match = service.create_match(game_id, len(seats), seed=seed)
    for seat, bot in enumerate(seats):
        service.hand_to_bot(match.match_id, seat, bot, None)
    result = service.result(service.load(match.match_id))
    assert result is not None, "the bots played the match to its end"
    return result.scores


def greedy_against_random(
    registry: Any, game_id: str, players: int, greedy_seat: int
) -> tuple[int, float]:
    """Over ``SEEDS``: matches where the greedy seat outscores every random seat, and by how
    much its score beats the random seats' average, on average over the matches."""
    wins, margin = 0, 0.0
    for seed in SEEDS:
        seats = ["random"] * players
        seats[greedy_seat] = "greedy"
        scores = played(registry, game_id, seats, f"{game_id}-bot-{players}-{seed}")
        others = [s for i, s in enumerate(scores) if i != greedy_seat]
        wins += scores[greedy_seat] > max(others)
        margin += scores[greedy_seat] - sum(others) / len(others)
    return wins, margin / len(SEEDS)


Decision = tuple[dict[str, Any], list[Any]]
"""A seat's view and its legal moves at one decision."""


def decisions_of_a_greedy_game(game: Any, players: int, seed: int) -> list[Decision]:
    """(view, legal moves) at every seat decision of one all-greedy game, on the game alone."""
    seen: list[Decision] = []

    def greedy(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        view = game.view(state, seat)
        seen.append((view, legal))
        return game.bot_policy(view, legal, rng)

    playout(game, game.Options(), players, Random(seed), choose=greedy)
    return seen


class SelfPlay(NamedTuple):
    """One all-greedy game played on the game alone: final scores and income levels, and
    per seat how often it chose each move type."""

    scores: list[int]
    income_levels: list[int]
    moves: list[Counter[str]]


def greedy_self_play(
    game: Any, players: int, seed: int, random_seats: frozenset[int] = frozenset()
) -> SelfPlay:
    """One game of greedy seats (but ``random_seats``, which move at random)."""
    moves: list[Counter[str]] = [Counter() for _ in range(players)]

    def greedy(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        if seat in random_seats:
            move = legal[rng.randrange(len(legal))]
        else:
            move = game.bot_policy(game.view(state, seat), legal, rng)
        moves[seat][move.__struct_config__.tag] += 1
        return move

    state, _ = playout(game, game.Options(), players, Random(seed), choose=greedy)
    result = game.result(state)
    assert result is not None, "the bots played the game to its end"
    levels = [p["income_level"] for p in game.view(state, None)["players"]]
    return SelfPlay(result.scores, levels, moves)
