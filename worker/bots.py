"""Bots choose moves from exactly what a player has: the seat's view and its legal moves."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from random import Random
from typing import Any, Protocol

from core.bots import BOT_LEVELS, DEFAULT_LEVEL, BotInfo, searchable
from worker.search import LEVELS, SearchBot, level_with
from worker.think import ThinkPool

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


class SearchBots:
    """The search bot (:mod:`worker.search`), fitted to a game and a level; the greedy bot
    for a game that lacks the search hooks."""

    def for_game(
        self, game: Any, level: str | None = None, think_ms: int | None = None,
        pool: ThinkPool | None = None, clock: Callable[[], float] = time.perf_counter,
    ) -> Bot:  # fmt: skip
        if not searchable(game):
            return GreedyBot().for_game(game)
        chosen = level_with(level or DEFAULT_LEVEL, think_ms)
        return SearchBot(game, chosen, clock) if pool is None else pool.bot(game, chosen)

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        raise TypeError("the search bot plays a game: fit it with for_game first")


BOTS: dict[str, Any] = {"random": RandomBot(), "greedy": GreedyBot(), "search": SearchBots()}


def get_bot(
    name: str, game: Any = None, level: str | None = None, think_ms: int | None = None,
    pool: ThinkPool | None = None, clock: Callable[[], float] = time.perf_counter,
) -> Bot:  # fmt: skip
    """The bot ``name``, fitted to ``game`` when that bot plays each game its own way (the
    search bot also to its ``level`` and the seat's ``think_ms``, thinking in ``pool``'s
    processes when one is given, its budget counted on ``clock``)."""
    bot = BOTS[name]
    if game is None or not hasattr(bot, "for_game"):
        return bot
    if name == "search":
        return bot.for_game(game, level, think_ms, pool, clock)
    return bot.for_game(game)


def describe(game: Any) -> list[BotInfo]:
    """The bot kinds and levels ``game`` offers, as ``GET /games/{id}`` lists them."""
    out = [
        BotInfo(bot="random", levels=[], description="uniform over the legal moves"),
        BotInfo(bot="greedy", levels=[], description=(
            "the game's own one-move heuristic" if getattr(game, "bot_policy", None)
            else "uniform over the legal moves (this game has no heuristic of its own)")),
    ]  # fmt: skip
    if searchable(game):
        levels = [LEVELS[name] for name in BOT_LEVELS]
        out.append(BotInfo(bot="search", levels=list(BOT_LEVELS), description=(
            "determinized Monte Carlo search from the seat's view; levels: "
            + "; ".join(f"{lv.name} ({lv.seconds:g} s a move: {lv.description})"
                        for lv in levels))))  # fmt: skip
    return out
