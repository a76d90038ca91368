"""Brass: Pittsburgh action rules as pure functions: sourcing, link placement, selling, money.

Board facts (cities, lines, routes, icons) are those of the PROVISIONAL main side (0.1.0).
"""

from __future__ import annotations

import pytest

from plugins.brass.income import IncomeTrack
from plugins.brass_pittsburgh.board import BuiltPipeline, PittsburghBoard
from plugins.brass_pittsburgh.data import PittsburghData, default_data
from plugins.brass_pittsburgh.finance import drop_income
from plugins.brass_pittsburgh.links import LIGHT, pipeline_sites, train_sites
from plugins.brass_pittsburgh.markets import market_ladders
from plugins.brass_pittsburgh.payment import cheapest_cubes
from plugins.brass_pittsburgh.rewards import Gains
from plugins.brass_pittsburgh.rules import default_rules
from plugins.brass_pittsburgh.selling import merchant_reward, merchants_buying
from plugins.brass_pittsburgh.sourcing import Source, cube_sources, oil_sources


@pytest.fixture(scope="module")
def data() -> PittsburghData:
    return default_data()


@pytest.fixture(scope="module")
def board() -> PittsburghBoard:
    rules = default_rules()
    return rules.board_of(rules.side_for(4))


@pytest.fixture(scope="module")
def track(data: PittsburghData) -> IncomeTrack:
    return IncomeTrack(data.income_track.space_to_level, data.income_track.start_space)


def owners(board: PittsburghBoard, built: dict[str, int]) -> list[int]:
    line_owner = [-1] * len(board.lines)
    for line_id, seat in built.items():
        line_owner[board.line_index[line_id]] = seat
    return line_owner


def slot_of(board: PittsburghBoard, city: str) -> int:
    return board.city_slots[board.node[city]][0]


class Table:
    """Resources on the board for the sourcing tests: no tiles, full markets."""

    def __init__(self, board: PittsburghBoard) -> None:
        self.board = board
        self.slot_resource = [""] * len(board.slot_node)
        self.slot_cubes = [0] * len(board.slot_node)
        self.ladders = market_ladders(board.markets)
        self.market_cubes = [
            {r: lad.initial for r, lad in m.items()} for m in self.ladders
        ]  # fmt: skip

    def sources(
        self,
        line_owner: list[int],
        city: str,
        cube: str,
        trains: dict[int, tuple[str, int]] | None = None,
        exclude_line: int = -1,
    ) -> list[Source]:
        b = self.board
        return cube_sources(
            b, b.labels(line_owner), [b.node[city]], cube,
            slot_resource=self.slot_resource, slot_cubes=self.slot_cubes,
            own_trains=trains or {}, ladders=self.ladders, market_cubes=self.market_cubes,
            exclude_line=exclude_line,
        )  # fmt: skip


MON_VALLEY = {"homestead~pittsburgh": 0, "braddock~homestead": 1, "braddock~greensburg": 2}


# --- sourcing ----------------------------------------------------------------------------------


def test_connected_industry_tile_supplies_before_market_and_vanderbilt(
    board: PittsburghBoard,
) -> None:
    t = Table(board)
    mine = slot_of(board, "homestead")
    t.slot_resource[mine], t.slot_cubes[mine] = "steel", 2
    found = t.sources(owners(board, MON_VALLEY), "greensburg", "steel")
    assert found == [Source(kind="tile", index=mine)]


def test_market_or_vanderbilt_when_no_connected_tile_holds_the_cube(
    board: PittsburghBoard,
) -> None:
    found = Table(board).sources(owners(board, MON_VALLEY), "pittsburgh", "coal")
    greensburg = next(m for m, mk in enumerate(board.markets) if mk.city == "greensburg")
    # Provisional prices: the full coal ladder sells its $2 cube first; Vanderbilt asks $7.
    assert found == [
        Source(kind="market", index=greensburg, price=2),
        Source(kind="vanderbilt", index=-1, price=7),
    ]


def test_vanderbilt_delivers_to_a_location_with_no_links(board: PittsburghBoard) -> None:
    found = Table(board).sources(owners(board, {}), "meadville", "iron")
    assert [s.kind for s in found] == ["vanderbilt"]


def test_an_empty_market_is_no_source(board: PittsburghBoard) -> None:
    t = Table(board)
    for cubes in t.market_cubes:
        if "coal" in cubes:
            cubes["coal"] = 0
    found = t.sources(owners(board, MON_VALLEY), "pittsburgh", "coal")
    assert [s.kind for s in found] == ["vanderbilt"]


def test_cubes_never_travel_through_an_unconnected_tile(board: PittsburghBoard) -> None:
    t = Table(board)
    far = slot_of(board, "erie")
    t.slot_resource[far], t.slot_cubes[far] = "iron", 3
    found = t.sources(owners(board, MON_VALLEY), "pittsburgh", "iron")
    assert all(s.kind != "tile" for s in found)


def test_own_resource_train_may_supply_anything_it_reaches(board: PittsburghBoard) -> None:
    t = Table(board)
    mine = slot_of(board, "homestead")
    t.slot_resource[mine], t.slot_cubes[mine] = "steel", 2
    train = board.line_index["braddock~homestead"]
    found = t.sources(owners(board, MON_VALLEY), "pittsburgh", "steel", {train: ("steel", 1)})
    assert found[0] == Source(kind="train", index=train)
    assert Source(kind="tile", index=mine) in found


def test_steel_trains_cube_never_pays_for_its_own_construction(board: PittsburghBoard) -> None:
    train = board.line_index["braddock~homestead"]
    found = Table(board).sources(
        owners(board, MON_VALLEY), "pittsburgh", "steel", {train: ("steel", 1)}, train
    )
    assert all(s.kind != "train" for s in found)


def test_oil_comes_only_from_an_oilfield_with_barrels_through_a_pipeline(
    board: PittsburghBoard,
) -> None:
    labels = board.labels(owners(board, {"allegheny~pittsburgh": 1}))
    route = [None] * len(board.routes)
    r = board.route_index["butler_field~allegheny"]
    route[r] = BuiltPipeline(0, "PL_MONEY1")
    oil = [0] * len(board.oilfields)
    at = board.node["pittsburgh"]
    assert oil_sources(board, labels, at, oil=oil, route_pipeline=route, own_oil_trains={}) == []
    oil[board.oilfield_index["butler_field"]] = 2
    found = oil_sources(board, labels, at, oil=oil, route_pipeline=route, own_oil_trains={})
    assert found == [Source(kind="pipeline", index=r)]


def test_own_oil_train_supplies_oil_by_train(board: PittsburghBoard) -> None:
    owner = owners(board, {"allegheny~pittsburgh": 1})
    line = board.line_index["allegheny~pittsburgh"]
    found = oil_sources(
        board, board.labels(owner), board.node["allegheny"], oil=[0] * len(board.oilfields),
        route_pipeline=[None] * len(board.routes), own_oil_trains={line: 2},
    )  # fmt: skip
    assert found == [Source(kind="train", index=line)]


# --- link placement ----------------------------------------------------------------------------


def test_first_link_may_go_anywhere_when_nothing_is_on_the_board(
    data: PittsburghData, board: PittsburghBoard
) -> None:
    empty, links = [-1] * len(board.lines), [""] * len(board.lines)
    sites = train_sites(data, board, 0, LIGHT, empty, links, set(), has_presence=False)
    assert sites == list(range(len(board.lines)))


def test_a_link_must_touch_the_players_network(
    data: PittsburghData, board: PittsburghBoard
) -> None:
    empty, links = [-1] * len(board.lines), [""] * len(board.lines)
    net = {board.node["altoona"]}
    sites = train_sites(data, board, 0, LIGHT, empty, links, net, has_presence=True)
    assert {board.lines[s].id for s in sites} == {
        "altoona~johnstown", "altoona~philadelphia"
    }  # fmt: skip


def test_replacement_train_replaces_only_another_players_light_train(
    data: PittsburghData, board: PittsburghBoard
) -> None:
    line_owner = owners(board, {"homestead~pittsburgh": 1, "braddock~homestead": 0})
    links = [""] * len(board.lines)
    for line, seat in enumerate(line_owner):
        if seat >= 0:
            links[line] = LIGHT
    net = {board.node[c] for c in ("pittsburgh", "homestead", "braddock")}
    sites = train_sites(data, board, 0, "HT_REPLACE", line_owner, links, net, True)
    taken = [board.lines[s].id for s in sites if line_owner[s] >= 0]
    assert taken == ["homestead~pittsburgh"]  # never the seat's own light train
    links[board.line_index["homestead~pittsburgh"]] = "HT_DOUBLE"
    sites = train_sites(data, board, 0, "HT_REPLACE", line_owner, links, net, True)
    assert all(line_owner[s] < 0 for s in sites)  # never a heavy train


def test_replacement_train_may_also_go_on_an_empty_line(
    data: PittsburghData, board: PittsburghBoard
) -> None:
    # Heavy trains "function like light trains"; replacing is an extra option.
    empty, links = [-1] * len(board.lines), [""] * len(board.lines)
    net = {board.node["altoona"]}
    light = train_sites(data, board, 0, LIGHT, empty, links, net, has_presence=True)
    assert light
    assert train_sites(data, board, 0, "HT_REPLACE", empty, links, net, True) == light


def test_pipeline_goes_on_an_empty_route_at_a_city_of_the_network(
    data: PittsburghData, board: PittsburghBoard
) -> None:
    owner, kind = [-1] * len(board.routes), [""] * len(board.routes)
    net = {board.node["franklin"]}
    for sites in pipeline_sites(data, board, 0, owner, kind, net, True):  # reserve, other
        assert {board.routes[r].id for r in sites} == {"oil_creek~franklin", "venango~franklin"}


def test_reserve_pipeline_may_be_swapped_by_its_owner_only(
    data: PittsburghData, board: PittsburghBoard
) -> None:
    owner, kind = [-1] * len(board.routes), [""] * len(board.routes)
    r = board.route_index["venango~franklin"]
    owner[r], kind[r] = 0, "PL_RESERVE"
    net = {board.node["franklin"]}
    reserve, other = pipeline_sites(data, board, 0, owner, kind, net, True)
    assert r in other and r not in reserve  # a reserve pipeline may not replace a reserve
    assert r not in pipeline_sites(data, board, 1, owner, kind, net, True)[1]


# --- selling -----------------------------------------------------------------------------------


def test_industry_sells_to_a_connected_merchant_showing_its_icon(
    data: PittsburghData, board: PittsburghBoard
) -> None:
    tiles = ["MT_15", "MT_WHISKEY", "MT_INCOME", "MT_VP", "MT_DEVELOP"]  # chicago first
    labels = board.labels(owners(board, {"chicago~cleveland": 0}))
    cleveland = board.node["cleveland"]
    assert merchants_buying(data, board, labels, cleveland, "kerosene", tiles) == [0]
    assert merchants_buying(data, board, labels, cleveland, "automobile", tiles) == []
    cut_off = board.labels(owners(board, {}))
    assert merchants_buying(data, board, cut_off, cleveland, "kerosene", tiles) == []


def test_merchant_pays_its_reward_only_face_up(data: PittsburghData) -> None:
    assert merchant_reward(data, "MT_15", faceup=True) == Gains(money=15)
    assert merchant_reward(data, "MT_15", faceup=False) == Gains()


# --- money -------------------------------------------------------------------------------------


def test_loan_drops_three_levels_to_the_highest_space_of_the_new_level(
    track: IncomeTrack,
) -> None:
    assert drop_income(track, 10, 3) == 7  # level 0 -> -3
    assert track.level(drop_income(track, 30, 3)) == 10 - 3
    assert drop_income(track, 30, 3) == 24  # highest space showing level 7


def test_no_action_may_take_income_below_minus_ten(track: IncomeTrack) -> None:
    assert drop_income(track, 2, 3) is None  # level -8
    assert drop_income(track, 3, 3) == 0


# --- cheapest payment --------------------------------------------------------------------------


def cheapest(t: Table, line_owner: list[int], city: str, cube: str, count: int) -> int:
    b = t.board
    return cheapest_cubes(
        b, b.labels(line_owner), [b.node[city]], cube, count,
        slot_resource=t.slot_resource, slot_cubes=t.slot_cubes, own_trains={},
        ladders=t.ladders, market_cubes=t.market_cubes,
    )  # fmt: skip


def test_free_cubes_first_then_the_cheapest_market_cubes(board: PittsburghBoard) -> None:
    t = Table(board)
    mine = slot_of(board, "homestead")
    t.slot_resource[mine], t.slot_cubes[mine] = "coal", 1
    line_owner = owners(board, {**MON_VALLEY, "pittsburgh~washington": 3})
    # Greensburg and Washington coal ladders both hold a $2 cube, then $3 (provisional).
    assert cheapest(t, line_owner, "pittsburgh", "coal", 1) == 0
    assert cheapest(t, line_owner, "pittsburgh", "coal", 3) == 2 + 2
    assert cheapest(t, line_owner, "pittsburgh", "coal", 5) == 2 + 2 + 3 + 3


def test_vanderbilt_pays_for_what_the_markets_cannot(board: PittsburghBoard) -> None:
    t = Table(board)
    greensburg = next(m for m, mk in enumerate(board.markets) if mk.city == "greensburg")
    t.market_cubes[greensburg]["coal"] = 1  # only the $5 top space left
    assert cheapest(t, owners(board, MON_VALLEY), "pittsburgh", "coal", 2) == 5 + 7
    assert cheapest(t, owners(board, {}), "meadville", "coal", 2) == 7 + 7
