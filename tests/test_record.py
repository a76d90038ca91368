"""Game records: a recorded match imports exactly (chance outcomes from the record, not the
server's generator), a refused move is named by its index, and a stored match exports the
same format back."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.service import MatchService

RECORDS = Path(__file__).parent / "records"


def recorded(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A record fixture and the result its game ended with."""
    doc = json.loads((RECORDS / name).read_text())
    return doc["record"], doc["result"]


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def rail_deal(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The index and the move of the record's first era end (the rail era's deal)."""
    return next((i, m) for i, m in enumerate(record["moves"]) if m["move"]["type"] == "score_era")


def test_a_full_birmingham_game_imports_with_the_rail_deal_the_record_chose(
    client: TestClient[Any], service: MatchService
) -> None:
    record, result = recorded("bb-2p-chosen-rail-deal.json")
    _, deal = rail_deal(record)
    hands = deal["move"]["deal"]["hands"]
    assert hands[0] == sorted(hands[0]) and hands[0][-1] <= hands[1][0], "a deal by card order"
    response = client.post("/matches/import", json=record)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["finished"] and body["to_act"] == []
    match = client.get(f"/matches/{body['id']}").json()
    assert match["result"]["scores"] == result["scores"]
    assert match["result"]["ranking"] == result["ranking"]
    stored = service.store.read(body["id"])
    began = next(e for e in stored if e.type == "era_began")
    assert json.loads(began.data)["hands"] == [
        sorted(service.games.get("brass-birmingham").names.card.index_of(c) for c in hand)
        for hand in hands
    ]
    first = client.get(f"/matches/{body['id']}/events", params={"limit": 1}).json()["events"][0]
    assert first["payload"]["imported"] is True and first["payload"]["from_position"] is True


def test_the_exported_record_of_an_imported_match_is_that_record(
    client: TestClient[Any],
) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    match_id = client.post("/matches/import", json=record).json()["id"]
    exported = client.get(f"/matches/{match_id}/record")
    assert exported.status_code == 200, exported.text
    assert exported.json() == {**record, "options": None, "setup": None}


def first_event(service: MatchService, match_id: str) -> dict[str, Any]:
    """The stored setup event (``started``) of a match, secrets and all."""
    started = next(e for e in service.store.read(match_id) if e.type == "started")
    assert started.actor is None, "the setup's event"
    return dict(json.loads(started.data))


def test_a_birmingham_record_from_options_alone_deals_the_first_deal_it_chose(
    client: TestClient[Any], service: MatchService
) -> None:
    record, result = recorded("bb-2p-chosen-deals.json")
    assert "position" not in record and record["options"] == {}
    setup = record["setup"]
    response = client.post("/matches/import", json=record)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["finished"]
    assert client.get(f"/matches/{body['id']}").json()["result"]["scores"] == result["scores"]
    started = first_event(service, body["id"])
    card = service.games.get("brass-birmingham").names.card
    assert started["order"] == setup["order"] == [1, 0]
    assert started["hands"] == [sorted(card.index_of(c) for c in h) for h in setup["hands"]]
    assert started["deck"] == [card.index_of(c) for c in setup["deck"]]
    exported = client.get(f"/matches/{body['id']}/record").json()
    # (a sale whose merchant leaves no trace in the log may come back as another merchant's)
    assert {**exported, "moves": None} == {**record, "position": None, "moves": None}
    assert len(exported["moves"]) == len(record["moves"])


def test_an_options_only_match_exports_its_setup_and_imports_to_the_same_game(
    client: TestClient[Any], service: MatchService
) -> None:
    created = client.post(
        "/matches", json={"game": "brass-birmingham", "players": 3, "seed": "setup-rec"}
    ).json()
    for seat in range(3):
        client.post(f"/matches/{created['id']}/seats/{seat}/bot", json={"bot": "random"})
    played = client.get(f"/matches/{created['id']}").json()
    assert played["finished"]
    record = client.get(f"/matches/{created['id']}/record").json()
    assert record["position"] is None and record["options"] == {}
    assert len(record["setup"]["hands"]) == 3 and record["moves"][0]["actor"] == 0
    again = client.post("/matches/import", json=record).json()
    assert first_event(service, again["id"]) == first_event(service, created["id"])
    assert client.get(f"/matches/{again['id']}").json()["result"] == played["result"]
    assert client.get(f"/matches/{again['id']}/record").json() == record


def test_a_setup_a_record_leaves_out_is_the_servers_draw(
    client: TestClient[Any], service: MatchService
) -> None:
    record, _ = recorded("bb-2p-chosen-deals.json")
    drawn = client.post("/matches/import", json={**record, "setup": None, "moves": []}).json()
    assert drawn["version"] == 2 and len(drawn["to_act"]) == 1
    chosen = client.post("/matches/import", json={**record, "moves": []}).json()
    assert first_event(service, drawn["id"])["deck"] != first_event(service, chosen["id"])["deck"]


def _swap_card_of_hands(setup: dict[str, Any]) -> None:
    setup["hands"][0][0] = setup["hands"][1][0]  # one card twice, another missing


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda s: s.__setitem__("order", [0, 0]), "order_not_the_seats"),
        (lambda s: s.__setitem__("order", [0, 1, 2]), "order_not_the_seats"),
        (lambda s: s["hands"].append([]), "deal_hands"),
        (lambda s: s["deck"].append(s["hands"][0].pop()), "deal_hand_size"),
        (lambda s: s["deck"].append(s["facedown"][1].pop()), "deal_facedown"),
        (_swap_card_of_hands, "deal_not_the_cards"),
        (lambda s: s["deck"].pop(), "deal_not_the_cards"),
        (lambda s: s["hands"][0].__setitem__(0, "location:atlantis"), "unknown_card"),
        (lambda s: s["merchants"].__setitem__(0, "mt_unicorn"), "merchant_tiles"),
        (lambda s: s["merchants"].__setitem__(1, s["merchants"][0]), "merchant_tiles"),
        (lambda s: s["merchants"].pop(), "merchant_tiles"),
        (lambda s: s.__setitem__("dice", [6]), "bad_setup"),
    ],
)
def test_an_impossible_first_deal_is_refused_with_the_rule_it_breaks(
    client: TestClient[Any], service: MatchService, change: Any, refusal: str
) -> None:
    record, _ = recorded("bb-2p-chosen-deals.json")
    bad = copy.deepcopy(record)
    change(bad["setup"])
    before = service.store.count_streams()
    response = client.post("/matches/import", json=bad)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert (problem["code"], problem["refusal"]) == ("record_setup_refused", refusal)
    assert service.store.count_streams() == before, "nothing is stored"


def test_a_setup_beside_a_start_position_is_refused(client: TestClient[Any]) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    setup = recorded("bb-2p-chosen-deals.json")[0]["setup"]
    response = client.post("/matches/import", json={**record, "setup": setup})
    assert response.status_code == 400 and response.json()["code"] == "setup_with_position"


def test_a_played_match_exports_a_record_that_imports_to_the_same_result(
    client: TestClient[Any],
) -> None:
    created = client.post(
        "/matches", json={"game": "brass-birmingham", "players": 2, "seed": "rec"}
    ).json()
    for seat in (0, 1):
        client.post(f"/matches/{created['id']}/seats/{seat}/bot", json={"bot": "random"})
    played = client.get(f"/matches/{created['id']}").json()
    assert played["finished"]
    record = client.get(f"/matches/{created['id']}/record").json()
    assert [m["move"]["type"] for m in record["moves"]].count("score_era") == 2
    again = client.post("/matches/import", json=record).json()
    assert client.get(f"/matches/{again['id']}").json()["result"] == played["result"]


def test_a_deal_that_is_not_the_reshuffled_cards_is_refused_with_its_index(
    client: TestClient[Any], service: MatchService
) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    index, _ = rail_deal(record)
    bad = copy.deepcopy(record)
    hands = bad["moves"][index]["move"]["deal"]["hands"]
    hands[0][0] = hands[1][0]  # one card twice, another missing
    before = service.store.count_streams()
    response = client.post("/matches/import", json=bad)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "record_move_refused"
    assert problem["index"] == index and problem["refusal"] == "deal_not_the_cards"
    assert f"move {index}" in problem["detail"]
    assert service.store.count_streams() == before, "nothing is stored"


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda deal: deal["hands"].pop(), "deal_hands"),
        (lambda deal: deal["deck"].append(deal["hands"][0].pop()), "deal_hand_size"),
        (lambda deal: deal["hands"][0].__setitem__(0, "location:atlantis"), "unknown_card"),
    ],
)
def test_an_impossible_deal_is_refused_with_the_rule_it_breaks(
    client: TestClient[Any], change: Any, refusal: str
) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    index, _ = rail_deal(record)
    bad = copy.deepcopy(record)
    change(bad["moves"][index]["move"]["deal"])
    problem = client.post("/matches/import", json=bad).json()
    assert (problem["code"], problem["index"], problem["refusal"]) == (
        "record_move_refused", index, refusal,
    )  # fmt: skip


def test_a_deal_at_the_games_end_is_refused(client: TestClient[Any]) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    _, deal = rail_deal(record)
    bad = copy.deepcopy(record)
    bad["moves"][-1]["move"] = deal["move"]
    problem = client.post("/matches/import", json=bad).json()
    assert problem["refusal"] == "no_deal_at_game_end"
    assert problem["index"] == len(record["moves"]) - 1


def test_a_move_after_the_games_end_is_refused_as_match_over(client: TestClient[Any]) -> None:
    """Brass says ``not_playing`` and Age of Steam ``not_now`` to a step after the end; a
    record's reader hears ``match_over``, as a live match answers a move then."""
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    longer = copy.deepcopy(record)
    longer["moves"].append(copy.deepcopy(record["moves"][-1]))
    problem = client.post("/matches/import", json=longer).json()
    assert (problem["code"], problem["index"], problem["refusal"]) == (
        "record_move_refused", len(record["moves"]), "match_over",
    )  # fmt: skip


def test_a_move_by_the_wrong_seat_is_refused_with_its_index(client: TestClient[Any]) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    bad = copy.deepcopy(record)
    bad["moves"][3]["actor"] = 1 - bad["moves"][3]["actor"]
    problem = client.post("/matches/import", json=bad).json()
    assert problem["index"] == 3 and problem["refusal"] == "not_your_turn"


def test_a_record_cut_short_imports_as_a_live_match_with_free_seats(
    client: TestClient[Any],
) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    index, _ = rail_deal(record)
    cut = {**record, "moves": record["moves"][: index + 5]}
    body = client.post("/matches/import", json=cut).json()
    assert not body["finished"] and len(body["to_act"]) == 1
    assert all(not s["claimed"] and s["bot"] is None for s in body["seats"])
    hidden = client.get(f"/matches/{body['id']}/record")
    assert hidden.status_code == 403 and hidden.json()["code"] == "record_hidden"
    seat = body["to_act"][0]
    token = client.post(f"/matches/{body['id']}/seats/{seat}/claim").json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    legal = client.get(f"/matches/{body['id']}/moves", headers=auth).json()
    assert legal["moves"], "the imported match goes on live"
    move = record["moves"][index + 5]
    assert move["actor"] == seat and move["move"] in legal["moves"]


def test_the_server_draws_the_deal_a_record_leaves_out(client: TestClient[Any]) -> None:
    record, _ = recorded("bb-2p-chosen-rail-deal.json")
    index, _ = rail_deal(record)
    cut = copy.deepcopy({**record, "moves": record["moves"][: index + 1]})
    del cut["moves"][index]["move"]["deal"]
    body = client.post("/matches/import", json=cut).json()
    assert body["version"] > 1 and len(body["to_act"]) == 1


def test_a_pittsburgh_match_exports_and_imports_with_its_era_deal(
    client: TestClient[Any],
) -> None:
    created = client.post(
        "/matches", json={"game": "brass-pittsburgh", "players": 3, "seed": "bp-rec"}
    ).json()
    for seat in range(3):
        client.post(f"/matches/{created['id']}/seats/{seat}/bot", json={"bot": "random"})
    played = client.get(f"/matches/{created['id']}").json()
    assert played["finished"]
    record = client.get(f"/matches/{created['id']}/record").json()
    index, deal = rail_deal(record)
    assert len(deal["move"]["deal"]["hands"]) == 3
    assert record["position"] is None and len(record["setup"]["quality_rewards"]) == 3
    again = client.post("/matches/import", json=record).json()
    assert client.get(f"/matches/{again['id']}").json()["result"] == played["result"]
    assert client.get(f"/matches/{again['id']}/record").json() == record
    bad = copy.deepcopy(record)
    bad["moves"][index]["move"]["deal"]["deck"].pop()
    problem = client.post("/matches/import", json=bad).json()
    assert (problem["index"], problem["refusal"]) == (index, "deal_not_the_cards")


def pittsburgh_setup(service: MatchService, players: int) -> dict[str, Any]:
    """An options-only Pittsburgh record (no moves) with a setup the game drew."""
    game = service.games.get("brass-pittsburgh")
    started = game.setup(game.Options(), players, Random(players))
    setup = msgspec.to_builtins(game.setup_outcome(started))
    return {"game": game.id, "players": players, "options": {}, "setup": setup, "moves": []}


def test_a_pittsburgh_record_fixes_its_tiles(
    client: TestClient[Any], service: MatchService
) -> None:
    record = pittsburgh_setup(service, 4)
    setup = record["setup"]
    setup["oilfield_tiles"] = setup["oilfield_tiles"][::-1]
    setup["quality_rewards"] = setup["quality_rewards"][::-1]
    setup["merchant_tiles"] = setup["merchant_tiles"][::-1]
    body = client.post("/matches/import", json=record).json()
    started = first_event(service, body["id"])
    assert started["oilfield_tiles"] == [t or "" for t in setup["oilfield_tiles"]]
    assert started["quality_rewards"] == setup["quality_rewards"]
    assert started["merchant_tiles"] == [t or "" for t in setup["merchant_tiles"]]
    view = client.get(f"/matches/{body['id']}").json()["view"]
    assert [q["reward"] for q in view["quality_rewards"]] == setup["quality_rewards"]


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda s: s["oilfield_tiles"].__setitem__(0, "OT_Z"), "oilfield_tiles"),
        (lambda s: s["oilfield_tiles"].__setitem__(1, s["oilfield_tiles"][0]), "oilfield_tiles"),
        (lambda s: s["merchant_tiles"].__setitem__(0, None), "merchant_tiles"),
        (lambda s: s["quality_rewards"].pop(), "quality_rewards"),
        (lambda s: s["quality_rewards"].__setitem__(0, s["quality_rewards"][1]), "quality_rewards"),
        (lambda s: s["quality_rewards"].__setitem__(0, "QR_A_CASTLE"), "quality_rewards"),
        (lambda s: s["deck"].append(s["deck"][0]), "deal_not_the_cards"),
        (lambda s: s.__setitem__("order", [2, 1, 0, 2]), "order_not_the_seats"),
    ],
)
def test_impossible_pittsburgh_tiles_are_refused(
    client: TestClient[Any], service: MatchService, change: Any, refusal: str
) -> None:
    record = pittsburgh_setup(service, 4)
    change(record["setup"])
    problem = client.post("/matches/import", json=record).json()
    assert (problem["code"], problem["refusal"]) == ("record_setup_refused", refusal)


def test_the_two_player_pittsburgh_setup_leaves_the_boxed_tiles_out(
    client: TestClient[Any], service: MatchService
) -> None:
    record = pittsburgh_setup(service, 2)
    four = pittsburgh_setup(service, 4)["setup"]
    boxed = set(four["merchant_tiles"]) - set(record["setup"]["merchant_tiles"]) - {None}
    assert boxed, "the 2-player game boxes a merchant tile"
    used = record["setup"]["merchant_tiles"].index(next(
        t for t in record["setup"]["merchant_tiles"] if t is not None))  # fmt: skip
    record["setup"]["merchant_tiles"][used] = boxed.pop()
    problem = client.post("/matches/import", json=record).json()
    assert (problem["code"], problem["refusal"]) == ("record_setup_refused", "merchant_tiles")


@pytest.mark.parametrize("players", [0, 65])
def test_a_records_player_count_has_the_documented_bounds_of_a_new_match(
    client: TestClient[Any], players: int
) -> None:
    """The document said any integer would do, and a count out of every game's range came
    back as the game's refusal: a generated client could not know it beforehand."""
    schema = client.get("/docs/openapi.json").json()["components"]["schemas"]["Record"]
    assert (
        schema["properties"]["players"]["minimum"],
        schema["properties"]["players"]["maximum"],
    ) == (1, 64)
    answer = client.post("/matches/import", json={"game": "brass-birmingham", "players": players})
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["key"] == "players"
