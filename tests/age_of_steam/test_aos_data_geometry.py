"""Map data validation and track-tile geometry: every shape, every rotation, joins."""

from __future__ import annotations

import json

import msgspec
import pytest

from plugins.age_of_steam import data as aos_data
from plugins.age_of_steam.data import DataError, board, components
from plugins.age_of_steam.geometry import SIDES, neighbour, opposite, rotate_tracks
from plugins.age_of_steam.track import town_options

SHAPES = board("rust_belt").shapes


def test_rust_belt_has_189_hexes_12_cities_14_towns():
    b = board("rust_belt")
    assert len(b.coords) == 189
    assert sum(c >= 0 for c in b.city_at) == 12
    assert sum(t >= 0 for t in b.town_at) == 14
    assert b.terrain.count("water") == 27 and b.terrain.count("river") == 19
    assert b.terrain.count("mountain") == 9


def test_small_maps_match_their_reference_counts():
    assert len(board("barbados").coords) == 50 and len(board("barbados").spec.cities) == 6
    stl = board("st_lucia")
    assert len(stl.coords) == 59 and not stl.spec.cities and len(stl.spec.towns) == 11


def test_track_tile_counts_sum_to_the_official_136():
    assert sum(t.count for t in components().tiles) == 136


def test_goods_display_has_52_spaces_and_bag_96_cubes():
    b = board("rust_belt")
    assert sum(d.spaces for d in b.spec.display) == 52
    assert b.total_cubes == 96


def test_neighbours_follow_odd_q_layout():
    # even column: NE is up a row, SE same row; odd column: NE same row, SE down a row
    assert neighbour(2, 5, 1) == (3, 4) and neighbour(2, 5, 2) == (3, 5)
    assert neighbour(3, 5, 1) == (4, 5) and neighbour(3, 5, 2) == (4, 6)
    for col in (2, 3):
        for side in range(6):
            there = neighbour(col, 5, side)
            assert neighbour(*there, opposite(side)) == (col, 5)


@pytest.mark.parametrize(
    ("name", "distinct"),
    [
        ("straight", 3), ("gentle", 6), ("sharp", 6), ("x", 3), ("bow", 6),
        ("crossing_curves", 6), ("straight_sharp", 6), ("coexist_gentle", 3),
        ("gentle_sharp_1", 6), ("gentle_sharp_2", 6),
    ],
)  # fmt: skip
def test_every_plain_tile_rotation_is_distinct_and_keeps_its_shape(name, distinct):
    shape = SHAPES[name]
    assert len(shape.orientations) == distinct
    assert min(shape.orientations) == 0
    base = shape.orientations[0]
    for r, tracks in shape.orientations.items():
        assert tracks == rotate_tracks(base, r)
        # a track's span (how many sides apart its ends are) never changes with rotation
        spans = sorted(min((b - a) % 6, (a - b) % 6) for a, b in tracks)
        assert spans == sorted(min((b - a) % 6, (a - b) % 6) for a, b in base)
    assert len(set(shape.orientations.values())) == distinct


@pytest.mark.parametrize(
    ("name", "distinct"),
    [("town_1", 6), ("town_3_y", 2), ("town_3_left", 6), ("town_3_right", 6),
     ("town_3_tight", 6)],
)  # fmt: skip
def test_every_town_tile_rotation_gives_new_spokes(name, distinct):
    opts = town_options(SHAPES[name])
    assert len(opts) == distinct == len(set(opts.values()))


def test_plain_tiles_on_a_town_give_2_or_4_spokes():
    assert set(town_options(SHAPES["straight"]).values()) == {(0, 3), (1, 4), (2, 5)}
    assert all(len(s) == 4 for s in town_options(SHAPES["x"]).values())


def test_crossing_and_coexisting_classes_follow_geometry():
    for shape in SHAPES.values():
        if shape.cls in ("crossing", "coexisting"):
            (a, b), (c, d) = shape.orientations[0]
            crosses = (a < c < b) != (a < d < b)
            assert crosses == (shape.cls == "crossing"), shape.name


def test_sides_are_named_clockwise_from_north():
    assert SIDES == ("N", "NE", "SE", "S", "SW", "NW")


def test_data_refuses_a_city_off_its_hex(tmp_path, monkeypatch):
    doc = json.loads((aos_data.DATA_DIR / "barbados.json").read_text())
    doc["cities"][0]["col"] = 1  # (1,0) is a mountain
    (tmp_path / "barbados.json").write_text(json.dumps(doc))
    (tmp_path / "components.json").write_text((aos_data.DATA_DIR / "components.json").read_text())
    monkeypatch.setattr(aos_data, "DATA_DIR", tmp_path)
    aos_data.board.cache_clear()
    aos_data.components.cache_clear()
    try:
        with pytest.raises(DataError, match="not on a city hex"):
            aos_data.board("barbados")
    finally:
        monkeypatch.undo()
        aos_data.board.cache_clear()
        aos_data.components.cache_clear()


def test_data_refuses_unknown_fields():
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"turn_order": "auction", "surprise": 1}, aos_data.Rules)


def _beyond_is_land(b, col: int, row: int, side: int) -> bool:
    n = b.nbr[b.hex_of(col, row)][side]
    return n >= 0 and b.terrain[n] != "water"


@pytest.mark.parametrize("name", [n for n, s in SHAPES.items() if s.cls != "town"])
def test_every_rotation_joins_a_city_only_through_the_side_that_faces_it(name):
    from aos_helpers import Match

    from plugins.age_of_steam.track import Plan, plan

    m = Match()
    m.state.pl[0].built = True  # so complex tiles are judged by their joins alone
    b = m.board
    for r, tracks in SHAPES[name].orientations.items():
        # (7,4) touches Chicago only by its S side (3); each track must touch something
        expected = all(3 in t for t in tracks) and all(
            _beyond_is_land(b, 7, 4, s) for t in tracks for s in t
        )
        accepted = isinstance(plan(b, m.state, 0, b.hex_of(7, 4), name, r), Plan)
        assert accepted == expected, (name, r, tracks)


@pytest.mark.parametrize("name", list(SHAPES))
def test_every_town_orientation_joins_the_track_that_reaches_it(name):
    from aos_helpers import Match

    from plugins.age_of_steam.track import Plan, plan

    m = Match()
    m.lay(0, (7, 4, "straight", 0))  # Chicago -> (7,4) -> Milwaukee's S side
    b = m.board
    for r, spokes in town_options(SHAPES[name]).items():
        expected = 3 in spokes and all(_beyond_is_land(b, 7, 3, s) for s in spokes)
        accepted = isinstance(plan(b, m.state, 0, b.hex_of(7, 3), name, r), Plan)
        assert accepted == expected, (name, r, spokes)
