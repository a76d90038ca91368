"""Bots choose moves from exactly what a player has: the seat's view and its legal moves."""

from __future__ import annotations

from random import Random
from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any: ...


class RandomBot:
    """Uniform over the legal moves, reproducible through the ``rng`` it is handed."""

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        return legal[rng.randrange(len(legal))]


BOTS: dict[str, Bot] = {"random": RandomBot()}


def get_bot(name: str) -> Bot:
    return BOTS[name]
