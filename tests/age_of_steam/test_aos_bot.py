"""The greedy bot: it plays the sensible policy from the seat's view and legal moves alone,
exactly as it would from the true state, and it plays the game: it builds track, delivers
goods and ends with a positive score on every map."""

from __future__ import annotations

import copy
import functools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from aos_helpers import GAME, Match

from core.game import SYSTEM
from plugins.age_of_steam import events as ev
from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.bot import bot_policy
from plugins.age_of_steam.game import Options
from plugins.age_of_steam.policy import sensible_move

ROOT = Path(__file__).resolve().parents[2]
moves_json = msgspec.json.Encoder()
moves_from_json = msgspec.json.Decoder(list[mv.Move])


Position = tuple[Any, dict[str, Any], list[Any]]


@functools.cache
def positions(map_id: str, players: int, seed: int) -> tuple[Position, ...]:
    """(true state copy, view, legal moves) at every decision of a greedy game."""
    m = Match(map_id, players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    while m.state.phase != "over":
        (task,) = GAME.pending_tasks(m.state)
        if task.kind == "system":
            m.system()
            continue
        legal = m.legal(task.seat)
        view = GAME.view(m.state, task.seat)
        out.append((copy.deepcopy(m.state), view, legal))
        m.do(task.seat, GAME.bot_policy(view, legal, rng))
    return tuple(out)


GAMES = [("rust_belt", 4, 1), ("st_lucia", 2, 3), ("barbados", 1, 4)]


@pytest.mark.parametrize(("map_id", "players", "seed"), GAMES)
def test_bot_policy_chooses_what_the_sensible_policy_chooses_on_the_true_state(
    map_id: str, players: int, seed: int
) -> None:
    for i, (state, view, legal) in enumerate(positions(map_id, players, seed)[::2]):
        chosen = bot_policy(view, legal, random.Random(i))
        assert chosen in legal
        assert chosen == sensible_move(state, view["seat"], legal, random.Random(i)), view["phase"]


def test_bot_policy_leaves_its_arguments_as_they_were() -> None:
    for _state, view, legal in positions(*GAMES[0])[::5]:
        view_before, legal_before = copy.deepcopy(view), copy.deepcopy(legal)
        bot_policy(view, legal, random.Random(0))
        assert (view, legal) == (view_before, legal_before)


def test_bot_policy_decides_from_its_arguments_alone_in_a_fresh_process() -> None:
    """A process that only ever sees the JSON a client receives (view and legal moves)
    picks the very moves this process picks: the hook has nothing else to read."""
    cases = positions(*GAMES[0])[::6]
    sent = [{"view": view, "legal": json.loads(moves_json.encode(legal))}
            for _state, view, legal in cases]  # fmt: skip
    script = (
        "import json, random, sys\n"
        "import msgspec\n"
        "from plugins.age_of_steam import moves as mv\n"
        "from plugins.age_of_steam.bot import bot_policy\n"
        "out = []\n"
        "for i, case in enumerate(json.load(sys.stdin)):\n"
        "    legal = msgspec.convert(case['legal'], list[mv.Move])\n"
        "    out.append(msgspec.to_builtins(bot_policy(case['view'], legal, random.Random(i))))\n"
        "print(json.dumps(out))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(sent), capture_output=True, text=True,
        cwd=ROOT, check=True, timeout=120,
    )  # fmt: skip
    there = moves_from_json.decode(run.stdout)
    here = [bot_policy(view, legal, random.Random(i)) for i, (_s, view, legal) in enumerate(cases)]
    assert there == here
    assert len({type(m) for m in here}) >= 5  # shares, bids, actions, builds, moves ...


def test_bot_policy_refuses_a_spectators_view() -> None:
    m = Match(players=3)
    (task,) = GAME.pending_tasks(m.state)
    with pytest.raises(ValueError, match="spectator"):
        bot_policy(GAME.view(m.state, None), m.legal(task.seat), random.Random(0))


# --- how well it plays -------------------------------------------------------------------------


class Tally(msgspec.Struct):
    scores: list[int]
    ranking: list[int]
    tiles: list[int]
    deliveries: list[int]
    full_length: bool


def greedy_game(map_id: str, players: int, seed: int) -> Tally:
    """A whole game of greedy players (the policy on the true state, which
    :func:`test_bot_policy_chooses_what_the_sensible_policy_chooses_on_the_true_state`
    shows is the bot's choice)."""
    rng = random.Random(seed)
    state = None
    for e in GAME.setup(Options(map=map_id), players, rng):
        state = GAME.evolve(state, e)
    tiles, deliveries = [0] * players, [0] * players
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            legal = GAME.legal_moves(state, task.seat)
            move = sensible_move(state, task.seat, legal, rng)
            assert move in legal
            events = GAME.decide(state, task.seat, move, rng)
        for e in events:
            if isinstance(e, ev.TrackBuilt):
                tiles[e.seat] += 1
            elif isinstance(e, ev.GoodMoved):
                deliveries[e.seat] += 1
            state = GAME.evolve(state, e)
    result = GAME.result(state)
    assert result is not None
    full = state.turn == state.last_turn and not any(p.eliminated for p in state.pl)
    return Tally(result.scores, result.ranking, tiles, deliveries, full)


# map, players, seeds, share of seats above 0, tiles and deliveries per seat and game
STRENGTH = [
    ("rust_belt", 3, (0,), 1.0, 15, 12),
    ("rust_belt", 4, (1,), 1.0, 12, 8),
    ("rust_belt", 6, (2,), 1.0, 8, 6),
    ("barbados", 1, (0, 1, 2, 3), 0.75, 6, 10),
    ("st_lucia", 2, (0, 1, 2), 0.8, 10, 6),
]


@pytest.mark.parametrize(("map_id", "players", "seeds", "positive", "tiles", "deliveries"),
                         STRENGTH)  # fmt: skip
def test_greedy_players_build_deliver_and_end_above_zero_with_one_winner(
    map_id: str, players: int, seeds: tuple[int, ...], positive: float, tiles: int,
    deliveries: int,
) -> None:  # fmt: skip
    games = [greedy_game(map_id, players, seed) for seed in seeds]
    seats = len(seeds) * players
    assert all(g.full_length for g in games)
    assert sum(s > 0 for g in games for s in g.scores) >= positive * seats
    assert sum(sum(g.tiles) for g in games) >= tiles * seats
    assert sum(sum(g.deliveries) for g in games) >= deliveries * seats
    if players > 1:
        assert all(g.ranking.count(1) == 1 for g in games)
