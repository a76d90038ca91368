"""Step 4, Build Track: the cost table and every building rule of the rule text."""

from __future__ import annotations

import pytest
from aos_helpers import Match, cost_of, raw, refusal

from core.errors import IllegalMove
from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.state import OWNERLESS, TOWN

TOWN_SPOKE = TOWN
# Chicago (7,5) is south of clear hex (7,4), which is south of the town Milwaukee (7,3).
# Clear hex (8,6) touches Chicago by its NW side (5) and the town Michigan City (9,5) by NE (1).


def _own_spoke_at_michigan_city(m: Match, seat: int) -> None:
    raw(m, 9, 5, "town_1", [[4, TOWN_SPOKE, seat, 1]])


# --- cost table ------------------------------------------------------------------------------


def test_cost_simple_track_is_2():
    m = Match()
    assert cost_of(m, 0, 7, 4, "straight", 0) == 2


def test_cost_river_hex_adds_1():
    m = Match()
    m.at_build(0)
    # (2,3) is a river hex touching Minneapolis (1,2) by its NW side
    assert cost_of(m, 0, 2, 3, "gentle", 3) == 3


def test_cost_mountain_hex_adds_2():
    m = Match()
    # (17,7) is a mountain touching Wheeling (16,8) by its SW side
    assert cost_of(m, 0, 17, 7, "sharp", 3) == 4


def test_cost_complex_crossing_is_4():
    m = Match()
    _own_spoke_at_michigan_city(m, 0)
    assert cost_of(m, 0, 8, 6, "x", 0) == 4


def test_cost_complex_coexisting_is_3():
    m = Match()
    _own_spoke_at_michigan_city(m, 0)
    assert cost_of(m, 0, 8, 6, "gentle_sharp_2", 1) == 3


@pytest.mark.parametrize(
    ("tile", "rot", "sides"),
    [("town_1", 3, 1), ("straight", 0, 2), ("town_3_left", 0, 3), ("straight_sharp", 0, 4)],
)
def test_cost_town_hex_is_1_plus_1_per_connected_side(tile, rot, sides):
    m = Match()
    m.lay(0, (7, 4, "straight", 0))
    assert cost_of(m, 0, 7, 3, tile, rot) == 1 + sides


def test_cost_replacing_simple_with_crossing_is_3():
    m = Match()
    _own_spoke_at_michigan_city(m, 0)
    m.lay(0, (8, 6, "straight", 2))  # Chicago -> SE, (2,5)
    assert cost_of(m, 0, 8, 6, "x", 0) == 3


def test_cost_replacing_simple_with_coexisting_is_2():
    m = Match()
    _own_spoke_at_michigan_city(m, 0)
    m.lay(0, (8, 6, "sharp", 4))  # (4,5)
    assert cost_of(m, 0, 8, 6, "gentle_sharp_2", 1) == 2


def test_cost_replacing_a_town_tile_is_3():
    m = Match()
    m.lay(0, (7, 4, "straight", 0), (7, 3, "town_1", 3))
    assert cost_of(m, 0, 7, 3, "straight", 0) == 3


def test_cost_redirecting_is_2():
    m = Match()
    m.lay(0, (7, 4, "straight", 0))
    assert cost_of(m, 0, 7, 4, "gentle", 3) == 2


def test_terrain_is_ignored_when_replacing():
    m = Match()
    m.lay(0, (2, 3, "straight", 2))  # river hex, from Minneapolis (side 5) to side 2
    raw(m, 1, 3, "sharp", [[0, 1, 0, 1]])  # Minneapolis -> (1,3) -> open into (2,3) side 4
    assert cost_of(m, 0, 2, 3, "x", 0) == 3


# --- building rules ------------------------------------------------------------------------


def test_first_track_must_connect_to_a_city_with_a_simple_tile():
    m = Match()
    m.at_build(0)
    legal = [x for x in m.legal(0) if isinstance(x, mv.Build)]
    assert legal and all(m.board.shapes[x.tile].cls == "simple" for x in legal)
    assert refusal(m, 0, 7, 3, "town_1", 3) == "first_track_from_city"
    _own = Match()
    _own_spoke_at_michigan_city(_own, 1)
    _own.state.pl[0].built = False
    assert refusal(_own, 0, 8, 6, "x", 0) == "first_track_from_city"


def test_track_cannot_connect_directly_to_another_players_track():
    m = Match()
    m.lay(1, (7, 4, "straight", 0))
    m.state.pl[0].built = True
    assert refusal(m, 0, 7, 3, "town_1", 3) == "joins_other_player"


def test_new_track_must_touch_a_city_or_your_track():
    m = Match()
    m.lay(0, (7, 4, "straight", 0))
    assert refusal(m, 0, 3, 5, "straight", 0) == "not_connected"


def test_cannot_build_on_city_hexes_or_off_the_board_or_on_water():
    m = Match()
    m.at_build(0)
    assert refusal(m, 0, 7, 5, "straight", 0) == "city_hex"
    assert refusal(m, 0, 8, 5, "straight", 0) == "water_hex"
    with pytest.raises(IllegalMove) as err:
        m.do(0, mv.Build(30, 30, "straight", 0))
    assert err.value.code == "off_map"


def test_track_may_not_point_off_the_board():
    m = Match()
    # Kansas City (0,10) in the corner; (0,9) has no hex beyond its west sides
    assert refusal(m, 0, 0, 9, "gentle", 3) == "track_off_map"


def test_only_three_tiles_per_build_turn_without_engineer():
    m = Match()
    m.at_build(0)
    m.do(0, mv.Build(7, 4, "straight", 0))
    m.do(0, mv.Build(7, 3, "town_1", 3))
    m.do(0, mv.Build(7, 6, "straight", 0))
    assert m.legal(0) == [mv.DoneBuilding()]
    with pytest.raises(IllegalMove) as err:
        m.do(0, mv.Build(6, 6, "straight", 1))
    assert err.value.code == "no_builds_left"


def test_building_pays_the_cost():
    m = Match()
    m.at_build(0, money=10)
    m.do(0, mv.Build(7, 4, "straight", 0))
    assert m.state.pl[0].money == 8


def test_cannot_build_what_you_cannot_afford():
    m = Match()
    m.at_build(0, money=1)
    assert [x for x in m.legal(0) if isinstance(x, mv.Build)] == []
    assert refusal(m, 0, 7, 4, "straight", 0) == "cannot_afford"


def test_tiles_are_limited_to_the_supply():
    m = Match()
    m.state.tiles["straight"] = 0
    m.at_build(0)
    assert refusal(m, 0, 7, 4, "straight", 0) == "tile_unavailable"


def test_at_most_8_towns_carry_track():
    m = Match()
    towns = [t for t in m.board.spec.towns if (t.col, t.row) != (7, 3)][:8]
    for t in towns:
        raw(m, t.col, t.row, "town_1", [[0, TOWN_SPOKE, OWNERLESS, 1]])
    m.state.tiles["town_1"] = 3  # the discs run out, not the tiles
    m.lay(0, (7, 4, "straight", 0))
    assert refusal(m, 0, 7, 3, "town_1", 3) == "no_town_discs"


def test_town_track_gets_a_town_disc_and_completes_the_link():
    m = Match()
    m.lay(0, (7, 4, "straight", 0), (7, 3, "town_1", 3))
    net = GAME_NET(m)
    (route,) = net.routes
    assert route.complete and route.owner == 0 and len(route.sections) == 2


def test_a_link_may_not_return_to_its_own_city():
    m = Match()
    # Chicago (7,5) -> (6,5) -> (6,6) -> back to Chicago
    m.lay(0, (6, 5, "sharp", 2))  # sides 2 (Chicago) and 3 (towards (6,6))
    assert refusal(m, 0, 6, 6, "sharp", 0) == "loop"


def test_unfinished_track_is_kept_through_the_turn_it_was_built():
    m = Match()
    m.lay(0, (7, 4, "straight", 0))
    assert m.state.track[m.hex(7, 4)].sections[0][2] == 0


def test_unfinished_track_not_extended_by_the_end_of_your_next_build_is_lost():
    m = Match()
    m.lay(0, (7, 4, "straight", 0))
    m.state.turn = 2
    m.at_build(0)
    events = m.do(0, mv.DoneBuilding())
    assert events[0].abandoned == [(7, 4, 0)]
    assert m.state.track[m.hex(7, 4)].sections[0][2] == OWNERLESS


def test_unfinished_track_extended_in_your_next_build_is_kept():
    m = Match()
    m.lay(0, (6, 5, "straight", 2))  # Chicago -> (6,5) -> open NW towards (5,4)
    m.state.turn = 2
    m.lay(0, (5, 4, "straight", 2))
    assert all(s[2] == 0 for h in ((6, 5), (5, 4)) for s in m.state.track[m.hex(*h)].sections)


def test_completed_links_are_permanent():
    m = Match()
    m.lay(0, (7, 4, "straight", 0), (7, 3, "town_1", 3))
    assert refusal(m, 0, 7, 4, "gentle", 3) == "must_keep_track"
    m.state.turn = 5
    m.at_build(0)
    assert m.do(0, mv.DoneBuilding())[0].abandoned == []


def test_only_the_last_tile_of_unfinished_track_can_be_redirected():
    m = Match()
    m.lay(0, (6, 5, "straight", 2), (5, 4, "straight", 2))
    assert refusal(m, 0, 6, 5, "gentle", 2) == "must_keep_track"
    assert cost_of(m, 0, 5, 4, "gentle", 2) == 2


def test_redirecting_keeps_the_side_the_track_comes_in_by():
    m = Match()
    m.lay(0, (6, 5, "straight", 2))
    assert refusal(m, 0, 6, 5, "gentle", 3) == "must_keep_track"  # sides 3,5: loses side 2


def test_another_players_unfinished_track_cannot_be_redirected():
    m = Match()
    m.lay(1, (6, 5, "straight", 2))
    m.state.pl[0].built = True
    assert refusal(m, 0, 6, 5, "gentle", 2) == "must_keep_track"


def test_ownerless_track_is_claimed_by_extending_it():
    m = Match()
    m.lay(1, (6, 5, "straight", 2))
    m.state.turn = 2
    m.lay(1)  # seat 1 builds nothing: its track becomes ownerless
    assert m.state.track[m.hex(6, 5)].sections[0][2] == OWNERLESS
    m.lay(0, (5, 4, "straight", 2))
    assert m.state.track[m.hex(6, 5)].sections[0][2] == 0


def test_complex_tile_keeps_the_other_players_track_and_adds_yours():
    m = Match()
    m.lay(1, (8, 6, "straight", 2))
    _own_spoke_at_michigan_city(m, 0)
    m.lay(0, (8, 6, "x", 0))
    owners = {(s[0], s[1]): s[2] for s in m.state.track[m.hex(8, 6)].sections}
    assert owners == {(2, 5): 1, (1, 4): 0}
    assert m.state.tiles["x"] == 3 and m.state.tiles["straight"] == 48


def test_rotation_must_be_the_smallest_giving_the_picture():
    m = Match()
    m.at_build(0)
    assert refusal(m, 0, 7, 4, "straight", 3) == "non_canonical_rotation"
    assert refusal(m, 0, 7, 4, "straight", 7) == "bad_rotation"


def test_urbanization_places_a_new_city_on_a_town_before_building():
    m = Match()
    m.state.actions["urbanization"] = 0
    m.at_build(0)
    assert mv.Urbanize(7, 3, "A") in m.legal(0)
    m.do(0, mv.Urbanize(7, 3, "A"))
    assert m.state.new_cities == {m.hex(7, 3): "A"}
    # Milwaukee is a city now: the link Chicago-(7,4)-Milwaukee is one simple tile
    m.do(0, mv.Build(7, 4, "straight", 0))
    assert GAME_NET(m).routes[0].complete
    assert not any(isinstance(x, mv.Urbanize) for x in m.legal(0))


@pytest.mark.parametrize("built_before", [False, True])
def test_a_new_city_hex_is_refused_as_a_city_hex_like_a_printed_city(built_before):
    m = Match()
    m.state.actions["urbanization"] = 0
    m.at_build(0)
    m.state.pl[0].built = built_before
    m.do(0, mv.Urbanize(7, 3, "A"))
    assert refusal(m, 0, 7, 3, "town_1", 0) == "city_hex"
    assert refusal(m, 0, 7, 3, "straight", 0) == "city_hex"


def test_urbanization_is_refused_after_building_and_on_cities():
    m = Match()
    m.state.actions["urbanization"] = 0
    m.at_build(0)
    with pytest.raises(IllegalMove) as err:
        m.do(0, mv.Urbanize(7, 5, "A"))
    assert err.value.code == "not_a_town"
    m.do(0, mv.Build(7, 4, "straight", 0))
    with pytest.raises(IllegalMove) as err:
        m.do(0, mv.Urbanize(7, 3, "A"))
    assert err.value.code == "no_urbanization"


def GAME_NET(m: Match):
    from plugins.age_of_steam.track import network

    m.state.net = None
    return network(m.board, m.state)


def test_redirecting_may_turn_the_same_tile_when_the_supply_is_empty():
    m = Match()
    m.lay(0, (6, 5, "straight", 2), (5, 4, "gentle", 2))  # (5,4): sides 2 and 4
    m.state.tiles["gentle"] = 0
    assert cost_of(m, 0, 5, 4, "gentle", 0) == 2  # sides 0 and 2: still in by side 2


def test_redirecting_one_track_of_a_complex_tile_keeps_the_other():
    m = Match()
    # Hex (6,5) touches Chicago by its SE side (2). Seat 1: Chicago -> (6,5) -> SW, open.
    # Seat 0: Chicago -> (7,4) -> (6,5) NE side (1) -> S side (3), open: a crossing tile.
    raw(m, 7, 4, "sharp", [[3, 4, 0, 1]])
    raw(m, 6, 5, "crossing_curves", [[1, 3, 0, 1], [2, 4, 1, 1]])
    m.at_build(0)
    m.do(0, mv.Build(6, 5, "gentle_sharp_1", 2))  # tracks (0,1) and (2,4)
    hex_track = m.state.track[m.hex(6, 5)]
    assert hex_track.tile == "gentle_sharp_1"
    assert hex_track.sections == [[0, 1, 0, 1], [2, 4, 1, 1]]
    assert m.state.pl[0].money == 48
    assert m.state.tiles["crossing_curves"] == 3 and m.state.tiles["gentle_sharp_1"] == 0


def test_another_player_may_add_spokes_to_a_town_where_you_have_track():
    m = Match()
    m.lay(0, (7, 4, "straight", 0), (7, 3, "town_1", 3))
    raw(m, 6, 3, "gentle", [[2, 4, 1, 1]])  # seat 1's track ends at Milwaukee's NW side
    assert cost_of(m, 1, 7, 3, "town_3_left", 0) == 3  # spokes N, S, NW
    m.at_build(1)
    m.do(1, mv.Build(7, 3, "town_3_left", 0))
    spokes = {sec[0]: sec[2] for sec in m.state.track[m.hex(7, 3)].sections}
    assert spokes == {0: 1, 3: 0, 5: 1}
    assert m.state.tiles["town_1"] == 3 and m.state.tiles["town_3_left"] == 1
