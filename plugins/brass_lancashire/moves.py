"""Brass: Lancashire moves, named as clients send them, and the engine forms of its own.

Names (``CLIENTS.md``): cards as the hand shows them (``location:bolton``,
``industry:cotton``); industries ``cotton coal iron port shipyard``; build spaces
``<location>:<n>``; links ``<a>~<b>`` (sorted ends); a sale goes ``to`` a port's build
space or ``distant_market``. The engine works on indices: the family's moves
(:mod:`plugins.brass.moves`) plus :class:`DoubleBuildAt`, :class:`LoanOf` and
:class:`DrawDemand` (the chance move, the same in both forms).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from plugins.brass.moves import Done, ScoreEra

Industry = Literal["cotton", "coal", "iron", "port", "shipyard"]
Card = Annotated[str, Meta(description="a card as the hand shows it",
                           examples=["location:bolton", "industry:cotton"])]  # fmt: skip
Space = Annotated[str, Meta(description="a build space: location id, ':', index from 0",
                            examples=["manchester:0"])]  # fmt: skip
Link = Annotated[str, Meta(description="a link line: its ends sorted, joined by '~'",
                           examples=["bolton~manchester"])]  # fmt: skip
Target = Annotated[str, Meta(description="a port's build space, or 'distant_market'",
                             examples=["liverpool:1", "distant_market"])]  # fmt: skip


class Build(Struct, tag="build", frozen=True):
    """Build your lowest ``industry`` tile on ``space``, discarding ``card``."""

    card: Card
    space: Space
    industry: Industry


class DoubleBuild(Struct, tag="double_build", frozen=True):
    """Both actions: any two cards (chosen next) as a location card of ``space``'s town."""

    space: Space
    industry: Industry


class Network(Struct, tag="network", frozen=True):
    """Place one link on ``link`` (Canal Era: a canal; Rail Era: a first rail)."""

    link: Link


class Develop(Struct, tag="develop", frozen=True):
    """Remove your lowest ``industry`` tile from your mat (a second may follow)."""

    industry: Industry


class Sell(Struct, tag="sell", frozen=True):
    """Sell your cotton mill on ``space`` through a port or to the distant market."""

    space: Space
    to: Target


class Loan(Struct, tag="loan", frozen=True):
    """Take £10, £20 or £30 (``amount``) for one, two or three income levels."""

    amount: Literal[10, 20, 30]


class Pass(Struct, tag="pass", frozen=True):
    """Discard a card and do nothing else."""


class Discard(Struct, tag="discard", frozen=True):
    """Discard ``card`` to pay for the action just chosen."""

    card: Card


class PickCoal(Struct, tag="pick_coal", frozen=True):
    """Take the next coal from the mine on ``space`` (one of the tied nearest)."""

    space: Space


class PickIron(Struct, tag="pick_iron", frozen=True):
    """Take the next iron from the works on ``space``."""

    space: Space


class Liquidate(Struct, tag="liquidate", frozen=True):
    """Round end, income unpaid: remove your industry on ``space`` for half its cost."""

    space: Space


class SecondLink(Struct, tag="second_link", frozen=True):
    """Rail Era: a second rail on ``link`` in this action (£10 more and its coal)."""

    link: Link


class SellAlso(Struct, tag="sell_also", frozen=True):
    """Sell one more cotton mill in this Sell action."""

    space: Space
    to: Target


class DevelopAlso(Struct, tag="develop_also", frozen=True):
    """Develop a second tile in this Develop action."""

    industry: Industry


class DrawDemand(Struct, tag="draw_demand", frozen=True, forbid_unknown_fields=True):
    """System, a chance move: the demand tile for the sale in progress (``tile``: spaces
    down, 0 to 4), drawn by the server unless an imported record gives it."""

    tile: int | None = None


class DoubleBuildAt(Struct, tag="double_build", frozen=True):
    slot: int
    industry: int


class LoanOf(Struct, tag="loan", frozen=True):
    amount: int


Move = (
    Build | DoubleBuild | Network | Develop | Sell | Loan | Pass | Discard | PickCoal | PickIron
    | Liquidate | SecondLink | SellAlso | DevelopAlso | Done | ScoreEra | DrawDemand
)  # fmt: skip
__all__ = ["Done", "Move", "ScoreEra"]
