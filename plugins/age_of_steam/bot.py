"""The service's "greedy" bot for Age of Steam: :func:`policy.sensible_move` played from what
a client receives (the seat's view and its legal moves), never from the match's state.

The view shows everything in the game (nothing is hidden), so
:func:`lookahead.determinize` reads it back into the very state it was made from, and the
policy plays on that.
"""

from __future__ import annotations

from random import Random
from typing import Any

from plugins.age_of_steam.lookahead import determinize
from plugins.age_of_steam.policy import sensible_move


def bot_policy(view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
    """One of ``legal`` for the seat the view belongs to (``view["seat"]``)."""
    if not legal:
        raise ValueError("the bot was asked to move with no legal move")
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator's view cannot drive a bot")
    return sensible_move(determinize(view, rng), seat, legal, rng)
