"""``ironworks play``: a bot playing a seat of a match on a real server through the REST API
alone — the seat's token, view and legal moves, never the match's state."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api.cli import main
from core.registry import GameRegistry
from tests.conftest import highcard_path_env
from tests.test_api_cli import serving
from worker.remote import Api, RemoteError, play_seat
from worker.tournament import Entrant

PATIENCE = 120.0
"""Seconds a test's bot waits for the server's bot before failing as ``stalled``: far above
what a move takes on a loaded machine, so a server that stops moving fails the test with
the version it stopped at instead of holding the run until CI gives up."""


@pytest.fixture
def server(tmp_path: Any) -> Iterator[str]:
    with serving(f"sqlite:///{tmp_path / 'matches.sqlite3'}") as (base, _):
        yield base


def match_against_a_server_bot(server: str, game: str, bot: str) -> tuple[str, str]:
    """A 2-seat match whose seat 1 the server's ``bot`` plays; the id and seat 0's token."""
    created = httpx.post(f"{server}/matches", json={"game": game, "players": 2}).json()
    token = httpx.post(f"{server}/matches/{created['id']}/seats/0/claim").json()["token"]
    owner = {"authorization": f"Bearer {created['owner_token']}"}
    handed = httpx.post(
        f"{server}/matches/{created['id']}/seats/1/bot", json={"bot": bot}, headers=owner
    )
    assert handed.status_code in (200, 201), handed.text
    return created["id"], token


def recorded_moves(server: str, match_id: str) -> list[dict[str, Any]]:
    record = httpx.get(f"{server}/matches/{match_id}/record")
    assert record.status_code == 200, record.text
    return record.json()["moves"]


def test_a_remote_bot_plays_its_seat_to_the_end_and_every_move_it_made_is_recorded_once(
    server: str, registry: GameRegistry
) -> None:
    match_id, token = match_against_a_server_bot(server, "highcard", "random")
    played = play_seat(Api(server, match_id, token), registry, Entrant("greedy"), patience=PATIENCE)
    assert played.finished and played.seat == 0
    assert played.result is not None and len(played.result["scores"]) == 2
    mine = [m for m in recorded_moves(server, match_id) if m["actor"] == 0]
    assert played.decisions == len(mine) > 0


def test_the_search_bot_decides_remotely_from_the_seats_view_of_a_game_with_hidden_cards(
    server: str, registry: GameRegistry
) -> None:
    match_id, token = match_against_a_server_bot(server, "brass-birmingham", "greedy")
    before = httpx.get(f"{server}/matches/{match_id}", headers={"authorization": f"Bearer {token}"})
    played = play_seat(
        Api(server, match_id, token), registry, Entrant("search", "easy", 50), max_decisions=3,
        patience=PATIENCE,
    )  # fmt: skip
    assert played.decisions == 3 and not played.finished
    assert played.version > before.json()["version"]
    events = httpx.get(
        f"{server}/matches/{match_id}/events", params={"limit": 500},
        headers={"authorization": f"Bearer {token}"},
    ).json()["events"]  # fmt: skip
    assert sum(1 for e in events if e["actor"] == 0) >= 3


def test_a_move_sent_again_with_its_key_is_answered_as_before_and_made_once(
    server: str, registry: GameRegistry
) -> None:
    match_id, token = match_against_a_server_bot(server, "highcard", "random")
    api = Api(server, match_id, token)
    seen = api.seat_view()
    for _ in range(int(PATIENCE / 5)):
        if 0 in seen.to_act:
            break
        api.wait_after(seen.version, 5)
        seen = api.seat_view()
    assert 0 in seen.to_act, f"seat 0 never got the turn: {seen.to_act} at {seen.version}"
    move = httpx.get(
        f"{server}/matches/{match_id}/moves", headers={"authorization": f"Bearer {token}"}
    ).json()["moves"][0]
    first = api.submit(move, seen.version, "key-of-one-move")
    again = api.submit(move, seen.version, "key-of-one-move")
    assert (first.replayed, again.replayed) == (False, True)
    assert again.version == first.version
    after = httpx.get(
        f"{server}/matches/{match_id}/events", params={"after": seen.version, "limit": 500},
        headers={"authorization": f"Bearer {token}"},
    ).json()["events"]  # fmt: skip
    mine = [e["version"] for e in after if e["actor"] == 0]
    assert mine and max(mine) <= first.version  # nothing of seat 0's after the one move


def test_a_bot_whose_opponents_never_move_gives_up_as_stalled_once_out_of_patience(
    server: str, registry: GameRegistry
) -> None:
    created = httpx.post(f"{server}/matches", json={"game": "highcard", "players": 2}).json()
    token = httpx.post(f"{server}/matches/{created['id']}/seats/0/claim").json()["token"]
    with pytest.raises(RemoteError) as stalled:  # seat 1 is nobody's: nobody plays it
        play_seat(
            Api(server, created["id"], token), registry, Entrant("greedy"),
            wait_seconds=1, patience=2,
        )  # fmt: skip
    assert stalled.value.status is None and stalled.value.code == "stalled"
    assert "waited for [1]" in str(stalled.value)


def test_play_patience_gives_up_as_stalled_on_time_with_exit_status_2(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ironworks play --patience 2``: the long poll lasts at most the patience left, so it
    gives up after about 2 s, not after the 30 s a long poll lasts by default."""
    created = httpx.post(f"{server}/matches", json={"game": "highcard", "players": 2}).json()
    token = httpx.post(f"{server}/matches/{created['id']}/seats/0/claim").json()["token"]
    started = time.monotonic()
    argv = ["play", server, created["id"], "--token", token, "--bot", "greedy", "--patience", "2"]
    assert main(argv) == 2  # seat 1 is nobody's: nobody plays it
    took = time.monotonic() - started
    err = capsys.readouterr().err
    assert err.startswith("ironworks play: stalled: the match stayed at version"), err
    assert "waited for [1]" in err
    assert 2 <= took < 25


def test_a_token_of_no_seat_is_refused_with_the_servers_code(
    server: str, registry: GameRegistry
) -> None:
    match_id, _ = match_against_a_server_bot(server, "highcard", "random")
    with pytest.raises(RemoteError) as refused:
        play_seat(Api(server, match_id, "not-a-token"), registry, Entrant("greedy"))
    assert (refused.value.status, refused.value.code) == (403, "bad_token")


def test_play_without_a_token_says_where_to_give_it(tmp_path: Any) -> None:
    env = highcard_path_env()
    env.pop("IRONWORKS_SEAT_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "play", "http://127.0.0.1:9", "m1"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "IRONWORKS_SEAT_TOKEN" in done.stderr


def test_a_server_that_cannot_be_reached_is_retried_with_growing_waits_then_reported() -> None:
    waits: list[float] = []
    api = Api("http://127.0.0.1:9", "m1", "t", timeout=2, sleep=waits.append)
    with pytest.raises(RemoteError) as failed:
        api.seat_view()
    assert failed.value.status is None and failed.value.code == "unreachable"
    assert waits == [1.0, 2.0, 4.0, 8.0]
