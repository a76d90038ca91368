"""The view's ``market_buys`` (Birmingham and Lancashire): what a build, a rail or a
development would buy from the coal and iron markets, priced, is what playing it charges
beyond the printed money ("Market buying and replenishment", "Coal: nearest first", "Iron:
no connection" in the rule texts: cubes on the board are free, what they lack is bought)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from core.playout import advance, uniform
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_lancashire.game import BrassLancashire

ANSWERED = ("discard", "pick_coal", "pick_iron")
"""Decisions of the same action a check answers with the first legal move."""


def _paid(game: Any, state: Any, seat: int, move: Any) -> int:
    """Money the seat pays for ``move`` and the choices it asks (the ``paid`` events)."""
    state, rng, paid = state.clone(), Random(0), 0
    for _ in range(10):
        for e in game.decide(state, seat, move, rng):
            if type(e).__name__ == "Paid":
                paid += e.amount
            state = game.evolve(state, e)
        decision = game.view(state, seat)["decision"]
        if decision["seat"] != seat or decision["kind"] not in ANSWERED:
            return paid
        move = game.legal_moves(state, seat)[0]
    raise AssertionError("an action asked more than ten choices")


def _expected(game: Any, view: dict[str, Any], move: Any) -> int | None:
    """The printed money plus what ``market_buys`` says the move buys; ``None`` for a move
    whose money is not its price alone (a mine or works sells its cubes when built)."""
    board, buys, kind = game.metadata["board"], view["market_buys"], move.__struct_config__.tag
    if kind == "build":
        if move.industry in ("coal", "iron"):
            return None
        level = view["players"][view["seat"]]["next_tiles"][move.industry]
        row = next(r for r in board["tiles"][move.industry] if r["level"] == level)
        bought = buys["build"].get(move.space.split(":")[0], {}).get(move.industry)
        return row["money"] + (bought["money"] if bought else 0)
    if kind == "network":
        bought = buys["network"].get(move.link)
        return board["link_costs"][view["era"]]["money"] + (bought["money"] if bought else 0)
    if kind == "develop":
        return buys["develop"]["money"] if "develop" in buys else 0
    return None


@pytest.mark.parametrize("game", [BrassBirmingham(), BrassLancashire()], ids=["bb", "bl"])
def test_a_moves_printed_price_plus_its_market_buys_is_what_playing_it_charges(game: Any) -> None:
    checked = bought = seen = 0

    def check_then_play(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        nonlocal checked, bought, seen
        seen += 1
        view = game.view(state, seat)
        if "market_buys" in view and seen % 4 == 0:
            for move in legal:
                want = _expected(game, view, move)
                if want is None:
                    continue
                assert _paid(game, state, seat, move) == want, (move, view["market_buys"])
                checked += 1
                bought += want != _expected(game, {**view, "market_buys": _NONE}, move)
        return uniform(state, seat, legal, rng)

    rng = Random(7)
    state = None
    for e in game.setup(game.Options(), 2, rng):
        state = game.evolve(state, e)
    advance(game, state, rng, 300, check_then_play)
    assert checked > 50 and bought > 10, (checked, bought)


_NONE = {"build": {}, "network": {}}
"""``market_buys`` naming nothing: the printed price alone."""


def test_no_market_buys_while_a_seat_chooses_inside_an_action() -> None:
    game, rng, state = BrassBirmingham(), Random(3), None
    for e in game.setup(game.Options(), 2, rng):
        state = game.evolve(state, e)
    seat = game.pending_tasks(state)[0].seat
    view = game.view(state, seat)
    assert view["decision"]["kind"] == "action"
    # No iron works on the board at the start: a development buys its iron.
    assert view["market_buys"]["develop"] == {
        "iron": 1,
        "money": view["markets"]["iron"]["buy_price"],
    }
    develop = next(m for m in game.legal_moves(state, seat) if m.__struct_config__.tag == "develop")
    for e in game.decide(state, seat, develop, rng):
        state = game.evolve(state, e)
    after = game.view(state, seat)
    assert after["decision"]["kind"] == "discard"
    assert "market_buys" not in after
