"""Moves as the engine works with them: indices into the data tables, not names.

Clients never see these: they send and receive the named moves of
:mod:`plugins.brass_birmingham.moves`, and :mod:`plugins.brass_birmingham.names` converts
at the boundary. Cards are card-kind indices (``data.cards``); slots, links, merchant
spaces and industries are indices as described in :mod:`plugins.brass_birmingham.data`.
"""

from __future__ import annotations

import msgspec

from plugins.brass.moves import Discard, Done, Loan, Pass, ScoreEra, Sell, SellAlso


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


class Scout(msgspec.Struct, tag="scout", frozen=True):
    """Discard three cards (chosen next) for one wild location and one wild industry card."""


class PickCoal(msgspec.Struct, tag="pick_coal", frozen=True):
    """Take the next coal from the mine on ``slot`` (one of the tied nearest mines)."""

    slot: int


class PickIron(msgspec.Struct, tag="pick_iron", frozen=True):
    """Take the next iron from the works on ``slot``."""

    slot: int


class PickBeer(msgspec.Struct, tag="pick_beer", frozen=True):
    """Take the next beer from the brewery on ``slot``."""

    slot: int


class PickMerchantBeer(msgspec.Struct, tag="pick_merchant_beer", frozen=True):
    """Take the next beer from beside the merchant you are selling to."""


class Liquidate(msgspec.Struct, tag="liquidate", frozen=True):
    """Round end, income unpaid: remove your industry on ``slot`` for half its cost."""

    slot: int


class SecondLink(msgspec.Struct, tag="second_link", frozen=True):
    """Rail era: add a second rail on ``link`` to this Network action (double rail)."""

    link: int


class DevelopAlso(msgspec.Struct, tag="develop_also", frozen=True):
    """Develop a second tile in this Develop action."""

    industry: int


class FreeDevelop(msgspec.Struct, tag="free_develop", frozen=True):
    """Take a merchant's free development (Gloucester) on ``industry``."""

    industry: int


Move = (
    Build | Network | Develop | Sell | Loan | Scout | Pass | Discard | PickCoal | PickIron
    | PickBeer | PickMerchantBeer | Liquidate | SecondLink | SellAlso | DevelopAlso | FreeDevelop
    | Done | ScoreEra
)  # fmt: skip

__all__ = ["Discard", "Done", "Loan", "Move", "Pass", "ScoreEra", "Sell", "SellAlso"]
