"""The service's "greedy" bot for Age of Steam: :func:`policy.sensible_move` played from what
a client receives (the seat's view and its legal moves), never from the match's state.

The view shows everything in the game (nothing is hidden), so it is read back into a
:class:`State` holding just the public facts the policy looks at: money, shares, income
and engines, track with owners, goods on the map, New Cities, the tile supply, the turn
and the step. The static map comes from the map data (the board of ``GET /games``).
Bookkeeping the policy never reads (the auction's order, who is still to act, the display)
is left empty.
"""

from __future__ import annotations

from random import Random
from typing import Any

from plugins.age_of_steam.data import board
from plugins.age_of_steam.policy import sensible_move
from plugins.age_of_steam.state import OWNERLESS, TOWN, HexTrack, PlayerState, State


def bot_policy(view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
    """One of ``legal`` for the seat the view belongs to (``view["seat"]``)."""
    if not legal:
        raise ValueError("the bot was asked to move with no legal move")
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator's view cannot drive a bot")
    return sensible_move(state_from_view(view), seat, legal, rng)


def state_from_view(view: dict[str, Any]) -> State:
    """The public facts of a view, in the shape the policy and the track rules read."""
    b = board(view["map"])

    def hex_id(key: str) -> int:
        col, row = key.split(",")
        return b.hex_of(int(col), int(row))

    goods: dict[int, list[str]] = {}
    new_cities: dict[int, str] = {}
    for city in view["cities"]:
        h = hex_id(city["hex"])
        goods[h] = _cubes(city["cubes"])
        if city["new_city"] is not None:
            new_cities[h] = city["new_city"]
    for key, counts in view["land_goods"].items():
        goods[hex_id(key)] = _cubes(counts)
    track = {
        hex_id(t["hex"]): HexTrack(tile=t["tile"], sections=[_section(s) for s in t["sections"]])
        for t in view["track"]
    }
    players = [
        # ``built`` only forbids a first track away from a city; the policy weighs moves the
        # game already listed as legal, so the permissive value changes nothing.
        PlayerState(money=p["money"], shares=p["shares"], income=p["income"],
                    engine=p["engine"], eliminated=p["eliminated"], built=True)
        for p in view["players"]
    ]  # fmt: skip
    return State(
        map_id=view["map"], players=len(players), options=dict(view["options"]),
        turn=view["turn"], last_turn=view["last_turn"], phase=view["phase"],
        order=list(view["order"]), builds_left=view["builds_left"],
        actions=dict(view["actions"]), pl=players, bag=dict(view["bag"]),
        display=[list(cubes) for cubes in view["display"].values()], goods=goods,
        new_cities=new_cities, track=track, tiles=dict(view["tiles"]),
    )  # fmt: skip


def _cubes(counts: dict[str, int]) -> list[str]:
    return [colour for colour, n in sorted(counts.items()) for _ in range(n)]


def _section(s: dict[str, Any]) -> list[int]:
    sides = s["sides"]
    other = sides[1] if len(sides) == 2 else TOWN
    owner = OWNERLESS if s["owner"] is None else s["owner"]
    return [sides[0], other, owner, s["laid"]]
