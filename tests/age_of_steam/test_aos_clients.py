"""What API clients rely on: CLIENTS.md's examples are real legal moves, the view follows its
documented Structs, the decision agrees with pending_tasks and legal_moves, and every field
of every legal move names something the view or the board metadata shows."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from aos_helpers import GAME, Match, playout

from core.game import SYSTEM, Task
from plugins.age_of_steam import events as ev
from plugins.age_of_steam import flow, log
from plugins.age_of_steam import moves as mv
from plugins.age_of_steam import view as cv
from plugins.age_of_steam.state import State

PLUGIN = Path(__file__).resolve().parents[2] / "plugins" / "age_of_steam"
GUIDE = (PLUGIN / "CLIENTS.md").read_text()
BOARD = GAME.metadata["board"]
GAMES = [("rust_belt", 3, 1), ("rust_belt", 4, 2), ("barbados", 1, 3), ("st_lucia", 2, 4)]


def _section(title: str) -> str:
    start = GUIDE.index(f"## {title}")
    end = GUIDE.find("\n## ", start + 1)
    return GUIDE[start : end if end > 0 else None]


def _json_values(text: str) -> list[Any]:
    """Every JSON value of every ```json block in ``text``, in order (a block may hold
    several values)."""
    decoder = json.JSONDecoder()
    out = []
    for block in re.findall(r"```json\n(.*?)```", text, flags=re.S):
        i = 0
        while True:
            while i < len(block) and block[i].isspace():
                i += 1
            if i == len(block):
                break
            value, i = decoder.raw_decode(block, i)
            out.append(value)
    return out


def _type(move: Any) -> str:
    return type(move).__struct_config__.tag


def _run_system(m: Match) -> None:
    while (tasks := GAME.pending_tasks(m.state)) and tasks[0].kind == "system":
        m.system()


def _walk(map_id: str, players: int, seed: int) -> tuple[State, list[Any]]:
    """The final state of a playout and, after every step, (pending tasks, spectator view,
    seat to act, its legal moves); the playout changes its state in place."""
    seen: list[tuple[list[Task], dict[str, Any], int | None, list[Any]]] = []

    def record(state: State, _events: list[Any]) -> None:
        seat = flow.to_act(state)
        legal = GAME.legal_moves(state, seat) if seat is not None else []
        seen.append((GAME.pending_tasks(state), GAME.view(state, None), seat, legal))

    state, _ = playout(map_id, players, seed, on_step=record)
    return state, seen


# --- CLIENTS.md ------------------------------------------------------------------------------


def _worked_game() -> Match:
    """The worked game of CLIENTS.md, replayed to its end."""
    m = Match(players=3, seed=1)
    for value in _json_values(_section("A worked game")):
        if "type" in value:
            m.do(flow.to_act(m.state), msgspec.convert(value, mv.Move))  # type: ignore[arg-type]
            _run_system(m)
    return m


def test_worked_game_in_clients_md_replays_every_example_as_a_legal_move():
    m = Match(players=3, seed=1)
    kinds = set()
    for value in _json_values(_section("A worked game")):
        view = GAME.view(m.state, None)
        if "type" not in value:
            for key, shown in value.items():
                assert view[key] == shown, key
            continue
        move = msgspec.convert(value, mv.Move)
        seat = view["decision"]["seat"]
        assert seat == flow.to_act(m.state)
        assert value["type"] in view["decision"]["moves"]
        assert move in GAME.legal_moves(m.state, seat), value
        m.do(seat, move)
        _run_system(m)
        kinds.add(value["type"])
    player_moves = {
        t.__struct_config__.tag for t in mv.Move.__args__ if t not in mv.SystemMove.__args__
    }
    st_lucia_only = {"buy_first", "decline_first"}
    assert kinds == player_moves - st_lucia_only


def test_json_examples_outside_the_worked_game_are_posting_bodies_with_real_moves():
    rest = GUIDE.replace(_section("A worked game"), "").replace(_section("The event log"), "")
    rest = rest.replace(_section("Positions"), "")  # test_aos_position_doc.py plays those
    values = _json_values(rest)
    assert values
    for value in values:
        assert set(value) == {"move", "expected_version"}
        msgspec.convert(value["move"], mv.Move)


def test_clients_md_documents_every_view_field():
    structs = (cv.ViewDoc, cv.Decision, cv.PlayerView, cv.AuctionView, cv.CityView,
               cv.SectionView, cv.TrackView, cv.LinkView)  # fmt: skip
    missing = [
        f"{s.__name__}.{name}"
        for s in structs for name in s.__struct_fields__ if f"`{name}`" not in GUIDE
    ]  # fmt: skip
    assert not missing


def test_clients_md_lists_every_player_move_type_with_its_fields():
    table = _section("Decisions")
    for t in mv.Move.__args__:
        if t in mv.SystemMove.__args__:
            continue
        assert f"`{t.__struct_config__.tag}`" in table
        for field in t.__struct_fields__:
            assert f"`{field}`" in table, (t, field)


def _source_codes() -> set[str]:
    pattern = r'(?:Refusal|IllegalMove|BadRequest)\(\s*"([a-z_]+)"'
    return {c for f in PLUGIN.glob("*.py") for c in re.findall(pattern, f.read_text())}


def test_clients_md_lists_exactly_the_refusal_codes_the_game_raises():
    rows = [line.split("|")[2] for line in _section("Refusals").splitlines()
            if line.startswith("| ") and not line.startswith("| area")]  # fmt: skip
    listed = {c for row in rows for c in re.findall(r"`([a-z_]+)`", row)}
    assert listed == _source_codes()


# --- the view ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("map_id", "players", "seed"), GAMES)
def test_view_is_json_and_decodes_as_the_documented_structs(map_id, players, seed):
    for _tasks, view, _seat, _legal in _walk(map_id, players, seed)[1]:
        assert json.loads(json.dumps(view)) == view
        doc = msgspec.convert(view, cv.ViewDoc, strict=True)
        assert msgspec.to_builtins(doc) == view
        assert doc.step == cv.STEP_NAMES[doc.phase]
        assert sum(view["bag"].values()) == view["bag_total"]
        assert "queue" not in view and "net" not in view


@pytest.mark.parametrize(("map_id", "players", "seed"), GAMES)
def test_decision_names_the_seat_pending_tasks_wait_for_and_the_legal_move_types(
    map_id, players, seed
):
    for tasks, view, seat, legal in _walk(map_id, players, seed)[1]:
        d = view["decision"]
        if view["phase"] == "over":
            assert d["kind"] == "game_over" and not tasks
            continue
        (task,) = tasks
        if task.kind == "system":
            assert d["kind"] == "system" and d["seat"] is None and d["moves"] == []
            continue
        assert d["seat"] == task.seat == seat == view["to_act"]
        types = {_type(m) for m in legal}
        assert types <= set(d["moves"])
        if d["kind"] not in ("build", "move_goods"):
            assert types == set(d["moves"]), (d, types)
        else:  # a build or a delivery may have no legal instance; the rest always do
            assert set(d["moves"]) - types <= {"build", "move_good"}


def _check_move_refers_to_view_or_board(move: Any, view: dict[str, Any], seat: int) -> None:
    d = view["decision"]
    board = BOARD["maps"][view["map"]]
    hexes = {(c, r): t for c, r, t in board["hexes"]}
    me = view["players"][seat]
    match move:
        case mv.IssueShares(count=count):
            assert 0 <= count <= d["count"]
        case mv.Bid(amount=amount):
            assert d["min_bid"] <= amount <= d["max_bid"] == me["money"]
        case mv.TurnOrderPass():
            assert view["auction"]["free_pass_seat"] == seat
        case mv.SelectAction(action=action):
            assert action in d["options"] == view["actions_open"]
            assert action in board["actions"]
        case mv.Urbanize(col=col, row=row, city=city):
            assert {"col": col, "row": row} in [{"col": t["col"], "row": t["row"]}
                                                for t in board["towns"]]  # fmt: skip
            assert city in [c["letter"] for c in board["new_cities"]]
            assert city not in [c["new_city"] for c in view["cities"]]
        case mv.Build(col=col, row=row, tile=tile, rotation=rotation):
            assert hexes[(col, row)] in ("clear", "river", "mountain")
            on_hex = [x["tile"] for x in view["track"] if x["hex"] == f"{col},{row}"]
            assert view["tiles"][tile] > 0 or on_hex  # a redirect returns the old tile
            (spec,) = [t for t in BOARD["tiles"] if t["tile"] == tile]
            town = f"{col},{row}" in {t["hex"] for t in board["towns"]}
            options = spec["on_town"] if town else spec["rotations"]
            assert rotation in [o["rotation"] for o in options]
            assert me["money"] > 0 and d["count"] == view["builds_left"] > 0
        case mv.MoveGood(col=col, row=row, color=color, steps=steps):
            key = f"{col},{row}"
            cubes = [c["cubes"] for c in view["cities"] if c["hex"] == key]
            cubes.append(view["land_goods"].get(key, {}))
            assert any(color in c for c in cubes)
            assert 1 <= len(steps) <= me["engine"] and all(0 <= s <= 5 for s in steps)
            assert any(key in link["ends"] + link["hexes"] for link in view["links"])
        case mv.RaiseEngine():
            assert me["engine"] < 6 and not me["engine_raised"]
        case mv.PlaceCube(column=column):
            spaces = {c["column"]: c["spaces"] for c in board["display"]}
            assert len(view["display"][column]) < spaces[column]
            assert view["production"][0] == d["cube"]
        case _:
            assert not msgspec.structs.asdict(move), move  # moves without fields


@pytest.mark.parametrize(("map_id", "players", "seed"), GAMES)
def test_every_field_of_every_legal_move_refers_to_the_view_or_the_board(map_id, players, seed):
    checked = 0
    for _tasks, view, seat, legal in _walk(map_id, players, seed)[1]:
        for move in legal:
            _check_move_refers_to_view_or_board(move, view, seat)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(("map_id", "players", "seed"), GAMES)
def test_track_rotation_in_the_view_gives_the_sections_by_the_board_tile_pictures(
    map_id, players, seed
):
    tiles = {t["tile"]: t for t in BOARD["tiles"]}
    state, _ = _walk(map_id, players, seed)
    view = GAME.view(state, 0)
    assert view["track"]
    for t in view["track"]:
        spec = tiles[t["tile"]]
        sides = sorted(sorted(s["sides"]) for s in t["sections"])
        if t["town"]:
            (pic,) = [o["spokes"] for o in spec["on_town"] if o["rotation"] == t["rotation"]]
            assert sides == [[s] for s in pic]
        else:
            (pic,) = [o["tracks"] for o in spec["rotations"] if o["rotation"] == t["rotation"]]
            assert sides == sorted(pic)


def test_links_in_the_view_are_owned_by_the_owner_of_their_track():
    m = Match(players=3)
    m.evansville_to_cincinnati(0)
    view = GAME.view(m.state, None)
    assert {(tuple(link["ends"]), link["complete"], link["owner"]) for link in view["links"]} \
        == {(("9,9", "10,8"), True, 0), (("10,8", "12,8"), True, 0)}  # fmt: skip
    m.lay(1, (7, 4, "straight", 0))  # from Chicago, pointing at Milwaukee: unfinished
    (open_link,) = [x for x in GAME.view(m.state, None)["links"] if not x["complete"]]
    assert open_link == {"owner": 1, "complete": False, "ends": ["7,5"], "hexes": ["7,4"],
                         "open_end": ["7,4", 0]}  # fmt: skip


def test_view_counts_cubes_by_colour_in_cities_and_new_cities():
    m = Match(players=3)
    m.put_goods(9, 9, ["red", "red", "blue"])
    m.state.actions["urbanization"] = 0
    m.at_build(0)
    m.do(0, mv.Urbanize(10, 8, "B"))
    m.put_goods(10, 8, ["black"])
    cities = {c["hex"]: c for c in GAME.view(m.state, None)["cities"]}
    assert cities["9,9"]["cubes"] == {"blue": 1, "red": 2}
    assert cities["10,8"] == {"hex": "10,8", "name": "Indianapolis", "color": "blue",
                              "new_city": "B", "cubes": {"black": 1}}  # fmt: skip


# --- the board metadata ------------------------------------------------------------------------


def test_get_games_serves_the_age_of_steam_board_and_guide(service):
    from litestar.testing import TestClient

    from api.app import create_app

    with TestClient(create_app(service)) as client:
        response = client.get("/games")
    assert response.status_code == 200
    (entry,) = [g for g in response.json() if g["id"] == "age-of-steam"]
    assert entry["metadata"]["clients"] == "plugins/age_of_steam/CLIENTS.md"
    assert entry["metadata"]["board"] == json.loads(json.dumps(BOARD))


def test_board_metadata_is_small_and_points_to_clients_md():
    assert len(msgspec.json.encode(GAME.metadata)) < 64_000
    assert (PLUGIN.parents[1] / GAME.metadata["clients"]).is_file()
    assert set(BOARD["maps"]) == {"rust_belt", "barbados", "st_lucia"}


@pytest.mark.parametrize("map_id", ["rust_belt", "barbados", "st_lucia"])
def test_board_metadata_places_cities_and_towns_on_listed_hexes(map_id):
    board = BOARD["maps"][map_id]
    terrain = {f"{c},{r}": t for c, r, t in board["hexes"]}
    assert all(terrain[c["hex"]] == "city" for c in board["cities"])
    assert all(terrain[t["hex"]] == "clear" for t in board["towns"])
    letters = {c["letter"] for c in board["new_cities"]}
    assert {d["new_city"] for d in board["display"]} <= letters | {None}


def test_board_tile_pictures_are_distinct_per_rotation_and_use_sides_0_to_5():
    for t in BOARD["tiles"]:
        pictures = [o.get("tracks", o.get("spokes")) for o in t["rotations"]]
        assert t["rotations"][0]["rotation"] == 0
        assert len({json.dumps(p) for p in pictures}) == len(pictures)
        for o in t["rotations"] + t["on_town"]:
            flat = [s for x in o.get("tracks", [o.get("spokes", [])]) for s in x]
            assert flat and all(0 <= s <= 5 for s in flat), (t["tile"], o)


def test_a_system_step_is_described_without_a_seat():
    m = Match(players=3)
    m.state.phase, m.state.queue = "settle", []
    d = GAME.view(m.state, 2)["decision"]
    assert d == {"seat": None, "kind": "system", "moves": [],
                 "prompt": "the server runs this step: collect income, pay expenses, "
                 "reduce income"}  # fmt: skip
    assert GAME.pending_tasks(m.state)[0].move == mv.Settle()
    assert GAME.legal_moves(m.state, SYSTEM) == []


# --- the event log ---------------------------------------------------------------------------

HEX = re.compile(r"^\d+,\d+$")
LOG_GAMES = [*GAMES, ("st_lucia", 2, 7)]


def _hexes(value: Any, key: str = "") -> list[str]:
    """Every value of a field that names a hex, anywhere in a payload."""
    if isinstance(value, dict):
        return [h for k, v in value.items() for h in _hexes(v, k)]
    if isinstance(value, list):
        return [h for v in value for h in _hexes(v, key)]
    return [value] if key in ("hex", "start", "end") else []


def _log_table() -> dict[str, str]:
    rows = [line.split("|") for line in _section("The event log").splitlines()
            if line.startswith("| `")]  # fmt: skip
    return {row[1].strip().strip("`"): row[2] for row in rows}


def test_clients_md_documents_every_event_type_with_exactly_its_payload_fields():
    table = _log_table()
    tags = {t.__struct_config__.tag for t in ev.Event.__args__}
    assert set(table) == tags == set(log.FORMS)
    for tag, form in log.FORMS.items():
        fields = re.sub(r"\([^()]*\)", "", table[tag]).strip()
        listed = re.findall(r"(?:^|, )`([a-z_]+)`", fields)
        assert listed == list(form.__struct_fields__), tag


def test_every_event_type_of_full_games_redacts_to_its_documented_form():
    events = list(_worked_game().events)
    for map_id, players, seed in LOG_GAMES:
        events += playout(map_id, players, seed)[1]
    on_board = {f"{c},{r}" for m in BOARD["maps"].values() for c, r, _terrain in m["hexes"]}
    seen = set()
    for event in events:
        tag = type(event).__struct_config__.tag
        payload = GAME.redact(event, None)
        # Nothing is hidden: every seat reads what a spectator reads.
        assert GAME.redact(event, 0) == payload
        assert json.loads(json.dumps(payload)) == payload
        form = msgspec.convert(payload, log.FORMS[tag], strict=True)
        assert msgspec.to_builtins(form) == payload, tag
        for h in [*_hexes(payload), *payload.get("goods", {})]:
            assert HEX.match(h) and h in on_board, (tag, h)
        seen.add(tag)
    assert seen == set(log.FORMS)


def test_log_keeps_dice_draws_and_payments_visible():
    for event in playout("rust_belt", 3, 2)[1]:
        payload = GAME.redact(event, 1)
        if isinstance(event, ev.GoodsGrown):
            assert payload == {"light": event.light, "dark": event.dark}
        elif isinstance(event, ev.ProductionDrawn):
            assert payload["cubes"] == event.cubes
        elif isinstance(event, ev.ExpensesPaid):
            assert payload["paid"] == event.paid
        elif isinstance(event, ev.TrackBuilt):
            assert payload["hex"] == f"{event.col},{event.row}"
            assert payload["cost"] == event.cost


def test_log_writes_ownerless_track_and_town_spokes_like_the_view():
    built = ev.TrackBuilt(
        seat=2, col=7, row=3, tile="town_1", rotation=3, kind="place", cost=3,
        sections=[[3, 6, -1, 4]], claimed=[(7, 4, 0)],
    )  # fmt: skip
    payload = GAME.redact(built, None)
    assert payload["sections"] == [{"sides": [3], "owner": None, "laid": 4}]
    assert payload["claimed"] == [{"hex": "7,4", "side": 0}]


def test_the_log_example_in_clients_md_is_an_event_of_the_worked_game():
    (example,) = _json_values(_section("The event log"))
    log_of_game = [
        {"type": type(e).__struct_config__.tag, "payload": GAME.redact(e, None)}
        for e in _worked_game().events
    ]
    assert example in log_of_game
