"""The greedy bot of Brass: Birmingham (``bot_policy``): it beats random play, picks only
listed moves from the view alone, leaves its arguments alone and plays whole matches."""

from __future__ import annotations

import copy
from random import Random
from typing import Any

import pytest
from bb_helpers import GAME

from plugins.brass_birmingham import moves as mv
from tests.brass_bot_checks import decisions_of_a_greedy_game, greedy_against_random, played

GAME_ID = "brass-birmingham"
MARGIN = 20
"""Points per match by which greedy must beat random on average; random vs random: ~0."""


def test_greedy_beats_random_in_most_two_player_matches(registry: Any) -> None:
    # Between two random seats each outscores the other about half the time (less with
    # ties at zero) and the margin averages out near zero.
    wins, margin = greedy_against_random(registry, GAME_ID, 2, greedy_seat=1)
    assert wins >= 5 and margin >= MARGIN, (wins, margin)


def test_greedy_tops_three_random_seats_in_most_four_player_matches(registry: Any) -> None:
    # A random seat among four tops the table about one match in four.
    wins, margin = greedy_against_random(registry, GAME_ID, 4, greedy_seat=2)
    assert wins >= 5 and margin >= MARGIN, (wins, margin)


def test_an_all_greedy_four_player_match_finishes(registry: Any) -> None:
    scores = played(registry, GAME_ID, ["greedy"] * 4, "bb-bot-all-greedy")
    assert len(scores) == 4 and max(scores) > 0


@pytest.fixture(scope="module")
def greedy_decisions() -> list[tuple[dict[str, Any], list[Any]]]:
    return decisions_of_a_greedy_game(GAME, 3, 11)


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
