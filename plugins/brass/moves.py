"""Moves every Brass game shares; a game's ``Move`` union lists them next to its own.

``Discard``, ``Done`` and ``ScoreEra`` serve both forms of a move: the named one clients
send and the engine's. ``Sell``, ``SellAlso``, ``Loan`` and ``Pass`` are engine forms only
(indices): each game's named forms keep its own wording for clients.
"""

from __future__ import annotations

import msgspec


class Discard(msgspec.Struct, tag="discard", frozen=True):
    """Discard ``card`` (a card kind) to pay for the action just chosen."""

    card: int


class Done(msgspec.Struct, tag="done", frozen=True):
    """Decline the optional continuation now offered."""


class ScoreEra(msgspec.Struct, tag="score_era", frozen=True):
    """System: score the era that just ended and start the next (or end the game)."""


class Sell(msgspec.Struct, tag="sell", frozen=True):
    """Engine form: sell the industry on ``slot`` to the merchant on merchant space
    ``merchant``."""

    slot: int
    merchant: int


class SellAlso(msgspec.Struct, tag="sell_also", frozen=True):
    """Engine form: one more sale in this Sell action."""

    slot: int
    merchant: int


class Loan(msgspec.Struct, tag="loan", frozen=True):
    """Engine form: take a loan (the game's amount; income drops by levels)."""


class Pass(msgspec.Struct, tag="pass", frozen=True):
    """Engine form: pass (discard a card; Pittsburgh adds a whiskey)."""
