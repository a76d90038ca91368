"""Brass: Birmingham's greedy bot: its game-specific choices (the shared behaviour is in
tests/test_brass_bots.py)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from bb_helpers import GAME

from plugins.brass_birmingham import moves as mv
from tests.brass_bot_checks import decisions_of_a_greedy_game


@pytest.fixture(scope="module")
def greedy_decisions() -> list[tuple[dict[str, Any], list[Any]]]:
    return decisions_of_a_greedy_game(GAME, 3, 11)


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
