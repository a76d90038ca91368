"""From the audit against the rule text and the reference: choices made where the rule
text is silent (see the package docstring) and data facts checked against
shared/reference."""

from __future__ import annotations

from aos_helpers import GAME, Match

from plugins.age_of_steam import moves as mv
from plugins.age_of_steam.data import board, components
from plugins.age_of_steam.rules import score_sections
from plugins.age_of_steam.track import network

INDIANAPOLIS = (10, 8)


def _urbanize_indianapolis(m: Match, seat: int) -> None:
    m.state.actions["urbanization"] = seat
    m.at_build(seat)
    m.do(seat, mv.Urbanize(*INDIANAPOLIS, "B"))


def test_urbanizing_a_town_with_track_returns_its_tile_and_keeps_each_links_owner():
    m = Match(players=3)
    m.evansville_to_cincinnati(0)  # the town tile is a straight with a town disc
    straights = m.state.tiles["straight"]
    assert score_sections(m.board, m.state)[0] == 4
    _urbanize_indianapolis(m, 1)
    assert m.hex(*INDIANAPOLIS) not in m.state.track
    assert m.state.tiles["straight"] == straights + 1
    routes = network(m.board, m.state).routes
    assert len(routes) == 2
    assert all(r.complete and r.owner == 0 for r in routes)
    # The town's two spokes went with its tile; the track on either side still scores.
    assert score_sections(m.board, m.state)[0] == 2


def test_track_pointing_into_an_urbanized_town_becomes_a_link_of_its_owner():
    m = Match(players=3)
    m.lay(0, (9, 8, "gentle", 1))  # Evansville -> open end facing Indianapolis, no spoke
    (route,) = network(m.board, m.state).routes
    assert not route.complete
    _urbanize_indianapolis(m, 1)
    (route,) = network(m.board, m.state).routes
    assert route.complete and route.owner == 0
    m.put_goods(9, 9, ["blue"])
    m.at_move(2, engine=1)
    (moved,) = m.do(2, mv.MoveGood(9, 9, "blue", [0]))
    assert moved.income == [(0, 1)]


def test_with_two_players_left_the_first_to_drop_out_is_second_and_pays_nothing():
    m = Match(players=3, seed=4)
    out = m.state.order[2]
    m.state.pl[out].eliminated, m.state.pl[out].out_turn = True, 1
    m.state.order.remove(out)
    m.state.queue.remove(out)
    for seat in list(m.state.queue):
        m.do(seat, mv.IssueShares(0))
    a, b = m.state.order
    m.do(a, mv.Bid(3))
    m.do(b, mv.Bid(4))
    m.do(a, mv.DropOut())
    assert m.state.order == [b, a]
    assert (m.state.pl[b].money, m.state.pl[a].money) == (10 - 4, 10)


def test_production_cubes_may_wait_on_the_row_of_a_new_city_not_yet_on_the_map():
    m = Match(players=3)
    i = m.board.display_ids.index("A")
    for c in m.state.display[i]:
        m.state.bag[c] += 1
    m.state.display[i] = []
    assert not m.state.new_cities
    m.state.actions["production"] = 1
    m.state.phase, m.state.queue = "production", [1]
    m.system()
    assert m.legal(1) == [mv.PlaceCube("A")]
    m.do(1, mv.PlaceCube("A"))
    m.do(1, mv.PlaceCube("A"))
    assert len(m.state.display[i]) == 2 and m.state.phase == "growth"


# --- data checked against shared/reference (facts copied here so CI needs no reference) ---

RUST_BELT_CITIES = {
    "Kansas City": (0, 10, "purple", "light", 3, 2),
    "Minneapolis": (1, 2, "blue", "light", 5, 2),
    "Duluth": (2, 0, "purple", "light", 6, 2),
    "Des Moines": (2, 7, "blue", "light", 4, 2),
    "St. Louis": (5, 9, "red", "light", 2, 2),
    "Chicago": (7, 5, "red", "light", 1, 2),
    "Evansville": (9, 9, "blue", "dark", 1, 2),
    "Cincinnati": (12, 8, "blue", "dark", 2, 2),
    "Detroit": (13, 3, "red", "dark", 3, 2),
    "Toronto": (16, 1, "yellow", "dark", 6, 2),
    "Wheeling": (16, 8, "yellow", "dark", 4, 3),
    "Pittsburgh": (17, 5, "red", "dark", 5, 3),
}
NEW_CITIES = [("A", "red", "light", 3), ("B", "blue", "light", 4), ("C", "black", "light", 5),
              ("D", "black", "light", 6), ("E", "yellow", "dark", 1), ("F", "purple", "dark", 2),
              ("G", "black", "dark", 3), ("H", "black", "dark", 4)]  # fmt: skip
TILE_COUNTS = {"straight": 48, "gentle": 55, "sharp": 7, "x": 4, "bow": 4, "crossing_curves": 3,
               "straight_sharp": 1, "coexist_gentle": 1, "gentle_sharp_1": 1, "gentle_sharp_2": 1,
               "town_1": 3, "town_3_y": 2, "town_3_left": 2, "town_3_right": 2,
               "town_3_tight": 2}  # fmt: skip


def test_rust_belt_cities_have_the_reference_hexes_colours_dice_and_cubes():
    cities = {c.name: (c.col, c.row, c.color, c.dice, c.die, c.cubes)
              for c in board("rust_belt").spec.cities}  # fmt: skip
    assert cities == RUST_BELT_CITIES


def test_new_city_tiles_have_the_reference_colours_and_dice():
    spec = board("rust_belt").spec
    assert [(c.letter, c.color, c.dice, c.die) for c in spec.new_cities] == NEW_CITIES
    assert {d.id: (d.dice, d.die) for d in spec.display if d.new_city} == {
        letter: (dice, die) for letter, _colour, dice, die in NEW_CITIES
    }


def test_track_tiles_have_the_reference_counts_per_kind():
    assert {t.name: t.count for t in components().tiles} == TILE_COUNTS


def test_the_disputed_hex_8_0_is_water_as_two_of_three_sources_say():
    b = board("rust_belt")
    assert b.terrain[b.hex_of(8, 0)] == "water"


def test_listed_new_city_placements_are_exactly_those_the_rules_accept():
    m = Match(players=3)
    m.state.actions["urbanization"] = 0
    m.at_build(0)
    m.state.new_cities[m.hex(7, 3)] = "C"  # one town is a city already, one tile is used
    b = m.board
    brute = set()
    for col, row in b.coords:
        for c in b.spec.new_cities:
            move = mv.Urbanize(col, row, c.letter)
            if GAME._refusal(b, m.state, 0, move) is None:
                brute.add((col, row, c.letter))
    listed = {(x.col, x.row, x.city) for x in m.legal(0) if isinstance(x, mv.Urbanize)}
    assert listed == brute and len(brute) == 13 * 7


def test_listed_bids_and_share_counts_are_exactly_those_the_rules_accept():
    m = Match(players=3)
    b = m.board
    seat = m.state.queue[0]
    m.state.pl[seat].shares = 12
    accepted = [
        n for n in range(-1, 6) if GAME._refusal(b, m.state, seat, mv.IssueShares(n)) is None
    ]
    assert m.legal(seat) == [mv.IssueShares(n) for n in accepted] and accepted == [0, 1, 2, 3]
    for s in list(m.state.queue):
        m.do(s, mv.IssueShares(0))
    first, second, _ = m.state.order
    m.do(first, mv.Bid(4))
    money = m.state.pl[second].money
    accepted = [x for x in range(money + 3) if GAME._refusal(b, m.state, second, mv.Bid(x)) is None]
    assert [x.amount for x in m.legal(second) if isinstance(x, mv.Bid)] == accepted
    assert accepted == list(range(5, money + 1))
    assert m.legal(first) == []  # not the high bidder's turn
