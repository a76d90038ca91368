"""The in-memory playout used by benchmarks and tests follows the service's order of work."""

from __future__ import annotations

from random import Random

from core.playout import playout
from core.registry import GameRegistry


def test_a_playout_ends_with_a_result_and_counts_every_decision(registry: GameRegistry) -> None:
    game = registry.get("highcard")
    seen = []
    state, decisions = playout(
        game, game.Options(rounds=3), 3, Random(7), observe=lambda s: seen.append(s.round)
    )
    assert game.result(state) is not None
    assert decisions == len(seen) == 3 * (1 + 3)  # a deal and three plays per round
    assert seen[-1] == 3


def test_a_playout_is_determined_by_its_generator(registry: GameRegistry) -> None:
    game = registry.get("highcard")
    first, _ = playout(game, game.Options(), 2, Random(3))
    again, _ = playout(game, game.Options(), 2, Random(3))
    assert game.export_position(first) == game.export_position(again)


def test_the_chooser_decides_for_the_seats(registry: GameRegistry) -> None:
    game = registry.get("highcard")
    lowest = []

    def choose_lowest(state, seat, legal, rng):
        lowest.append(legal[0])
        return legal[0]

    playout(game, game.Options(rounds=1), 2, Random(1), choose=choose_lowest)
    assert len(lowest) == 2
