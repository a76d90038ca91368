"""Position documents: round trip, and impossible positions refused with a clear code."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random

import pytest
from bb_helpers import GAME, D, position

from core.errors import InvalidPosition
from core.game import SYSTEM

DATA = Path(__file__).parents[2] / "plugins" / "brass_birmingham" / "data"


def refused(doc) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidPosition) as err:
        GAME.load_position(doc)
    return err.value.code


def test_position_round_trips() -> None:
    doc = position(hands={0: ["coventry"]},
                   tiles=[{"space": "dudley:0", "owner": 1, "industry": "coal", "level": 2,
                           "cubes": 2}], links={"birmingham~dudley": 1})  # fmt: skip
    state = GAME.load_position(copy.deepcopy(doc))
    assert GAME.load_position(GAME.export_position(state)) == state


def test_unknown_location_is_refused() -> None:
    doc = position(tiles=[{"space": "atlantis:0", "owner": 0, "industry": "coal", "level": 1,
                           "cubes": 1}])  # fmt: skip
    assert refused(doc) == "unknown_space"


def test_more_tiles_than_the_mat_gave_is_refused() -> None:
    doc = position(tiles=[{"space": "dudley:1", "owner": 0, "industry": "iron", "level": 1,
                           "cubes": 4}], mats={0: {"iron": 0}})  # fmt: skip
    assert refused(doc) == "tiles_not_conserved"


def test_cards_must_be_conserved() -> None:
    doc = position()
    doc["deck"].pop()
    assert refused(doc) == "cards_not_conserved"


def test_unflipped_mine_without_cubes_is_refused() -> None:
    doc = position(tiles=[{"space": "dudley:0", "owner": 0, "industry": "coal", "level": 1,
                           "cubes": 0}])  # fmt: skip
    assert refused(doc) == "cubes_not_conserved"


def test_industry_on_a_space_without_its_icon_is_refused() -> None:
    doc = position(tiles=[{"space": "birmingham:2", "owner": 0, "industry": "cotton",
                           "level": 1}])  # fmt: skip
    assert refused(doc) == "wrong_space"


def test_rail_link_in_the_canal_era_is_refused() -> None:
    assert refused(position(links={"coventry~nuneaton": 0})) == "link_wrong_era"


def test_canal_era_second_own_industry_in_a_location_is_refused() -> None:
    doc = position(tiles=[
        {"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 1},
        {"space": "birmingham:1", "owner": 0, "industry": "manufacturer", "level": 1},
    ])  # fmt: skip
    assert refused(doc) == "one_industry_per_location"


def test_merchant_tile_not_used_at_this_player_count_is_refused() -> None:
    merchants = {"shrewsbury": ["mt_pottery"], "gloucester": ["mt_cotton_a", "mt_blank_a"],
                 "oxford": ["mt_manufacturer_a", "mt_blank_b"]}  # fmt: skip
    doc = position(merchants=merchants)
    assert refused(doc) == "bad_merchants"


def test_malformed_document_is_refused_not_crashed() -> None:
    assert refused({"players": 2}) == "invalid_position"
    doc = position()
    doc["seats"][0]["money"] = "lots"
    assert refused(doc) == "invalid_position"


def test_first_release_wild_card_names_still_load_so_stored_matches_replay() -> None:
    doc = position(hands={0: ["wild:location", "wild:industry", "coventry"]})
    old = copy.deepcopy(doc)
    old["seats"][0]["hand"] = ["wild_location", "wild_industry", "location:coventry"]
    assert GAME.export_position(GAME.load_position(old)) == GAME.export_position(
        GAME.load_position(doc)
    )


def test_first_canal_round_position_with_two_actions_is_refused() -> None:
    assert refused(position(round=1, actions_left=2)) == "bad_actions"
    doc = position(round=1)
    del doc["actions_left"]  # the default is a full turn of the round: one action here
    assert GAME.load_position(doc).actions_left == 1
    assert GAME.load_position(position(round=2, actions_left=2)).actions_left == 2
    assert GAME.load_position(position(era="rail", round=1, actions_left=2)).actions_left == 2


def test_round_zero_is_refused() -> None:
    assert refused(position(round=0)) == "bad_round"


def test_more_than_fourteen_links_for_one_seat_is_refused() -> None:
    rail_lines = [name for i, name in enumerate(D.link_names) if D.link_rail[i]]
    fourteen = {name: 0 for name in rail_lines[:14]}
    GAME.load_position(position(era="rail", links=fourteen))
    doc = position(era="rail", links={**fourteen, rail_lines[14]: 0})
    assert refused(doc) == "too_many_links"


def test_a_hand_with_two_wild_cards_of_one_kind_is_refused() -> None:
    # scouting gives one of each and is refused while holding a wild card
    doc = position(hands={0: ["wild:location", "coventry"]})
    doc["seats"][0]["hand"].append("wild:location")
    assert refused(doc) == "too_many_wild_cards"


def test_pending_step_arguments_are_indices_in_board_json_order_as_documented() -> None:
    # POSITION.md keeps engine indices for `pending`; pin the order it documents by the
    # location the view names for a pending coal step.
    locations = json.loads((DATA / "board.json").read_text())["locations"]
    rng = Random(5)
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        (event,) = GAME.setup(GAME.Options(), players, Random(seed))
        s = GAME.evolve(None, event)
        while tasks := GAME.pending_tasks(s):
            task = tasks[0]
            if task.kind == "turn" and s.pending and s.pending[0].kind == "coal":
                doc = GAME.export_position(s)
                where = GAME.view(s, task.seat)["decision"]["location"]
                assert locations[doc["pending"][0]["a"]]["id"] == where
                assert GAME.export_position(GAME.load_position(doc)) == doc
                return
            seat = SYSTEM if task.kind == "system" else task.seat
            move = task.move if task.kind == "system" else rng.choice(GAME.legal_moves(s, seat))
            for e in GAME.decide(s, seat, move, rng):
                s = GAME.evolve(s, e)
    pytest.fail("no pending coal step in the sample games")


def test_more_tiles_of_a_level_than_a_player_owns_says_how_many_there_are() -> None:
    spaces = ["dudley:0", "cannock:0", "tamworth:1"]
    doc = position(tiles=[{"space": s, "owner": 0, "industry": "coal", "level": 2, "cubes": 1}
                          for s in spaces])  # fmt: skip
    with pytest.raises(InvalidPosition) as err:
        GAME.load_position(doc)
    assert err.value.code == "tiles_not_conserved"
    assert "only 2 coal level 2 tiles" in err.value.message and "only 0" not in err.value.message
