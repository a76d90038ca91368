"""Brass: Lancashire moves, named as clients send them, and the engine forms of its own.

Names (``CLIENTS.md``): cards as the hand shows them (``location:bolton``,
``industry:cotton``); industries ``cotton coal iron port shipyard``; build spaces
``<location>:<n>`` (``manchester:2``); links ``<a>~<b>`` (sorted ends); a sale goes ``to``
a port's build space or ``distant_market``. The engine works on indices: the family's
moves (:mod:`plugins.brass.moves`) plus :class:`DoubleBuildAt`, :class:`LoanOf` and
:class:`DrawDemand` (the chance move, the same in both forms).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from plugins.brass.moves import Done, ScoreEra

Industry = Literal["cotton", "coal", "iron", "port", "shipyard"]
Card = Annotated[str, msgspec.Meta(description="a card as the hand shows it",
                                   examples=["location:bolton", "industry:cotton"])]  # fmt: skip
Space = Annotated[str, msgspec.Meta(description="a build space: location id, ':', index from 0",
                                    examples=["manchester:0"])]  # fmt: skip
Link = Annotated[str, msgspec.Meta(description="a link line: its ends sorted, joined by '~'",
                                   examples=["bolton~manchester"])]  # fmt: skip
Target = Annotated[str, msgspec.Meta(
    description="where cotton is sold: a port's build space, or 'distant_market'",
    examples=["liverpool:1", "distant_market"])]  # fmt: skip


class Build(msgspec.Struct, tag="build", frozen=True):
    """Build your lowest ``industry`` tile on ``space`` (empty, or an overbuild),
    discarding ``card``."""

    card: Card
    space: Space
    industry: Industry


class DoubleBuild(msgspec.Struct, tag="double_build", frozen=True):
    """Both actions of the turn: discard any two cards (chosen next) and build as with a
    location card of ``space``'s location."""

    space: Space
    industry: Industry


class Network(msgspec.Struct, tag="network", frozen=True):
    """Place one link on ``link`` (Canal Era: a canal; Rail Era: a first rail)."""

    link: Link


class Develop(msgspec.Struct, tag="develop", frozen=True):
    """Remove your lowest ``industry`` tile from your mat (a second may follow)."""

    industry: Industry


class Sell(msgspec.Struct, tag="sell", frozen=True):
    """Sell your cotton mill on ``space`` through a connected port or to the distant
    market (``to``)."""

    space: Space
    to: Target


class Loan(msgspec.Struct, tag="loan", frozen=True):
    """Take £10, £20 or £30 (``amount``) and drop one, two or three income levels."""

    amount: Literal[10, 20, 30]


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


class Liquidate(msgspec.Struct, tag="liquidate", frozen=True):
    """Round end, income unpaid: remove your industry on ``space`` for half its cost."""

    space: Space


class SecondLink(msgspec.Struct, tag="second_link", frozen=True):
    """Rail Era: a second rail on ``link`` in this Network action (£10 more, its coal)."""

    link: Link


class SellAlso(msgspec.Struct, tag="sell_also", frozen=True):
    """Sell one more cotton mill in this Sell action."""

    space: Space
    to: Target


class DevelopAlso(msgspec.Struct, tag="develop_also", frozen=True):
    """Develop a second tile in this Develop action."""

    industry: Industry


class DrawDemand(msgspec.Struct, tag="draw_demand", frozen=True, forbid_unknown_fields=True):
    """System: draw the distant market's demand tile for the sale in progress. A chance
    move: ``tile`` (the spaces it moves the marker down, 0 to 4) is drawn by the server
    unless an imported record gives it."""

    tile: int | None = None


class DoubleBuildAt(msgspec.Struct, tag="double_build", frozen=True):
    """Engine form of :class:`DoubleBuild`."""

    slot: int
    industry: int


class LoanOf(msgspec.Struct, tag="loan", frozen=True):
    """Engine form of :class:`Loan`."""

    amount: int


Move = (
    Build | DoubleBuild | Network | Develop | Sell | Loan | Pass | Discard | PickCoal | PickIron
    | Liquidate | SecondLink | SellAlso | DevelopAlso | Done | ScoreEra | DrawDemand
)  # fmt: skip

__all__ = ["Done", "Move", "ScoreEra"]
