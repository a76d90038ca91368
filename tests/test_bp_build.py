"""Brass: Pittsburgh build and develop rules on a state (rulebook "Build Action" steps 1-2,
"Upgrading", Oil City, "Develop Action"). Cities and slots are those of the PROVISIONAL
main side (0.1.0)."""

from __future__ import annotations

from random import Random

import pytest

from plugins.brass.build import build_spaces
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.building import develop_spaces, industry_slots
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import ERA1, ERA2, State


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


class Table:
    def __init__(self, game: BrassPittsburgh, era: int = ERA1) -> None:
        self.rules: Rules = game.rules
        (event,) = game.setup(Options(), 4, Random(5))
        self.state: State = game.evolve(None, event)
        self.state.era = era
        self.board = self.rules.board_of("main")
        self.cards = self.rules.cards["main"]

    def slot(self, city: str, k: int) -> int:
        return self.board.city_slots[self.board.node[city]][k]

    def tile(self, city: str, k: int, seat: int, tile: str, flipped: bool = True) -> int:
        slot = self.slot(city, k)
        s = self.state
        s.slot_owner[slot], s.slot_tile[slot], s.slot_flipped[slot] = seat, tile, flipped
        return slot

    def empty_mat(self, seat: int, *tiles: str) -> None:
        for tile in tiles:
            self.state.mat[seat][self.rules.mat.index[tile]] = 0

    def targets(self, card: str, seat: int = 0, wild: bool = False) -> set[tuple[str, str]]:
        """(tile, place) of every build ``card`` (or, ``wild``, any card and a whiskey)
        allows the seat, cost aside: the Build rule's card and place parts."""
        s, v, board = self.state, self.rules.variant, self.board
        s.hands[seat], s.whiskey[seat] = [self.cards.index(card)], int(wild)
        f = v.facts(s)
        places = [(slot, -1, name) for slot, name in enumerate(board.slot_name)]
        places += [(-1, field, name) for field, name in enumerate(board.oilfields)]
        found = set()
        for space, tile in enumerate(self.rules.mat.tiles):
            for slot, field, name in places:
                m = mv.Build(
                    card=-1 if wild else s.hands[seat][0],
                    space=space,
                    slot=slot,
                    oilfield=field,
                    whiskey=wild,
                )
                if not (v.build_card_refusal(f, seat, m) or v.build_place_refusal(f, seat, m)):
                    found.add((tile.id, name))
        return found


def test_location_card_builds_accessible_tiles_shown_in_its_city(game: BrassPittsburgh) -> None:
    t = Table(game)
    assert t.targets("pittsburgh") == {
        ("K1", "pittsburgh:3"), ("M1", "pittsburgh:0"), ("M1", "pittsburgh:2"),
        ("I1", "pittsburgh:3"),
    }  # fmt: skip


def test_single_icon_space_must_be_used_first(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.empty_mat(0, "I1", "I2", "I3")
    assert ("S2", "homestead:0") in t.targets("homestead")
    assert ("S2", "homestead:1") not in t.targets("homestead")
    t.tile("homestead", 0, 1, "S2")
    assert ("S2", "homestead:1") in t.targets("homestead")


def test_single_icon_first_table_agrees_with_the_family_rule(game: BrassPittsburgh) -> None:
    """The listing reads the single-icon-first rule from a per-side table; on boards filled
    at random it must give exactly the family's ``build_spaces`` for every city."""
    rules, rng = game.rules, Random(11)
    for side, board in rules.boards.items():
        icons = rules.slot_industries[side]
        t = Table(game)
        s = t.state
        s.side = side
        for _ in range(30):
            s.slot_owner = [rng.choice((-1, -1, 0, 1)) for _ in icons]
            for industry in range(len(rules.industries)):
                expected = [
                    slot
                    for slots in board.city_slots
                    for slot in build_spaces(slots, icons, s.slot_owner, industry)
                ]
                assert [slot for _, slot, _ in industry_slots(rules, s, industry)] == expected


def test_one_industry_per_city_per_player_in_era1_only(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.tile("pittsburgh", 3, 0, "I1", flipped=False)
    assert t.targets("pittsburgh") == set()
    assert t.targets("pittsburgh", seat=1)
    t.state.era = ERA2
    t.empty_mat(0, "M1")  # level I tiles are era 1 only
    assert ("M2", "pittsburgh:0") in t.targets("pittsburgh")


def test_industry_card_builds_only_in_the_network_once_on_the_board(
    game: BrassPittsburgh,
) -> None:
    t = Table(game)
    everywhere = {where for _, where in t.targets("coal")}
    assert len(everywhere) > 5  # no tile on the board yet: any city with a coal slot
    t.state.line_owner[t.board.line_index["altoona~johnstown"]] = 0
    t.state.line_link[t.board.line_index["altoona~johnstown"]] = "LT"
    assert t.targets("coal") == {("C1", "altoona:1"), ("C1", "johnstown:2")}


def test_whiskey_makes_any_card_build_anywhere(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.state.line_owner[t.board.line_index["altoona~johnstown"]] = 0
    t.state.line_link[t.board.line_index["altoona~johnstown"]] = "LT"
    assert ("C1", "wheeling:2") in t.targets("coal", wild=True)
    assert ("C1", "wheeling:2") not in t.targets("coal")


def test_era2_only_tiles_wait_for_era2(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.empty_mat(0, "CK")  # the coke shortcut makes Automobiles I accessible
    assert not any(tile == "A1" for tile, _ in t.targets("pittsburgh"))
    t.state.era = ERA2
    assert ("A1", "pittsburgh:2") in t.targets("pittsburgh")


def test_era1_only_tiles_are_not_built_in_era2(game: BrassPittsburgh) -> None:
    t = Table(game, era=ERA2)
    assert not any(tile == "K1" for tile, _ in t.targets("pittsburgh"))


def test_upgrade_replaces_own_flipped_tile_of_its_path(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.empty_mat(0, "C1", "C2", "C3", "C4")
    own = t.tile("connellsville", 1, 0, "C2")
    t.tile("johnstown", 2, 1, "C2")  # someone else's
    assert t.targets("coal") >= {("PA", t.board.slot_name[own])}
    assert not any(where == "johnstown:2" for tile, where in t.targets("coal") if tile == "PA")
    t.state.slot_flipped[own] = False
    assert not any(tile == "PA" for tile, _ in t.targets("coal"))


def test_location_card_names_an_upgrade_in_its_city(game: BrassPittsburgh) -> None:
    t = Table(game)
    t.empty_mat(0, "C1", "C2", "C3", "C4")
    t.tile("connellsville", 1, 0, "C2")
    assert ("PA", "connellsville:1") in t.targets("connellsville")
    assert not any(tile == "PA" for tile, _ in t.targets("pittsburgh"))


def test_oil_city_needs_era2_a_kerosene_card_and_a_pipeline_to_the_network(
    game: BrassPittsburgh,
) -> None:
    t = Table(game, era=ERA2)
    t.empty_mat(0, "K1", "K2", "K3", "K4")
    t.tile("allegheny", 0, 0, "M2")
    route = t.board.route_index["butler_field~allegheny"]
    assert not any(tile == "OC" for tile, _ in t.targets("kerosene"))
    t.state.route_owner[route], t.state.route_pipeline[route] = 2, "PL_MONEY1"
    assert ("OC", "butler_field") in t.targets("kerosene")
    assert not any(tile == "OC" for tile, _ in t.targets("allegheny"))  # location card
    t.state.oil_city_owner[t.board.oilfield_index["butler_field"]] = 3
    assert not any(tile == "OC" for tile, _ in t.targets("kerosene"))  # one per oilfield


def test_any_accessible_tile_may_be_developed_crown_jewels_included(
    game: BrassPittsburgh,
) -> None:
    # "Each removed tile must be an accessible tile" is the only condition the rulebook sets.
    t = Table(game)
    ids = {t.rules.mat.tiles[s].id for s in develop_spaces(t.rules, t.state, 0)}
    assert ids == {"K1", "C1", "M1", "CK", "I1"}
    t.empty_mat(0, "C1", "C2", "C3", "C4")
    ids = {t.rules.mat.tiles[s].id for s in develop_spaces(t.rules, t.state, 0)}
    assert "PA" in ids
