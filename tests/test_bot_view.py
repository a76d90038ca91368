"""What a bot reads (``core.bots.bot_view``, the decider's optional ``view_for_bots``): its
seat's view, less only the parts published for people that no bot reads (Brass's move
prices, dear to make), never more than the seat's player sees."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from core.bots import bot_view
from core.game import SYSTEM
from core.registry import default_registry

PRICES = {"market_buys", "cube_costs"}


def _priced_views(game: Any, players: int, seed: int, wanted: int) -> list[tuple[dict, dict]]:
    """The seat to act's view and its bot's, in states of a seeded random game where the
    view carries its prices (read at once: ``evolve`` may change a state in place)."""
    rng = Random(seed)
    state = None
    for event in game.setup(game.Options(), players, rng):
        state = game.evolve(state, event)
    found = []
    while len(found) < wanted and (tasks := game.pending_tasks(state)):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            people = game.view(state, task.seat)
            if PRICES & people.keys():
                found.append((people, bot_view(game, state, task.seat)))
            legal = game.legal_moves(state, task.seat)
            events = game.decide(state, task.seat, legal[rng.randrange(len(legal))], rng)
        for event in events:
            state = game.evolve(state, event)
    return found


@pytest.mark.parametrize("game_id", ["brass-birmingham", "brass-lancashire", "brass-pittsburgh"])
def test_a_bot_reads_its_seats_view_without_the_prices_people_read(game_id: str) -> None:
    game = default_registry().get(game_id)
    views = _priced_views(game, 3, seed=7, wanted=4)
    assert len(views) == 4
    for people, bots in views:
        assert not PRICES & bots.keys()
        assert bots == {k: v for k, v in people.items() if k not in PRICES}


def test_a_game_without_the_hook_gives_its_bots_the_seats_view() -> None:
    game = default_registry().get("age-of-steam")
    state = None
    for event in game.setup(game.Options(), 3, Random(3)):
        state = game.evolve(state, event)
    seat = game.pending_tasks(state)[0].seat
    assert not hasattr(game, "view_for_bots")
    assert bot_view(game, state, seat) == game.view(state, seat)
