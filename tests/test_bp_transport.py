"""Brass: Pittsburgh transport: cubes by train links of anyone, oil out through pipelines.

Cities, lines and routes are those of the PROVISIONAL main board side (0.1.0).
"""

from __future__ import annotations

import random

import pytest

from plugins.brass_pittsburgh.board import BuiltPipeline, PittsburghBoard
from plugins.brass_pittsburgh.rules import default_rules


@pytest.fixture(scope="module")
def board() -> PittsburghBoard:
    rules = default_rules()
    return rules.board_of(rules.side_for(4))


def lines(board: PittsburghBoard, owners: dict[str, int]) -> list[int]:
    owner = [-1] * len(board.lines)
    for line_id, seat in owners.items():
        owner[board.line_index[line_id]] = seat
    return owner


def pipes(board: PittsburghBoard, built: dict[str, BuiltPipeline]) -> list[BuiltPipeline | None]:
    route = [None] * len(board.routes)
    for route_id, pipe in built.items():
        route[board.route_index[route_id]] = pipe
    return route  # type: ignore[return-value]


def test_oilfields_are_not_locations(board: PittsburghBoard) -> None:
    assert not set(board.oilfields) & set(board.locations)


def test_cubes_travel_over_a_continuous_route_of_anyones_train_links(
    board: PittsburghBoard,
) -> None:
    owner = lines(
        board, {"homestead~pittsburgh": 0, "braddock~homestead": 1, "braddock~greensburg": 2}
    )
    labels = board.labels(owner)
    pittsburgh = board.node["pittsburgh"]
    assert labels[pittsburgh] == labels[board.node["greensburg"]]
    greensburg_market = board.markets_connected(labels, pittsburgh, "coal")
    assert [board.markets[m].city for m in greensburg_market] == ["greensburg"]


def test_a_gap_in_the_route_stops_cubes(board: PittsburghBoard) -> None:
    labels = board.labels(lines(board, {"homestead~pittsburgh": 0, "braddock~greensburg": 1}))
    assert labels[board.node["pittsburgh"]] != labels[board.node["greensburg"]]
    assert board.markets_connected(labels, board.node["pittsburgh"], "coal") == []


def test_a_market_in_the_same_city_needs_no_link(board: PittsburghBoard) -> None:
    labels = board.labels(lines(board, {}))
    found = board.markets_connected(labels, board.node["franklin"], "iron")
    assert [board.markets[m].city for m in found] == ["franklin"]


def test_pipelines_do_not_carry_cubes_between_cities(board: PittsburghBoard) -> None:
    # Butler and Allegheny both reach Butler Field by pipeline, but no train joins them.
    route = pipes(
        board,
        {
            "butler_field~butler": BuiltPipeline(0, "PL_MONEY1"),
            "butler_field~allegheny": BuiltPipeline(1, "PL_MONEY1"),
        },
    )
    labels = board.labels(lines(board, {}))
    assert labels[board.node["butler"]] != labels[board.node["allegheny"]]
    owners = [-1 if built is None else built.owner for built in route]
    assert board.network_by_owner(0, [], lines(board, {}), owners) == {board.node["butler"]}


def test_oil_leaves_an_oilfield_through_a_pipeline_then_by_train(
    board: PittsburghBoard,
) -> None:
    owner = lines(board, {"allegheny~pittsburgh": 1})
    labels = board.labels(owner)
    route = pipes(board, {"butler_field~allegheny": BuiltPipeline(0, "PL_VP2")})
    sources = board.oil_sources(labels, route, board.node["pittsburgh"])
    assert [(board.oilfields[s.oilfield], board.routes[s.route].id) for s in sources] == [
        ("butler_field", "butler_field~allegheny")
    ]


def test_no_pipeline_no_oil(board: PittsburghBoard) -> None:
    labels = board.labels(lines(board, {"allegheny~pittsburgh": 1}))
    no_pipes = pipes(board, {})
    assert board.oil_sources(labels, no_pipes, board.node["pittsburgh"]) == []


def test_the_reserve_pipeline_transports_no_oil(board: PittsburghBoard) -> None:
    labels = board.labels(lines(board, {}))
    route = pipes(board, {"butler_field~allegheny": BuiltPipeline(0, "PL_RESERVE")})
    assert board.oil_sources(labels, route, board.node["allegheny"]) == []


def test_a_resource_train_reaches_what_its_line_is_connected_to(board: PittsburghBoard) -> None:
    owner = lines(board, {"homestead~pittsburgh": 0, "braddock~homestead": 1})
    labels = board.labels(owner)
    train = board.line_index["braddock~homestead"]
    assert board.train_reaches(labels, train, board.node["pittsburgh"])
    assert not board.train_reaches(labels, train, board.node["greensburg"])


def test_vanderbilt_delivers_cubes_at_the_sides_printed_prices(board: PittsburghBoard) -> None:
    # Provisional prices (0.1.0): coal 7, iron 8, steel 10, coke 12.
    prices = [board.vanderbilt_price(c) for c in ("coal", "iron", "steel", "coke")]
    assert prices == [7, 8, 10, 12]
    with pytest.raises(KeyError):
        board.vanderbilt_price("oil")


def test_network_holds_industry_locations_and_both_ends_of_own_links(
    board: PittsburghBoard,
) -> None:
    owner = lines(board, {"homestead~pittsburgh": 0, "braddock~homestead": 1})
    net = board.network_by_owner(0, [board.node["erie"]], owner, [-1] * len(board.routes))
    assert net == {board.node[c] for c in ("erie", "homestead", "pittsburgh")}


def test_two_locations_share_a_label_exactly_when_built_lines_of_anyone_join_them(
    board: PittsburghBoard,
) -> None:
    # Random boards of built lines, against a search over the built lines; a label is a
    # location of its own component.
    rng = random.Random(5)
    graph = board.graph
    for _ in range(300):
        owner = [rng.choice((-1, -1, 0, 1, 2, 3)) for _ in graph.link_nodes]
        labels = graph.components(owner)
        for start in range(graph.n):
            joined, todo = {start}, [start]
            while todo:
                node = todo.pop()
                for li in graph.node_links[node]:
                    if owner[li] >= 0:
                        for other in graph.link_nodes[li]:
                            if other not in joined:
                                joined.add(other)
                                todo.append(other)
            assert {x for x in range(graph.n) if labels[x] == labels[start]} == joined
            assert labels[labels[start]] == labels[start]
