"""The board layouts web clients draw from: every place of each board has a position, the
files are checked on load, and ``GET /games/{id}`` serves them with the board metadata."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from core.service import MatchService
from plugins.brass.data import DataError
from plugins.brass.layout import Layout, check_layout
from plugins.brass_birmingham.data import DATA as BB_DATA
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.data import DATA_DIR as BP_DATA
from plugins.brass_pittsburgh.game import BrassPittsburgh

BB = BrassBirmingham()
BP = BrassPittsburgh()
REFERENCE = "/work/shared/reference/brass-birmingham-layout.json"

Box = tuple[float, float, float, float]


@pytest.fixture
def client(service: MatchService) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def _ids(board: dict[str, Any]) -> dict[str, set[str]]:
    """What the board metadata names, by layout section."""
    return {
        "locations": {x["location"] for x in board.get("locations", [])}
        | {x["location"] for x in board.get("cities", [])}
        | {x["location"] for x in board.get("merchant_locations", [])},
        "spaces": {x["space"] for x in board["spaces"]},
        "merchant_spaces": {x["merchant"] for x in board["merchant_spaces"]},
        "links": {x["link"] for x in board["links"]} if "links" in board
        else {x["line"] for x in board["lines"]},
        "pipeline_routes": {x["route"] for x in board.get("pipeline_routes", [])},
        "oilfields": {x["oilfield"] for x in board.get("oilfields", [])},
        "markets": {x["market"] for x in board["markets"]} if "markets" in board else set(),
    }  # fmt: skip


def _assert_every_place_has_a_position(board: dict[str, Any]) -> None:
    layout = board["layout"]
    for kind, ids in _ids(board).items():
        assert set(layout.get(kind, {})) == ids, kind
    for place in itertools.chain(*(layout[k].values() for k in ("locations", "spaces"))):
        for point in (place.get("xy"), place.get("label"), place.get("centre")):
            assert point is None or all(0 <= v <= 1 for v in point)


def test_birmingham_layout_places_every_location_space_merchant_space_and_link() -> None:
    board = BB.metadata["board"]
    _assert_every_place_has_a_position(board)
    assert len(board["layout"]["spaces"]) == 49 and len(board["layout"]["links"]) == 39
    assert len(board["layout"]["merchant_spaces"]) == 9 and len(board["layout"]["locations"]) == 27


def test_birmingham_layout_keeps_the_reference_coordinates() -> None:
    """Copied facts, not redrawn ones: a space, a link tile and a merchant space as the
    shared reference measured them."""
    layout = BB.metadata["board"]["layout"]
    assert layout["spaces"]["belper:0"] == {"xy": [0.7072, 0.0877],
                                            "box": [0.6846, 0.0655, 0.0462, 0.0442]}  # fmt: skip
    assert layout["links"]["belper~derby"]["tile"] == [0.7659, 0.1576]
    assert layout["links"]["belper~derby"]["angle"] == 66.8
    assert layout["merchant_spaces"]["nottingham:1"]["tile"] == [0.9283, 0.1915]
    assert layout["links"]["kidderminster~worcester"]["branch"][-1] == [0.26, 0.8404]


def test_birmingham_layout_matches_the_shared_reference_where_it_is_mounted() -> None:
    try:
        with open(REFERENCE, encoding="utf-8") as fh:
            ref = json.load(fh)
    except OSError:
        pytest.skip("the shared reference is not mounted here")
    layout = BB.metadata["board"]["layout"]
    for loc in ref["locations"]:
        for slot in loc["slots"]:
            got = layout["spaces"][f"{loc['id']}:{slot['index']}"]["xy"]
            assert got == pytest.approx(slot["xy"], abs=1e-4)
    for link in ref["links"]:
        assert layout["links"][link["id"]]["tile"] == pytest.approx(link["tile"]["xy"], abs=1e-4)


def test_pittsburgh_layout_places_everything_on_both_board_sides() -> None:
    sides = BP.metadata["board"]["sides"]
    assert set(sides) == {"main", "two_player"}
    for side in sides.values():
        _assert_every_place_has_a_position(side)
        assert side["layout"]["oilfields"] and side["layout"]["pipeline_routes"]


def _city_areas(side: dict[str, Any]) -> dict[str, Box]:
    boxes: dict[str, list[float]] = {}
    for sp in side["spaces"]:
        x, y, w, h = side["layout"]["spaces"][sp["space"]]["box"]
        b = boxes.setdefault(sp["location"], [x, y, x + w, y + h])
        b[:] = [min(b[0], x), min(b[1], y), max(b[2], x + w), max(b[3], y + h)]
    return {k: (b[0], b[1], b[2], b[3]) for k, b in boxes.items()}


def _overlap(a: Box, b: Box, pad: float = 0.0) -> bool:
    return a[0] - pad < b[2] and b[0] - pad < a[2] and a[1] - pad < b[3] and b[1] - pad < a[3]


@pytest.mark.parametrize("side_id", ["main", "two_player"])
def test_pittsburgh_schematic_keeps_cities_apart_and_link_tiles_off_them(side_id: str) -> None:
    """The designed board must stay legible: no two cities' spaces within a link tile's
    width of each other, no line's or pipeline's tile spot on a city's spaces."""
    side = BP.metadata["board"]["sides"][side_id]
    areas = _city_areas(side)
    tile_w = side["layout"]["sizes"]["link_tile"][0]
    for (a, box_a), (b, box_b) in itertools.combinations(areas.items(), 2):
        assert not _overlap(box_a, box_b, pad=tile_w), (a, b)
    spots = [p["tile"] for p in side["layout"]["links"].values()]
    spots += [p["tile"] for p in side["layout"]["pipeline_routes"].values()]
    for x, y in spots:
        assert not any(_overlap((x, y, x, y), box) for box in areas.values()), (x, y)


def test_a_layout_missing_a_space_or_naming_an_unknown_one_is_refused() -> None:
    layout = msgspec.json.decode((BB_DATA / "layout.json").read_bytes(), type=Layout)
    ids = {"spaces": [*layout.spaces, "nowhere:0"]}
    with pytest.raises(DataError, match="spaces without a position: nowhere:0"):
        check_layout(layout, ids, "layout.json")
    with pytest.raises(DataError, match="spaces the board does not have: belper:0"):
        check_layout(layout, {"spaces": [s for s in layout.spaces if s != "belper:0"]}, "x")


def test_a_layout_point_off_the_board_is_refused() -> None:
    layout = msgspec.json.decode((BB_DATA / "layout.json").read_bytes(), type=Layout)
    links = dict(layout.links)
    links["belper~derby"] = msgspec.structs.replace(links["belper~derby"], tile=(1.2, 0.5))
    with pytest.raises(DataError, match=r"links belper~derby: \[1.2, 0.5\] is off the board"):
        check_layout(msgspec.structs.replace(layout, links=links), {}, "layout.json")


def test_pittsburgh_layout_file_is_stamped_with_the_data_version() -> None:
    header = json.loads((BP_DATA / "layout.json").read_text())["_"]
    assert header["version"] == BP.metadata["data_version"] and header["confidence"] == "low"


def test_get_games_serves_each_layout_with_its_board(client: TestClient[Any]) -> None:
    bb = client.get("/games/brass-birmingham").json()["metadata"]["board"]
    _assert_every_place_has_a_position(bb)
    assert "_" not in bb["layout"]
    bp = client.get("/games/brass-pittsburgh").json()["metadata"]["board"]
    for side in bp["sides"].values():
        _assert_every_place_has_a_position(side)
