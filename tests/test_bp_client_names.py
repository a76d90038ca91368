"""Brass: Pittsburgh speaks names to clients: every listed move's fields are ids the view or
the board metadata shows, unknown names are refused with codes, the log names what it
touches for every reader, and views hide hands, the deck and face-down oilfield tiles."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient
from test_bp_api import client  # noqa: F401  (the API fixture)

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass_pittsburgh import internal_moves as im
from plugins.brass_pittsburgh import moves as pm
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.state import State

GUIDE = Path(__file__).parent.parent / "plugins" / "brass_pittsburgh" / "CLIENTS.md"
NAMED_KEYS = {
    "space", "spaces", "tile", "line", "lines", "route", "market", "merchant", "oilfield",
    "cards", "hand",
}  # fmt: skip
"""Log fields that name board or card things (never an index)."""


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


def tag(move: Any) -> str:
    return msgspec.json.decode(msgspec.json.encode(move))["type"]


def decisions(game: BrassPittsburgh, players: int, seed: int) -> Iterator[tuple[State, list[Any]]]:
    """Every seat decision along one random game, with the named legal moves; the last
    state yielded is the finished game (no moves)."""
    rng = Random(seed)
    (event,) = game.setup(Options(), players, rng)
    s = game.evolve(None, event)
    while tasks := game.pending_tasks(s):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(s, SYSTEM, task.move, rng)
        else:
            legal = game.legal_moves(s, task.seat)
            yield s, legal
            events = game.decide(s, task.seat, legal[rng.randrange(len(legal))], rng)
        for e in events:
            s = game.evolve(s, e)
    yield s, []


def assert_move_speaks_the_view(move: Any, view: dict[str, Any], board: dict[str, Any]) -> None:
    me = view["players"][view["decision"]["seat"]]
    hand = view["hand"]
    spaces = {sp["space"] for sp in board["spaces"]}
    t = type(move)
    if t is pm.Build:
        assert (move.card is None) == move.whiskey and (move.card is None or move.card in hand)
        assert move.tile in me["accessible"]
        assert (move.space is None) != (move.oilfield is None)
        assert move.space is None or move.space in spaces
        assert move.oilfield is None or move.oilfield in {o["oilfield"] for o in view["oilfields"]}
    elif t in (pm.Network, pm.SecondLink):
        assert move.link in me["link_supply"] or (move.link == "LT" and me["light_trains"] > 0)
        sites = {x["line"] for x in board["lines"]} | {x["route"] for x in board["pipeline_routes"]}
        assert move.site in sites
    elif t in (pm.Develop, pm.DevelopAlso, pm.FreeDevelop):
        assert move.tile in me["accessible"]
    elif t in (pm.Sell, pm.SellAlso, pm.BonusSell):
        assert move.space in {x["space"] for x in view["tiles"] if x["owner"] == me["seat"]}
        assert move.merchant in {x["merchant"] for x in view["merchants"] if x["face_up"]}
    elif t is pm.Pay:
        at = {
            "train": {x["line"] for x in view["lines"] if x["cargo"]},
            "tile": {x["space"] for x in view["tiles"] if x["resources"]},
            "market": {x["market"] for x in view["markets"]},
            "pipeline": {x["route"] for x in view["pipelines"]},
            "vanderbilt": {None},
        }[move.source]
        assert move.at in at
    elif t is pm.SellProduced:
        assert set(move.plan) <= {x["market"] for x in view["markets"]}
    elif t is pm.ClaimQuality:
        assert move.reward in {x["reward"] for x in view["quality_rewards"] if x["face_up"]}
    elif t is pm.Discard:
        assert move.card in hand
    assert tag(move) in view["decision"]["moves"], (tag(move), view["decision"])


@pytest.mark.parametrize("players", [2, 4])
def test_every_listed_move_names_only_ids_the_view_or_board_shows(
    game: BrassPittsburgh, players: int
) -> None:
    kinds: set[str] = set()
    for s, legal in decisions(game, players, seed=players):
        if not legal:
            continue
        view = game.view(s, s.current)
        board = game.metadata["board"]["sides"][s.side]
        for move in legal:
            assert_move_speaks_the_view(move, view, board)
            kinds.add(tag(move))
    assert {"build", "network", "develop", "discard", "pay", "second_link"} <= kinds


def test_hand_discards_and_moves_use_one_card_scheme(game: BrassPittsburgh) -> None:
    for s, legal in decisions(game, 3, seed=1):
        view = game.view(s, s.current)
        assert all(re.fullmatch(r"(location|industry):[a-z_]+", c) for c in view["hand"])
        cards = {m.card for m in legal if isinstance(m, (pm.Discard, pm.Build)) and m.card}
        assert cards <= set(view["hand"])
        break


def first_turn(game: BrassPittsburgh) -> State:
    (event,) = game.setup(Options(), 4, Random(5))
    return game.evolve(None, event)


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (pm.Build(card="pittsburgh", tile="K1", space="pittsburgh:0"), "unknown_card"),
        (pm.Build(card="location:pittsburgh", tile="Z9", space="pittsburgh:0"), "unknown_tile"),
        (pm.Build(card="location:pittsburgh", tile="K1", space="pittsburgh:99"), "unknown_space"),
        (pm.Build(card="industry:coal", tile="OC", oilfield="atlantis"), "unknown_oilfield"),
        (pm.Build(tile="K1", space="erie:0"), "build_card"),
        (pm.Build(card="industry:coal", tile="C1", space="erie:0", whiskey=True), "build_card"),
        (pm.Build(card="industry:coal", tile="C1"), "build_site"),
        (
            pm.Build(card="industry:coal", tile="OC", space="erie:0", oilfield="venango"),
            "build_site",
        ),
        (pm.Network("LT", "erie~atlantis"), "unknown_line"),
        (pm.Network("HT_NOPE", "erie~meadville"), "unknown_link"),
        (pm.Network("LT", "oil_creek~titusville"), "train_on_route"),
        (pm.Network("PL_MONEY1", "erie~meadville"), "pipeline_on_line"),
        (pm.Network("PL_MONEY1", "oil_creek~atlantis"), "unknown_route"),
        (pm.Develop("K0"), "unknown_tile"),
        (pm.Sell("erie:0", "atlantis:0"), "unknown_merchant"),
        (pm.Discard("wild:location"), "unknown_card"),
        (pm.Pay("coal", "market", "ci_atlantis"), "unknown_market"),
        (pm.Pay("coal", "vanderbilt", "erie:0"), "bad_source"),
        (pm.Pay("coal", "tile", None), "bad_source"),
        (pm.ClaimQuality("QR_1_EVERYTHING"), "unknown_quality_reward"),
    ],
)
def test_an_unknown_name_is_refused_with_a_code_saying_what_names_look_like(
    game: BrassPittsburgh, move: Any, code: str
) -> None:
    s = first_turn(game)
    with pytest.raises(IllegalMove) as info:
        game.decide(s, s.current, move, Random(0))
    assert info.value.code == code
    assert info.value.message != code and " " in info.value.message  # a sentence


def test_a_named_move_is_decided_like_its_listed_form(game: BrassPittsburgh) -> None:
    s = first_turn(game)
    build = next(m for m in game.legal_moves(s, s.current) if isinstance(m, pm.Build))
    events = game.decide(
        s, s.current, msgspec.json.decode(msgspec.json.encode(build), type=pm.Move), Random(0)
    )
    shown = [game.redact(e, None) for e in events]
    placed = next(e for e in shown if "space" in e and "tile" in e)
    assert placed["space"] == build.space and placed["tile"] == build.tile


def test_a_listing_from_the_named_tables_names_the_engines_listing_move_for_move(
    game: BrassPittsburgh,
) -> None:
    # The game lists an action's first moves, a discard and a second link's offer from its
    # side's named move tables, not by naming the engine's listing: both must give the
    # same moves in the same order.
    from plugins.brass_pittsburgh import engine

    names, seen = game.names, set()
    for players, seed in ((2, 3), (4, 5)):
        for s, legal in decisions(game, players, seed):
            if legal:
                engine_moves = engine.legal_moves(game.rules, s, s.current)
                assert legal == names.encode_all(engine_moves, s)
                assert [names.decode(m, s) for m in legal] == engine_moves
                seen.add((s.side, s.pending[0].kind if s.pending else "action"))
    for side in names.sides:  # both board sides' tables, each listing they serve
        assert {(side, "action"), (side, "discard"), (side, "more_link")} <= seen


def test_a_build_is_named_as_its_declared_vocabulary_names_it(game: BrassPittsburgh) -> None:
    # The listing names builds through a written-out encoder (speed); the declared
    # vocabulary, which also decodes them, is the reference for every optional field.
    names, s = game.names, first_turn(game)
    for side, n in names.sides.items():
        board, declared = game.rules.board_of(side), n.vocabulary.encoders[im.Build]
        for card in (-1, 0, len(names.card) - 1):
            for space in range(len(game.rules.mat.tiles)):
                for slot, field in ((-1, 0), (-1, len(board.oilfields) - 1), (0, -1), (9, -1)):
                    m = im.Build(
                        card=card, space=space, slot=slot, oilfield=field, whiskey=card < 0
                    )
                    named = names._encode(m, s, n)
                    assert named == declared(m) and type(named) is pm.Build


def test_views_hide_other_hands_the_deck_and_face_down_oilfield_tiles(
    game: BrassPittsburgh,
) -> None:
    s = first_turn(game)
    text = json.dumps(game.view(s, 0))
    for hidden in ("hands", 'deck"', 'facedown"', "oil_pending"):
        assert hidden not in text
    assert all(t not in text for t in s.oilfield_tile if t)
    assert game.view(s, None)["hand"] is None
    for seed in range(3):
        other = game.sample_hidden(s, 0, Random(seed))
        assert game.view(other, 0) == game.view(s, 0)


def test_log_entries_name_what_they_touch_for_every_reader(game: BrassPittsburgh) -> None:
    rng = Random(3)
    (event,) = game.setup(Options(), 2, rng)
    s = game.evolve(None, event)
    log = [event]
    while tasks := game.pending_tasks(s):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(s, SYSTEM, task.move, rng)
        else:
            legal = game.legal_moves(s, task.seat)
            events = game.decide(s, task.seat, legal[rng.randrange(len(legal))], rng)
        for e in events:
            s = game.evolve(s, e)
        log += events
    assert s.side == "two_player"  # its indices differ from the main side's
    board = game.metadata["board"]["sides"][s.side]
    spaces = {x["space"] for x in board["spaces"]}
    lines = {x["line"] for x in board["lines"]}
    named = 0
    for reader in (0, 1, None):
        for e in log:
            shown = game.redact_in_match(s, e, reader)
            msgspec.json.encode(shown)
            for key in NAMED_KEYS & shown.keys():
                values = shown[key] if isinstance(shown[key], list) else [shown[key]]
                assert not any(isinstance(v, int) for v in values), (key, shown)
                named += 1
            if type(e).__name__ in ("TilePlaced", "CubeTaken", "TileFlipped"):
                assert shown["space"] in spaces
            if "line" in shown:
                assert shown["line"] in lines
            if "hand" in shown and reader is None:
                assert shown["hand"] is None
    assert named > 100


def test_the_api_log_reads_board_ids_on_the_side_in_play(
    client: TestClient[Any],  # noqa: F811  (the fixture imported above)
) -> None:
    # a two-player match plays the two-player side, whose indices differ from the main's
    created = client.post(
        "/matches", json={"game": "brass-pittsburgh", "players": 2, "seed": "names"}
    ).json()
    match_id = created["id"]
    tokens = [client.post(f"/matches/{match_id}/seats/{i}/claim").json()["token"] for i in (0, 1)]
    seat = client.get(f"/matches/{match_id}").json()["view"]["decision"]["seat"]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    listed = client.get(f"/matches/{match_id}/moves", headers=auth).json()
    build = next(m for m in listed["moves"] if m["type"] == "build" and "space" in m)
    body = {"move": build, "expected_version": listed["version"]}
    assert client.post(f"/matches/{match_id}/moves", json=body, headers=auth).status_code < 300
    log = client.get(f"/matches/{match_id}/events").json()["events"]
    placed = next(e["payload"] for e in log if e["type"] == "tile_placed")
    assert placed["space"] == build["space"] and placed["tile"] == build["tile"]
    tiles = client.get(f"/matches/{match_id}").json()["view"]["tiles"]
    assert [t["space"] for t in tiles] == [build["space"]]


def test_board_metadata_lists_both_sides_with_every_space_and_its_icons(
    game: BrassPittsburgh,
) -> None:
    meta = game.metadata
    assert meta["provisional"] is True and meta["data_version"] and meta["clients"]
    msgspec.json.encode(meta)
    for sid, side in meta["board"]["sides"].items():
        board = game.rules.board_of(sid)
        assert [x["space"] for x in side["spaces"]] == board.slot_name
        assert all(x["icons"] for x in side["spaces"])
        assert len(side["lines"]) == len(board.lines)


def test_every_json_move_in_the_client_guide_decodes_as_a_move() -> None:
    blocks = re.findall(r"```json\n(.*?)```", GUIDE.read_text(), flags=re.S)
    tags = {t.__struct_config__.tag for t in pm.Move.__args__}  # type: ignore[attr-defined]
    found = 0
    for block in blocks:
        doc = json.loads(block)
        for item in doc if isinstance(doc, list) else [doc]:
            if isinstance(item, dict) and item.get("type") in tags:
                msgspec.convert(item, pm.Move)
                found += 1
    assert found >= 8
