"""Position documents: export, load, refusal of impossible positions, starting a match."""

from __future__ import annotations

import copy

import msgspec
import pytest
from aos_helpers import GAME, Match, playout

from core.errors import InvalidPosition
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore


def _doc_with_track() -> dict:
    m = Match(players=3)
    m.evansville_to_cincinnati(0)
    m.lay(1, (7, 4, "straight", 0))
    m.at_build(2)
    return msgspec.json.decode(msgspec.json.encode(GAME.export_position(m.state)))


def test_position_round_trips_through_json_at_every_step_of_a_game():
    states = []
    playout("rust_belt", 4, 7, on_step=lambda s, _e: states.append(GAME.export_position(s)))
    for doc in states[::25]:
        doc = msgspec.json.decode(msgspec.json.encode(doc))
        assert GAME.export_position(GAME.load_position(copy.deepcopy(doc))) == doc


def test_position_document_is_documented_json():
    doc = _doc_with_track()
    assert doc["format"] == "age-of-steam-position/1"
    assert doc["track"]["9,8"] == {"tile": "gentle", "sections": [[1, 3, 0, 1]]}
    assert doc["track"]["10,8"]["sections"] == [[1, 6, 0, 1], [4, 6, 0, 1]]
    assert set(doc["display"]) == {f"light-{i}" for i in range(1, 7)} | {
        f"dark-{i}" for i in range(1, 7)} | set("ABCDEFGH")  # fmt: skip


def _refused(doc: dict, fragment: str) -> None:
    with pytest.raises(InvalidPosition) as err:
        GAME.load_position(doc)
    assert fragment in err.value.message


def test_refuses_a_position_where_cubes_are_not_conserved():
    doc = _doc_with_track()
    doc["bag"]["red"] += 1
    _refused(doc, "cubes are not conserved")


def test_refuses_more_than_15_shares_or_an_engine_above_6():
    doc = _doc_with_track()
    doc["players_state"][0]["shares"] = 16
    _refused(doc, "out of range")
    doc = _doc_with_track()
    doc["players_state"][1]["engine"] = 7
    _refused(doc, "out of range")


def test_refuses_track_on_a_city_and_sections_that_do_not_match_the_tile():
    doc = _doc_with_track()
    doc["track"]["7,5"] = doc["track"].pop("7,4")
    _refused(doc, "track cannot lie on")
    doc = _doc_with_track()
    doc["track"]["9,8"]["tile"] = "straight"
    doc["tiles"]["straight"] -= 1
    doc["tiles"]["gentle"] += 1
    _refused(doc, "do not match tile")


def test_refuses_tiles_that_are_not_conserved():
    doc = _doc_with_track()
    doc["tiles"]["gentle"] += 1
    _refused(doc, "not conserved")


def test_refuses_a_link_with_two_owners():
    doc = _doc_with_track()
    doc["track"]["9,8"]["sections"][0][2] = 1
    _refused(doc, "several owners")


def test_refuses_track_owned_by_an_eliminated_player():
    doc = _doc_with_track()
    doc["players_state"][1]["eliminated"] = True
    doc["order"] = [s for s in doc["order"] if s != 1]
    doc["queue"] = [s for s in doc["queue"] if s != 1] or [2]
    _refused(doc, "eliminated player still owns track")


def test_refuses_the_wrong_map_player_count_or_phase():
    doc = _doc_with_track()
    doc["players"] = 2
    _refused(doc, "takes 3 to 6 players")
    doc = _doc_with_track()
    doc["phase"] = "nap"
    _refused(doc, "not a step")
    doc = _doc_with_track()
    doc["options"]["map"] = "barbados"
    _refused(doc, "options.map")
    doc = _doc_with_track()
    doc["goods"]["99,99"] = ["red"]
    _refused(doc, "not on the map")


def test_a_match_can_start_from_a_position_and_play_to_the_end(registry: GameRegistry):
    from worker.inprocess import InlineRunner

    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    doc = _doc_with_track()
    match = service.create_match("age-of-steam", 3, position=doc, seed="from-position")
    assert GAME.export_position(match.game_state) == doc
    for seat in range(3):
        service.hand_to_bot(match.match_id, seat, "random", None)
    assert service.result(service.load(match.match_id)) is not None


def test_refuses_track_that_leads_from_a_city_back_to_itself():
    """Two sharp curves on two neighbours of Chicago that touch each other make a link from
    Chicago to Chicago: building it is refused (``loop``), and so is loading it."""
    from plugins.age_of_steam.data import board
    from plugins.age_of_steam.geometry import neighbour, opposite

    b = board("rust_belt")
    city = (7, 5)
    doc = _doc_with_track()

    def free(xy: tuple[int, int]) -> bool:
        h = b.hex_of(*xy)
        return (
            f"{xy[0]},{xy[1]}" not in doc["track"] and b.terrain[h] == "clear"
            and b.city_at[h] < 0 and b.town_at[h] < 0
        )  # fmt: skip

    side = next(
        s for s in range(6)
        if free(neighbour(*city, s)) and free(neighbour(*city, (s + 1) % 6))
    )  # fmt: skip
    first, second = neighbour(*city, side), neighbour(*city, (side + 1) % 6)
    to_second = next(s for s in range(6) if neighbour(*first, s) == second)
    for hexes, ends in ((first, (opposite(side), to_second)),
                        (second, (opposite(to_second), opposite((side + 1) % 6)))):  # fmt: skip
        doc["track"][f"{hexes[0]},{hexes[1]}"] = {
            "tile": "sharp", "sections": [[min(ends), max(ends), 1, 1]],
        }  # fmt: skip
        doc["tiles"]["sharp"] -= 1
    _refused(doc, "back to the city")
