"""Moves every Brass game shares; a game's ``Move`` union lists them next to its own."""

from __future__ import annotations

import msgspec


class Discard(msgspec.Struct, tag="discard", frozen=True):
    """Discard ``card`` (a card kind) to pay for the action just chosen."""

    card: int


class Done(msgspec.Struct, tag="done", frozen=True):
    """Decline the optional continuation now offered."""


class ScoreEra(msgspec.Struct, tag="score_era", frozen=True):
    """System: score the era that just ended and start the next (or end the game)."""
