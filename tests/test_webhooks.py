"""Webhooks end to end: registered through the API, delivered by the in-process workers to
a real HTTP receiver on 127.0.0.1, signed, retried, logged; and the RQ workers deliver too."""

from __future__ import annotations

import hashlib
import hmac
import random
import socket
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
import store_backends
from litestar.testing import TestClient

from api.app import create_app
from core.errors import BadRequest, Conflict, IdempotencyMismatch, ServiceUnavailable
from core.events import NewEvent
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from core.webhooks import RetryPolicy, Webhooks, check_url, registration_digest, sibling_url
from tests.webhook_receiver import HANG_GUARD, Receiver, receiver
from worker.deliveries import deliver_due, schedule
from worker.inprocess import InProcessRunner

FAST = RetryPolicy(max_attempts=3, base=0.05, cap=0.2, timeout=5.0)
"""Retries within a fraction of a second, so a test of three attempts stays short."""


@pytest.fixture
def hook_target() -> Iterator[Receiver]:
    with receiver() as target:
        yield target


@pytest.fixture
def app(registry: GameRegistry) -> Iterator[tuple[TestClient, MatchService]]:
    """The API on a memory store, jobs and deliveries on the in-process runner's threads,
    loopback hooks allowed (the receiver is on 127.0.0.1)."""
    runner = InProcessRunner(sweep_every=0.05)
    service = MatchService(MemoryStore(), registry, runner)
    service.webhooks = Webhooks(MemoryStore(), allow_private=True, policy=FAST)
    runner.bind(service)
    with TestClient(create_app(service)) as client:
        yield client, service
    runner.close()


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def highcard(client: TestClient) -> tuple[str, list[str]]:
    """A one-card, one-round High Card match with both seats claimed: (id, tokens)."""
    match = client.post(
        "/matches", json={"game": "highcard", "players": 2, "options": {"rounds": 1,
                                                                        "hand_size": 1}}
    ).json()  # fmt: skip
    tokens = [client.post(f"/matches/{match['id']}/seats/{s}/claim").json()["token"]
              for s in (0, 1)]  # fmt: skip
    return match["id"], tokens


def wait_to_act(client: TestClient, match_id: str) -> dict[str, Any]:
    """The match once the dealer has dealt (a system job on a worker thread)."""
    page = client.get(f"/matches/{match_id}/events?after=0&wait=0").json()
    version = page["version"]
    while True:
        view = client.get(f"/matches/{match_id}").json()
        if view["to_act"]:
            return view
        page = client.get(f"/matches/{match_id}/events?after={version}&wait=30").json()
        assert page["events"], "the dealer never dealt"
        version = page["version"]


def play_card(client: TestClient, match_id: str, token: str) -> None:
    legal = client.get(f"/matches/{match_id}/moves", headers=auth(token)).json()
    body = {"move": legal["moves"][0], "expected_version": legal["version"]}
    assert client.post(f"/matches/{match_id}/moves", json=body, headers=auth(token)).is_success


def register(
    client: TestClient, match_id: str, token: str, url: str, **body: Any
) -> dict[str, Any]:
    answer = client.post(f"/matches/{match_id}/hooks", json={"url": url, **body},
                         headers=auth(token))  # fmt: skip
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_your_turn_reaches_the_seat_whose_turn_it_is_signed_with_its_secret(
    app: tuple[TestClient, MatchService], hook_target: Receiver
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    first = wait_to_act(client, match_id)["to_act"][0]
    second = 1 - first
    hooks = [register(client, match_id, tokens[s], f"{hook_target.url}/{s}") for s in (0, 1)]
    play_card(client, match_id, tokens[first])
    [turn] = hook_target.wait_for(1, event="your_turn")
    assert turn.path == f"/hook/{second}"
    assert turn.body["seat"] == second and turn.body["match_id"] == match_id
    assert turn.body["game"] == "highcard"
    assert turn.headers["x-ironworks-event"] == "your_turn"
    assert turn.headers["x-ironworks-delivery"] == turn.body["delivery"]
    secret = hooks[second]["secret"].encode()
    expected = "sha256=" + hmac.new(secret, turn.raw, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(turn.headers["x-ironworks-signature"], expected)
    assert turn.headers["x-ironworks-timestamp"] == str(turn.body["sent_at"])


def test_match_finished_reaches_every_hook_and_a_match_hook_hears_every_seat(
    app: tuple[TestClient, MatchService], hook_target: Receiver
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    first = wait_to_act(client, match_id)["to_act"][0]
    register(client, match_id, tokens[first], f"{hook_target.url}/match", scope="match")
    register(client, match_id, tokens[first], f"{hook_target.url}/seat",
             events=["match_finished"])  # fmt: skip
    play_card(client, match_id, tokens[first])
    [turn] = hook_target.wait_for(1, event="your_turn")
    assert turn.path == "/hook/match" and turn.body["seat"] == 1 - first
    play_card(client, match_id, tokens[1 - first])
    finished = hook_target.wait_for(2, event="match_finished")
    assert sorted(r.path for r in finished) == ["/hook/match", "/hook/seat"]
    result = client.get(f"/matches/{match_id}").json()["result"]
    assert [r.body["result"] for r in finished] == [result, result]
    # The seat's own hook asked for match_finished only: no your_turn went there
    assert [r.path for r in hook_target.received if r.body["event"] == "your_turn"] == [
        "/hook/match"
    ]


def test_a_failed_delivery_is_retried_under_the_same_id_and_logged(
    app: tuple[TestClient, MatchService], hook_target: Receiver
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    first = wait_to_act(client, match_id)["to_act"][0]
    hook = register(client, match_id, tokens[1 - first], hook_target.url)
    hook_target.statuses = [500, 503]
    play_card(client, match_id, tokens[first])
    attempts = hook_target.wait_for(3, event="your_turn")
    assert len({r.headers["x-ironworks-delivery"] for r in attempts}) == 1
    assert [r.body["attempt"] for r in attempts] == [1, 2, 3]
    log = deliveries_when_settled(client, match_id, tokens[1 - first], hook["id"])
    [delivery] = log["items"]
    assert delivery["state"] == "delivered" and delivery["next_attempt_at"] is None
    assert [a["status_code"] for a in delivery["attempts"]] == [500, 503, 200]
    assert "secret" not in str(log)


def test_a_delivery_out_of_attempts_is_failed_and_tried_no_more(
    app: tuple[TestClient, MatchService], hook_target: Receiver
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    first = wait_to_act(client, match_id)["to_act"][0]
    hook = register(client, match_id, tokens[1 - first], hook_target.url)
    hook_target.statuses = [500] * 10
    play_card(client, match_id, tokens[first])
    hook_target.wait_for(FAST.max_attempts, event="your_turn")
    log = deliveries_when_settled(client, match_id, tokens[1 - first], hook["id"])
    [delivery] = log["items"]
    assert delivery["state"] == "failed" and delivery["next_attempt_at"] is None
    assert len(delivery["attempts"]) == FAST.max_attempts


def deliveries_when_settled(
    client: TestClient, match_id: str, token: str, hook_id: str
) -> dict[str, Any]:
    """The hook's delivery log once no delivery is pending or under way any more."""
    done = threading.Event()
    log: dict[str, Any] = {}
    for _ in range(int(HANG_GUARD / 0.05)):
        log = client.get(f"/matches/{match_id}/hooks/{hook_id}/deliveries",
                         headers=auth(token)).json()  # fmt: skip
        if log["items"] and all(d["state"] in ("delivered", "failed") for d in log["items"]):
            return log
        done.wait(0.05)
    raise AssertionError(f"deliveries never settled: {log}")


def test_the_secret_is_shown_once_and_only_its_seat_sees_the_hook(
    app: tuple[TestClient, MatchService], hook_target: Receiver
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    hook = register(client, match_id, tokens[0], hook_target.url)
    assert hook["secret"] and hook["scope"] == "seat" and hook["seat"] == 0
    listed = client.get(f"/matches/{match_id}/hooks", headers=auth(tokens[0])).json()
    assert [h["id"] for h in listed["items"]] == [hook["id"]]
    assert "secret" not in listed["items"][0]
    others = client.get(f"/matches/{match_id}/hooks", headers=auth(tokens[1])).json()
    assert others["items"] == []
    stolen = client.delete(f"/matches/{match_id}/hooks/{hook['id']}", headers=auth(tokens[1]))
    assert stolen.status_code == 404 and stolen.json()["code"] == "hook_not_found"
    assert client.get(f"/matches/{match_id}/hooks").json()["code"] == "token_required"
    removed = client.delete(f"/matches/{match_id}/hooks/{hook['id']}", headers=auth(tokens[0]))
    assert removed.status_code == 204
    assert client.get(f"/matches/{match_id}/hooks", headers=auth(tokens[0])).json()["items"] == []


def test_a_removed_hook_hears_nothing_more(
    app: tuple[TestClient, MatchService], hook_target: Receiver
) -> None:
    client, service = app
    match_id, tokens = highcard(client)
    first = wait_to_act(client, match_id)["to_act"][0]
    gone = register(client, match_id, tokens[1 - first], f"{hook_target.url}/gone")
    register(client, match_id, tokens[first], f"{hook_target.url}/kept", scope="match")
    client.delete(f"/matches/{match_id}/hooks/{gone['id']}", headers=auth(tokens[1 - first]))
    play_card(client, match_id, tokens[first])
    hook_target.wait_for(1, event="your_turn")
    assert service.runner.join(HANG_GUARD)
    assert [r.path for r in hook_target.received] == ["/hook/kept"]


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("ftp://example.org/hook", "bad_hook_url"),
        ("file:///etc/passwd", "bad_hook_url"),
        ("http://user:pw@example.org/", "bad_hook_url"),
        (" https://93.184.216.34/hook", "bad_hook_url"),
        ("https://93.184.216.34/ho\nok", "bad_hook_url"),
        ("https://93.184.216.34/ho ok", "bad_hook_url"),
        ("https://93.184.216.34:0/hook", "bad_hook_url"),
        ("http://127.0.0.1:8000/hook", "hook_url_private"),
        ("http://[::1]/hook", "hook_url_private"),
        ("http://10.1.2.3/hook", "hook_url_private"),
        ("http://169.254.169.254/latest/meta-data", "hook_url_private"),
        ("http://localhost/hook", "hook_url_private"),
    ],
)
def test_hooks_on_private_addresses_or_other_schemes_are_refused_by_default(
    registry: GameRegistry, url: str, code: str
) -> None:
    service = MatchService(MemoryStore(), registry)
    service.webhooks = Webhooks(MemoryStore())  # the default: private addresses refused
    with TestClient(create_app(service)) as client:
        match_id, tokens = highcard(client)
        answer = client.post(f"/matches/{match_id}/hooks", json={"url": url},
                             headers=auth(tokens[0]))  # fmt: skip
    assert answer.status_code == 400 and answer.json()["code"] == code


@pytest.mark.parametrize("port", ["99999", "http", "-1"])
def test_a_hook_port_out_of_range_is_refused_saying_what_a_port_is(port: str) -> None:
    """``:99999`` was refused as "not a number"."""
    with pytest.raises(BadRequest) as refused:
        check_url(f"https://93.184.216.34:{port}/hook", allow_private=True)
    assert refused.value.code == "bad_hook_url"
    assert "a number from 1 to 65535" in str(refused.value)


def test_a_public_address_passes_the_check() -> None:
    check_url("https://93.184.216.34/hook", allow_private=False)


def test_unknown_hook_events_and_fields_are_refused(app: tuple[TestClient, MatchService]) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    for body in ({"url": "http://127.0.0.1/", "events": ["your_move"]},
                 {"url": "http://127.0.0.1/", "secret": "mine"}):  # fmt: skip
        answer = client.post(f"/matches/{match_id}/hooks", json=body, headers=auth(tokens[0]))
        assert answer.status_code == 400, answer.text


def test_a_turn_timed_out_event_is_delivered_as_timeout_to_that_seats_hook(
    registry: GameRegistry, hook_target: Receiver
) -> None:
    # The event a clock's timeout job appends (tests/test_clocks.py runs the clock itself).
    from core.seating import TurnTimedOut

    service = MatchService(MemoryStore(), registry)
    hooks = service.webhooks = Webhooks(MemoryStore(), allow_private=True, policy=FAST)
    match = service.create_match("highcard", 2)
    tokens = [service.claim_seat(match.match_id, s) for s in (0, 1)]
    version = service.store.version(match.match_id)
    for seat in (0, 1):
        hooks.register(match.match_id, f"{hook_target.url}/{seat}", ["timeout"], seat, seat,
                       version)  # fmt: skip
    timed_out = NewEvent(
        type="core.turn_timed_out",
        data=msgspec.json.encode(TurnTimedOut(seat=1, action="bot", deadline=0.0)),
    )
    service.store.append(match.match_id, version, [timed_out])
    assert schedule(service, hooks, match.match_id) == 1
    assert deliver_due(hooks, match.match_id) == 1
    [timeout] = hook_target.received
    assert timeout.path == "/hook/1" and timeout.body["event"] == "timeout"
    assert timeout.body["seat"] == 1 and timeout.body["version"] == version + 1
    assert tokens  # both seats are people's


def test_two_workers_schedule_and_send_each_delivery_once(
    registry: GameRegistry, hook_target: Receiver
) -> None:
    service = MatchService(MemoryStore(), registry)
    hooks = service.webhooks = Webhooks(MemoryStore(), allow_private=True, policy=FAST)
    match = service.create_match("highcard", 2, options={"rounds": 1, "hand_size": 1})
    for seat in (0, 1):
        service.claim_seat(match.match_id, seat)
    hooks.register(match.match_id, hook_target.url, ["match_finished"], None, 0,
                   service.store.version(match.match_id))  # fmt: skip
    finish(service, match.match_id)
    barrier = threading.Barrier(4)
    counts: list[int] = []

    def worker() -> None:
        barrier.wait()
        counts.append(schedule(service, hooks, match.match_id))
        counts.append(deliver_due(hooks, match.match_id))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HANG_GUARD)
    assert sum(counts[0::2]) == 1, "one delivery scheduled"
    assert sum(counts[1::2]) == 1 and len(hook_target.received) == 1, "and sent once"
    # Scanning again finds nothing new
    assert schedule(service, hooks, match.match_id) == 0
    assert deliver_due(hooks, match.match_id) == 0


def finish(service: MatchService, match_id: str) -> None:
    """Play the match to its end by hand: deal, then every seat its card."""
    from core.game import SYSTEM

    match = service.load(match_id)
    for _ in range(20):
        tasks = service.tasks(match)
        if not tasks:
            return
        task = tasks[0]
        actor = SYSTEM if task.kind == "system" else task.seat
        move = task.move if task.kind == "system" else service.legal_moves(match, task.seat)[0]
        service.apply(match, actor, move, match.version, enqueue=False)
        match = service.load(match_id)
    raise AssertionError("the match never ended")


def test_an_attempt_whose_worker_died_is_sent_again_after_the_lease(
    registry: GameRegistry, hook_target: Receiver
) -> None:
    now = [1000.0]
    service = MatchService(MemoryStore(), registry)
    hooks = service.webhooks = Webhooks(
        MemoryStore(), allow_private=True, policy=FAST, clock=lambda: now[0]
    )
    match = service.create_match("highcard", 2, options={"rounds": 1, "hand_size": 1})
    for seat in (0, 1):
        service.claim_seat(match.match_id, seat)
    hooks.register(match.match_id, hook_target.url, ["match_finished"], None, 0,
                   service.store.version(match.match_id))  # fmt: skip
    finish(service, match.match_id)
    schedule(service, hooks, match.match_id)
    [delivery] = hooks.book(match.match_id).deliveries.values()
    # A worker claims the first attempt and dies before sending it
    from worker.deliveries import _claim

    assert _claim(hooks, match.match_id, delivery.delivery_id) is not None
    assert deliver_due(hooks, match.match_id) == 0, "under way: nobody else sends it"
    now[0] += FAST.lease
    assert deliver_due(hooks, match.match_id) == 1
    [sent] = hook_target.received
    assert sent.body["attempt"] == 2
    assert sent.headers["x-ironworks-delivery"] == delivery.delivery_id


def test_backoff_doubles_with_jitter_below_it_and_stops_at_the_last_attempt() -> None:
    policy = RetryPolicy(max_attempts=5, base=2.0, cap=10.0, jitter=0.5)
    rng = random.Random(7)
    for attempt, full in ((1, 2.0), (2, 4.0), (3, 8.0), (4, 10.0)):
        for _ in range(50):
            delay = policy.next_attempt_at(attempt, 100.0, rng) - 100.0
            assert full * 0.5 <= delay <= full
    assert policy.next_attempt_at(5, 100.0, rng) is None


def test_each_store_keeps_its_webhooks_beside_it() -> None:
    assert sibling_url("sqlite:///data/ironworks.sqlite3") == (
        "sqlite:///data/ironworks-webhooks.sqlite3"
    )
    assert sibling_url("sqlite:////abs/m.db") == "sqlite:////abs/m-webhooks.db"
    assert sibling_url("redis://h:6379/0?prefix=prod") == "redis://h:6379/0?prefix=prod-webhooks"
    assert sibling_url("redis://h:6379/0") == "redis://h:6379/0?prefix=ironworks-webhooks"
    assert sibling_url("postgresql://u@h/db?schema=s&timeout=3") == (
        "postgresql://u@h/db?timeout=3&schema=s_webhooks"
    )
    assert sibling_url("memory://") == "memory://"


def test_the_owner_registers_and_manages_match_wide_hooks(
    app: tuple[TestClient, MatchService], hook_target: Receiver
) -> None:
    client, _ = app
    created = client.post(
        "/matches", json={"game": "highcard", "players": 2,
                          "options": {"rounds": 1, "hand_size": 1}},
    ).json()  # fmt: skip
    match_id, owner = created["id"], created["owner_token"]
    tokens = [client.post(f"/matches/{match_id}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    seat_wide = client.post(f"/matches/{match_id}/hooks", headers=auth(owner),
                            json={"url": hook_target.url})  # fmt: skip
    assert seat_wide.status_code == 400 and seat_wide.json()["code"] == "owner_hook_is_match_wide"
    hook = register(client, match_id, owner, f"{hook_target.url}/owner", scope="match")
    assert hook["scope"] == "match" and hook["seat"] is None
    mine = client.get(f"/matches/{match_id}/hooks", headers=auth(owner)).json()["items"]
    assert [h["id"] for h in mine] == [hook["id"]]
    assert client.get(f"/matches/{match_id}/hooks", headers=auth(tokens[0])).json()["items"] == []
    first = wait_to_act(client, match_id)["to_act"][0]
    play_card(client, match_id, tokens[first])
    [turn] = hook_target.wait_for(1, event="your_turn")
    assert turn.path == "/hook/owner" and turn.body["seat"] == 1 - first
    log = client.get(f"/matches/{match_id}/hooks/{hook['id']}/deliveries", headers=auth(owner))
    assert log.status_code == 200 and log.json()["items"]
    assert client.delete(f"/matches/{match_id}/hooks/{hook['id']}",
                         headers=auth(owner)).status_code == 204  # fmt: skip


# --- a registration retried with its Idempotency-Key ---------------------------------------


def keyed(token: str, key: str) -> dict[str, str]:
    return {**auth(token), "Idempotency-Key": key}


def hook_ids(client: TestClient, match_id: str, token: str) -> list[str]:
    listed = client.get(f"/matches/{match_id}/hooks", headers=auth(token)).json()
    return [h["id"] for h in listed["items"]]


def test_a_keyed_hook_registration_retried_answers_the_same_hook_and_secret_and_adds_none(
    app: tuple[TestClient, MatchService],
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    body, key = {"url": "http://127.0.0.1:9/hook"}, keyed(tokens[0], str(uuid.uuid4()))
    first = client.post(f"/matches/{match_id}/hooks", json=body, headers=key)
    again = client.post(f"/matches/{match_id}/hooks", json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json() and first.json()["secret"]
    assert hook_ids(client, match_id, tokens[0]) == [first.json()["id"]]
    # Without a key, or with another, each registration is a hook of its own.
    other = client.post(f"/matches/{match_id}/hooks", json=body,
                        headers=keyed(tokens[0], str(uuid.uuid4())))  # fmt: skip
    assert other.status_code == 201 and other.json()["secret"] != first.json()["secret"]
    assert len(hook_ids(client, match_id, tokens[0])) == 2


def test_a_hook_key_replayed_with_another_body_or_token_is_refused_and_leaks_no_secret(
    app: tuple[TestClient, MatchService],
) -> None:
    client, _ = app
    created = client.post("/matches", json={"game": "highcard", "players": 2}).json()
    match_id, owner = created["id"], created["owner_token"]
    tokens = [client.post(f"/matches/{match_id}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    url, key = "http://127.0.0.1:9/hook", str(uuid.uuid4())
    hooks = f"/matches/{match_id}/hooks"
    first = client.post(hooks, json={"url": url}, headers=keyed(tokens[0], key)).json()
    refusals = [
        client.post(hooks, json={"url": url + "/other"}, headers=keyed(tokens[0], key)),
        client.post(hooks, json={"url": url, "scope": "match"}, headers=keyed(tokens[0], key)),
        client.post(hooks, json={"url": url}, headers=keyed(tokens[1], key)),
        client.post(hooks, json={"url": url, "scope": "match"}, headers=keyed(owner, key)),
    ]
    # The seat's new token after a re-issue is another token: no secret for its holder.
    reissued = client.post(f"/matches/{match_id}/seats/0/reissue", headers=auth(owner))
    assert reissued.status_code == 201, reissued.text
    new_token = reissued.json()["token"]
    refusals.append(client.post(hooks, json={"url": url}, headers=keyed(new_token, key)))
    for refused in refusals:
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "idempotency_key_reused"
        assert first["secret"] not in refused.text
    assert hook_ids(client, match_id, tokens[1]) == hook_ids(client, match_id, owner) == []


def test_a_keyed_hook_registration_retried_after_its_hook_was_removed_is_hook_removed(
    app: tuple[TestClient, MatchService],
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    body, key = {"url": "http://127.0.0.1:9/hook"}, keyed(tokens[0], str(uuid.uuid4()))
    first = client.post(f"/matches/{match_id}/hooks", json=body, headers=key).json()
    client.delete(f"/matches/{match_id}/hooks/{first['id']}", headers=auth(tokens[0]))
    again = client.post(f"/matches/{match_id}/hooks", json=body, headers=key)
    assert again.status_code == 409 and again.json()["code"] == "hook_removed", again.text
    assert first["secret"] not in again.text
    assert hook_ids(client, match_id, tokens[0]) == []


def test_racing_copies_of_a_keyed_hook_registration_register_one_hook(
    app: tuple[TestClient, MatchService],
) -> None:
    client, _ = app
    match_id, tokens = highcard(client)
    body, key = {"url": "http://127.0.0.1:9/hook"}, keyed(tokens[0], str(uuid.uuid4()))
    answers: list[Any] = []
    start = threading.Barrier(4)

    def send() -> None:
        start.wait()
        answers.append(client.post(f"/matches/{match_id}/hooks", json=body, headers=key))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [201] * 4
    assert len({a.text for a in answers}) == 1
    assert len(hook_ids(client, match_id, tokens[0])) == 1


class _AnswerLostStore(MemoryStore):
    """Stores the next append and then fails as if its answer never came back."""

    lose_next = False

    def append(self, *args: Any, **kwargs: Any) -> Any:
        result = super().append(*args, **kwargs)
        if self.lose_next:
            self.lose_next = False
            raise ServiceUnavailable("store_unavailable", "the event store did not answer")
        return result


def test_a_keyed_hook_registration_answered_503_but_stored_is_answered_by_its_retry(
    registry: GameRegistry,
) -> None:
    service = MatchService(MemoryStore(), registry)
    hook_store = _AnswerLostStore()
    service.webhooks = Webhooks(hook_store, allow_private=True)
    with TestClient(create_app(service)) as client:
        match_id, tokens = highcard(client)
        body, key = {"url": "http://127.0.0.1:9/hook"}, keyed(tokens[0], str(uuid.uuid4()))
        hook_store.lose_next = True
        lost = client.post(f"/matches/{match_id}/hooks", json=body, headers=key)
        assert lost.status_code == 503 and lost.json()["code"] == "store_unavailable"
        again = client.post(f"/matches/{match_id}/hooks", json=body, headers=key)
        assert again.status_code == 201, again.text
        assert hook_ids(client, match_id, tokens[0]) == [again.json()["id"]]


def _resolver_failing(errno: int) -> Any:
    def resolve(host: str, port: int) -> list[str]:
        raise socket.gaierror(errno, "name service said no")

    return resolve


@pytest.mark.parametrize(
    ("errno", "status", "code"),
    [
        (socket.EAI_NONAME, 400, "hook_host_unknown"),
        (socket.EAI_AGAIN, 503, "resolver_unavailable"),
    ],
    ids=["no_such_name", "name_service_down"],
)
def test_a_hook_host_that_does_not_resolve_is_400_but_a_silent_name_service_is_503(
    registry: GameRegistry, errno: int, status: int, code: str
) -> None:
    """A name service that did not answer says nothing of the URL: the client is to try
    again (503, Retry-After), not to fix a URL that may be right."""
    service = MatchService(MemoryStore(), registry)
    service.webhooks = Webhooks(MemoryStore(), resolve=_resolver_failing(errno))
    with TestClient(create_app(service)) as client:
        match_id, tokens = highcard(client)
        answer = client.post(f"/matches/{match_id}/hooks", json={"url": "https://h.example/"},
                             headers=auth(tokens[0]))  # fmt: skip
    assert answer.status_code == status and answer.json()["code"] == code, answer.text
    assert ("retry-after" in answer.headers) == (status == 503)


def test_a_delivery_whose_host_the_name_service_cannot_look_up_is_a_failed_attempt(
    registry: GameRegistry,
) -> None:
    service = MatchService(MemoryStore(), registry)
    hooks = Webhooks(MemoryStore(), policy=FAST, resolve=lambda host, port: ["93.184.216.34"])
    service.webhooks = hooks
    with TestClient(create_app(service)) as client:
        match_id, tokens = highcard(client)
        hook = register(client, match_id, tokens[0], "https://h.example/", scope="match")
        finish(service, match_id)
        hooks.resolve = _resolver_failing(socket.EAI_AGAIN)
        schedule(service, hooks, match_id)
        deliver_due(hooks, match_id)
        log = client.get(f"/matches/{match_id}/hooks/{hook['id']}/deliveries",
                         headers=auth(tokens[0])).json()  # fmt: skip
    attempts = [a for d in log["items"] for a in d["attempts"]]
    assert attempts and all(a["error"].startswith("resolver_unavailable") for a in attempts)
    assert all(d["state"] in ("pending", "failed") for d in log["items"])


backend = store_backends.backend_fixture(store_backends.BACKENDS)


def test_every_store_replays_a_keyed_hook_registration_and_refuses_its_key_elsewhere(
    backend: store_backends.Backend,
) -> None:
    """The keyed registration on each backend's hook store: its replay, the key with
    another request, and the replay once the hook is gone."""
    hooks = Webhooks(backend.store, allow_private=True)
    url, key = "http://127.0.0.1:9/hook", str(uuid.uuid4())
    digest = registration_digest(key, "token-a", url, ["your_turn"], 0)
    first, secret = hooks.register("m", url, ["your_turn"], 0, 0, 3, key, digest)
    again, secret_again = hooks.register("m", url, ["your_turn"], 0, 0, 3, key, digest)
    assert (again, secret_again) == (first, secret)
    assert [h.hook_id for h in hooks.hooks_of("m", 0)] == [first.hook_id]
    other = registration_digest(key, "token-b", url, ["your_turn"], 0)
    with pytest.raises(IdempotencyMismatch):
        hooks.register("m", url, ["your_turn"], 0, 0, 3, key, other)
    hooks.remove("m", first.hook_id, 0)
    with pytest.raises(Conflict) as removed:
        hooks.register("m", url, ["your_turn"], 0, 0, 3, key, digest)
    assert removed.value.code == "hook_removed"
