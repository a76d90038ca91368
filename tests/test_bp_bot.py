"""Brass: Pittsburgh's greedy bot: its game-specific choices (the shared behaviour is in
tests/test_brass_bots.py)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from plugins.brass_pittsburgh.game import BrassPittsburgh
from tests.brass_bot_checks import decisions_of_a_greedy_game

GAME = BrassPittsburgh()


@pytest.fixture(scope="module")
def greedy_decisions() -> list[tuple[dict[str, Any], list[Any]]]:
    return decisions_of_a_greedy_game(GAME, 3, 11)


def test_the_bot_pays_vanderbilt_only_when_nothing_cheaper_is_offered(
    greedy_decisions: list[Any],
) -> None:
    choices = [(v, m) for v, m in greedy_decisions if v["decision"]["kind"] == "pay"]
    cheaper = [(v, m) for v, m in choices if any(x.source != "vanderbilt" for x in m)]
    assert cheaper, "the greedy game offered a payment with a choice"
    for i, (view, legal) in enumerate(cheaper):
        assert GAME.bot_policy(view, legal, Random(i)).source != "vanderbilt"
