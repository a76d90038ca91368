"""The search bot: it finds the move that wins, never looks past the seat's view, keeps to
its budget, and takes a seat through the service like any bot."""

from __future__ import annotations

import itertools
import math
from random import Random
from typing import Any

import msgspec
import pytest
from conftest import install_highcard

from core.bots import searchable
from core.errors import BadRequest
from core.registry import GameRegistry
from core.service import MatchService
from worker.search import LEVELS, SearchBot, level_with, utility
from worker.tournament import parse_entrants

install_highcard()
from highcard.game import HighCard, State  # noqa: E402

# Iterations only, no clock: the same inputs then always give the same choice.
STEADY = msgspec.structs.replace(LEVELS["easy"], seconds=float("inf"), iterations=24)


def _highcard(**fields: Any) -> State:
    base: dict[str, Any] = dict(players=2, rounds=2, hand_size=3, round=1, leader=0, wins=[0, 0])
    return State(**(base | fields))


def test_search_bot_plays_the_only_card_that_takes_the_round() -> None:
    game = HighCard()
    state = _highcard(deck=[1, 2, 6, 7, 8, 10], hands=[[11, 12], [3, 4, 9]], table=[5, None],
                      to_act=1)  # fmt: skip
    bot = SearchBot(game, STEADY)
    picks = {bot.choose(game.view(state, 1), game.legal_moves(state, 1), Random(i)).card
             for i in range(10)}  # fmt: skip
    assert picks == {9}


def test_search_bot_leads_with_its_highest_card() -> None:
    game = HighCard()
    hands = [[1, 5, 17], [2, 3, 4], [6, 7, 8]]
    state = State(players=3, rounds=1, hand_size=3, deck=[], hands=hands, table=[None] * 3,
                  wins=[0] * 3, round=1, leader=0, to_act=0)  # fmt: skip
    bot = SearchBot(game, STEADY)
    assert bot.choose(game.view(state, 0), game.legal_moves(state, 0), Random(1)).card == 17


def _states(game: Any, players: int, seed: int, every: int) -> list[Any]:
    """States along a random playout, one every ``every`` decisions, where a seat moves."""
    from core.playout import playout

    seen: list[Any] = []
    counter = itertools.count()
    clone = getattr(game, "clone", None) or (lambda s: game.load_position(
        game.export_position(s)))  # fmt: skip

    def keep(state: Any) -> None:
        tasks = game.pending_tasks(state)
        if tasks and tasks[0].kind == "turn" and next(counter) % every == 0:
            seen.append(clone(state))

    playout(game, game.Options(), players, Random(seed), observe=keep)
    return seen


def _searchable_ids() -> list[str]:
    install_highcard()
    registry = GameRegistry()
    registry.load_entry_points()
    return [g.id for g in registry.games() if searchable(g)]


@pytest.mark.parametrize("game_id", _searchable_ids())
def test_search_bot_choice_never_depends_on_what_the_seat_cannot_see(
    registry: GameRegistry, game_id: str
) -> None:
    game = registry.get(game_id)
    # the player counts the game's default options take (Age of Steam's Rust Belt: 3-6)
    counts = game.metadata.get("conformance", {}).get("players")
    players = counts[0] if counts else (
        max(game.min_players, 2) if game.max_players >= 2 else game.min_players)  # fmt: skip
    level = msgspec.structs.replace(STEADY, iterations=6, horizon=4, candidates=3)
    bot = SearchBot(game, level)
    states = _states(game, players, seed=11, every=25)[:6]
    assert states, "the playout offered no turn to probe"
    for n, state in enumerate(states):
        seat = game.pending_tasks(state)[0].seat
        legal = game.legal_moves(state, seat)
        twin = game.sample_hidden(state, seat, Random(n))
        assert game.legal_moves(twin, seat) == legal
        mine = bot.choose(game.view(state, seat), legal, Random(n))
        again = bot.choose(game.view(twin, seat), legal, Random(n))
        assert mine == again, f"state {n}: the choice changed with the hidden parts"
        assert mine in legal


def test_at_four_seats_raising_its_own_score_beats_only_lowering_the_leaders() -> None:
    # Seat 0 trails the leader (seat 1) by 20: six points of its own against six taken
    # from the leader. Against the best rival the two are worth the same; against the
    # field, the seat's own points count in full and the leader's only a third.
    raised = utility([86, 100, 90, 85], 0, 10.0)
    leader_lowered = utility([80, 94, 90, 85], 0, 10.0)
    assert raised > leader_lowered + 0.05
    best_only = [utility(s, 0, 10.0, field_from=99) for s in ([86, 100, 90, 85], [80, 94, 90, 85])]
    assert best_only[0] == pytest.approx(best_only[1])


def test_at_four_seats_a_seat_far_behind_the_leader_still_counts_its_own_points() -> None:
    # 40 behind the leader but level with the field: four more points move the utility
    # as much as near a tie, where against the best rival they would barely register.
    gain = utility([84, 120, 60, 60], 0, 10.0) - utility([80, 120, 60, 60], 0, 10.0)
    assert gain > 0.05
    before, after = (
        utility(s, 0, 10.0, field_from=99) for s in ([80, 120, 60, 60], [84, 120, 60, 60])
    )
    assert after - before < 0.01


@pytest.mark.parametrize("scores", [[80.0, 100.0], [80.0, 100.0, 60.0]])
def test_below_four_seats_a_future_is_scored_against_the_best_other_seat(
    scores: list[float],
) -> None:
    # The margin over the leader (-20 VP at scale 10), whatever the others hold.
    assert utility(scores, 0, 10.0) == pytest.approx(1 / (1 + math.exp(2.0)))


def test_search_bot_plays_a_listed_move_when_its_time_is_already_up() -> None:
    game = HighCard()
    state = _highcard(deck=[1, 2, 6, 7, 8, 10], hands=[[11, 12], [3, 4, 9]], table=[5, None],
                      to_act=1)  # fmt: skip
    ticks = itertools.count(0, 10.0)  # every look at the clock is 10 s later
    bot = SearchBot(game, LEVELS["hard"], clock=lambda: next(ticks))
    legal = game.legal_moves(state, 1)
    assert bot.choose(game.view(state, 1), legal, Random(3)) in legal


def test_a_seat_budget_replaces_the_levels() -> None:
    assert level_with("hard", 250).seconds == 0.25
    assert level_with("hard").seconds == LEVELS["hard"].seconds
    assert level_with("easy", None).iterations == LEVELS["easy"].iterations


def test_search_bot_takes_a_seat_and_plays_the_match_to_the_end(service: MatchService) -> None:
    match = service.create_match("highcard", 2, {"rounds": 3, "hand_size": 2}, seed="search")
    service.hand_to_bot(match.match_id, 0, "search", None, level="easy", think_ms=100)
    service.hand_to_bot(match.match_id, 1, "search", None)
    final = service.load(match.match_id)
    assert (final.seats[0].level, final.seats[0].think_ms) == ("easy", 100)
    assert (final.seats[1].level, final.seats[1].think_ms) == ("medium", None)
    result = service.result(final)
    assert result is not None and sum(result.scores) == 3


@pytest.mark.parametrize(
    ("bot", "level", "think_ms", "code"),
    [
        ("greedy", "hard", None, "bot_has_no_levels"),
        ("random", None, 500, "bot_has_no_levels"),
        ("search", "grandmaster", None, "unknown_level"),
        ("alphazero", None, None, "unknown_bot"),
    ],
)
def test_bot_levels_are_refused_where_they_do_not_apply(
    service: MatchService, bot: str, level: str | None, think_ms: int | None, code: str
) -> None:
    match = service.create_match("highcard", 2, {}, seed="levels")
    with pytest.raises(BadRequest) as refused:
        service.hand_to_bot(match.match_id, 0, bot, None, level=level, think_ms=think_ms)
    assert refused.value.code == code
    assert service.load(match.match_id).seats[0].bot is None


def test_tournament_entrants_parse_levels_and_budgets() -> None:
    entrants = parse_entrants("search:hard,greedy,search@300")
    assert [(e.kind, e.level, e.think_ms) for e in entrants] == [
        ("search", "hard", None), ("greedy", None, None), ("search", "medium", 300)]  # fmt: skip
    for bad in ("greedy:hard", "search:godlike", "minimax"):
        with pytest.raises(ValueError):
            parse_entrants(bad)


@pytest.mark.parametrize("bad", ["search@abc", "search@0", "search@-5", "search@", "random@0"])
def test_a_think_budget_is_a_whole_number_of_milliseconds_and_only_the_search_bots(
    bad: str,
) -> None:
    """``search@abc`` said "invalid literal for int() with base 10", ``search@-5`` was taken,
    and ``random@0`` had its budget dropped unread (0 counted as none)."""
    with pytest.raises(ValueError, match="think budget"):
        parse_entrants(bad)


def test_a_search_bot_thinks_in_another_process_from_the_view_alone(registry: Any) -> None:
    from worker.think import ThinkPool

    game = registry.get("brass-birmingham")
    state = _states(game, 2, seed=5, every=30)[1]
    seat = game.pending_tasks(state)[0].seat
    view, legal = game.view(state, seat), game.legal_moves(state, seat)
    level = msgspec.structs.replace(STEADY, iterations=8, horizon=4)
    pool = ThinkPool(processes=1)
    try:
        far = pool.bot(game, level).choose(view, legal, Random(4))
    finally:
        pool.close()
    assert far == SearchBot(game, level).choose(view, legal, Random(4))


def test_a_search_bot_whose_pool_is_gone_still_plays_the_greedy_move(registry: Any) -> None:
    from worker.bots import GreedyBot
    from worker.think import ThinkPool

    game = registry.get("brass-birmingham")
    state = _states(game, 2, seed=5, every=30)[1]
    seat = game.pending_tasks(state)[0].seat
    view, legal = game.view(state, seat), game.legal_moves(state, seat)
    pool = ThinkPool(processes=1)
    pool.close()
    rng = Random(9)
    expected = GreedyBot().for_game(game).choose(view, legal, Random(9))
    assert pool.bot(game, STEADY).choose(view, legal, rng) == expected


def _arm_with(values: list[float]) -> Any:
    from worker.search import _Arm

    arm = _Arm("move", 0.5)
    for v in values:
        arm.visits += 1
        arm.total += v
        arm.values.append(v)
    return arm


def test_search_leaves_the_heuristic_pick_only_for_a_lead_beyond_the_noise() -> None:
    bot = SearchBot(HighCard(), STEADY)
    anchor = _arm_with([0.5] * 12)
    steady_lead = _arm_with([0.56, 0.55, 0.57, 0.56] * 3)
    noisy_lead = _arm_with([0.98, 0.16, 0.99, 0.15] * 3)  # +0.07 on average, by luck
    small_lead = _arm_with([0.51] * 12)  # sure, but less than the anchor bonus
    assert bot._clearly_better(steady_lead, anchor)
    assert not bot._clearly_better(noisy_lead, anchor)
    assert not bot._clearly_better(small_lead, anchor)
