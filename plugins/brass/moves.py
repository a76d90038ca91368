"""Moves every Brass game shares; a game's ``Move`` union lists them next to its own.

``Discard`` and ``Done`` serve both forms of a move: the named one clients send and the
engine's. ``Build``, ``Network``, ``Develop``, ``Sell``, ``SellAlso``, ``Loan``, ``Pass``,
``PickCoal``, ``PickIron``, ``Liquidate``, ``SecondLink``, ``DevelopAlso`` and ``EndEra``
are engine forms only (indices), those of the family actions and steps
(:mod:`plugins.brass.actions`): each game's named forms keep its own wording for clients.
``ScoreEra`` is the named form of the era's end, a chance move: its ``deal`` is the
reshuffle's outcome, drawn by the server unless a record supplies it; the game's names
turn it into ``EndEra``.
"""

from __future__ import annotations

import msgspec


class Discard(msgspec.Struct, tag="discard", frozen=True):
    """Discard ``card`` (a card kind) to pay for the action just chosen."""

    card: int


class Done(msgspec.Struct, tag="done", frozen=True):
    """Decline the optional continuation now offered."""


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The outcome of an era's reshuffle, by card names: each seat's new ``hands`` (by
    seat) and the ``deck`` left over, whose *last* card is drawn first. Together they are
    a permutation of exactly the cards reshuffled (the deck, every discard pile, every
    face-down card and what is left in hand)."""

    deck: list[str]
    hands: list[list[str]]


class ScoreEra(msgspec.Struct, tag="score_era", frozen=True, forbid_unknown_fields=True):
    """System: score the era that just ended and start the next (or end the game).

    A chance move: ``deal`` is the reshuffle of the next era. The server leaves it out and
    draws the deal itself; an imported record may give it (and must leave it out at the
    last era's end, where nothing is dealt)."""

    deal: Deal | None = None


class EndEra(msgspec.Struct, tag="end_era", frozen=True):
    """Engine form of :class:`ScoreEra`: the deal (if given) by card kinds."""

    deck: list[int] | None = None
    hands: list[list[int]] | None = None


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


class Build(msgspec.Struct, tag="build", frozen=True):
    """Build the lowest ``industry`` tile of your mat on ``slot`` (empty, or an overbuild),
    discarding ``card``."""

    card: int
    slot: int
    industry: int


class Network(msgspec.Struct, tag="network", frozen=True):
    """Place one link on ``link`` (canal era: a canal; rail era: a first rail)."""

    link: int


class Develop(msgspec.Struct, tag="develop", frozen=True):
    """Remove the lowest ``industry`` tile from your mat (a second may follow)."""

    industry: int


class PickCoal(msgspec.Struct, tag="pick_coal", frozen=True):
    """Take the next coal from the mine on ``slot`` (one of the tied nearest mines)."""

    slot: int


class PickIron(msgspec.Struct, tag="pick_iron", frozen=True):
    """Take the next iron from the works on ``slot``."""

    slot: int


class Liquidate(msgspec.Struct, tag="liquidate", frozen=True):
    """Round end, income unpaid: remove your industry on ``slot`` for half its cost."""

    slot: int


class SecondLink(msgspec.Struct, tag="second_link", frozen=True):
    """Rail era: add a second rail on ``link`` to this Network action (double rail)."""

    link: int


class DevelopAlso(msgspec.Struct, tag="develop_also", frozen=True):
    """Develop a second tile in this Develop action."""

    industry: int
