"""Bots choose moves from exactly what a player has: the seat's view and its legal moves."""

from __future__ import annotations

import logging
from collections.abc import Callable
from random import Random
from typing import Any, Protocol

log = logging.getLogger(__name__)

Policy = Callable[[dict[str, Any], list[Any], Random], Any]


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any: ...


class RandomBot:
    """Uniform over the legal moves, reproducible through the ``rng`` it is handed."""

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        return legal[rng.randrange(len(legal))]


class GreedyBot:
    """The game's own heuristic (its optional ``bot_policy`` hook, see :mod:`core.game`);
    uniform random, move for move the random bot, for a game without one."""

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy

    def for_game(self, game: Any) -> GreedyBot:
        return GreedyBot(getattr(game, "bot_policy", None))

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        if self.policy is None:
            return RandomBot().choose(view, legal, rng)
        try:
            move = self.policy(view, legal, rng)
        except Exception:
            # A plugin bug must not stall the match: play on at random, loudly.
            log.exception("bot_policy failed; playing a random legal move instead")
            return RandomBot().choose(view, legal, rng)
        if move not in legal:
            log.error("bot_policy chose an unlisted move %r; playing a random one", move)
            return RandomBot().choose(view, legal, rng)
        return move


BOTS: dict[str, Bot] = {"random": RandomBot(), "greedy": GreedyBot()}


def get_bot(name: str, game: Any = None) -> Bot:
    """The bot ``name``, fitted to ``game`` when that bot plays each game its own way."""
    bot = BOTS[name]
    fit = getattr(bot, "for_game", None)
    return bot if fit is None or game is None else fit(game)
