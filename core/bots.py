"""What a seat handed to a bot is played by: the bot kind, its level and think budget.

The bots themselves live in :mod:`worker.bots`; the service only checks and stores the
choice (in ``core.seat_bot`` events), so these names are the contract between the two.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from core.errors import BadRequest

BotKind = Literal["random", "greedy", "search"]
BOT_KINDS: tuple[str, ...] = ("random", "greedy", "search")
BotLevel = Literal["easy", "medium", "hard"]
BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_LEVEL = "medium"
THINK_MS_RANGE = (50, 10_000)
"""Bounds of a seat's own think budget per decision, in milliseconds."""

# Decoded as any string or whole number and checked by :func:`checked_choice`, so a wrong
# kind, level or budget is refused with its own problem code and the same sentence wherever
# a bot is chosen (a seat's bot, a match's stand-in, ``ironworks tournament`` and ``play``);
# the schema still says the choices.
BotName = Annotated[
    str, msgspec.Meta(min_length=1, max_length=32, extra_json_schema={"enum": list(BOT_KINDS)})
]
LevelName = Annotated[
    str, msgspec.Meta(min_length=1, max_length=32, extra_json_schema={"enum": list(BOT_LEVELS)})
]
ThinkMs = Annotated[
    int,
    msgspec.Meta(
        description="The search bot's think budget per decision, in milliseconds, instead "
        "of its level's.",
        extra_json_schema={"minimum": THINK_MS_RANGE[0], "maximum": THINK_MS_RANGE[1]},
    ),
]


def think_ms_refusal(think_ms: object) -> str:
    """The one sentence refusing ``think_ms`` as a think budget (the value as given)."""
    low, high = THINK_MS_RANGE
    return (
        f"a think budget is a whole number of milliseconds from {low} to {high}, not {think_ms!r}"
    )


def checked_choice(
    bot: str, level: str | None, think_ms: int | None, game: Any = None
) -> tuple[str, str | None, int | None]:
    """``(bot, level, think_ms)`` with the search bot's default level filled in, after
    refusing (:class:`BadRequest`) an unknown kind or level, a level or budget for a bot
    without them, a budget out of :data:`THINK_MS_RANGE`, and a kind ``game`` does not
    offer: never ignoring any of them."""
    if bot not in BOT_KINDS:
        raise BadRequest("unknown_bot", f"unknown bot {bot!r}; available: {', '.join(BOT_KINDS)}")
    if bot != "search" and (level is not None or think_ms is not None):
        raise BadRequest(
            "bot_has_no_levels", f"the {bot} bot has no levels or think budget; "
            "only the search bot takes a level and a think budget",
        )  # fmt: skip
    if level is not None and level not in BOT_LEVELS:
        raise BadRequest(
            "unknown_level", f"unknown level {level!r}; available: {', '.join(BOT_LEVELS)}"
        )
    if think_ms is not None and not THINK_MS_RANGE[0] <= think_ms <= THINK_MS_RANGE[1]:
        raise BadRequest("think_ms_out_of_range", think_ms_refusal(think_ms))
    if game is not None and bot not in offered(game):
        raise BadRequest(
            "unknown_bot", f"{game.title} offers no {bot} bot; available: "
            f"{', '.join(offered(game))}",
        )  # fmt: skip
    if bot == "search" and level is None:
        level = DEFAULT_LEVEL
    return bot, level, think_ms


def bot_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """What a bot playing ``seat`` reads: the game's ``view_for_bots`` (the seat's view less
    what only people read, :mod:`core.game`), else the seat's view."""
    return getattr(game, "view_for_bots", game.view)(state, seat)  # type: ignore[no-any-return]


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
