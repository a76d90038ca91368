"""Bots: uniform over the legal moves, reproducible, and blind to what a player cannot see;
the greedy bot plays a game's own heuristic where it has one."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from core.bots import BOT_KINDS
from core.match import CORE_PREFIX
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from tests.test_worker_inprocess import assert_played_by_the_rules, bot_match
from worker import bots
from worker.bots import GreedyBot, RandomBot, get_bot
from worker.inprocess import InlineRunner


def test_the_random_bot_picks_every_legal_move_about_equally_often() -> None:
    legal = ["a", "b", "c", "d"]
    rng = Random(7)
    counts = Counter(RandomBot().choose({}, legal, rng) for _ in range(8000))
    assert set(counts) == set(legal)
    assert all(1800 <= n <= 2200 for n in counts.values()), counts


def test_the_random_bot_repeats_itself_given_the_same_rng() -> None:
    legal = list(range(50))
    first = [RandomBot().choose({}, legal, Random(3)) for _ in range(5)]
    again = [RandomBot().choose({}, legal, Random(3)) for _ in range(5)]
    assert first == again


def test_the_same_seed_makes_bots_play_the_same_match(registry: GameRegistry) -> None:
    logs = []
    for _ in range(2):
        runner = InlineRunner()
        service = MatchService(MemoryStore(), registry, runner)
        runner.bind(service)
        match_id = bot_match(service, players=3, rounds=4)
        logs.append([(e.type, e.data) for e in service.store.read(match_id)])
    assert logs[0] == logs[1]


class SpyBot:
    """Plays like the random bot and checks, at each turn, what it was shown."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.match_id = ""
        self.turns = 0

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        match = self.service.load(self.match_id)  # jobs run inline: this is the job's version
        seat = view["to_act"]
        assert view == self.service.view(match, seat)
        assert legal == self.service.legal_moves(match, seat)
        for other in range(match.players):
            if other != seat:
                assert view != self.service.view(match, other)
        self.turns += 1
        return RandomBot().choose(view, legal, rng)


def test_a_bot_is_shown_its_own_seats_view_and_legal_moves_only(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = SpyBot(service)
    monkeypatch.setitem(bots.BOTS, "random", spy)
    match = service.create_match("highcard", 3, {"rounds": 3, "hand_size": 2}, seed="spy")
    spy.match_id = match.match_id
    for seat in range(3):
        service.hand_to_bot(match.match_id, seat, "random", None)
    assert spy.turns == 3 * 3
    assert_played_by_the_rules(service, match.match_id)


# --- the greedy bot ----------------------------------------------------------------------------


def bot_only_match(service: MatchService, game: str, players: int, bot: str, seed: str,
                   options: dict[str, Any] | None = None) -> str:  # fmt: skip
    match = service.create_match(game, players, options or {}, seed=seed)
    for seat in range(players):
        service.hand_to_bot(match.match_id, seat, bot, None)
    return match.match_id


def survivors_of_rust_belt_games(service: MatchService, bot: str) -> list[int]:
    """Players still in at the end of bot-only 4-player Rust Belt matches, one per seed."""
    out = []
    for seed in ("greedy-1", "greedy-2", "greedy-3"):
        match_id = bot_only_match(service, "age-of-steam", 4, bot, seed)
        result = service.result(service.load(match_id))
        assert result is not None, "a bot-only match must run to its end"
        out.append(4 - len(result.details["eliminated"]))
    return out


def test_greedy_bots_keep_most_age_of_steam_players_alive_where_random_bots_go_bankrupt(
    service: MatchService,
) -> None:
    # Most players means at least 3 of 4 in every game: random bots never get there.
    assert all(n < 3 for n in survivors_of_rust_belt_games(service, "random"))
    assert all(n >= 3 for n in survivors_of_rust_belt_games(service, "greedy"))


def test_greedy_bot_on_a_game_without_a_bot_policy_plays_exactly_like_the_random_bot(
    registry: GameRegistry,
) -> None:
    assert not hasattr(registry.get("highcard"), "bot_policy")
    logs = []
    for bot in ("random", "greedy"):
        runner = InlineRunner()
        service = MatchService(MemoryStore(), registry, runner)
        runner.bind(service)
        match_id = bot_only_match(
            service, "highcard", 3, bot, "uniform", {"rounds": 4, "hand_size": 3}
        )
        assert service.result(service.load(match_id)) is not None
        logs.append([(e.type, e.data) for e in service.store.read(match_id)
                     if not e.type.startswith(CORE_PREFIX)])  # fmt: skip
    assert logs[0] == logs[1]


def test_greedy_bot_without_a_policy_picks_every_legal_move_about_equally_often() -> None:
    greedy = GreedyBot().for_game(object())
    rng = Random(11)
    counts = Counter(greedy.choose({}, ["a", "b", "c", "d"], rng) for _ in range(8000))
    assert all(1800 <= n <= 2200 for n in counts.values()), counts


class _Hooked:
    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.calls: list[tuple[dict[str, Any], list[Any]]] = []

    def bot_policy(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        self.calls.append((view, legal))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_greedy_bot_plays_the_games_bot_policy_with_the_view_and_legal_moves() -> None:
    game = _Hooked("c")
    assert get_bot("greedy", game).choose({"seat": 1}, ["a", "b", "c"], Random(1)) == "c"
    assert game.calls == [({"seat": 1}, ["a", "b", "c"])]


@pytest.mark.parametrize("answer", ["not listed", RuntimeError("plugin bug")])
def test_greedy_bot_plays_a_legal_move_when_the_policy_fails(answer: Any) -> None:
    assert get_bot("greedy", _Hooked(answer)).choose({}, ["a", "b"], Random(1)) in ("a", "b")


def test_every_service_bot_kind_exists_in_the_worker(service: MatchService) -> None:
    assert set(BOT_KINDS) == set(bots.BOTS) >= {"random", "greedy", "search"}
    match = service.create_match("highcard", 2, {"rounds": 1, "hand_size": 1}, seed="kinds")
    service.hand_to_bot(match.match_id, 0, "greedy", None)
    assert service.load(match.match_id).seats[0].bot == "greedy"
