"""The hooks a search bot plays Age of Steam through (see :mod:`core.game`): a cheap
:func:`clone`, :func:`determinize` (a full state from a seat's view), :func:`evaluate` (each
seat's expected final score) and the playouts' fast policy (:mod:`playout_policy`).

Nothing in Age of Steam is hidden: the bag has no order and its content is shown, so the
state a view determines is unique and :func:`determinize` draws nothing. What is still to
come (Production draws, growth dice) is drawn when it happens, by the ``rng`` ``decide``
gets, so a search that plays a determinized state on samples those as the game would.
"""

from __future__ import annotations

from random import Random
from typing import Any

import msgspec

from plugins.age_of_steam import evaluation, flow, position
from plugins.age_of_steam.data import board
from plugins.age_of_steam.state import OWNERLESS, TOWN, Auction, PlayerState, State

_replace = msgspec.structs.replace


def clone(state: State) -> State:
    """A copy ``evolve`` may change without touching ``state``.

    Only the containers ``evolve`` changes in place are copied; what it replaces instead
    (a hex's track, a hex's goods, a display column, the derived network: see
    :mod:`flow`) is shared, as are the options."""
    a = state.auction
    return _replace(
        state,
        order=list(state.order),
        queue=list(state.queue),
        auction=None if a is None else _replace(
            a, seats=list(a.seats), active=list(a.active), bids=dict(a.bids), out=list(a.out)
        ),
        actions=dict(state.actions),
        cycle_used=list(state.cycle_used),
        engine_raised=list(state.engine_raised),
        production=list(state.production),
        pl=[_replace(p) for p in state.pl],
        bag=dict(state.bag),
        display=list(state.display),
        goods=dict(state.goods),
        new_cities=dict(state.new_cities),
        track=dict(state.track),
        tiles=dict(state.tiles),
    )  # fmt: skip


def canonical(state: State) -> State:
    """A copy of ``state`` whose dicts and lists that a view shows without their order
    (goods, track, New Cities, bids, engine raises, the bag) are in one fixed order: by
    hex, seat or colour. Two states with the same view are then equal field by field, so
    a policy reading them chooses alike whatever order things happened in."""
    out = clone(state)
    out.goods = {h: sorted(state.goods[h]) for h in sorted(state.goods) if state.goods[h]}
    out.track = {h: state.track[h] for h in sorted(state.track)}
    out.new_cities = {h: state.new_cities[h] for h in sorted(state.new_cities)}
    out.engine_raised = sorted(state.engine_raised)
    out.bag = dict(sorted(state.bag.items()))
    if out.auction is not None:
        out.auction.bids = dict(sorted(out.auction.bids.items()))
    out.net = None
    return out


def determinize(view: dict[str, Any], rng: Random) -> State:
    """The state ``view`` (a seat's) shows, in :func:`canonical` form: read into a position
    document and loaded, so the loader's checks hold. ``rng`` is not needed: nothing is
    hidden (module docstring)."""
    if view.get("seat") is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    from plugins.age_of_steam.game import Options

    return canonical(position.load(position_from_view(view), flow.sequence, Options))


def position_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """The position document of the state a view shows. What the view leaves implicit is
    derived the way the turn sets it: the seats still to act in this step follow from
    ``to_act``, the order and the First Build / First Move holders; the Move Goods round is
    the decision's; Production cubes are drawn once a seat places them."""
    phase, to_act, decision = view["phase"], view["to_act"], view["decision"]
    players = view["players"]
    goods: dict[str, list[str]] = {}
    new_cities: dict[str, str] = {}
    for city in view["cities"]:
        if city["cubes"]:
            goods[city["hex"]] = _cubes(city["cubes"])
        if city["new_city"] is not None:
            new_cities[city["hex"]] = city["new_city"]
    for key, counts in view["land_goods"].items():
        goods[key] = _cubes(counts)
    a = view["auction"]
    auction = None if a is None else Auction(
        seats=list(a["bidders"]), active=list(a["active"]), to_act=to_act, high=a["high"],
        high_seat=a["high_seat"], bids={int(s): x for s, x in a["bids"].items()},
        out=list(a["dropped_out"]), pass_seat=a["free_pass_seat"],
    )  # fmt: skip
    doc = {
        "map": view["map"], "players": len(players), "options": dict(view["options"]),
        "turn": view["turn"], "last_turn": view["last_turn"], "phase": phase,
        "order": list(view["order"]), "queue": _queue(view),
        "move_round": decision.get("round", 1) - 1 if phase == "move" else 0,
        "builds_left": view["builds_left"],
        "urbanize_open": "urbanize" in decision["moves"],
        "auction": None if auction is None else msgspec.to_builtins(auction),
        "actions": dict(view["actions"]), "cycle_used": list(view["cycle_used"]),
        "turn_order_seat": view["turn_order_seat"], "first_holder": view["first_holder"],
        "engine_raised": [p["seat"] for p in players if p["engine_raised"]],
        "production": list(view["production"]),
        "production_drawn": phase == "production" and to_act is not None,
        "players_state": [
            msgspec.to_builtins(PlayerState(
                money=p["money"], shares=p["shares"], income=p["income"], engine=p["engine"],
                eliminated=p["eliminated"], out_turn=p["out_turn"], built=p["built"],
            ))
            for p in players
        ],
        "bag": dict(view["bag"]), "display": {k: list(v) for k, v in view["display"].items()},
        "goods": goods, "new_cities": new_cities,
        "track": {t["hex"]: {"tile": t["tile"], "sections": [_section(s) for s in t["sections"]]}
                  for t in view["track"]},
        "tiles": dict(view["tiles"]), "final_scores": view["final_scores"],
    }  # fmt: skip
    return doc


def _queue(view: dict[str, Any]) -> list[int]:
    phase, to_act = view["phase"], view["to_act"]
    if to_act is None or phase == "auction":
        return []
    if phase == "production":
        return [to_act]
    holder = {"build": "first_build", "move": "first_move"}.get(phase)
    turn = flow.first(view["order"], view["actions"].get(holder) if holder else None)
    return turn[turn.index(to_act) :]


def _cubes(counts: dict[str, int]) -> list[str]:
    return [colour for colour, n in sorted(counts.items()) for _ in range(n)]


def _section(s: dict[str, Any]) -> list[int]:
    sides = s["sides"]
    other = sides[1] if len(sides) == 2 else TOWN
    owner = OWNERLESS if s["owner"] is None else s["owner"]
    return [sides[0], other, owner, s["laid"]]


def mid_build(view: dict[str, Any]) -> bool:
    """Whether the seat has laid a tile this turn and may lay more: the search then plays
    the greedy pick (``search_keeps_anchor``). Greedy lays a turn's tiles as one project;
    a searched tile there is judged by playouts that carry on their own policy's project,
    so it tends to leave greedy's half built and start another (unfinished track scores
    nothing and carries nothing). Not wired into the game: in the ladder of 2026-12-01 it
    came with the calibrated evaluation, and the pair played worse than without (see
    :func:`plugins.age_of_steam.evaluation.expected_scores`)."""
    if view["phase"] != "build" or view["to_act"] != view["seat"]:
        return False
    allowance = 4 if view["actions"].get("engineer") == view["seat"] else 3
    return 0 < view["builds_left"] < allowance


def evaluate(state: State) -> list[float]:
    """Each seat's expected final score: the result's scores once the game is over."""
    if state.phase == "over" and state.final_scores is not None:
        return [float(x) for x in state.final_scores]
    return evaluation.expected_scores(board(state.map_id), state)
