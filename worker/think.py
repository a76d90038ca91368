"""Search bots thinking in other processes, so a long think holds neither the API's
interpreter lock nor another match's turn.

What crosses the process boundary is exactly what a remote bot would get: the game's id,
the level, the seat's view, its legal moves and an rng. The answer is the index of the
chosen move in that list.
"""

from __future__ import annotations

import functools
import logging
import math
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from random import Random
from typing import Any

from worker.search import Level, SearchBot

log = logging.getLogger(__name__)


@functools.cache
def _game(game_id: str) -> Any:
    from core.registry import default_registry

    return default_registry().get(game_id)


def _think(game_id: str, level: Level, view: dict[str, Any], legal: list[Any], rng: Random) -> int:
    move = SearchBot(_game(game_id), level).choose(view, legal, rng)
    return legal.index(move)


def _exit_with_parent(parent: int) -> None:
    """In each think process: end when the API process is gone, however it ended (a
    SIGKILL leaves no chance to shut the pool down)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="ironworks-think-parent", daemon=True).start()


class ThinkPool:
    """At most ``processes`` search bots think at once, each in its own process."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or max(1, min(2, os.cpu_count() or 1))
        self._lock = threading.Lock()
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: the API process runs threads, and forking those is unsafe.
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            max_workers=self.processes, mp_context=context,
            initializer=_exit_with_parent, initargs=(os.getpid(),),
        )  # fmt: skip

    def think(self, game: Any, level: Level, view: dict[str, Any], legal: list[Any],
              rng: Random, timeout: float | None) -> int:  # fmt: skip
        """The index in ``legal`` of the search bot's choice, thought out in a process; a
        pool whose process died is replaced for the next think."""
        pool = self._pool
        try:
            return pool.submit(_think, game.id, level, view, legal, rng).result(timeout)
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = self._start()
            raise

    def bot(self, game: Any, level: Level) -> PooledSearchBot:
        return PooledSearchBot(self, game, level)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class PooledSearchBot:
    """The search bot, thinking in a :class:`ThinkPool` process. Should the process die or
    overrun its budget by far, the seat still moves: the game's greedy choice, in this
    process."""

    grace_seconds = 10.0

    def __init__(self, pool: ThinkPool, game: Any, level: Level) -> None:
        self.pool, self.game, self.level = pool, game, level

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        fallback = Random()
        fallback.setstate(rng.getstate())
        try:
            timeout = 2 * self.level.seconds + self.grace_seconds
            timeout = None if math.isinf(timeout) else timeout
            return legal[self.pool.think(self.game, self.level, view, legal, rng, timeout)]
        except Exception:
            log.exception("search bot failed to think in its pool; playing greedy instead")
            from worker.bots import GreedyBot

            return GreedyBot().for_game(self.game).choose(view, legal, fallback)
