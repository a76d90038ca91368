"""The view's ``cube_costs`` (Pittsburgh): what the cubes of a build, a link or a develop
cost the seat to act, paid the cheapest way, is what playing the move charges beyond its
printed money when each cube is then taken from its cheapest source (rulebook "Consuming
Resources": own trains and connected tiles are free, then a connected market, Vanderbilt
anywhere; a cube with one source is taken without asking)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from core.playout import advance, uniform
from plugins.brass_pittsburgh.game import BrassPittsburgh

GAME = BrassPittsburgh()
PRICED = ("build", "network", "second_link", "develop", "develop_also")


def _cheapest_pay(view: dict[str, Any], legal: list[Any]) -> Any:
    """The ``pay`` answer taking the next cube where it costs least now."""
    markets = {m["market"]: m for m in view["markets"]}

    def price(m: Any) -> int:
        if m.source == "vanderbilt":
            return int(view["vanderbilt"][m.resource])
        if m.source == "market":
            return int(markets[m.at]["ladders"][m.resource]["buy_price"])
        return 0  # own train, a connected tile, a pipeline: free

    return min(legal, key=price)


def _paid(state: Any, seat: int, move: Any) -> int:
    """Money the seat pays for ``move`` and its payments (``paid`` events), each cube from
    its cheapest source, until the action asks something else or another seat acts."""
    state, rng, paid = state.clone(), Random(0), 0
    for _ in range(20):
        for e in GAME.decide(state, seat, move, rng):
            if type(e).__name__ == "Paid":
                paid += e.amount
            state = GAME.evolve(state, e)
        tasks = GAME.pending_tasks(state)
        if not tasks or tasks[0].kind == "system" or tasks[0].seat != seat:
            return paid
        legal = GAME.legal_moves(state, seat)
        kind = legal[0].__struct_config__.tag
        if kind == "pay":
            move = _cheapest_pay(GAME.view(state, seat), legal)
        elif kind == "discard":
            move = legal[0]
        else:
            return paid
    raise AssertionError("an action asked more than twenty choices")


def _printed(move: Any) -> int:
    """The money printed on what ``move`` builds (a second link's extra included)."""
    r, kind = GAME.rules, move.__struct_config__.tag
    if kind == "build":
        return next(t.cost.money for t in r.mat.tiles if t.id == move.tile)
    if kind in ("network", "second_link"):
        extra = r.data.constants.second_link_extra_money if kind == "second_link" else 0
        return r.link_tiles[move.link].cost.money + extra
    return 0


def _published(view: dict[str, Any], move: Any) -> int:
    costs, kind = view["cube_costs"], move.__struct_config__.tag
    if kind == "build":
        place = move.oilfield or move.space.split(":")[0]
        return int(costs["build"].get(move.tile, {}).get(place, 0))
    if kind in ("network", "second_link"):
        return int(costs["network"].get(move.link, {}).get(move.site, 0))
    return int(costs.get("develop", 0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_moves_printed_money_plus_its_cube_costs_is_what_playing_it_cheapest_charges(
    players: int,
) -> None:
    checked = bought = seen = 0

    def check_then_play(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        nonlocal checked, bought, seen
        seen += 1
        view = GAME.view(state, seat)
        if "cube_costs" in view and seen % 3 == 0:
            priced = [m for m in legal if m.__struct_config__.tag in PRICED]
            for move in rng.sample(priced, min(len(priced), 25)):
                cubes = _published(view, move)
                assert _paid(state, seat, move) == _printed(move) + cubes, (move, cubes)
                checked += 1
                bought += cubes > 0
        return uniform(state, seat, legal, rng)

    rng = Random(11 + players)
    state = None
    for e in GAME.setup(GAME.Options(), players, rng):
        state = GAME.evolve(state, e)
    advance(GAME, state, rng, 400, check_then_play)
    assert checked > 100 and bought > 30, (checked, bought)


def test_only_the_seat_to_act_sees_cube_costs_and_not_inside_an_action() -> None:
    rng, state = Random(5), None
    for e in GAME.setup(GAME.Options(), 2, rng):
        state = GAME.evolve(state, e)
    seat = GAME.pending_tasks(state)[0].seat
    view = GAME.view(state, seat)
    assert view["decision"]["kind"] == "action"
    # Nothing on the board yet: a develop's iron or steel comes from a market or Vanderbilt.
    assert view["cube_costs"]["develop"] > 0
    assert "cube_costs" not in GAME.view(state, 1 - seat)
    assert "cube_costs" not in GAME.view(state, None)
    assert "cube_costs" not in GAME.playout_view(state, seat)
    develop = next(m for m in GAME.legal_moves(state, seat) if m.__struct_config__.tag == "develop")
    for e in GAME.decide(state, seat, develop, rng):
        state = GAME.evolve(state, e)
    after = GAME.view(state, seat)
    assert after["decision"]["kind"] != "action"
    assert after["decision"]["kind"] in ("discard", "pay") and "cube_costs" not in after
