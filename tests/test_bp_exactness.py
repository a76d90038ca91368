"""Brass: Pittsburgh fast legal-move listing against a slow exhaustive check.

The listing prunes candidates (money bounds, Vanderbilt's price as the worst case, sites
settled per connected group, a taken unit never making the rest cheaper) and caches facts
per listing and per state. Here every candidate move is instead checked from the rules on
its own, with a fresh cheapest-payment plan each time, on many states of random games, each
also tried with several amounts of money (the pruning bounds are about money).

``IRONWORKS_BP_EXACT_GAMES=20`` plays more games per player count.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

from core.game import SYSTEM
from plugins.brass.cards import distinct
from plugins.brass.events import Step
from plugins.brass.moves import Done
from plugins.brass_pittsburgh import engine, steps
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.building import has_presence, network
from plugins.brass_pittsburgh.choices import link_cost, own_trains, payment_table, slot_resources
from plugins.brass_pittsburgh.data import CUBES
from plugins.brass_pittsburgh.finance import drop_income
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.industries import card_builds
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.payment import cheapest_cubes
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.sourcing import cube_sources
from plugins.brass_pittsburgh.state import State, apply, era_number

GAMES = int(os.environ.get("IRONWORKS_BP_EXACT_GAMES", "1"))
MONEY = (0, 2, 5, 7, 9, 12, 16, 20, 25, 40)
"""Amounts tried on each sampled state: around Vanderbilt's prices and tile costs."""


@pytest.fixture(scope="module")
def game() -> BrassPittsburgh:
    return BrassPittsburgh()


def random_states(game: BrassPittsburgh, players: int, seed: int) -> Iterator[State]:
    """Every state where a seat decides, along one random game."""
    rng = Random(seed)
    (event,) = game.setup(Options(), players, rng)
    s = game.evolve(None, event)
    while tasks := game.pending_tasks(s):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(s, SYSTEM, task.move, rng)
        else:
            yield s
            legal = game.legal_moves(s, task.seat)
            events = game.decide(s, task.seat, legal[rng.randrange(len(legal))], rng)
        for e in events:
            s = game.evolve(s, e)


def with_money(s: State, seat: int, money: int) -> State:
    t = s.clone()
    t.money[seat] = money
    return t


# --- the slow check, from the rules, one candidate at a time ---------------------------------


def cube_price(rules: Rules, s: State, seat: int, nodes: list[int], cube: str, n: int,
               exclude_line: int = -1) -> int:  # fmt: skip
    board = rules.board_of(s.side)
    return cheapest_cubes(
        board, board.labels(s.line_owner), nodes, cube, n,
        slot_resource=slot_resources(rules, s), slot_cubes=s.slot_cubes,
        own_trains=own_trains(rules, s, seat), ladders=rules.ladders[s.side],
        market_cubes=s.market_cubes, exclude_line=exclude_line,
    )  # fmt: skip


def slow_build_places(rules: Rules, s: State, seat: int, card: int, wild: bool) -> set[Any]:
    """(space, slot, oilfield) of every build the card allows, cost aside."""
    data, board = rules.data, rules.board_of(s.side)
    cdef = rules.cards[s.side].defs[card]
    net, present, era = network(rules, s, seat), has_presence(s, seat), era_number(s)

    def city_ok(city: int) -> bool:
        if wild:
            return True
        if cdef.kind == "location":
            return city == cdef.location
        return city in net or not present

    found = set()
    for space in rules.mat.accessible(s.mat[seat]):
        tile = rules.mat.tiles[space]
        if not tile.allowed_in_era(era):
            continue
        if not wild and tile.industry not in card_builds(data, board, cdef):
            continue
        if tile.build_on == "oilfield":
            if wild or cdef.kind != "location":
                for r, owner in enumerate(s.route_owner):
                    field = board.route_oilfield[r]
                    if owner >= 0 and board.route_city[r] in net and s.oil_city_owner[field] < 0:
                        found.add((space, -1, field))
            continue
        for slot, node in enumerate(board.slot_node):
            if not city_ok(node):
                continue
            if tile.build_on == "upgrade":
                old = s.slot_tile[slot]
                if (
                    s.slot_owner[slot] == seat
                    and s.slot_flipped[slot]
                    and data.industries[data.mat.tiles[old].industry].path == tile.upgrade_of
                ):
                    found.add((space, slot, -1))
                continue
            city = board.city_slots[node]
            if era == 1 and any(s.slot_owner[x] == seat for x in city):
                continue
            if s.slot_owner[slot] >= 0 or tile.industry not in board.slot_icons[slot]:
                continue
            single = (tile.industry,)
            if board.slot_icons[slot] != single and any(
                s.slot_owner[x] < 0 and board.slot_icons[x] == single for x in city
            ):
                continue
            found.add((space, slot, -1))
    return found


def slow_build_affordable(rules: Rules, s: State, seat: int, space: int, slot: int,
                          field: int) -> bool:  # fmt: skip
    board = rules.board_of(s.side)
    cost = rules.mat.tiles[space].cost
    if (
        cost.income_levels
        and drop_income(rules.income, s.income[seat], -cost.income_levels) is None
    ):
        return False
    if field >= 0:
        nodes = sorted(
            {board.route_city[r] for r, o in enumerate(s.route_owner)
             if o >= 0 and board.route_oilfield[r] == field}
        )  # fmt: skip
    else:
        nodes = [board.slot_node[slot]]
    money = cost.money + sum(
        cube_price(rules, s, seat, nodes, cube, n) for cube, n in cost.resources().items()
    )
    return money <= s.money[seat]


def slow_builds(rules: Rules, s: State, seat: int) -> set[Any]:
    kinds = distinct(s.hands[seat])
    found = set()
    for kind in kinds:
        for space, slot, field in slow_build_places(rules, s, seat, kind, False):
            if slow_build_affordable(rules, s, seat, space, slot, field):
                found.add(mv.Build(card=kind, space=space, slot=slot, oilfield=field))
    if s.whiskey[seat] > 0 and kinds:
        for space, slot, field in slow_build_places(rules, s, seat, kinds[0], True):
            if slow_build_affordable(rules, s, seat, space, slot, field):
                found.add(mv.Build(card=-1, space=space, slot=slot, oilfield=field, whiskey=True))
    return found


def slow_links(rules: Rules, s: State, seat: int, extra: int = 0) -> set[tuple[str, int]]:
    data, board = rules.data, rules.board_of(s.side)
    net, present = network(rules, s, seat), has_presence(s, seat)
    links = {*s.link_supply[seat], *([LIGHT] if s.light_trains[seat] > 0 else [])}
    found = set()
    for link in links:
        cost = link_cost(rules, link)
        if link in data.pipelines:
            reserve = data.pipelines[link].type == "reserve"
            sites = [
                r for r, o in enumerate(s.route_owner)
                if (o < 0 and (board.route_city[r] in net or not present))
                or (o == seat and not reserve
                    and data.pipelines[s.route_pipeline[r]].type == "reserve")
            ]  # fmt: skip
            ends = {r: [board.route_city[r]] for r in sites}
        else:
            replace = link != LIGHT and data.heavy_trains[link].type == "replacement"
            sites = [
                line for line, o in enumerate(s.line_owner)
                # a replacement train may also go on an empty line, like any other train
                if (o < 0 or (replace and o != seat and s.line_link[line] == LIGHT))
                and (not present or any(x in net for x in board.line_nodes[line]))
            ]  # fmt: skip
            ends = {line: list(board.line_nodes[line]) for line in sites}
        for site in sites:
            money = (
                cost.money
                + extra
                + sum(
                    cube_price(rules, s, seat, ends[site], cube, n)
                    for cube, n in cost.resources().items()
                )
            )
            if money <= s.money[seat]:
                found.add((link, site))
    return found


def slow_pay_options(rules: Rules, s: State, seat: int) -> set[Any]:
    """Every source of the next unit that leaves money for the rest, played out."""
    step, *later = s.pending
    board = rules.board_of(s.side)
    nodes, exclude = engine.consumers(rules, s, seat, step.b if step.kind == "cube" else -1)
    kinds = [CUBES[step.a]] if step.kind == "cube" else ["iron", "steel"]
    rest = [Step(step.kind, step.n - 1, step.a, step.b), *later]
    found = set()
    for cube in kinds:
        for src in cube_sources(
            board, board.labels(s.line_owner), nodes, cube,
            slot_resource=slot_resources(rules, s), slot_cubes=s.slot_cubes,
            own_trains=own_trains(rules, s, seat), ladders=rules.ladders[s.side],
            market_cubes=s.market_cubes, exclude_line=exclude,
        ):  # fmt: skip
            pay = mv.Pay(cube, src.kind, src.index)
            after = s.clone()
            for e in steps.taking(rules, after, seat, pay):
                apply(rules, after, e)
            need = 0
            for st in rest:
                if st.n <= 0 or st.kind not in ("cube", "metal"):
                    continue
                where, ex = engine.consumers(rules, after, seat, st.b if st.kind == "cube" else -1)
                metals = [CUBES[st.a]] if st.kind == "cube" else ["iron", "steel"]
                need += min(cube_price(rules, after, seat, where, c, st.n, ex) for c in metals)
            if src.price + need <= s.money[seat]:
                found.add(pay)
    return found


# --- the comparisons ---------------------------------------------------------------------------


def sampled(game: BrassPittsburgh, players: int) -> Iterator[State]:
    for seed in range(GAMES):
        for i, s in enumerate(random_states(game, players, 7000 + seed)):
            if s.pending or i % 3 == 0:
                yield s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_listed_builds_and_links_are_exactly_those_the_rules_allow(
    game: BrassPittsburgh, players: int
) -> None:
    rules = game.rules
    checked = 0
    for s in sampled(game, players):
        if s.pending:
            continue
        seat = s.current
        for money in MONEY:
            t = with_money(s, seat, money)
            listed = engine.action_moves(rules, t, seat)
            builds = {m for m in listed if isinstance(m, mv.Build)}
            assert builds == slow_builds(rules, t, seat), f"builds, round {t.round}, ${money}"
            links = {(m.link, m.site) for m in listed if isinstance(m, mv.Network)}
            assert links == slow_links(rules, t, seat), f"links, round {t.round}, ${money}"
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", [2, 4])
def test_no_place_pays_less_for_cubes_than_the_listings_bound(
    game: BrassPittsburgh, players: int
) -> None:
    """``PaymentTable.least`` lets listings drop a tile or link without pricing it place by
    place: it must never be more than the cheapest plan at any location."""
    rules, above_zero = game.rules, 0
    for s in sampled(game, players):
        seat = s.current
        table = payment_table(rules, s, seat)
        for cube in CUBES:
            for n in (1, 2, 3):
                least = table.least([(cube, n)])
                nodes = range(len(table.labels))
                assert least <= min(table.cheapest((node,), cube, n) for node in nodes)
                above_zero += least > 0
    assert above_zero > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_listed_payments_and_offers_are_exactly_those_the_rules_allow(
    game: BrassPittsburgh, players: int
) -> None:
    rules = game.rules
    kinds: set[str] = set()
    for s in sampled(game, players):
        if not s.pending:
            continue
        seat, step = s.current, s.pending[0]
        for money in MONEY:
            t = with_money(s, seat, money)
            listed = engine.step_options(rules, t, seat)
            if step.kind in ("cube", "metal"):
                assert set(listed) == slow_pay_options(rules, t, seat), f"{step}, ${money}"
                kinds.add(step.kind)
            elif step.kind == "more_link":
                extra = rules.data.constants.second_link_extra_money
                links = {(m.link, m.site) for m in listed if isinstance(m, mv.SecondLink)}
                assert links == slow_links(rules, t, seat, extra), f"second link, ${money}"
                kinds.add(step.kind)
            if step.kind in engine.OFFERS:
                offer = rules.variant.step_kinds[step.kind]
                assert offer.has_offer(rules.variant, t, seat, t.pending) == (listed != [Done()])
    assert "cube" in kinds
