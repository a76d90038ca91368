"""Age of Steam's chance moves (Production's draw, goods-growth dice) carry their outcome:
a record replays the dice and cubes it names, refuses impossible ones, and a match exports
its record at any time (the game hides nothing)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from aos_helpers import GAME
from litestar.testing import TestClient

from api.app import create_app
from core.errors import IllegalMove
from core.game import SYSTEM
from core.service import MatchService
from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.data import board
from plugins.age_of_steam.game import Options


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def played_record(client: TestClient[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished 3-player Rust Belt match of random bots: its record and its result."""
    created = client.post(
        "/matches", json={"game": "age-of-steam", "players": 3, "seed": "aos-record"}
    ).json()
    for seat in range(3):
        client.post(f"/matches/{created['id']}/seats/{seat}/bot", json={"bot": "random"})
    match = client.get(f"/matches/{created['id']}").json()
    assert match["finished"]
    record = client.get(f"/matches/{created['id']}/record")
    assert record.status_code == 200, record.text
    return record.json(), match["result"]


def first(record: dict[str, Any], kind: str) -> int:
    return next(i for i, m in enumerate(record["moves"]) if m["move"]["type"] == kind)


def test_a_recorded_match_imports_to_the_same_result_with_its_dice(
    client: TestClient[Any],
) -> None:
    record, result = played_record(client)
    growth = record["moves"][first(record, "grow_goods")]["move"]
    assert len(growth["light"]) == 3 and all(1 <= d <= 6 for d in growth["light"])
    imported = client.post("/matches/import", json=record)
    assert imported.status_code == 201, imported.text
    assert client.get(f"/matches/{imported.json()['id']}").json()["result"] == result


def test_growth_dice_of_the_records_choosing_are_the_ones_rolled(
    client: TestClient[Any], service: MatchService
) -> None:
    record, _ = played_record(client)
    index = first(record, "grow_goods")
    chosen = copy.deepcopy({**record, "moves": record["moves"][: index + 1]})
    chosen["moves"][index]["move"].update(light=[6, 6, 6], dark=[1, 2, 3])
    body = client.post("/matches/import", json=chosen).json()
    grown = [e for e in service.store.read(body["id"]) if e.type == "goods_grown"]
    assert grown and b'"light":[6,6,6]' in grown[-1].data and b'"dark":[1,2,3]' in grown[-1].data
    live = client.get(f"/matches/{body['id']}/record").json()
    assert live["moves"][-1]["move"] == chosen["moves"][index]["move"], "live export"


@pytest.mark.parametrize(
    ("dice", "refusal"),
    [
        ({"light": [7, 1, 1], "dark": [1, 1, 1]}, "die_out_of_range"),
        ({"light": [1, 1], "dark": [1, 1, 1]}, "dice_count"),
        ({"light": [1, 1, 1]}, "dice_count"),
    ],
)
def test_impossible_dice_are_refused_with_the_moves_index(
    client: TestClient[Any], dice: dict[str, Any], refusal: str
) -> None:
    record, _ = played_record(client)
    index = first(record, "grow_goods")
    bad = copy.deepcopy(record)
    bad["moves"][index]["move"] = {"type": "grow_goods", **dice}
    problem = client.post("/matches/import", json=bad).json()
    assert (problem["code"], problem["index"], problem["refusal"]) == (
        "record_move_refused", index, refusal,
    )  # fmt: skip


def at_production() -> Any:
    """A random 3-player game played up to a Production draw with room for two cubes."""
    for seed in range(200):
        rng = random.Random(seed)
        state = None
        for e in GAME.setup(Options(), 3, rng):
            state = GAME.evolve(state, e)
        while tasks := GAME.pending_tasks(state):
            task = tasks[0]
            if isinstance(task.move, mv.DrawProduction) and room(state) >= 2:
                return state
            if task.kind == "system":
                events = GAME.decide(state, SYSTEM, task.move, rng)
            else:
                legal = GAME.legal_moves(state, task.seat)
                events = GAME.decide(state, task.seat, rng.choice(legal), rng)
            for e in events:
                state = GAME.evolve(state, e)
    pytest.fail("no game reached Production")


def room(state: Any) -> int:
    spec = board(state.map_id).spec
    return sum(col.spaces - len(state.display[i]) for i, col in enumerate(spec.display))


def test_production_draws_the_cubes_a_record_names_from_the_bag() -> None:
    state = at_production()
    colours = sorted(c for c, n in state.bag.items() if n > 0)
    pick = [colours[0], colours[-1]]
    (drawn,) = GAME.decide(state, SYSTEM, mv.DrawProduction(cubes=pick), random.Random(0))
    assert drawn.cubes == pick


@pytest.mark.parametrize(
    ("cubes", "code"),
    [(["no-such-colour", "no-such-colour"], "cube_not_in_bag"), ([], "production_count")],
)
def test_production_refuses_cubes_the_bag_cannot_give(cubes: list[str], code: str) -> None:
    state = at_production()
    with pytest.raises(IllegalMove) as refused:
        GAME.decide(state, SYSTEM, mv.DrawProduction(cubes=cubes), random.Random(0))
    assert refused.value.code == code


def test_production_refuses_more_cubes_of_a_colour_than_the_bag_holds() -> None:
    state = at_production()
    colour, _ = min(((c, n) for c, n in state.bag.items() if n > 0), key=lambda cn: cn[1])
    state.bag = {**state.bag, colour: 1}
    with pytest.raises(IllegalMove) as refused:
        GAME.decide(state, SYSTEM, mv.DrawProduction(cubes=[colour, colour]), random.Random(0))
    assert refused.value.code == "cube_not_in_bag"


def setup_record(service: MatchService, players: int = 3, **options: Any) -> dict[str, Any]:
    """An options-only record (no moves) whose setup is one the game drew."""
    game = service.games.get("age-of-steam")
    started = game.setup(Options(**options), players, random.Random(players))
    return {"game": "age-of-steam", "players": players, "options": options, "moves": [],
            "setup": msgspec.to_builtins(game.setup_outcome(started))}  # fmt: skip


def stored_start(service: MatchService, match_id: str) -> dict[str, Any]:
    started = next(e for e in service.store.read(match_id) if e.type == "started")
    return dict(msgspec.json.decode(started.data))


def test_a_record_from_options_fixes_the_first_player_and_the_first_goods(
    client: TestClient[Any], service: MatchService
) -> None:
    record = setup_record(service)
    setup = record["setup"]
    setup["order"] = [2, 0, 1]
    goods = setup["goods"]
    a = next(iter(goods))
    b = next(k for k in goods if goods[k][0] != goods[a][0])
    goods[a][0], goods[b][0] = goods[b][0], goods[a][0]  # the same cubes, elsewhere
    response = client.post("/matches/import", json=record)
    assert response.status_code == 201, response.text
    match_id = response.json()["id"]
    started = stored_start(service, match_id)
    assert started["order"] == [2, 0, 1]
    placed = {f"{c},{r}": cubes for c, r, cubes in started["goods"]}
    assert placed[a] == goods[a] and placed[b] == goods[b]
    assert client.get(f"/matches/{match_id}").json()["view"]["order"] == [2, 0, 1]
    exported = client.get(f"/matches/{match_id}/record").json()
    assert exported == {**record, "format": "ironworks-record/1", "position": None,
                        "options": msgspec.to_builtins(Options())}  # fmt: skip


def test_an_options_only_match_exports_its_setup_and_imports_to_the_same_result(
    client: TestClient[Any], service: MatchService
) -> None:
    record, result = played_record(client)
    assert record["position"] is None and sorted(record["setup"]["order"]) == [0, 1, 2]
    imported = client.post("/matches/import", json=record).json()
    assert stored_start(service, imported["id"])["goods"]
    assert client.get(f"/matches/{imported['id']}").json()["result"] == result
    assert client.get(f"/matches/{imported['id']}/record").json() == record


def _first_city(setup: dict[str, Any]) -> list[str]:
    return setup["goods"][next(iter(setup["goods"]))]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda s: s.__setitem__("order", [0, 1, 1]), "order_not_the_seats"),
        (lambda s: s.__setitem__("order", [0, 1]), "order_not_the_seats"),
        (lambda s: s["goods"].__setitem__("99,99", ["red"]), "goods_hex"),
        (lambda s: s["display"].__setitem__("Z", ["red"]), "unknown_display_column"),
        (lambda s: _first_city(s).append("purple"), "goods_count"),
        (lambda s: _first_city(s).pop(), "goods_count"),
        (lambda s: s["display"][next(iter(s["display"]))].pop(), "goods_count"),
        (lambda s: _first_city(s).__setitem__(0, "violet"), "cube_not_in_bag"),
        (lambda s: s.__setitem__("dice", []), "bad_setup"),
    ],
)
def test_impossible_first_goods_are_refused_with_the_rule_they_break(
    client: TestClient[Any], service: MatchService, change: Any, refusal: str
) -> None:
    record = setup_record(service)
    change(record["setup"])
    before = service.store.count_streams()
    problem = client.post("/matches/import", json=record).json()
    assert (problem["code"], problem["refusal"]) == ("record_setup_refused", refusal)
    assert service.store.count_streams() == before


def test_more_cubes_of_a_colour_than_the_bag_holds_are_refused(
    client: TestClient[Any], service: MatchService
) -> None:
    record = setup_record(service)
    bag = board("rust_belt").spec.bag
    colour = min(bag, key=lambda c: bag[c])
    setup = record["setup"]
    places = [*setup["display"].values(), *setup["goods"].values()]
    left = bag[colour] - sum(p.count(colour) for p in places)
    for cubes in places:  # swap cubes for that colour until one more is drawn than it has
        for i, cube in enumerate(cubes):
            if cube != colour and left >= 0:
                cubes[i], left = colour, left - 1
    problem = client.post("/matches/import", json=record).json()
    assert (problem["code"], problem["refusal"]) == ("record_setup_refused", "cube_not_in_bag")


def test_barbados_display_refuses_its_new_citys_colour(
    client: TestClient[Any], service: MatchService
) -> None:
    b = board("barbados")
    record = setup_record(service, players=1, map="barbados")
    column = next(c for c in b.spec.display if c.new_city is not None)
    colour = next(n.color for n in b.spec.new_cities if n.letter == column.new_city)
    record["setup"]["display"][column.id] = [colour]
    problem = client.post("/matches/import", json=record).json()
    assert (problem["code"], problem["refusal"]) == ("record_setup_refused", "display_colour")
