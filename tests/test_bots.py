"""Bots: uniform over the legal moves, reproducible, and blind to what a player cannot see."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from tests.test_worker_inprocess import assert_played_by_the_rules, bot_match
from worker import bots
from worker.bots import RandomBot
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
