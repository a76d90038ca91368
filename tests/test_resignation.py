"""Resigned seats in the result: ranked below every seat still in (the later to resign
ahead), by each game's ``result_with_resignations`` hook or the service's fallback; the
match ends once at most one seat has not resigned."""

from __future__ import annotations

from random import Random

import pytest

from core.playout import playout
from core.registry import GameRegistry
from core.resignation import rank_resigned_last
from core.seating import BotChoice, MatchRules
from core.service import MatchService

REAL_GAMES = ["brass-birmingham", "brass-pittsburgh", "age-of-steam"]


def test_resigned_seats_rank_last_and_the_later_to_resign_ahead() -> None:
    assert rank_resigned_last([1, 2, 3, 4], [0]) == [4, 1, 2, 3]
    assert rank_resigned_last([1, 2, 3, 4], [3, 1]) == [1, 3, 2, 4]


def test_ties_among_the_seats_still_in_are_kept() -> None:
    assert rank_resigned_last([1, 1, 3, 4], [3]) == [1, 1, 3, 4]
    assert rank_resigned_last([2, 1, 1], [1]) == [2, 3, 1]


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_brass_and_age_of_steam_rank_resigned_seats_last_when_the_resignations_end_the_match(
    service: MatchService, game_id: str
) -> None:
    rules = MatchRules(stand_in=BotChoice(bot="random"))
    match = service.create_match(game_id, 3, seed="resign", rules=rules)
    tokens = [service.claim_seat(match.match_id, seat) for seat in range(3)]
    service.resign(match.match_id, 1, tokens[1])
    going_on = service.load(match.match_id)
    assert service.result(going_on) is None and not going_on.ended_early
    service.resign(match.match_id, 0, tokens[0])
    over = service.load(match.match_id)
    result = service.result(over)
    assert result is not None and service.jobs_for(over) == []
    assert result.ranking == [2, 3, 1]
    assert result.details["resigned"] == [1, 0]
    assert len(result.scores) == 3


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_finished_game_ranks_a_resigned_winner_last_and_keeps_the_others_order(
    registry: GameRegistry, game_id: str
) -> None:
    game = registry.get(game_id)
    final, _ = playout(game, game.Options(), 3, Random(7))
    own = game.result(final)
    assert own is not None
    winner = own.ranking.index(1)
    resigned = game.result_with_resignations(final, [winner])
    assert resigned.scores == own.scores
    assert resigned.ranking[winner] == 3
    a, b = (s for s in range(3) if s != winner)
    assert max(resigned.ranking[a], resigned.ranking[b]) <= 2
    assert (own.ranking[a] < own.ranking[b]) == (resigned.ranking[a] < resigned.ranking[b])
    assert (own.ranking[a] == own.ranking[b]) == (resigned.ranking[a] == resigned.ranking[b])
    assert resigned.details["resigned"] == [winner]


def test_a_game_without_the_hook_gets_the_service_s_fallback(service: MatchService) -> None:
    rules = MatchRules(stand_in=BotChoice(bot="random"))
    match = service.create_match("highcard", 3, seed="fallback", rules=rules)
    tokens = [service.claim_seat(match.match_id, seat) for seat in range(3)]
    service.resign(match.match_id, 2, tokens[2])
    service.resign(match.match_id, 0, tokens[0])
    result = service.result(service.load(match.match_id))
    assert result is not None
    assert result.ranking == [2, 1, 3] and result.details["resigned"] == [2, 0]
