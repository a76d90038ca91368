"""Brass: Birmingham moves as clients send them: every field is a name the view shows.

Names (documented with examples in ``CLIENTS.md``):

* cards as the hand shows them: ``location:<town>``, ``industry:<industry>`` (the dual card
  is ``industry:cotton/manufacturer``), ``wild:location``, ``wild:industry``;
* industries: ``cotton``, ``manufacturer``, ``pottery``, ``coal``, ``iron``, ``brewery``;
* build spaces: ``<location>:<n>``, the ``n``-th space of the location from 0 in board order
  (``birmingham:2``); merchant spaces the same way at merchant locations (``oxford:1``);
* links: the line's two ends, sorted and joined by ``~`` (``birmingham~dudley``).

The engine works on indices (:mod:`plugins.brass_birmingham.internal_moves`);
:mod:`plugins.brass_birmingham.names` converts both ways and refuses unknown names.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from plugins.brass.moves import Done, ScoreEra

Industry = Literal["cotton", "manufacturer", "pottery", "coal", "iron", "brewery"]
Card = Annotated[
    str,
    msgspec.Meta(
        description="a card as the hand shows it",
        examples=["location:cannock", "industry:coal", "wild:location"],
    ),
]
Space = Annotated[
    str,
    msgspec.Meta(
        description="a build space: location id, ':', index from 0", examples=["cannock:0"]
    ),
]
Link = Annotated[
    str,
    msgspec.Meta(description="a link line: its ends sorted, joined by '~'",
                 examples=["birmingham~dudley"]),
]  # fmt: skip
Merchant = Annotated[
    str,
    msgspec.Meta(description="a merchant space: location id, ':', index from 0",
                 examples=["oxford:0"]),
]  # fmt: skip


class Build(msgspec.Struct, tag="build", frozen=True):
    """Build your lowest ``industry`` tile on ``space`` (empty, or an overbuild),
    discarding ``card``."""

    card: Card
    space: Space
    industry: Industry


class Network(msgspec.Struct, tag="network", frozen=True):
    """Place one link on ``link`` (canal era: a canal; rail era: a first rail)."""

    link: Link


class Develop(msgspec.Struct, tag="develop", frozen=True):
    """Remove your lowest ``industry`` tile from your mat (a second may follow)."""

    industry: Industry


class Sell(msgspec.Struct, tag="sell", frozen=True):
    """Sell your industry on ``space`` to the merchant on ``merchant``."""

    space: Space
    merchant: Merchant


class Loan(msgspec.Struct, tag="loan", frozen=True):
    """Take £30 and drop three income levels."""


class Scout(msgspec.Struct, tag="scout", frozen=True):
    """Discard three cards (chosen next) for one wild location and one wild industry card."""


class Pass(msgspec.Struct, tag="pass", frozen=True):
    """Discard a card and do nothing else."""


class Discard(msgspec.Struct, tag="discard", frozen=True):
    """Discard ``card`` to pay for the action just chosen."""

    card: Card


class PickCoal(msgspec.Struct, tag="pick_coal", frozen=True):
    """Take the next coal from the mine on ``space`` (one of the tied nearest mines)."""

    space: Space


class PickIron(msgspec.Struct, tag="pick_iron", frozen=True):
    """Take the next iron from the works on ``space``."""

    space: Space


class PickBeer(msgspec.Struct, tag="pick_beer", frozen=True):
    """Take the next beer barrel from ``source``: a brewery's build space, or the merchant
    space being sold to (its barrel; the merchant's bonus follows)."""

    source: Annotated[str, msgspec.Meta(examples=["stafford:0", "oxford:0"])]


class Liquidate(msgspec.Struct, tag="liquidate", frozen=True):
    """Round end, income unpaid: remove your industry on ``space`` for half its cost."""

    space: Space


class SecondLink(msgspec.Struct, tag="second_link", frozen=True):
    """Rail era: add a second rail on ``link`` to this Network action (double rail)."""

    link: Link


class SellAlso(msgspec.Struct, tag="sell_also", frozen=True):
    """Sell one more industry in this Sell action."""

    space: Space
    merchant: Merchant


class DevelopAlso(msgspec.Struct, tag="develop_also", frozen=True):
    """Develop a second tile in this Develop action."""

    industry: Industry


class FreeDevelop(msgspec.Struct, tag="free_develop", frozen=True):
    """Take a merchant's free development (Gloucester) on ``industry``."""

    industry: Industry


Move = (
    Build | Network | Develop | Sell | Loan | Scout | Pass | Discard | PickCoal | PickIron
    | PickBeer | Liquidate | SecondLink | SellAlso | DevelopAlso | FreeDevelop | Done | ScoreEra
)  # fmt: skip

__all__ = ["Done", "Move", "ScoreEra"]
