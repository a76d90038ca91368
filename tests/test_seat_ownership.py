"""Seat ownership over the API: the owner token, invites, bots handed seats and taken back,
re-issued tokens, removed players and resignations — each refused with its own code when
the caller may not."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.service import MatchService
from tests.test_api import assert_problem, bearer, claim_all, play_one, sse_messages


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def create(client: TestClient[Any], players: int = 2, **rules: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "highcard", "players": players, "seed": "s1"}
    if rules:
        body["rules"] = rules
    response = client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def invite(client: TestClient[Any], match: dict[str, Any], seat: int) -> str:
    response = client.post(
        f"/matches/{match['id']}/seats/{seat}/invite", headers=bearer(match["owner_token"])
    )
    assert response.status_code == 201, response.text
    return response.json()["invite"]


def claim(client: TestClient[Any], match_id: str, seat: int, code: str | None = None) -> Any:
    body = None if code is None else {"invite": code}
    return client.post(f"/matches/{match_id}/seats/{seat}/claim", json=body)


def seats(client: TestClient[Any], match_id: str) -> list[dict[str, Any]]:
    return client.get(f"/matches/{match_id}").json()["seats"]


def events(client: TestClient[Any], match_id: str) -> list[dict[str, Any]]:
    return client.get(f"/matches/{match_id}/events").json()["events"]


def test_creating_a_match_returns_an_owner_token_that_is_never_stored_or_shown(
    client: TestClient[Any], service: MatchService
) -> None:
    match = create(client)
    token = match["owner_token"]
    assert len(token) >= 32 and match["rules"]["invite_only"] is False
    stored = b"".join(e.data for e in service.store.read(match["id"]))
    assert token.encode() not in stored
    log = client.get(f"/matches/{match['id']}/events").text
    assert "owner_hash" not in log and token not in log
    assert token not in client.get(f"/matches/{match['id']}").text


def test_a_match_whose_owner_token_is_never_used_seats_anybody_as_before(
    client: TestClient[Any],
) -> None:
    match = create(client)
    assert claim(client, match["id"], 0).status_code == 201
    botted = client.post(f"/matches/{match['id']}/seats/1/bot", json={"bot": "random"})
    assert botted.status_code == 200, botted.text
    assert [s["claimed"] for s in seats(client, match["id"])] == [True, False]


def test_an_invite_only_match_seats_only_invited_players(client: TestClient[Any]) -> None:
    match = create(client, invite_only=True)
    assert_problem(claim(client, match["id"], 0), 403, "invite_required")
    code = invite(client, match, 0)
    assert_problem(claim(client, match["id"], 0, "not-the-code"), 403, "bad_invite")
    assert_problem(claim(client, match["id"], 1, code), 403, "bad_invite")
    claimed = claim(client, match["id"], 0, code)
    assert claimed.status_code == 201, claimed.text
    assert_problem(claim(client, match["id"], 0, code), 409, "seat_taken")


def test_a_keyed_claim_retried_gets_the_same_token_and_another_seat_refuses_the_key(
    client: TestClient[Any],
) -> None:
    match = create(client)
    url = f"/matches/{match['id']}/seats/0/claim"
    key = {"Idempotency-Key": str(uuid.uuid4())}
    token = client.post(url, headers=key).json()["token"]
    assert client.post(url, headers=key).json()["token"] == token
    other = client.post(f"/matches/{match['id']}/seats/1/claim", headers=key)
    assert_problem(other, 422, "idempotency_key_reused")
    assert seats(client, match["id"])[1]["claimed"] is False


def test_a_keyed_claim_of_an_invited_seat_is_replayed_only_with_its_invite_code(
    client: TestClient[Any],
) -> None:
    match = create(client, invite_only=True)
    code = invite(client, match, 0)
    url = f"/matches/{match['id']}/seats/0/claim"
    key = {"Idempotency-Key": str(uuid.uuid4())}
    token = client.post(url, json={"invite": code}, headers=key).json()["token"]
    assert_problem(client.post(url, headers=key), 422, "idempotency_key_reused")
    assert_problem(
        client.post(url, json={"invite": "a-guess"}, headers=key), 422, "idempotency_key_reused"
    )
    assert client.post(url, json={"invite": code}, headers=key).json()["token"] == token


@pytest.mark.parametrize(
    ("invite_only", "advice"), [(True, "ask the owner for one"), (False, "claim it without a code")]
)
def test_a_code_for_a_seat_without_an_invite_is_refused_with_advice_that_works_there(
    client: TestClient[Any], invite_only: bool, advice: str
) -> None:
    match = create(client, invite_only=invite_only)
    code = invite(client, match, 0)
    refused = claim(client, match["id"], 1, code)
    assert_problem(refused, 403, "bad_invite")
    assert refused.json()["detail"] == f"seat 1 has no invite: {advice}"


def test_free_seats_of_an_invite_only_match_go_to_bots_only_by_the_owner(
    client: TestClient[Any],
) -> None:
    match = create(client, invite_only=True)
    url = f"/matches/{match['id']}/seats/1/bot"
    assert_problem(client.post(url, json={"bot": "random"}), 401, "owner_token_required")
    token = claim(client, match["id"], 0, invite(client, match, 0)).json()["token"]
    assert_problem(
        client.post(url, json={"bot": "random"}, headers=bearer(token)), 403, "owner_only"
    )
    owner = bearer(match["owner_token"])
    assert client.post(url, json={"bot": "random"}, headers=owner).status_code == 200
    assert seats(client, match["id"])[1]["bot"] == "random"


def test_an_invite_keeps_a_seat_of_a_public_match_for_the_invited_person(
    client: TestClient[Any],
) -> None:
    match = create(client)
    code = invite(client, match, 1)
    assert seats(client, match["id"])[1]["invited"] is True
    assert_problem(claim(client, match["id"], 1), 403, "invite_required")
    bot = client.post(f"/matches/{match['id']}/seats/1/bot", json={"bot": "random"})
    assert_problem(bot, 401, "owner_token_required")
    assert claim(client, match["id"], 1, code).status_code == 201
    assert seats(client, match["id"])[1]["invited"] is False


def test_inviting_needs_the_owner_and_a_seat_without_a_player(client: TestClient[Any]) -> None:
    match = create(client)
    url = f"/matches/{match['id']}/seats/0/invite"
    assert_problem(client.post(url), 401, "owner_token_required")
    token = claim(client, match["id"], 0).json()["token"]
    assert_problem(client.post(url, headers=bearer(token)), 403, "owner_only")
    assert_problem(client.post(url, headers=bearer(match["owner_token"])), 409, "seat_taken")
    missing = client.post(
        f"/matches/{match['id']}/seats/5/invite", headers=bearer(match["owner_token"])
    )
    assert_problem(missing, 404, "seat_not_found")


def test_an_invited_person_takes_a_seat_back_from_the_bot_playing_it_meanwhile(
    client: TestClient[Any],
) -> None:
    match = create(client)
    owner = bearer(match["owner_token"])
    client.post(f"/matches/{match['id']}/seats/1/bot", json={"bot": "random"}, headers=owner)
    code = invite(client, match, 1)
    assert seats(client, match["id"])[1]["bot"] == "random"  # the bot plays on meanwhile
    token = claim(client, match["id"], 1, code).json()["token"]
    assert seats(client, match["id"])[1] == {**seats(client, match["id"])[1], "bot": None}
    moves = client.get(f"/matches/{match['id']}/moves", headers=bearer(token))
    assert moves.status_code == 200 and moves.json()["seat"] == 1


def test_a_player_hands_their_seat_to_a_bot_and_takes_it_back(client: TestClient[Any]) -> None:
    match = create(client)
    tokens = claim_all(client, match["id"])
    url = f"/matches/{match['id']}/seats/0/bot"
    assert client.post(url, json={"bot": "random"}, headers=bearer(tokens[0])).status_code == 200
    assert_problem(client.delete(url, headers=bearer(tokens[1])), 403, "owner_only")
    back = client.delete(url, headers=bearer(tokens[0]))
    assert back.status_code == 200, back.text
    assert back.json()["seats"][0]["bot"] is None and back.json()["seats"][0]["claimed"]
    assert_problem(client.delete(url, headers=bearer(tokens[0])), 409, "seat_not_bot")


def test_a_wrong_token_is_refused_before_the_seat_s_state_is_told(
    client: TestClient[Any],
) -> None:
    match = create(client)
    tokens = claim_all(client, match["id"])
    url = f"/matches/{match['id']}/seats/0/bot"
    # Seat 0 has no bot: its own token hears so, another seat's or a foreign token does not
    # (a foreign one hears that it is of no seat, as on every route of a match).
    assert_problem(client.delete(url, headers=bearer(tokens[0])), 409, "seat_not_bot")
    assert_problem(client.delete(url, headers=bearer(tokens[1])), 403, "owner_only")
    assert_problem(client.delete(url, headers=bearer("not-a-token")), 403, "bad_token")
    assert_problem(client.delete(url), 401, "owner_token_required")
    # Handing a seat already a bot's: a foreign token is refused before "seat_taken".
    seat1 = f"/matches/{match['id']}/seats/1/bot"
    client.post(seat1, json={"bot": "random"}, headers=bearer(tokens[1]))
    taken = client.post(seat1, json={"bot": "random"}, headers=bearer("not-a-token"))
    assert_problem(taken, 403, "bad_token")


def test_the_owner_takes_a_free_seat_back_from_a_bot_for_a_person(client: TestClient[Any]) -> None:
    match = create(client)
    client.post(f"/matches/{match['id']}/seats/1/bot", json={"bot": "random"})
    url = f"/matches/{match['id']}/seats/1/bot"
    assert_problem(client.delete(url), 401, "owner_token_required")
    freed = client.delete(url, headers=bearer(match["owner_token"]))
    assert freed.status_code == 200, freed.text
    assert freed.json()["status"] == "open"
    assert claim(client, match["id"], 1).status_code == 201


def test_a_reissued_token_replaces_the_lost_one(client: TestClient[Any]) -> None:
    match = create(client)
    old = claim(client, match["id"], 0).json()["token"]
    url = f"/matches/{match['id']}/seats/0/reissue"
    assert_problem(client.post(url, headers=bearer(old)), 403, "owner_only")
    fresh = client.post(url, headers=bearer(match["owner_token"]))
    assert fresh.status_code == 201, fresh.text
    new = fresh.json()["token"]
    assert new != old
    assert_problem(
        client.get(f"/matches/{match['id']}/moves", headers=bearer(old)), 403, "bad_token"
    )
    assert client.get(f"/matches/{match['id']}", headers=bearer(new)).json()["you"] == 0
    unclaimed = client.post(
        f"/matches/{match['id']}/seats/1/reissue", headers=bearer(match["owner_token"])
    )
    assert_problem(unclaimed, 409, "seat_not_claimed")


def test_a_removed_player_s_seat_goes_to_the_stand_in_bot_and_the_match_goes_on(
    client: TestClient[Any],
) -> None:
    match = create(client, stand_in={"bot": "random"})
    tokens = claim_all(client, match["id"])
    url = f"/matches/{match['id']}/seats/1/remove"
    assert_problem(client.post(url, headers=bearer(tokens[0])), 403, "owner_only")
    removed = client.post(url, headers=bearer(match["owner_token"]))
    assert removed.status_code == 200, removed.text
    assert removed.json()["seats"][1] == {
        **removed.json()["seats"][1],
        "bot": "random",
        "claimed": False,
    }
    assert_problem(
        client.get(f"/matches/{match['id']}/moves", headers=bearer(tokens[1])), 403, "bad_token"
    )
    for _ in range(20):  # the person plays on against the bot to the end
        if client.get(f"/matches/{match['id']}").json()["finished"]:
            break
        play_one(client, match["id"], tokens)
    assert client.get(f"/matches/{match['id']}").json()["result"] is not None
    assert_problem(client.post(url, headers=bearer(match["owner_token"])), 409, "match_over")


def test_removing_a_player_abandons_a_match_whose_rules_say_so(client: TestClient[Any]) -> None:
    match = create(client, absent="abandon")
    tokens = claim_all(client, match["id"])
    removed = client.post(
        f"/matches/{match['id']}/seats/0/remove", headers=bearer(match["owner_token"])
    )
    assert removed.status_code == 200 and removed.json()["status"] == "abandoned"
    view = client.get(f"/matches/{match['id']}").json()
    assert view["finished"] is True and view["result"] is None and view["to_act"] == []
    assert [e["type"] for e in events(client, match["id"])][-2:] == [
        "core.seat_removed", "core.match_abandoned",
    ]  # fmt: skip
    moves = client.get(f"/matches/{match['id']}/moves", headers=bearer(tokens[1])).json()
    assert moves["moves"] == []
    listed = client.get("/matches", params={"status": "abandoned"}).json()["items"]
    assert [m["id"] for m in listed] == [match["id"]]
    stream = client.get(f"/matches/{match['id']}/stream")  # ends: nothing more will happen
    assert '"core.match_abandoned"' in sse_messages(stream.text)[-1]["data"]


def test_an_abandoned_match_shows_its_history_position_and_record_as_a_finished_one(
    client: TestClient[Any],
) -> None:
    """Abandoned is finished (the view says so, and the web table offers its replay): the
    hidden parts are shown as they are once a match is scored, not kept hidden forever."""
    match = create(client, absent="abandon")
    claim_all(client, match["id"])
    base = f"/matches/{match['id']}"
    assert_problem(client.get(base, params={"at": 2}), 403, "history_hidden")
    client.post(f"{base}/seats/0/remove", headers=bearer(match["owner_token"]))
    assert client.get(base).json()["status"] == "abandoned"
    replay = client.get(base, params={"at": 2})
    assert replay.status_code == 200 and replay.json()["version"] == 2
    assert client.get(f"{base}/position").status_code == 200
    record = client.get(f"{base}/record")
    assert record.status_code == 200 and record.json()["game"] == "highcard"


def test_resigning_a_two_seat_match_ends_it_with_the_resigned_seat_last(
    client: TestClient[Any],
) -> None:
    match = create(client)
    tokens = claim_all(client, match["id"])
    url = f"/matches/{match['id']}/seats/0/resign"
    assert_problem(client.post(url), 401, "token_required")
    assert_problem(client.post(url, headers=bearer(tokens[1])), 403, "not_your_seat")
    resigned = client.post(url, headers=bearer(tokens[0]))
    assert resigned.status_code == 200, resigned.text
    view = client.get(f"/matches/{match['id']}").json()
    assert view["finished"] and view["status"] == "finished" and view["to_act"] == []
    assert view["result"]["ranking"] == [2, 1]
    assert view["result"]["details"]["resigned"] == [0]
    assert view["seats"][0]["resigned"] is True
    assert_problem(client.post(url, headers=bearer(tokens[0])), 409, "match_over")
    move = {"move": {"type": "play", "card": 1}, "expected_version": view["version"]}
    played = client.post(f"/matches/{match['id']}/moves", json=move, headers=bearer(tokens[1]))
    assert_problem(played, 409, "match_over")


def test_seats_of_a_finished_match_change_hands_no_more(client: TestClient[Any]) -> None:
    match = create(client, players=3)
    tokens = claim_all(client, match["id"])  # seats 0 and 1; seat 2 stays free
    client.post(f"/matches/{match['id']}/seats/1/bot", json={"bot": "random"},
                headers=bearer(tokens[1]))  # fmt: skip
    for seat in (0, 1):
        client.post(f"/matches/{match['id']}/seats/{seat}/resign", headers=bearer(tokens[seat]))
    before = client.get(f"/matches/{match['id']}").json()
    assert before["finished"]
    owner = bearer(match["owner_token"])
    seats_url = f"/matches/{match['id']}/seats"
    refused = [
        client.post(f"{seats_url}/2/claim"),
        client.post(f"{seats_url}/2/bot", json={"bot": "random"}),
        client.post(f"{seats_url}/2/invite", headers=owner),
        client.delete(f"{seats_url}/1/bot", headers=owner),
    ]
    for response in refused:
        assert_problem(response, 409, "match_over")
    assert client.get(f"/matches/{match['id']}").json()["version"] == before["version"]


def test_a_finished_match_refuses_a_token_reissue_and_a_move_keeps_the_games_refusal(
    client: TestClient[Any],
) -> None:
    """A game that reached its end is over as a resigned-out one is: the owner re-issues no
    token there (its seats no longer change). A move there keeps the game's own refusal,
    the one its client guide documents, not the service's ``match_over``."""
    match = create(client)
    tokens = claim_all(client, match["id"])
    for _ in range(20):
        if client.get(f"/matches/{match['id']}").json()["finished"]:
            break
        play_one(client, match["id"], tokens)
    view = client.get(f"/matches/{match['id']}").json()
    assert view["result"] is not None
    reissue = f"/matches/{match['id']}/seats/0/reissue"
    assert_problem(client.post(reissue, headers=bearer(match["owner_token"])), 409, "match_over")
    move = {"move": {"type": "play", "card": 1}, "expected_version": view["version"]}
    for token in tokens:
        played = client.post(f"/matches/{match['id']}/moves", json=move, headers=bearer(token))
        assert played.status_code == 422, played.text
        assert played.json()["code"] != "match_over"
    assert client.get(f"/matches/{match['id']}").json()["version"] == view["version"]
    # The seat's old token still reads the seat's view: nothing was re-issued
    assert client.get(f"/matches/{match['id']}", headers=bearer(tokens[0])).json()["you"] == 0


def test_a_resigned_seat_s_turns_are_played_by_the_stand_in_until_one_seat_is_left(
    client: TestClient[Any],
) -> None:
    match = create(client, players=3, stand_in={"bot": "random"})
    tokens = claim_all(client, match["id"], players=3)
    to_act = client.get(f"/matches/{match['id']}").json()["to_act"][0]
    client.post(f"/matches/{match['id']}/seats/{to_act}/resign", headers=bearer(tokens[to_act]))
    view = client.get(f"/matches/{match['id']}").json()
    assert not view["finished"] and to_act not in view["to_act"]  # the stand-in moved
    assert view["seats"][to_act]["bot"] == "random"
    assert [e["actor"] for e in events(client, match["id"]) if e["type"] == "played"] == [to_act]
    resigned = client.post(
        f"/matches/{match['id']}/seats/{to_act}/resign", headers=bearer(tokens[to_act])
    )
    assert_problem(resigned, 409, "match_over" if view["finished"] else "seat_resigned")
    other = next(s for s in range(3) if s != to_act)
    client.post(f"/matches/{match['id']}/seats/{other}/resign", headers=bearer(tokens[other]))
    result = client.get(f"/matches/{match['id']}").json()["result"]
    assert result["details"]["resigned"] == [to_act, other]
    last = next(s for s in range(3) if s not in (to_act, other))
    assert [result["ranking"][s] for s in (last, other, to_act)] == [1, 2, 3]


def test_the_owner_token_plays_no_seat_and_reads_as_a_spectator(client: TestClient[Any]) -> None:
    match = create(client)
    claim_all(client, match["id"])
    owner = bearer(match["owner_token"])
    assert client.get(f"/matches/{match['id']}", headers=owner).json()["you"] is None
    listed = client.get(f"/matches/{match['id']}/moves", headers=owner)
    assert_problem(listed, 403, "owner_token_is_no_seat")


def test_owner_commands_on_a_match_stored_before_owners_are_refused(
    client: TestClient[Any], service: MatchService
) -> None:
    old = service.create_match("highcard", 2)  # no owner token, as stored matches have
    refused = client.post(f"/matches/{old.match_id}/seats/0/invite", headers=bearer("anything"))
    assert_problem(refused, 403, "no_owner")
    assert claim(client, old.match_id, 0).status_code == 201


def test_seat_changes_are_events_without_their_secrets(client: TestClient[Any]) -> None:
    match = create(client)
    code = invite(client, match, 0)
    claim(client, match["id"], 0, code)
    client.post(f"/matches/{match['id']}/seats/0/reissue", headers=bearer(match["owner_token"]))
    log = events(client, match["id"])
    assert [e["type"] for e in log if e["type"].startswith("core.seat")] == [
        "core.seat_invited", "core.seat_claimed", "core.seat_token_reissued",
    ]  # fmt: skip
    for event in log:
        assert not {"token_hash", "code_hash", "owner_hash"} & set(event["payload"])


def test_the_lobby_offers_no_seat_of_an_invite_only_match_to_newcomers(
    client: TestClient[Any],
) -> None:
    public, private, kept = create(client), create(client, invite_only=True), create(client)
    invite(client, kept, 0)
    invite(client, kept, 1)
    joinable = [
        m["id"] for m in client.get("/matches", params={"open_seats": "true"}).json()["items"]
    ]
    assert joinable == [public["id"]]
    assert {private["id"], kept["id"]} <= {
        m["id"] for m in client.get("/matches", params={"status": "open"}).json()["items"]
    }


def test_bad_rules_are_refused_with_their_codes(client: TestClient[Any]) -> None:
    def refused(rules: dict[str, Any]) -> Any:
        return client.post("/matches", json={"game": "highcard", "players": 2, "rules": rules})

    assert refused({"stand_in": {"bot": "oracle"}}).status_code == 400
    assert_problem(
        refused({"stand_in": {"bot": "random", "level": "hard"}}), 400, "bot_has_no_levels"
    )
    assert refused({"absent": "vanish"}).status_code == 400
    assert refused({"invite_only": "yes"}).status_code == 400
    assert refused({"owner": "me"}).status_code == 400
