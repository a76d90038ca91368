"""Search bots thinking in other processes, so a long think holds neither the API's
interpreter lock nor another match's turn.

What crosses the process boundary is exactly what a remote bot would get: the game's id,
the level, the seat's view, its legal moves and an rng. The answer is the index of the
chosen move in that list.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any

from worker.search import Level, SearchBot


@functools.cache
def _game(game_id: str) -> Any:
    from core.registry import default_registry

    return default_registry().get(game_id)


def _think(game_id: str, level: Level, view: dict[str, Any], legal: list[Any], rng: Random) -> int:
    move = SearchBot(_game(game_id), level).choose(view, legal, rng)
    return legal.index(move)


class ThinkPool:
    """At most ``processes`` search bots think at once, each in its own process."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or max(1, min(2, os.cpu_count() or 1))
        # spawn, not fork: the API process runs threads, and forking those is unsafe.
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=context)

    def bot(self, game: Any, level: Level) -> PooledSearchBot:
        return PooledSearchBot(self, game.id, level)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class PooledSearchBot:
    """The search bot, thinking in a :class:`ThinkPool` process."""

    def __init__(self, pool: ThinkPool, game_id: str, level: Level) -> None:
        self.pool, self.game_id, self.level = pool, game_id, level

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        future = self.pool._pool.submit(_think, self.game_id, self.level, view, legal, rng)
        return legal[future.result()]
