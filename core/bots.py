"""What a seat handed to a bot is played by: the bot kind, its level and think budget.

The bots themselves live in :mod:`worker.bots`; the service only checks and stores the
choice (in ``core.seat_bot`` events), so these names are the contract between the two.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

BotKind = Literal["random", "greedy", "search"]
BOT_KINDS: tuple[str, ...] = ("random", "greedy", "search")
BotLevel = Literal["easy", "medium", "hard"]
BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_LEVEL = "medium"
THINK_MS_RANGE = (50, 10_000)
"""Bounds of a seat's own think budget per decision, in milliseconds."""


def searchable(game: Any) -> bool:
    """Whether ``game`` offers the hooks the search bot cannot do without."""
    return callable(getattr(game, "determinize", None)) and callable(
        getattr(game, "evaluate", None)
    )


def offered(game: Any) -> list[BotKind]:
    """The bot kinds ``game`` can be played by (search only with its hooks)."""
    kinds: list[BotKind] = ["random", "greedy"]
    if searchable(game):
        kinds.append("search")
    return kinds


class BotInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One bot kind as ``GET /games/{id}`` lists it."""

    bot: BotKind
    levels: list[BotLevel]
    """Levels it can be asked for (empty: it has none)."""
    description: str
