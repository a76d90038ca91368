"""The greedy bot's hook: it plays the sensible policy from the seat's view and legal moves
alone, exactly as it would from the true state."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from aos_helpers import GAME, Match

from plugins.age_of_steam import moves as mv
from plugins.age_of_steam import view as cv
from plugins.age_of_steam.bot import bot_policy, state_from_view
from plugins.age_of_steam.data import board
from plugins.age_of_steam.policy import sensible_move

ROOT = Path(__file__).resolve().parents[2]
moves_json = msgspec.json.Encoder()
moves_from_json = msgspec.json.Decoder(list[mv.Move])


def positions(map_id: str, players: int, seed: int) -> list[tuple[Any, dict[str, Any], list[Any]]]:
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
    return out


GAMES = [("rust_belt", 4, 1), ("rust_belt", 3, 2), ("st_lucia", 2, 3), ("barbados", 1, 4)]


@pytest.mark.parametrize(("map_id", "players", "seed"), GAMES)
def test_bot_policy_chooses_what_the_sensible_policy_chooses_on_the_true_state(
    map_id: str, players: int, seed: int
) -> None:
    for i, (state, view, legal) in enumerate(positions(map_id, players, seed)):
        chosen = bot_policy(view, legal, random.Random(i))
        assert chosen in legal
        assert chosen == sensible_move(state, view["seat"], legal, random.Random(i)), view["phase"]


def test_the_state_read_from_a_view_shows_the_same_players_track_links_and_cities() -> None:
    for state, view, _legal in positions("rust_belt", 4, 5)[::7]:
        b = board(state.map_id)
        again = cv.view(b, state_from_view(view), view["seat"], view["actions_open"], 0)
        for key in ("players", "track", "links", "cities", "land_goods", "tiles", "turn"):
            assert again[key] == view[key], key


def test_bot_policy_leaves_its_arguments_as_they_were() -> None:
    for _state, view, legal in positions("rust_belt", 4, 6)[::5]:
        view_before, legal_before = copy.deepcopy(view), copy.deepcopy(legal)
        bot_policy(view, legal, random.Random(0))
        assert (view, legal) == (view_before, legal_before)


def test_bot_policy_decides_from_its_arguments_alone_in_a_fresh_process() -> None:
    """A process that only ever sees the JSON a client receives (view and legal moves)
    picks the very moves this process picks: the hook has nothing else to read."""
    cases = positions("rust_belt", 4, 7)[::4]
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
    (_state, view, legal) = positions("rust_belt", 3, 8)[0]
    with pytest.raises(ValueError, match="spectator"):
        bot_policy({**view, "seat": None}, legal, random.Random(0))
