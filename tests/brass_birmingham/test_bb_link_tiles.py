"""Each player owns 14 link tiles: the most it can have on the board at once."""

from __future__ import annotations

from random import Random

import pytest
from bb_helpers import GAME, act, load, score

from core.errors import IllegalMove
from plugins.brass_birmingham import moves as mv
from plugins.brass_birmingham.state import State

# fourteen lines that may carry rail, in the north-east, away from Cannock-Walsall
RAIL_LINES = [
    "burton_on_trent~cannock", "cannock~stafford", "belper~derby", "belper~leek",
    "burton_on_trent~derby", "burton_on_trent~stone", "burton_on_trent~tamworth",
    "derby~uttoxeter", "leek~stoke_on_trent", "stafford~stone", "stoke_on_trent~stone",
    "stone~uttoxeter", "nuneaton~tamworth", "coventry~nuneaton",
]  # fmt: skip
CANAL_LINES = [
    "belper~derby", "burton_on_trent~derby", "burton_on_trent~stone", "burton_on_trent~tamworth",
    "burton_on_trent~walsall", "cannock~stafford", "leek~stoke_on_trent", "stafford~stone",
    "stoke_on_trent~stone", "nuneaton~tamworth", "derby~nottingham", "birmingham~coventry",
    "birmingham~tamworth", "dudley~kidderminster",
]  # fmt: skip
CANNOCK_MINE = {"space": "cannock:1", "owner": 1, "industry": "coal", "level": 2, "cubes": 3}
OWN_BREWERY = {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 2, "cubes": 2}


def rail_board(links: int) -> State:
    """Rail era: seat 0 has ``links`` rails reaching Cannock, whose mine (seat 1's) has
    coal, a brewery with beer and money for a double rail."""
    return load(era="rail", hands={0: ["coventry", "coventry"]}, money=[50, 17],
                tiles=[CANNOCK_MINE, OWN_BREWERY],
                links={name: 0 for name in RAIL_LINES[:links]})  # fmt: skip


def links_left(s: State, seat: int) -> int:
    return GAME.view(s, seat)["players"][seat]["links_left"]


def test_a_player_with_fourteen_links_on_the_board_cannot_build_another() -> None:
    s = rail_board(13)
    assert mv.Network("cannock~walsall") in GAME.legal_moves(s, 0)
    s = rail_board(14)
    assert links_left(s, 0) == 0
    assert not any(isinstance(m, mv.Network) for m in GAME.legal_moves(s, 0))
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, mv.Network("cannock~walsall"), Random(0))
    assert err.value.code == "no_link_tiles"


def test_double_rail_is_not_offered_with_only_one_link_tile_left() -> None:
    s, _ = act(rail_board(12), 0, mv.Network("cannock~walsall"))
    assert mv.SecondLink("walsall~wolverhampton") in GAME.legal_moves(s, 0)
    # the first rail takes the last tile: no second rail, the action ends at once
    s, _ = act(rail_board(13), 0, mv.Network("cannock~walsall"))
    assert not s.pending and s.actions_left == 1 and links_left(s, 0) == 0


def test_canal_links_return_to_the_supply_at_the_end_of_the_canal_era() -> None:
    own_mine = {**CANNOCK_MINE, "owner": 0, "cubes": 2}  # level II: it stays for the rail era
    s = load(phase="scoring", deck=[], round=11, tiles=[own_mine],
             links={name: 0 for name in CANAL_LINES})  # fmt: skip
    assert links_left(s, 0) == 0
    s, _ = score(s)
    assert (s.era, s.current) == (1, 0) and links_left(s, 0) == 14
    assert mv.Network("cannock~walsall") in GAME.legal_moves(s, 0)
