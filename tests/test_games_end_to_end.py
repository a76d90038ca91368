"""Every installed game, played to the end the way a deployment plays it.

The REST app runs in this process on an RQ runner (it executes no job itself); bots'
turns and system work (era-end scoring, dealing, income) run in real ``python -m worker``
processes on Redis; app and workers share one SQLite file. Each finished match is then
checked from the outside: the paged log, the live and the replayed SSE stream, secrecy of
hands, the result, and a fold of the stored events from nothing.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.game import SYSTEM
from core.match import fold
from core.registry import GameRegistry, default_registry
from core.rng import decision_rng
from core.service import MatchService
from core.store.memory import MemoryStore
from core.tasks import NullRunner
from tests.test_api import bearer, sse_messages
from tests.test_worker_rq import StartWorker, start_worker  # noqa: F401 - a fixture
from worker.bootstrap import build_service
from worker.inprocess import InlineRunner
from worker.rq_runner import RQRunner

pytestmark = [pytest.mark.redis, pytest.mark.slow]

GAMES = default_registry().games()
OPTIONS: dict[str, dict[str, Any]] = {"age-of-steam": {"map": "rust_belt"}}
"""Options of each game's end-to-end matches (Age of Steam on Rust Belt, its base map)."""
WORKERS = 2
"""Worker processes serving each all-bot match: two race for every job of one stream."""
BUDGET = 45.0
"""Seconds a case may wait for its match (on the workers, and for the live stream's end),
leaving room under a minute for the checks that follow."""
PAGE = 100
SEED = "e2e-1"

Client = TestClient[Any]


def smallest_count(game: Any) -> int:
    """The fewest players the game sets up with ``OPTIONS`` (Rust Belt needs 3, although
    Age of Steam itself starts at 1)."""
    options = msgspec.convert(OPTIONS.get(game.id, {}), game.Options)
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.setup(options, players, decision_rng(SEED, 0, "setup"))
        except Exception:  # the game refuses this count with these options
            continue
        return players
    raise AssertionError(f"{game.id} sets up with no player count")


CASES = sorted({(game.id, n) for game in GAMES for n in (4, smallest_count(game))})


# --- fixtures --------------------------------------------------------------------------------


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'matches.sqlite3'}"


@pytest.fixture
def app_service(store_url: str, redis_url: str, registry: GameRegistry) -> Iterator[MatchService]:
    """The API's service: every job it makes goes to RQ, none runs in this process."""
    service = build_service(store_url, redis_url=redis_url, registry=registry)
    assert isinstance(service.runner, RQRunner)
    yield service
    service.runner.close()
    service.store.close()


@pytest.fixture
def deadline() -> float:
    """When the case stops waiting for its match (see BUDGET)."""
    return time.monotonic() + BUDGET


@pytest.fixture
def client(app_service: MatchService) -> Iterator[Client]:
    with TestClient(create_app(app_service)) as test_client:
        yield test_client


# --- helpers ---------------------------------------------------------------------------------


def create_match(client: Client, game_id: str, players: int) -> str:
    body = {"game": game_id, "players": players, "seed": SEED, "options": OPTIONS.get(game_id)}
    response = client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def hand_to_bot(client: Client, match_id: str, seat: int) -> None:
    response = client.post(f"/matches/{match_id}/seats/{seat}/bot", json={"bot": "random"})
    assert response.status_code == 200, response.text


def wait_for_result(client: Client, match_id: str, deadline: float) -> dict[str, Any]:
    while not (body := client.get(f"/matches/{match_id}").json())["finished"]:
        assert time.monotonic() < deadline, f"match stuck at version {body['version']}"
        time.sleep(0.05)
    return body


def paged_log(client: Client, match_id: str, token: str | None = None) -> list[dict[str, Any]]:
    """The log as the token's seat (or a spectator) sees it, read page by page."""
    headers = {} if token is None else bearer(token)
    events: list[dict[str, Any]] = []
    while True:
        after = events[-1]["version"] if events else 0
        response = client.get(
            f"/matches/{match_id}/events", params={"after": after, "limit": PAGE}, headers=headers
        )
        assert response.status_code == 200, response.text
        page = response.json()["events"]
        assert all(e["version"] > after for e in page)
        events += page
        if len(page) < PAGE:
            return events


class LiveStream(threading.Thread):
    """A client following the match's SSE stream from before the first bot move until the
    stream ends by itself (the match is over and fully sent).

    It has a TestClient of its own, outside any ``with``: a stream that never ends must not
    hold up the shutdown of the test's client. Its request ends, at the latest, one
    keep-alive after the store is closed in teardown."""

    def __init__(self, service: MatchService, match_id: str, token: str | None = None) -> None:
        super().__init__(daemon=True, name=f"sse-{match_id}")
        self.client: Client = TestClient(create_app(service))
        self.url = f"/matches/{match_id}/stream"
        self.token = token
        self.text: str | None = None

    def run(self) -> None:
        headers = {} if self.token is None else bearer(self.token)
        self.text = self.client.get(self.url, headers=headers).text

    def messages(self, deadline: float) -> list[dict[str, str]]:
        self.join(max(0.0, deadline - time.monotonic()))
        assert self.text is not None, "the live stream did not end with the match"
        return sse_messages(self.text)


def assert_stream_is_the_log(messages: list[dict[str, str]], log: list[dict[str, Any]]) -> None:
    assert [int(m["id"]) for m in messages] == [e["version"] for e in log]
    assert [json.loads(m["data"]) for m in messages] == log


def assert_competition_ranking(result: dict[str, Any], players: int) -> None:
    """One place per seat, 1 = best; a place is one more than the seats strictly ahead, so
    tied seats share it and the next place skips (1, 1, 3)."""
    ranking, scores = result["ranking"], result["scores"]
    assert len(ranking) == len(scores) == players
    assert all(isinstance(s, int) for s in scores)
    for place in ranking:
        assert place == 1 + sum(other < place for other in ranking), ranking


def true_hands(service: MatchService, match_id: str) -> set[tuple[str, ...]]:
    """Every hand of two or more cards any seat held at any version, as the server's own
    state shows it to that seat (``view(state, seat)["hand"]``); empty for a game without
    hands. A single card is left out: a discarded card is public and looks the same."""
    match = None
    hands: set[tuple[str, ...]] = set()
    for stored in service.store.read(match_id):
        match = fold(service.games, [stored], match)
        if match.game_state is None:
            continue
        game = service.game_of(match)
        for seat in range(match.players):
            hand = game.view(match.game_state, seat).get("hand")
            if hand and len(hand) > 1:
                hands.add(tuple(sorted(map(str, hand))))
    return hands


def hands_in(document: Any, hands: set[tuple[str, ...]]) -> list[Any]:
    """Lists anywhere in ``document`` that are one of ``hands`` (in any order), and any
    ``hand``/``hands`` field that holds more than a count."""
    found: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("hand", "hands") and not _blank(value):
                    found.append({key: value})
                walk(value)
        elif isinstance(node, list):
            if node and all(isinstance(x, str) for x in node) and tuple(sorted(node)) in hands:
                found.append(node)
            for value in node:
                walk(value)

    walk(document)
    return found


def _blank(value: Any) -> bool:
    """Nothing, or only a count."""
    return value is None or value == [] or isinstance(value, int)


def assert_no_hand_reaches_a_spectator(
    service: MatchService, match_id: str, spectator_log: list[dict[str, Any]], view: Any
) -> None:
    hands = true_hands(service, match_id)
    players = service.load(match_id).players
    # Through JSON, as the spectator's log came: tuples become lists.
    seat_logs = [
        msgspec.json.decode(msgspec.json.encode(service.redacted_events(match_id, seat)))
        for seat in range(players)
    ]
    if hands:
        # The same search finds each seat's own hand in its own log: it would see a leak.
        for seat, own in enumerate(seat_logs):
            assert hands_in([e["payload"] for e in own], hands), f"seat {seat} sees no hand"
    leaks = [
        (e["version"], e["type"], found)
        for e in spectator_log
        if (found := hands_in(e["payload"], hands))
    ]
    # A field some seat sees differently is that seat's secret (a drawn card, a deal):
    # the spectator's copy of it must be empty or a count.
    for own in seat_logs:
        assert len(own) == len(spectator_log)
        for mine, theirs in zip(own, spectator_log, strict=True):
            secret = {k for k in mine["payload"] if mine["payload"][k] != theirs["payload"].get(k)}
            leaks += [
                (theirs["version"], theirs["type"], {k: theirs["payload"].get(k)})
                for k in sorted(secret)
                if not _blank(theirs["payload"].get(k))
            ]
    assert not leaks, f"a spectator sees hands: {leaks[:3]}"
    assert not hands_in(view, hands)


def assert_replay_gives_the_served_position(service: MatchService, match_id: str) -> None:
    """Folding the stored events from scratch ends where the service's cached load does."""
    served = service.load(match_id)
    game = service.game_of(served)
    replayed = fold(service.games, service.store.read(match_id))
    assert replayed.version == served.version
    assert game.export_position(replayed.game_state) == game.export_position(served.game_state)


def assert_finished_match_reads_the_same_everywhere(
    client: Client,
    service: MatchService,
    match_id: str,
    players: int,
    live: LiveStream,
    deadline: float,
) -> None:
    """The result is there and valid; the paged log is gapless; the live stream and a
    replay of the stream after the end both carry that log; no hand reaches a spectator;
    a fold from scratch ends in the position the service serves."""
    body = wait_for_result(client, match_id, deadline)
    assert body["to_act"] == []
    assert_competition_ranking(body["result"], players)
    log = paged_log(client, match_id)
    assert [e["version"] for e in log] == list(range(1, body["version"] + 1))
    assert_stream_is_the_log(live.messages(deadline), paged_log(client, match_id, live.token))
    assert_stream_is_the_log(sse_messages(client.get(f"/matches/{match_id}/stream").text), log)
    assert_no_hand_reaches_a_spectator(service, match_id, log, body["view"])
    assert_replay_gives_the_served_position(service, match_id)


def worker_log(tmp_path: Path) -> str:
    return "\n".join(log.read_text() for log in sorted(tmp_path.glob("worker*.log")))


def jobs_completed_by_workers(tmp_path: Path) -> set[str]:
    """Ids of the jobs RQ says its workers completed (RQ logs a job by its description,
    which is our :attr:`core.tasks.Job.id`)."""
    return set(re.findall(r"Successfully completed (\S+) job", worker_log(tmp_path)))


def played_in_process(registry: GameRegistry, game_id: str, players: int) -> list[Any]:
    """The all-bot match of the RQ test played by the inline runner: same seed, every seat
    handed over before the first bot move, as the worker found it."""
    service = MatchService(MemoryStore(), registry, NullRunner())
    match_id = service.create_match(game_id, players, OPTIONS.get(game_id), seed=SEED).match_id
    for seat in range(players):
        service.hand_to_bot(match_id, seat, "random", None)
    inline = InlineRunner()
    inline.bind(service)
    service.runner = inline
    service.resume(match_id)
    return [(e.type, e.actor, e.data) for e in service.store.read(match_id)]


def ownerless(events: list[Any]) -> list[Any]:
    """``events`` without the owner token's hash, which differs from match to match."""
    kind, actor, data = events[0]
    created = msgspec.json.decode(data)
    created.pop("owner_hash", None)
    return [(kind, actor, created), *events[1:]]


def play_our_turns(
    client: Client, match_id: str, tokens: dict[int, str], rng: Random, deadline: float
) -> list[tuple[int, str, dict[str, Any]]]:
    """Play the claimed seats until the match is over: each turn a uniform pick from the
    seat's legal moves, sent with expected_version and an Idempotency-Key, then sent again.
    Returns (seat, key, first answer) per move."""
    played: list[tuple[int, str, dict[str, Any]]] = []
    while not (state := client.get(f"/matches/{match_id}").json())["finished"]:
        assert time.monotonic() < deadline, f"match stuck at version {state['version']}"
        ours = [seat for seat in state["to_act"] if seat in tokens]
        if not ours:
            time.sleep(0.01)  # a bot or a system task on the worker is next
            continue
        seat = ours[0]
        headers = bearer(tokens[seat])
        response = client.get(f"/matches/{match_id}/moves", headers=headers)
        assert response.status_code == 200, response.text
        moves = response.json()
        assert moves["moves"], f"seat {seat} is to act at {moves['version']} with no move"
        key = f"e2e-{seat}-{moves['version']}"
        body = {"move": rng.choice(moves["moves"]), "expected_version": moves["version"]}
        url = f"/matches/{match_id}/moves"
        first = client.post(url, json=body, headers={**headers, "Idempotency-Key": key})
        assert first.status_code == 200, (body, first.text)
        again = client.post(url, json=body, headers={**headers, "Idempotency-Key": key})
        assert again.status_code == 200, again.text
        assert again.json() == {**first.json(), "replayed": True}
        played.append((seat, key, first.json()))
    return played


# --- tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_bots_play_a_whole_match_through_http_and_an_rq_worker(
    client: Client,
    app_service: MatchService,
    registry: GameRegistry,
    store_url: str,
    start_worker: StartWorker,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
    deadline: float,
    game_id: str,
    players: int,
) -> None:
    match_id = create_match(client, game_id, players)
    for seat in range(players):
        hand_to_bot(client, match_id, seat)
    live = LiveStream(app_service, match_id)
    live.start()
    for _ in range(WORKERS):
        start_worker(store_url)
    assert_finished_match_reads_the_same_everywhere(
        client, app_service, match_id, players, live, deadline
    )
    # Bots and system work draw from the match seed and the version: the workers, racing
    # each other on one stream, played exactly the match the inline runner plays.
    stored = [(e.type, e.actor, e.data) for e in app_service.store.read(match_id)]
    assert ownerless(stored) == ownerless(played_in_process(registry, game_id, players))
    assert not re.search(r"job \S+ failed", worker_log(tmp_path))


@pytest.mark.parametrize("game_id", [game.id for game in GAMES])
def test_two_people_and_bots_finish_a_match_with_system_work_on_the_worker(
    client: Client,
    app_service: MatchService,
    store_url: str,
    start_worker: StartWorker,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
    deadline: float,
    game_id: str,
) -> None:
    players = 4
    match_id = create_match(client, game_id, players)
    tokens = {}
    for seat in (0, 1):
        response = client.post(f"/matches/{match_id}/seats/{seat}/claim")
        assert response.status_code == 201, response.text
        tokens[seat] = response.json()["token"]
    for seat in range(2, players):
        hand_to_bot(client, match_id, seat)
    live = LiveStream(app_service, match_id, tokens[0])
    live.start()
    start_worker(store_url)
    played = play_our_turns(client, match_id, tokens, Random(game_id), deadline)
    assert_finished_match_reads_the_same_everywhere(
        client, app_service, match_id, players, live, deadline
    )

    stored = app_service.store.read(match_id)
    by_key: dict[str | None, list[int]] = {}
    for event in stored:
        by_key.setdefault(event.idempotency_key, []).append(event.version)
    assert played, "the people never got a turn"
    for seat, key, answer in played:
        # The retry appended nothing: the key's events are exactly the first answer's
        assert by_key[key] == list(range(answer["first_version"], answer["version"] + 1))
        assert {stored[v - 1].actor for v in by_key[key]} == {seat}
    by_system = {e.idempotency_key for e in stored if e.actor == SYSTEM}
    assert by_system, "no system work (era-end scoring, income, dealing) was done"
    # A bot's whole turn is one job: its first decision carries the job's id, each later
    # one the id its version's job would have had.
    turns = set()
    before = None
    for event in stored:
        if event.actor in range(2, players):
            assert event.idempotency_key is not None
            match, _, kind, who = event.idempotency_key.split(".")
            assert (match, kind, who) == (match_id, "bot", f"seat{event.actor}")
            if before != event.actor:
                turns.add(event.idempotency_key)
        before = event.actor
    # RQ logs a job as completed only after the job has returned, so the job that ended
    # the match may not be in the log yet when the match reads as finished.
    worked = jobs_completed_by_workers(tmp_path)
    while not (by_system | turns) <= worked and time.monotonic() < deadline:
        time.sleep(0.05)
        worked = jobs_completed_by_workers(tmp_path)
    assert by_system <= worked
    assert turns <= worked
    assert not re.search(r"job \S+ failed", worker_log(tmp_path))
